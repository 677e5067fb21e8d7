package gpuworkload

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// ClusterPolicy coordinates: the GPU Operator's cluster-scoped singleton.
const (
	ClusterPolicyGroup    = "nvidia.com"
	ClusterPolicyVersion  = "v1"
	ClusterPolicyKind     = "ClusterPolicy"
	ClusterPolicyResource = "clusterpolicies"
)

// PolicySourceKind says where a SandboxPolicy came from.
type PolicySourceKind string

const (
	// SourceClusterPolicy: read from a ClusterPolicy object.
	SourceClusterPolicy PolicySourceKind = "ClusterPolicy"
	// SourcePluginArgs: no ClusterPolicy is visible; the scheduler's args apply.
	SourcePluginArgs PolicySourceKind = "PluginArgs"
	// SourceOperatorDefault: nothing was configured; the operator's defaults apply.
	SourceOperatorDefault PolicySourceKind = "OperatorDefault"
	// SourceAssumedDefault: a dump was read without the cluster's
	// ClusterPolicy; the operator's defaults are assumed, and may be wrong.
	SourceAssumedDefault PolicySourceKind = "AssumedDefault"
)

// PolicySource names the origin of a policy so that messages can point at it.
type PolicySource struct {
	Kind PolicySourceKind
	// Name is the ClusterPolicy name when Kind is SourceClusterPolicy.
	Name string
}

func (s PolicySource) String() string {
	switch s.Kind {
	case SourceClusterPolicy:
		return "ClusterPolicy " + s.Name
	case SourcePluginArgs:
		return "the scheduler's plugin args"
	case SourceAssumedDefault:
		return "the GPU Operator defaults, assumed without --cluster-policy"
	}
	return "the GPU Operator defaults"
}

// SandboxPolicy is ClusterPolicy spec.sandboxWorkloads as the operator
// interprets it, with the two settings of its sandbox operands that change
// what a node advertises.
type SandboxPolicy struct {
	Enabled         bool
	DefaultWorkload Mode
	// Runtime is spec.sandboxWorkloads.mode: "kubevirt" or "kata".
	Runtime SandboxRuntime
	// VGPUConfigDefault is spec.vgpuDeviceManager.config.default: the
	// vgpu.config an unlabelled vGPU node gets ("default" when unset).
	VGPUConfigDefault string
	// NoSandboxDevicePlugin is spec.sandboxDevicePlugin.enabled: false: the
	// operator runs no sandbox device plugin, and KubeVirt's own device
	// plugin is the intended provider of permitted host devices.
	NoSandboxDevicePlugin bool
	Source                PolicySource
}

// VGPUConfigOf is the vgpu.config the vGPU device manager applies to a
// node with the label's value: the policy's default without one.
func (p SandboxPolicy) VGPUConfigOf(label string) string {
	switch {
	case label != "":
		return label
	case p.VGPUConfigDefault != "":
		return p.VGPUConfigDefault
	}
	return hardware.VGPUConfigDefault
}

// SandboxRuntime is the VM runtime the sandbox operands are prepared for.
type SandboxRuntime string

const (
	RuntimeKubeVirt SandboxRuntime = "kubevirt"
	RuntimeKata     SandboxRuntime = "kata"
)

// DefaultPolicy is what the operator does when sandboxWorkloads is not set.
func DefaultPolicy() SandboxPolicy {
	return SandboxPolicy{
		DefaultWorkload: ModeContainer,
		Runtime:         RuntimeKubeVirt,
		Source:          PolicySource{Kind: SourceOperatorDefault},
	}
}

// PolicyFromClusterPolicy reads spec.sandboxWorkloads of a ClusterPolicy.
//
// An invalid defaultWorkload is handled as the operator handles it (the
// default stays container) and is also reported as an error, so that callers
// can surface it instead of falling back silently.
func PolicyFromClusterPolicy(obj *unstructured.Unstructured) (SandboxPolicy, error) {
	policy := DefaultPolicy()
	policy.Source = PolicySource{Kind: SourceClusterPolicy, Name: obj.GetName()}
	object := fmt.Sprintf("ClusterPolicy %s", obj.GetName())

	enabled, found, err := unstructured.NestedFieldNoCopy(obj.Object, "spec", "sandboxWorkloads", "enabled")
	if err != nil {
		return policy, fmt.Errorf("%s: spec.sandboxWorkloads: %w; fix: make it an object", object, err)
	}
	if found && enabled != nil {
		b, ok := enabled.(bool)
		if !ok {
			return policy, fmt.Errorf("%s: spec.sandboxWorkloads.enabled is %v (%T); fix: set it to true or false", object, enabled, enabled)
		}
		policy.Enabled = b
	}

	if raw, found, err := unstructured.NestedString(obj.Object, "spec", "sandboxWorkloads", "mode"); err != nil {
		return policy, fmt.Errorf("%s: spec.sandboxWorkloads.mode: %w; fix: set it to %+q or %+q", object, err, RuntimeKubeVirt, RuntimeKata)
	} else if found && raw != "" {
		switch SandboxRuntime(raw) {
		case RuntimeKubeVirt, RuntimeKata:
			policy.Runtime = SandboxRuntime(raw)
		default:
			return policy, fmt.Errorf("%s: spec.sandboxWorkloads.mode is %+q; fix: set it to %+q or %+q", object, raw, RuntimeKubeVirt, RuntimeKata)
		}
	}

	if policy.VGPUConfigDefault, _, err = unstructured.NestedString(obj.Object, "spec", "vgpuDeviceManager", "config", "default"); err != nil {
		return policy, fmt.Errorf("%s: spec.vgpuDeviceManager.config.default: %w; fix: name a section of the vGPU device manager's ConfigMap, e.g. %+q", object, err, hardware.VGPUConfigDefault)
	}
	switch plugin, found, err := unstructured.NestedFieldNoCopy(obj.Object, "spec", "sandboxDevicePlugin", "enabled"); {
	case err != nil:
		return policy, fmt.Errorf("%s: spec.sandboxDevicePlugin: %w; fix: make it an object", object, err)
	case found && plugin != nil:
		b, ok := plugin.(bool)
		if !ok {
			return policy, fmt.Errorf("%s: spec.sandboxDevicePlugin.enabled is %v (%T); fix: set it to true or false", object, plugin, plugin)
		}
		policy.NoSandboxDevicePlugin = !b
	}

	raw, found, err := unstructured.NestedString(obj.Object, "spec", "sandboxWorkloads", "defaultWorkload")
	if err != nil {
		return policy, fmt.Errorf("%s: spec.sandboxWorkloads.defaultWorkload: %w; fix: set it to one of %s", object, err, validModes())
	}
	if found && raw != "" {
		mode, err := ParseMode(raw)
		if err != nil {
			return policy, fmt.Errorf("%s: spec.sandboxWorkloads.defaultWorkload: %w; the GPU Operator uses %+q instead; fix: set it to one of the valid values", object, err, ModeContainer)
		}
		policy.DefaultWorkload = mode
	}
	return policy, nil
}

// ModeReason says why a node is in its effective mode.
type ModeReason string

const (
	// ReasonLabelHonoured: sandbox workloads are enabled and the label is valid.
	ReasonLabelHonoured ModeReason = "LabelHonoured"
	// ReasonSandboxDisabled: the operator does not read the label at all.
	ReasonSandboxDisabled ModeReason = "SandboxDisabled"
	// ReasonLabelMissing: enabled, no label, so defaultWorkload applies.
	ReasonLabelMissing ModeReason = "LabelMissing"
	// ReasonLabelInvalid: enabled, the label is not a valid mode, so defaultWorkload applies.
	ReasonLabelInvalid ModeReason = "LabelInvalid"
)

// ModeDecision is a node's effective mode and why.
type ModeDecision struct {
	Mode   Mode
	Reason ModeReason
	// Label is the raw label value; LabelPresent tells an empty value from none.
	Label        string
	LabelPresent bool
}

// EffectiveMode decides a node's mode from its labels exactly as the GPU
// Operator's getWorkloadConfig does.
func (p SandboxPolicy) EffectiveMode(labels map[string]string) ModeDecision {
	label, present := labels[LabelWorkloadConfig]
	d := ModeDecision{Label: label, LabelPresent: present}
	switch {
	case !p.Enabled:
		d.Mode, d.Reason = ModeContainer, ReasonSandboxDisabled
	case !present:
		d.Mode, d.Reason = p.defaultMode(), ReasonLabelMissing
	default:
		if mode, err := ParseMode(label); err == nil {
			d.Mode, d.Reason = mode, ReasonLabelHonoured
		} else {
			d.Mode, d.Reason = p.defaultMode(), ReasonLabelInvalid
		}
	}
	return d
}

func (p SandboxPolicy) defaultMode() Mode {
	if p.DefaultWorkload == "" {
		return ModeContainer
	}
	return p.DefaultWorkload
}

// LabelIgnored reports whether the node asks for a sandbox mode that the
// operator will not honour because sandbox workloads are disabled: the trap
// in which a label "does nothing" without any warning.
func (d ModeDecision) LabelIgnored() bool {
	return d.Reason == ReasonSandboxDisabled && d.LabelPresent && d.Label != string(ModeContainer)
}

// Explain is a human sentence for the decision.
func (d ModeDecision) Explain(p SandboxPolicy) string {
	switch d.Reason {
	case ReasonLabelHonoured:
		return fmt.Sprintf("%s=%s", LabelWorkloadConfig, d.Label)
	case ReasonSandboxDisabled:
		if d.LabelPresent {
			return fmt.Sprintf("label %s=%s ignored: sandboxWorkloads disabled in %s", LabelWorkloadConfig, d.Label, p.Source)
		}
		return fmt.Sprintf("sandboxWorkloads disabled in %s", p.Source)
	case ReasonLabelMissing:
		return fmt.Sprintf("no %s label: defaultWorkload %s from %s", LabelWorkloadConfig, d.Mode, p.Source)
	case ReasonLabelInvalid:
		return fmt.Sprintf("invalid %s=%+q: defaultWorkload %s from %s", LabelWorkloadConfig, d.Label, d.Mode, p.Source)
	}
	return string(d.Reason)
}
