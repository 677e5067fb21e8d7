package gpuworkload

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// AdvertisedResource is one GPU extended resource in a node's status.
type AdvertisedResource struct {
	Name        v1.ResourceName
	Class       ResourceClass
	Capacity    int64
	Allocatable int64
}

// NodeState is what a node is, as far as GPU workloads are concerned.
type NodeState struct {
	Name string
	// GPUNode: the node has NVIDIA GPUs (labels) or advertises GPU resources.
	GPUNode bool
	Mode    ModeDecision
	// Resources are the GPU resources with a non-zero capacity or allocatable, sorted by name.
	Resources []AdvertisedResource
	// StaleResources are GPU resources left at zero, typically after a mode switch.
	StaleResources []v1.ResourceName
	// NotGPUResources are the nvidia.com/ resources the node advertises that
	// are not GPUs (NICs, NVSwitches, names no rule places): no GPU unit
	// counts them.
	NotGPUResources []v1.ResourceName
	// UncountableResources are GPU quantities in the node's status that are
	// not a count of units (Units), with their fields; they are left out of
	// Resources.
	UncountableResources []string
	// VGPUConfig is the nvidia.com/vgpu.config the vGPU device manager
	// applies: the node's label, or the ClusterPolicy's default for a node
	// without one (SandboxPolicy.VGPUConfigOf).
	VGPUConfig       string
	VGPUConfigState  string
	OperandsDisabled bool
	// GPUCount is gpu-feature-discovery's nvidia.com/gpu.count, 0 without a
	// valid one; gpuCountErr says why one is not valid. vgpuConfig is
	// VGPUConfig parsed as a profile, vgpuConfigErr why it is not one. Each
	// label is read here once per node update.
	GPUCount      int64
	gpuCountErr   error
	vgpuConfig    hardware.VGPUProfile
	vgpuConfigErr error
	// PausedOperands are deploy labels whose value pauses their operand.
	PausedOperands []string
	Findings       []Finding
	// Card is the node's card as its labels and advertisement show it
	// (hardware.IdentifyCard), and Product its nvidia.com/gpu.product
	// (Card.Product: the label, else the name pci.ids gives the card),
	// which pods pin to; unknown on a node without GPUs. Product is kept
	// because Card.Product builds it, and every /metrics scrape reads it
	// for every node.
	Card    hardware.Card
	Product string
	// DRA is set for a node whose GPUs a DRA driver publishes (docs/dra.md).
	DRA bool
	// Mismatched is set by Settle on a node unsettled for longer than a
	// conversion takes: broken, not converting.
	Mismatched bool
}

// PublishedByDRA records that a DRA driver publishes the node's GPUs. Such a
// node is a GPU node; its GPUs are devices, not an advertisement, so that it
// advertises nothing and carries no device-plugin operand labels is no fault.
func (s *NodeState) PublishedByDRA() {
	s.DRA, s.GPUNode = true, true
	s.Findings = slices.DeleteFunc(slices.Clone(s.Findings), func(f Finding) bool {
		return f.Code == FindingNothingAdvertised || f.Code == FindingOperandLabelsAbsent
	})
}

// NewNodeState derives the node's GPU state and findings. It never mutates the node.
func NewNodeState(node *v1.Node, policy SandboxPolicy, classifier *Classifier) *NodeState {
	s := &NodeState{
		Name:             node.Name,
		Mode:             policy.EffectiveMode(node.Labels),
		VGPUConfig:       policy.VGPUConfigOf(node.Labels[LabelVGPUConfig]),
		VGPUConfigState:  node.Labels[LabelVGPUConfigState],
		OperandsDisabled: node.Labels[LabelDeployOperands] == "false",
	}
	s.GPUCount, s.gpuCountErr = gpuCountOf(node.Labels)
	s.vgpuConfig, s.vgpuConfigErr = hardware.ParseVGPUConfig(s.VGPUConfig)
	for name, capacity := range node.Status.Capacity {
		class := classifier.Classify(name)
		if !class.IsGPU() {
			if !capacity.IsZero() && strings.HasPrefix(string(name), hardware.ResourceDomain) {
				s.NotGPUResources = append(s.NotGPUResources, name)
			}
			continue
		}
		allocatable := node.Status.Allocatable[name]
		if capacity.IsZero() && allocatable.IsZero() {
			s.StaleResources = append(s.StaleResources, name)
			continue
		}
		capacityUnits, capacityErr := Units(capacity)
		allocatableUnits, allocatableErr := Units(allocatable)
		if capacityErr != nil || allocatableErr != nil {
			for field, err := range map[string]error{"capacity": capacityErr, "allocatable": allocatableErr} {
				if err != nil {
					s.UncountableResources = append(s.UncountableResources, fmt.Sprintf("status.%s[%s]: %v", field, name, err))
				}
			}
			continue
		}
		s.Resources = append(s.Resources, AdvertisedResource{Name: name, Class: class, Capacity: capacityUnits, Allocatable: allocatableUnits})
	}
	slices.Sort(s.UncountableResources)
	slices.SortFunc(s.Resources, func(a, b AdvertisedResource) int { return strings.Compare(string(a.Name), string(b.Name)) })
	slices.Sort(s.StaleResources)
	slices.Sort(s.NotGPUResources)
	for key, value := range node.Labels {
		if strings.HasPrefix(key, DeployLabelPrefix) && key != LabelDeployOperands && strings.HasPrefix(value, "paused") {
			s.PausedOperands = append(s.PausedOperands, key+"="+value)
		}
	}
	slices.Sort(s.PausedOperands)
	s.GPUNode = len(s.Resources) > 0 || len(s.UncountableResources) > 0 || hasGPULabels(node.Labels)
	if s.GPUNode {
		s.Card = hardware.IdentifyCard(cardEvidenceOf(node, s))
		s.Product = s.Card.Product()
		s.Findings = nodeFindings(node, s, policy)
	}
	return s
}

func hasGPULabels(labels map[string]string) bool {
	if labels[LabelGPUPresent] == "true" {
		return true
	}
	if _, ok := labels[LabelWorkloadConfig]; ok {
		return true
	}
	for _, key := range nfdGPULabels {
		if labels[key] == "true" {
			return true
		}
	}
	return false
}

// Advertised returns the node's non-zero advertisement of a resource.
func (s *NodeState) Advertised(name v1.ResourceName) (AdvertisedResource, bool) {
	for _, r := range s.Resources {
		if r.Name == name {
			return r, true
		}
	}
	return AdvertisedResource{}, false
}

// HasFinding reports whether a finding of the code was raised.
func (s *NodeState) HasFinding(code FindingCode) bool {
	for _, f := range s.Findings {
		if f.Code == code {
			return true
		}
	}
	return false
}

// Modeless reports whether the node runs no mode: a DRA node that
// advertises no device-plugin GPU resource, whose GPUs the driver serves one
// by one as container or VM devices.
func (s *NodeState) Modeless() bool { return s.DRA && len(s.Resources) == 0 }

// ServesMode is the mode rule: a GPU node serves the pods of its own mode
// only, and a modeless node those of any. The plugins, the explanation and
// the tools ask it rather than compare modes themselves.
func (s *NodeState) ServesMode(m Mode) bool { return s.GPUNode && (s.Mode.Mode == m || s.Modeless()) }

// Unsettled reports whether the node's advertisement disagrees with its
// mode, its vGPU configuration is not settled, or operands are paused: true
// while a conversion is under way, and on a node stuck that way.
func (s *NodeState) Unsettled() bool {
	return s.HasFinding(FindingForeignResource) || s.HasFinding(FindingNothingAdvertised) ||
		s.VGPUConfigState == VGPUConfigStatePending || s.VGPUConfigState == VGPUConfigStateFailed ||
		len(s.PausedOperands) > 0
}

// Converting reports whether the node is between modes or profiles:
// unsettled, for less time than a conversion takes as far as Settle knows.
func (s *NodeState) Converting() bool {
	return s.Unsettled() && !s.Mismatched
}

// Settle judges an unsettled node by how long it has been so: from since
// (zero: not known), at now, a node unsettled for timeout or longer is
// Mismatched, with that finding, and no longer converting. Every tool calls
// it with the same timeout (GPUWorkloadFitArgs conversionTimeout, the mode
// controller's --conversion-timeout), so that all name a node alike.
func (s *NodeState) Settle(since, now time.Time, timeout time.Duration) {
	if s.Mismatched || !s.Unsettled() || since.IsZero() || now.Sub(since) < timeout {
		return
	}
	s.Mismatched = true
	s.Findings = append(slices.Clone(s.Findings), NewFinding(FindingMismatchedNode,
		"waiting will not help: follow the fixes of the node's other findings; if conversions on this cluster take longer, raise conversionTimeout in GPUWorkloadFitArgs and the mode controller's --conversion-timeout together",
		"the node's other findings have held since %s or earlier, longer than a conversion takes (%s): it is mismatched, not converting, and its GPUs are not free",
		since.UTC().Format(time.RFC3339), timeout))
}

func nodeFindings(node *v1.Node, s *NodeState, policy SandboxPolicy) []Finding {
	var out []Finding
	mode := s.Mode.Mode
	relabel := func(m Mode) string { return RelabelCommand(s.Name, m) }

	if s.Mode.LabelIgnored() {
		out = append(out, NewFinding(FindingModeLabelIgnored, enableSandboxOrUnlabel(policy),
			"label %s=%s is ignored because sandboxWorkloads is disabled in %s; the GPU Operator prepares the node for containers",
			LabelWorkloadConfig, s.Mode.Label, policy.Source))
	}
	if s.Mode.Reason == ReasonLabelInvalid {
		out = append(out, NewFinding(FindingInvalidModeLabel, relabel(mode),
			"label %s=%+q is not one of %s; the GPU Operator applies the default %s",
			LabelWorkloadConfig, s.Mode.Label, validModes(), mode))
	}

	ownClass := mode.ResourceClass()
	var foreign []string
	classes := map[ResourceClass]bool{}
	for _, r := range s.Resources {
		classes[r.Class] = true
		if r.Class != ownClass {
			foreign = append(foreign, fmt.Sprintf("%s (%s)", r.Name, r.Class.Describe()))
		}
	}
	if len(foreign) > 0 {
		fix := fmt.Sprintf("if the node was relabelled recently, wait for the %s operands to replace the previous device plugin; otherwise make the label match what the node serves", mode)
		if other, ok := foreignMode(s.Resources, ownClass); ok {
			fix += ": " + relabel(other)
		}
		if s.Mode.LabelIgnored() {
			fix = enableSandboxOrUnlabel(policy)
		}
		out = append(out, NewFinding(FindingForeignResource, fix,
			"mode %s (%s) but the node advertises %s", mode, s.Mode.Explain(policy), JoinBounded(foreign, ", ")))
	}
	if len(classes) > 1 {
		names := make([]string, 0, len(classes))
		for _, r := range s.Resources {
			if d := r.Class.Describe(); !slices.Contains(names, d) {
				names = append(names, d)
			}
		}
		out = append(out, NewFinding(FindingMixedResourceClasses,
			"a node runs one GPU workload mode; remove the operands of the other mode (the operator does so once the label and policy agree) and restart the kubelet's stale device plugin if it persists",
			"the node advertises resources of several classes: %s", JoinBounded(names, ", ")))
	}
	if !classes[ownClass] && !s.OperandsDisabled {
		out = append(out, NewFinding(FindingNothingAdvertised,
			fmt.Sprintf("check the %s operands on the node: kubectl get pods -A -o wide --field-selector spec.nodeName=%s", mode, s.Name),
			"mode %s (%s) but the node advertises no %s resource: its operands are not ready", mode, s.Mode.Explain(policy), ownClass.Describe()))
	}

	if mode == ModeVGPU {
		out = append(out, vgpuFindings(node, s, policy)...)
	}
	out = append(out, deployLabelFindings(node, s, policy)...)
	if len(s.StaleResources) > 0 {
		out = append(out, NewFinding(FindingStaleZeroResource,
			"nothing to do: a zero quantity is not an advertisement; it disappears when the kubelet restarts",
			"zero-quantity resources left in node status: %s", joinNames(s.StaleResources)))
	}
	if len(s.NotGPUResources) > 0 {
		out = append(out, NewFinding(FindingNotGPUResource,
			"nothing to do; if one of them is a GPU, give its class in GPUWorkloadFitArgs resourceClasses",
			"%s: nvidia.com/ resources that are not GPUs, left out of GPU units, stranding, metrics and reasons", joinNames(s.NotGPUResources)))
	}
	checkOperands := fmt.Sprintf("kubectl get pods -A -o wide --field-selector spec.nodeName=%s", s.Name)
	if len(s.UncountableResources) > 0 {
		out = append(out, NewFinding(FindingUncountableResource,
			"a device plugin advertises whole devices: find what wrote these quantities to the node's status and restart the node's device plugin ("+checkOperands+")",
			"GPU quantities that no device plugin advertises, left out of the node's GPUs: %s", JoinBounded(s.UncountableResources, "; ")))
	}
	for _, r := range s.Resources {
		if r.Allocatable < r.Capacity {
			out = append(out, NewFinding(FindingUnhealthyDevices,
				"check the node's GPUs (nvidia-smi, Xid errors in the kernel log) and its device plugin's log ("+checkOperands+"); the units return when the device plugin reports them healthy",
				"%s: %d of %d units are not allocatable: the device plugin reports them unhealthy", r.Name, r.Capacity-r.Allocatable, r.Capacity))
		}
	}
	if s.gpuCountErr != nil {
		out = append(out, NewFinding(FindingInvalidGPUCountLabel,
			fmt.Sprintf("gpu-feature-discovery sets the label from the GPUs it finds: check its pod on the node (%s), and remove a hand-set value: kubectl label node %s %s-", checkOperands, s.Name, LabelGPUCount),
			"%v; the node's GPU count is unknown", s.gpuCountErr))
	}
	return out
}

// gpuCountOf reads gpu-feature-discovery's GPU count label: 0 without it.
func gpuCountOf(labels map[string]string) (int64, error) {
	value, present := labels[LabelGPUCount]
	if !present {
		return 0, nil
	}
	count, err := strconv.ParseInt(value, 10, 64)
	if err != nil || count < 1 || count > MaxUnits {
		return 0, fmt.Errorf("%s=%+q is not a whole number of GPUs from 1 to %d", LabelGPUCount, value, MaxUnits)
	}
	return count, nil
}

// profileNotOnCard is the finding for a vgpu.config profile the node's card
// does not offer: the vGPU device manager fails, so waiting never helps.
func profileNotOnCard(node, value string, p hardware.VGPUProfile, identity hardware.Card, sizes []string) Finding {
	card := identity.VGPUFamily
	fix := fmt.Sprintf("pick a profile of the %s (%s): kubectl label node %s %s=%s --overwrite", card, strings.Join(sizes, ", "), node, LabelVGPUConfig, orPlaceholder(defaultProfileName(identity), card+"-<profile>"))
	if p.Family() != card {
		return NewFinding(FindingVGPUProfileNotOnCard, fix, "%s=%s names a profile of the %s, but the node's GPUs are %s; the vGPU device manager fails to apply it", LabelVGPUConfig, value, p.Family(), card)
	}
	return NewFinding(FindingVGPUProfileNotOnCard, fix, "%s=%s: the %s has no %s profile in the vGPU device manager's default configuration, so applying it fails", LabelVGPUConfig, value, card, p.Size())
}

// defaultProfileName is the card's default profile, or "" when unknown.
func defaultProfileName(card hardware.Card) string {
	if p := card.DefaultProfile(); p.Card != "" {
		return p.Name()
	}
	return ""
}

func orPlaceholder(value, placeholder string) string {
	if value == "" {
		return placeholder
	}
	return value
}

// foreignMode is the single mode whose class the node advertises instead of its own.
func foreignMode(resources []AdvertisedResource, own ResourceClass) (Mode, bool) {
	var found Mode
	for _, r := range resources {
		if r.Class == own {
			continue
		}
		m, ok := r.Class.Mode()
		if !ok || (found != "" && found != m) {
			return "", false
		}
		found = m
	}
	return found, found != ""
}

// RelabelCommand puts a node in a mode.
func RelabelCommand(node string, mode Mode) string {
	return fmt.Sprintf("kubectl label node %s %s=%s --overwrite", node, LabelWorkloadConfig, mode)
}

// VGPUConfigCommand puts a node in vm-vgpu mode with a vGPU profile; the vGPU
// device manager then recreates the node's vGPUs.
func VGPUConfigCommand(node string, profile hardware.VGPUProfile) string {
	return fmt.Sprintf("kubectl label node %s %s=%s %s=%s --overwrite", node, LabelWorkloadConfig, ModeVGPU, LabelVGPUConfig, profile.Name())
}

// EnableSandboxFix says how to turn sandbox workloads on: the exact command
// when the policy comes from a ClusterPolicy, the field to set otherwise.
func EnableSandboxFix(policy SandboxPolicy) string {
	if command, ok := EnableSandboxCommand(policy); ok {
		return "enable sandbox workloads: " + command
	}
	if policy.Source.Kind == SourceAssumedDefault {
		return "if the cluster has a ClusterPolicy, check the dump with it: kubectl get clusterpolicies.nvidia.com -o yaml > clusterpolicy.yaml, then --cluster-policy clusterpolicy.yaml; otherwise enable sandboxWorkloads in the GPU Operator's ClusterPolicy (spec.sandboxWorkloads.enabled: true)"
	}
	return "enable sandboxWorkloads in the GPU Operator's ClusterPolicy (spec.sandboxWorkloads.enabled: true)"
}

// EnableSandboxCommand is the command that turns sandbox workloads on; ok is
// false when the policy comes from no ClusterPolicy, which has to be created.
func EnableSandboxCommand(policy SandboxPolicy) (command string, ok bool) {
	if policy.Source.Kind != SourceClusterPolicy {
		return "", false
	}
	return fmt.Sprintf(`kubectl patch clusterpolicies.nvidia.com %s --type merge -p '{"spec":{"sandboxWorkloads":{"enabled":true}}}'`, policy.Source.Name), true
}

// enableSandboxOrUnlabel is the fix for a node whose mode label is ignored.
func enableSandboxOrUnlabel(policy SandboxPolicy) string {
	if policy.Source.Kind == SourceClusterPolicy {
		return EnableSandboxFix(policy)
	}
	return EnableSandboxFix(policy) + ", or remove the label"
}

func vgpuFindings(node *v1.Node, s *NodeState, policy SandboxPolicy) []Finding {
	var out []Finding
	var advertised []hardware.VGPUProfile
	for _, r := range s.Resources {
		if r.Class != ClassVGPUProfile {
			continue
		}
		if p, err := hardware.ParseVGPUTypeName(string(r.Name)); err == nil {
			advertised = append(advertised, p)
		}
	}
	configValue := s.VGPUConfig
	identity := s.Card
	card := identity.VGPUFamily
	var want hardware.VGPUProfile
	wantKnown := false
	switch p, err := s.vgpuConfig, s.vgpuConfigErr; {
	case configValue == hardware.VGPUConfigDefault:
		want = identity.DefaultProfile()
		wantKnown = want.Card != ""
	case err == nil:
		sizes, known := hardware.CardProfiles(card)
		if known && (p.Family() != card || !slices.Contains(sizes, p.Size())) {
			out = append(out, profileNotOnCard(s.Name, configValue, p, identity, sizes))
		} else {
			want, wantKnown = p, true
		}
	case len(validation.IsValidLabelValue(configValue)) > 0:
		out = append(out, NewFinding(FindingInvalidVGPUConfig,
			fmt.Sprintf("name a vGPU profile or a section of the vGPU device manager's ConfigMap: kubectl label node %s %s=%s --overwrite", s.Name, LabelVGPUConfig, orPlaceholder(defaultProfileName(identity), "<profile>")),
			"%s=%+q is not a valid label value: the API server rejects it and no vGPU device manager configuration has that name", LabelVGPUConfig, configValue))
	}
	if wantKnown {
		for _, p := range advertised {
			if !want.Creates(p) {
				out = append(out, NewFinding(FindingVGPUProfileMismatch,
					fmt.Sprintf("wait for %s=%s, then check the vGPU device manager's logs; no vGPU VM may run on the node while the profile changes", LabelVGPUConfigState, VGPUConfigStateSuccess),
					"%s=%s selects %s but the node advertises %s", LabelVGPUConfig, configValue, want.Name(), p.TypeName()))
			}
		}
	}
	switch s.VGPUConfigState {
	case VGPUConfigStatePending:
		out = append(out, NewFinding(FindingVGPUConfigPending,
			"wait for the vGPU device manager to finish; new vGPU VMs cannot use the node until then",
			"%s=%s: the vGPU device manager is applying %s=%s", LabelVGPUConfigState, VGPUConfigStatePending, LabelVGPUConfig, configValue))
	case VGPUConfigStateFailed:
		out = append(out, NewFinding(FindingVGPUConfigFailed,
			fmt.Sprintf("check that %s=%s names a section of the vGPU device manager's ConfigMap that fits the card, and read the nvidia-vgpu-device-manager logs on the node", LabelVGPUConfig, configValue),
			"%s=%s: the vGPU device manager could not apply %s=%s", LabelVGPUConfigState, VGPUConfigStateFailed, LabelVGPUConfig, configValue))
	}
	if gpus := s.GPUCount; gpus > 0 && len(advertised) == 1 {
		p := advertised[0]
		if perGPU, ok := p.MaxPerGPU(); ok {
			r, _ := s.Advertised(v1.ResourceName(hardware.ResourceDomain + p.TypeName()))
			if want := int64(perGPU) * gpus; r.Capacity != want {
				out = append(out, NewFinding(FindingVGPUCountMismatch,
					"check that every GPU is bound to the vGPU manager and that the profile is created on each (vGPU device manager logs)",
					"%s advertises %d but %d GPUs x %d per GPU = %d", r.Name, r.Capacity, gpus, perGPU, want))
			}
		}
	}
	return out
}

func deployLabelFindings(node *v1.Node, s *NodeState, policy SandboxPolicy) []Finding {
	if s.OperandsDisabled {
		return []Finding{NewFinding(FindingOperandsDisabled,
			fmt.Sprintf("to run GPU workloads here: kubectl label node %s %s-", s.Name, LabelDeployOperands),
			"%s=false: the GPU Operator runs no operands on this node", LabelDeployOperands)}
	}
	present := false
	for key := range node.Labels {
		if strings.HasPrefix(key, DeployLabelPrefix) {
			present = true
			break
		}
	}
	if !present {
		return []Finding{NewFinding(FindingOperandLabelsAbsent,
			"install the GPU Operator, or wait for it to reconcile the node",
			"no %s* labels: the GPU Operator has not labelled this node", DeployLabelPrefix)}
	}
	mode := s.Mode.Mode
	expected, foreignKeys := Operands().ExpectedDeployLabels(mode, policy.Runtime), Operands().ForeignDeployLabels(mode)
	// The operator's DRA path labels a node for the DRA driver's operands,
	// not for its mode's.
	if dra, draForeign, ok := Operands().DRADeployLabels(node.Labels); ok {
		expected, foreignKeys = dra, draForeign
	}
	var missing, foreign []string
	for _, key := range expected {
		if _, ok := node.Labels[key]; !ok {
			missing = append(missing, key)
		}
	}
	for _, key := range foreignKeys {
		if _, ok := node.Labels[key]; ok {
			foreign = append(foreign, key)
		}
	}
	var out []Finding
	if len(missing) > 0 || len(foreign) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "missing "+JoinBounded(missing, ", "))
		}
		if len(foreign) > 0 {
			parts = append(parts, "labels of other modes "+JoinBounded(foreign, ", "))
		}
		out = append(out, NewFinding(FindingDeployLabelsMismatch,
			"the GPU Operator rewrites these labels when it reconciles the node; if they persist, check the operator's logs for this node",
			"deploy labels disagree with mode %s: %s", mode, strings.Join(parts, "; ")))
	}
	if len(s.PausedOperands) > 0 {
		out = append(out, NewFinding(FindingOperandsPaused,
			"wait for the operation that paused them (a vGPU profile change) to finish; the labels return to true",
			"operands paused: %s", JoinBounded(s.PausedOperands, ", ")))
	}
	return out
}

func joinNames(names []v1.ResourceName) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = string(n)
	}
	return strings.Join(out, ", ")
}

// cardEvidenceOf reads the evidence a live node carries: its product
// label, an NFD PCI device label, and what it advertises.
func cardEvidenceOf(node *v1.Node, state *NodeState) hardware.CardEvidence {
	e := hardware.CardEvidence{Product: node.Labels[LabelGPUProduct], DeviceID: nfdDeviceID(node.Labels)}
	for _, r := range state.Resources {
		bare := strings.TrimPrefix(string(r.Name), hardware.ResourceDomain)
		switch r.Class {
		case ClassPassthroughGPU:
			e.PassthroughName = bare
		case ClassVGPUProfile:
			if p, err := hardware.ParseVGPUTypeName(bare); err == nil {
				e.VGPUType = p
			}
		}
	}
	return e
}

// nfdDeviceID reads an NVIDIA device ID from node feature discovery's PCI
// labels when they carry one: with deviceLabelFields including "device",
// NFD labels feature.node.kubernetes.io/pci-<class>_10de_<device>.present
// (or pci-10de_<device>.present). One ID only; several models, none.
func nfdDeviceID(labels map[string]string) string {
	id := ""
	for key := range labels {
		fields, ok := strings.CutPrefix(key, nfdPCILabelPrefix)
		if !ok {
			continue
		}
		fields, _, _ = strings.Cut(fields, ".")
		parts := strings.Split(fields, "_")
		at := slices.Index(parts, hardware.NVIDIAVendorID)
		if at < 0 || at+1 >= len(parts) || !hardware.IsPCIDeviceID(parts[at+1]) {
			continue
		}
		if id != "" && id != parts[at+1] {
			return ""
		}
		id = parts[at+1]
	}
	return id
}

const nfdPCILabelPrefix = "feature.node.kubernetes.io/pci-"
