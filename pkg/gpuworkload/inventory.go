package gpuworkload

import (
	"cmp"
	"fmt"
	"maps"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// GPUInventory is a node's GPUs apart from the mode they are prepared for:
// enough to tell what the node advertises in each mode, which is what a
// relabel changes.
type GPUInventory struct {
	GPUs int64
	// Card is the GPU model (IdentifyCard); what it leaves unknown, the
	// inventory cannot advertise.
	Card hardware.Card
	// VGPU is the profile vm-vgpu creates; zero when unknown.
	VGPU hardware.VGPUProfile
}

// NewGPUInventory builds an inventory from a GPU count, a model and an
// optional vGPU profile. The model is what CardOfModel reads (a vGPU family
// A10, a passthrough device name GA102GL_A10, a product NVIDIA-A10); the
// profile is a vgpu.config value (A10-12Q) or an advertised type name
// (NVIDIA_A10-12Q), and defaults to what the card's default creates.
func NewGPUInventory(gpus int64, model, vgpuProfile string) (GPUInventory, error) {
	inv := GPUInventory{GPUs: gpus}
	if gpus < 0 {
		return inv, fmt.Errorf("GPU count %d is negative", gpus)
	}
	card, err := hardware.CardOfModel(model)
	if err != nil {
		return inv, err
	}
	inv.Card = card
	switch {
	case vgpuProfile != "":
		p, err := hardware.ParseVGPUTypeName(vgpuProfile)
		if err != nil {
			if p, err = hardware.ParseVGPUConfig(vgpuProfile); err != nil {
				return inv, fmt.Errorf("vGPU profile %+q: want a vgpu.config value such as A10-12Q or a type name such as NVIDIA_A10-12Q", vgpuProfile)
			}
		}
		if card.VGPUFamily != "" && p.Family() != card.VGPUFamily {
			return inv, fmt.Errorf("vGPU profile %+q is for vGPU family %s, not %s (model %s)", vgpuProfile, p.Family(), card.VGPUFamily, model)
		}
		if _, ok := p.MaxPerGPU(); !ok {
			return inv, fmt.Errorf("vGPU profile %+q: the profile table does not know how many fit one GPU; use one of its profiles (docs/domain.md)", vgpuProfile)
		}
		inv.VGPU = p
		if card.VGPUFamily == "" {
			inv.Card = hardware.IdentifyCard(hardware.CardEvidence{VGPUType: p, PassthroughName: card.PassthroughName})
		}
	default:
		inv.VGPU = card.DefaultProfile()
	}
	if inv.VGPU.Card != "" && inv.VGPU.Prefix == "" {
		inv.VGPU.Prefix = hardware.VGPUTypePrefix(inv.VGPU.Family())
	}
	return inv, nil
}

// Advertisement is the resource and count the node advertises in a mode.
func (inv GPUInventory) Advertisement(mode Mode) (v1.ResourceName, int64, error) {
	switch mode {
	case ModeContainer:
		return ResourceGPU, inv.GPUs, nil
	case ModePassthrough:
		if inv.Card.PassthroughName == "" {
			return "", 0, fmt.Errorf("the passthrough device name of GPU %s is unknown: give the PCI device name, e.g. GA102GL_A10", inv.Card)
		}
		return v1.ResourceName(hardware.ResourceDomain + inv.Card.PassthroughName), inv.GPUs, nil
	case ModeVGPU:
		perGPU, ok := inv.VGPU.MaxPerGPU()
		if !ok {
			return "", 0, fmt.Errorf("the vGPU profile of GPU %s is unknown: give one, e.g. A10-12Q", inv.Card)
		}
		return v1.ResourceName(hardware.ResourceDomain + inv.VGPU.TypeName()), inv.GPUs * int64(perGPU), nil
	}
	return "", 0, fmt.Errorf("invalid GPU workload mode %+q: valid values are %s", mode, validModes())
}

// Serving is the mode in which the node's GPUs would advertise r, and the
// inventory they would then have: a vGPU type of another profile of the same
// card is served by changing nvidia.com/vgpu.config, which the returned
// inventory carries. ok is false when no mode or profile of these GPUs
// advertises r.
func (inv GPUInventory) Serving(r v1.ResourceName) (mode Mode, served GPUInventory, ok bool) {
	if inv.GPUs <= 0 {
		return "", inv, false
	}
	switch {
	case r == ResourceGPU:
		return ModeContainer, inv, true
	case inv.Card.PassthroughName != "" && r == v1.ResourceName(hardware.ResourceDomain+inv.Card.PassthroughName):
		return ModePassthrough, inv, true
	}
	p, err := hardware.ParseVGPUTypeName(string(r))
	if err != nil || p.Family() != inv.Card.VGPUFamily {
		return "", inv, false
	}
	if _, known := p.MaxPerGPU(); !known {
		return "", inv, false
	}
	served = inv
	served.VGPU = p
	return ModeVGPU, served, true
}

// HardwareKeys name the groups of GPUs an index can file the inventory
// under, so that the nodes able to serve a resource are found without
// asking every node: HardwareKeysFor(r) shares a key with every inventory
// that Serving(r) accepts.
func (inv GPUInventory) HardwareKeys() []string {
	if inv.GPUs <= 0 {
		return nil
	}
	keys := []string{hardwareKeyAny}
	if inv.Card.PassthroughName != "" {
		keys = append(keys, hardwareKeyDevice+inv.Card.PassthroughName)
	}
	if inv.Card.VGPUFamily != "" {
		keys = append(keys, hardwareKeyCard+inv.Card.VGPUFamily)
	}
	return keys
}

// HardwareKeysFor are the keys of the GPUs that can serve r (see HardwareKeys).
func HardwareKeysFor(r v1.ResourceName) []string {
	if r == ResourceGPU {
		return []string{hardwareKeyAny}
	}
	keys := []string{hardwareKeyDevice + strings.TrimPrefix(string(r), hardware.ResourceDomain)}
	if p, err := hardware.ParseVGPUTypeName(string(r)); err == nil {
		keys = append(keys, hardwareKeyCard+p.Family())
	}
	return keys
}

const hardwareKeyAny, hardwareKeyDevice, hardwareKeyCard = "any", "device:", "card:"

// Conversion is the label change that makes a node's GPUs advertise a
// resource they do not advertise now: a relabel, a vGPU profile change, or both.
type Conversion struct {
	Mode Mode
	// Served is the inventory the node has after the change.
	Served GPUInventory
	// ProfileChange is set when nvidia.com/vgpu.config must change too.
	ProfileChange bool
}

// LabelsInMode are a node's labels once it runs in mode with the GPUs of
// inv, as the GPU Operator and GPU feature discovery leave them: the
// workload label; in vm-vgpu mode the vGPU configuration of inv's profile;
// and GFD's product and count labels in container mode only, where GFD
// runs (the product the node had, else the card's), gone in the VM modes.
// Every other label is kept. The simulator's nodes, the advisor's
// prediction of a converted node and the lab's agent all label with it.
func LabelsInMode(labels map[string]string, mode Mode, inv GPUInventory) map[string]string {
	out := maps.Clone(labels)
	if out == nil {
		out = map[string]string{}
	}
	out[LabelWorkloadConfig] = string(mode)
	if mode == ModeVGPU && inv.VGPU.Card != "" {
		out[LabelVGPUConfig] = inv.VGPU.Name()
	}
	product := cmp.Or(out[LabelGPUProduct], inv.Card.Product())
	delete(out, LabelGPUProduct)
	delete(out, LabelGPUCount)
	if mode == ModeContainer {
		if product != "" {
			out[LabelGPUProduct] = product
		}
		out[LabelGPUCount] = strconv.FormatInt(inv.GPUs, 10)
	}
	return out
}

// ConversionTo is the change that makes these GPUs, now in mode current,
// advertise r. ok is false when no mode or profile of them advertises r, or
// when they already do.
func (inv GPUInventory) ConversionTo(current Mode, r v1.ResourceName) (c Conversion, ok bool) {
	mode, served, ok := inv.Serving(r)
	if !ok {
		return c, false
	}
	c = Conversion{Mode: mode, Served: served, ProfileChange: mode == ModeVGPU && !inv.VGPU.Creates(served.VGPU)}
	return c, mode != current || c.ProfileChange
}

// Command is the kubectl command that applies the conversion to node. A
// conversion to vm-vgpu always names the profile, so that the node does not
// come up with another one.
func (c Conversion) Command(node string) string {
	if c.Mode == ModeVGPU {
		return VGPUConfigCommand(node, c.Served.VGPU)
	}
	return RelabelCommand(node, c.Mode)
}

// Units is what the node advertises after the conversion.
func (c Conversion) Units() int64 {
	_, units, _ := c.Served.Advertisement(c.Mode)
	return units
}

// NodeGPUs is a GPU node's hardware and the mode it is in: what it could
// advertise after a conversion.
type NodeGPUs struct {
	Node      string
	Mode      Mode
	Inventory GPUInventory
}

// GPUsOf reads the GPU nodes' hardware; states are the nodes' states, in
// any order.
func GPUsOf(nodes []*v1.Node, states []*NodeState) []NodeGPUs {
	byName := make(map[string]*v1.Node, len(nodes))
	for _, n := range nodes {
		byName[n.Name] = n
	}
	var out []NodeGPUs
	for _, s := range states {
		if node := byName[s.Name]; node != nil && s.GPUNode {
			out = append(out, NodeGPUs{Node: s.Name, Mode: s.Mode.Mode, Inventory: s.Inventory()})
		}
	}
	return out
}

// ConvertibleTo finds the first node whose GPUs would advertise r after
// a conversion, and that conversion.
func ConvertibleTo(nodes []NodeGPUs, r v1.ResourceName) (NodeGPUs, Conversion, bool) {
	for _, n := range nodes {
		if c, ok := n.Inventory.ConversionTo(n.Mode, r); ok {
			return n, c, true
		}
	}
	return NodeGPUs{}, Conversion{}, false
}

// Inventory is the node's GPUs as its labels and advertisement show them:
// the card as IdentifyCard reads it, the GPU count gpu-feature-discovery
// labels in container mode or the count advertised, and the vGPU profile
// the node's vgpu.config (or the ClusterPolicy's default for it) creates.
// It reads what NewNodeState parsed, not the labels again.
func (s *NodeState) Inventory() GPUInventory {
	inv := GPUInventory{Card: s.Card}
	for _, r := range s.Resources {
		switch r.Class {
		case ClassContainerGPU, ClassPassthroughGPU:
			inv.GPUs = r.Capacity
		case ClassVGPUProfile:
			if p, err := hardware.ParseVGPUTypeName(string(r.Name)); err == nil {
				inv.VGPU = p
				if perGPU, ok := p.MaxPerGPU(); ok {
					inv.GPUs = r.Capacity / int64(perGPU)
				}
			}
		}
	}
	if s.GPUCount > 0 {
		inv.GPUs = s.GPUCount
	}
	if inv.VGPU.Card == "" && inv.Card.VGPUFamily != "" {
		if s.vgpuConfigErr == nil && s.vgpuConfig.Family() == inv.Card.VGPUFamily {
			inv.VGPU = s.vgpuConfig
		} else {
			inv.VGPU = inv.Card.DefaultProfile()
		}
		if inv.VGPU.Card != "" {
			inv.VGPU.Prefix = hardware.VGPUTypePrefix(inv.VGPU.Family())
		}
	}
	return inv
}
