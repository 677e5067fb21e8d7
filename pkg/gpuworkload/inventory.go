package gpuworkload

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// GPUInventory is a node's GPUs apart from the mode they are prepared for:
// enough to tell what the node advertises in each mode, which is what a
// relabel changes.
type GPUInventory struct {
	GPUs int64
	// Card is the short card name of the vGPU table, e.g. A10; empty when unknown.
	Card string
	// PassthroughName is the PCI device name vm-passthrough advertises, e.g. GA102GL_A10.
	PassthroughName string
	// VGPU is the profile vm-vgpu creates; zero when unknown.
	VGPU VGPUProfile
}

// passthroughNames maps cards to the PCI device name the sandbox device
// plugin advertises for them (shared/domain.md, kubevirt-gpu-device-plugin
// getDeviceName). Cards sold in several PCI variants (A100, H100 SXM) are
// absent: give their device name instead of the card.
var passthroughNames = map[string]string{
	"A10":  "GA102GL_A10",
	"A40":  "GA102GL_A40",
	"L4":   "AD104GL_L4",
	"L40S": "AD102GL_L40S",
	"T4":   "TU104GL_TESLA_T4",
	"A16":  "GA107GL_A2___A16",
}

// NewGPUInventory builds an inventory from a GPU count, a model and an
// optional vGPU profile. The model is a card (A10) or a passthrough device
// name (GA102GL_A10); the profile is a vgpu.config value (A10-12Q) or an
// advertised type name (NVIDIA_A10-12Q), and defaults to the card's default.
func NewGPUInventory(gpus int64, model, vgpuProfile string) (GPUInventory, error) {
	inv := GPUInventory{GPUs: gpus}
	if gpus < 0 {
		return inv, fmt.Errorf("GPU count %d is negative", gpus)
	}
	inv.Card, inv.PassthroughName = cardAndPassthroughName(model)
	switch {
	case vgpuProfile != "":
		p, err := ParseVGPUTypeName(vgpuProfile)
		if err != nil {
			if p, err = ParseVGPUConfig(vgpuProfile); err != nil {
				return inv, fmt.Errorf("vGPU profile %q: want a vgpu.config value such as A10-12Q or a type name such as NVIDIA_A10-12Q", vgpuProfile)
			}
		}
		if inv.Card != "" && p.Family() != inv.Card {
			return inv, fmt.Errorf("vGPU profile %q is for card %s, not %s", vgpuProfile, p.Family(), inv.Card)
		}
		if _, ok := p.MaxPerGPU(); !ok {
			return inv, fmt.Errorf("vGPU profile %q: the profile table does not know how many fit one GPU; use one of its profiles (docs/domain.md)", vgpuProfile)
		}
		inv.VGPU = p
		if inv.Card == "" {
			inv.Card = p.Family()
		}
	case inv.Card != "":
		inv.VGPU, _ = DefaultVGPUProfile(inv.Card)
	}
	if inv.VGPU.Card != "" && inv.VGPU.Prefix == "" {
		inv.VGPU.Prefix = "NVIDIA"
	}
	return inv, nil
}

// cardAndPassthroughName reads a model given as a card or as a device name.
func cardAndPassthroughName(model string) (card, passthroughName string) {
	bare := strings.TrimPrefix(model, ResourceDomain)
	if name, ok := passthroughNames[bare]; ok {
		return bare, name
	}
	for c, name := range passthroughNames {
		if name == bare {
			return c, name
		}
	}
	if _, ok := vgpuCards.Cards[bare]; ok {
		return bare, ""
	}
	// Device names join the chip and the board with '_' (GA102GL_A10);
	// anything else is a card the tables do not know.
	if strings.Contains(bare, "_") && isPCIDeviceName(bare) {
		return "", bare
	}
	return bare, ""
}

// Advertisement is the resource and count the node advertises in a mode.
func (inv GPUInventory) Advertisement(mode Mode) (v1.ResourceName, int64, error) {
	switch mode {
	case ModeContainer:
		return ResourceGPU, inv.GPUs, nil
	case ModePassthrough:
		if inv.PassthroughName == "" {
			return "", 0, fmt.Errorf("the passthrough device name of model %q is unknown: give the PCI device name, e.g. GA102GL_A10", inv.Card)
		}
		return v1.ResourceName(ResourceDomain + inv.PassthroughName), inv.GPUs, nil
	case ModeVGPU:
		perGPU, ok := inv.VGPU.MaxPerGPU()
		if !ok {
			return "", 0, fmt.Errorf("the vGPU profile of model %q is unknown: give one, e.g. A10-12Q", inv.Card)
		}
		return v1.ResourceName(ResourceDomain + inv.VGPU.TypeName()), inv.GPUs * int64(perGPU), nil
	}
	return "", 0, fmt.Errorf("invalid GPU workload mode %q: valid values are %s", mode, validModes())
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
	case inv.PassthroughName != "" && r == v1.ResourceName(ResourceDomain+inv.PassthroughName):
		return ModePassthrough, inv, true
	}
	p, err := ParseVGPUTypeName(string(r))
	if err != nil || p.Family() != inv.Card {
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
	if inv.PassthroughName != "" {
		keys = append(keys, hardwareKeyDevice+inv.PassthroughName)
	}
	if inv.Card != "" {
		keys = append(keys, hardwareKeyCard+inv.Card)
	}
	return keys
}

// HardwareKeysFor are the keys of the GPUs that can serve r (see HardwareKeys).
func HardwareKeysFor(r v1.ResourceName) []string {
	if r == ResourceGPU {
		return []string{hardwareKeyAny}
	}
	keys := []string{hardwareKeyDevice + strings.TrimPrefix(string(r), ResourceDomain)}
	if p, err := ParseVGPUTypeName(string(r)); err == nil {
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

// ConversionTo is the change that makes these GPUs, now in mode current,
// advertise r. ok is false when no mode or profile of them advertises r, or
// when they already do.
func (inv GPUInventory) ConversionTo(current Mode, r v1.ResourceName) (c Conversion, ok bool) {
	mode, served, ok := inv.Serving(r)
	if !ok {
		return c, false
	}
	c = Conversion{Mode: mode, Served: served, ProfileChange: mode == ModeVGPU && !served.VGPU.SameProfile(inv.VGPU)}
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

// InventoryOf reads a node's GPUs from its labels and advertisement: the GPU
// count and product labels gpu-feature-discovery sets in container mode, and
// the device or vGPU type name a sandbox node advertises.
func InventoryOf(node *v1.Node, state *NodeState) GPUInventory {
	var inv GPUInventory
	inv.Card = cardOfProduct(node.Labels[LabelGPUProduct])
	for _, r := range state.Resources {
		bare := strings.TrimPrefix(string(r.Name), ResourceDomain)
		switch r.Class {
		case ClassContainerGPU:
			inv.GPUs = r.Capacity
		case ClassPassthroughGPU:
			inv.GPUs = r.Capacity
			inv.PassthroughName = bare
			if card, _ := cardAndPassthroughName(bare); card != "" && inv.Card == "" {
				inv.Card = card
			}
		case ClassVGPUProfile:
			if p, err := ParseVGPUTypeName(bare); err == nil {
				inv.VGPU = p
				if perGPU, ok := p.MaxPerGPU(); ok {
					inv.GPUs = r.Capacity / int64(perGPU)
				}
				if inv.Card == "" {
					inv.Card = p.Family()
				}
			}
		}
	}
	if n, present, err := gpuCountOf(node.Labels); present && err == nil {
		inv.GPUs = n
	}
	if inv.PassthroughName == "" {
		inv.PassthroughName = passthroughNames[inv.Card]
	}
	if inv.VGPU.Card == "" && inv.Card != "" {
		if p, err := ParseVGPUConfig(node.Labels[LabelVGPUConfig]); err == nil && p.Family() == inv.Card {
			inv.VGPU = p
		} else {
			inv.VGPU, _ = DefaultVGPUProfile(inv.Card)
		}
		if inv.VGPU.Card != "" {
			inv.VGPU.Prefix = "NVIDIA"
		}
	}
	return inv
}

// cardOfProduct reads the card from gpu-feature-discovery's product label:
// NVIDIA-A10 is A10, Tesla-T4 is T4, NVIDIA-A100-SXM4-80GB is A100.
func cardOfProduct(product string) string {
	for _, vendor := range []string{"NVIDIA-", "Tesla-"} {
		product = strings.TrimPrefix(product, vendor)
	}
	card, _, _ := strings.Cut(product, "-")
	return card
}
