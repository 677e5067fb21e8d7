package gpuworkloadfit

import (
	"fmt"
	"regexp"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Reason templates. They are a public interface: users read them in
// FailedScheduling events and docs/reasons.md documents each one verbatim.
//
// Filter reasons never name the node: the framework counts identical strings
// across nodes ("0/N nodes are available: 2 <reason>, ...").
const (
	// ReasonNoGPUs: the node has no NVIDIA GPU at all.
	ReasonNoGPUs = "node has no NVIDIA GPUs"
	// ReasonModeMismatch: node mode, its GPU resources, the pod's mode.
	ReasonModeMismatch = "node's GPU mode is %s (advertises %s), pod needs %s"
	// ReasonConverting: the node is between modes or vGPU profiles.
	ReasonConverting = "node is converting its GPU mode or vGPU profile"
	// ReasonOtherContainerResource, ReasonOtherModel, ReasonOtherProfile: same
	// mode, but not the requested resource.
	ReasonOtherContainerResource = "node's container GPUs are another resource"
	ReasonOtherModel             = "node's passthrough GPUs are another model"
	ReasonOtherProfile           = "node's vGPUs are another profile"
	// ReasonInsufficient: the requested resource. Preemption may help.
	ReasonInsufficient = "insufficient free %s"
	// ReasonTotalTooSmall: the requested resource. Even an empty node would
	// not hold the request, so preemption cannot help.
	ReasonTotalTooSmall = "node has fewer %s in total than the pod requests"

	// ReasonDRANoDevices: the DeviceClass serving the requested extended
	// resource, or the one the pod's claim asks for; the node publishes no
	// DRA GPU of that class.
	ReasonDRANoDevices = "node's DRA driver publishes no device of DeviceClass %s"
	// ReasonDRAAllAllocated: the node's devices of the class, the DeviceClass.
	ReasonDRAAllAllocated = "all %d devices of DeviceClass %s on the node are allocated"
	// ReasonDRASiblingInUse: the DeviceClass, a claim and the device it holds
	// whose GPU the node's free devices of the class share.
	ReasonDRASiblingInUse = "the node's free devices of DeviceClass %s are GPUs in use through another device (claim %s holds %s)"
	// ReasonDRATainted: the DeviceClass; its free devices on the node are tainted.
	ReasonDRATainted = "the node's free devices of DeviceClass %s are tainted"
	// ReasonDRATooFewFree: the DeviceClass; some are free, fewer than the pod needs.
	ReasonDRATooFewFree = "too few free devices of DeviceClass %s on the node"

	// ReasonDRANodeNotAdvertised: the requested resource. The node's GPUs
	// are DRA devices and no DeviceClass serves the resource.
	ReasonDRANodeNotAdvertised = "node publishes its GPUs through DRA, and no DeviceClass serves %s"

	// ReasonSiblingAllocated (Reserve): the conflict, in words.
	ReasonSiblingAllocated = "%s; the scheduler taints the sibling of an allocated device and retries the pod"

	// ReasonInvalidGPUResources (PreFilter): each GPU resource field no node
	// can serve, with its path and what is wrong.
	ReasonInvalidGPUResources = "%spod's GPU resources cannot be served: %v"
	// ReasonModeConflict (PreFilter): the pod's resources with their modes.
	ReasonModeConflict = "%spod requests GPU resources of several modes (%s); a node runs one mode"
	// ReasonNotAdvertised (PreFilter): the resource, then what the cluster advertises by class.
	ReasonNotAdvertised = "%sno node advertises %s; the cluster advertises %s"
	// ReasonPolicyNotRead (PreFilter): the pod's mode.
	ReasonPolicyNotRead = "%spod needs %s mode and the scheduler has not read the ClusterPolicy yet; it retries the pod when it has"
	// ReasonDRANoNodeHasDevices (PreFilter): the DeviceClass the pod needs devices of.
	ReasonDRANoNodeHasDevices = "%sno node's DRA driver publishes a device of DeviceClass %s"
	// ReasonLargerThanAnyNode (PreFilter): the count, the resource, the largest node total.
	ReasonLargerThanAnyNode = "%sno node has %d x %s in total; the largest has %d"
	// ReasonSandboxDisabled (PreFilter): the pod's mode, the policy source,
	// the mode label key and value, how many nodes carry that label.
	ReasonSandboxDisabled = "%spod needs %s mode but sandboxWorkloads is disabled in %s: the GPU Operator ignores %s=%s, set on %d node(s), and runs every GPU node in container mode"

	// EventReasonUnschedulable is the reason of the explanation event PostFilter records.
	EventReasonUnschedulable = "GPUWorkloadUnschedulable"
)

// ReasonCode is a reason's stable CamelCase name, for programs: the
// explanation event's annotation, explain -o json.
type ReasonCode string

// ReasonCodes gives each reason template its code.
var ReasonCodes = map[string]ReasonCode{
	ReasonNoGPUs:                 "NoGPUs",
	ReasonModeMismatch:           "ModeMismatch",
	ReasonConverting:             "Converting",
	ReasonOtherContainerResource: "OtherContainerResource",
	ReasonOtherModel:             "OtherModel",
	ReasonOtherProfile:           "OtherProfile",
	ReasonInsufficient:           "Insufficient",
	ReasonTotalTooSmall:          "TotalTooSmall",
	ReasonDRANoDevices:           "DRANoDevices",
	ReasonDRAAllAllocated:        "DRAAllAllocated",
	ReasonDRASiblingInUse:        "DRASiblingInUse",
	ReasonDRATainted:             "DRATainted",
	ReasonDRATooFewFree:          "DRATooFewFree",
	ReasonDRANodeNotAdvertised:   "DRANodeNotAdvertised",
	// The same fact as check's finding, under its code.
	ReasonSiblingAllocated:    ReasonCode(gpuworkload.FindingDRASiblingsAllocated),
	ReasonInvalidGPUResources: "InvalidGPUResources",
	ReasonModeConflict:        "ModeConflict",
	ReasonNotAdvertised:       "NotAdvertised",
	ReasonPolicyNotRead:       "PolicyNotRead",
	ReasonDRANoNodeHasDevices: "DRANoNodeHasDevices",
	ReasonLargerThanAnyNode:   "LargerThanAnyNode",
	ReasonSandboxDisabled:     "SandboxDisabled",
}

// CodeOf is the code of a reason as a status message gives it, filled in:
// the template whose fixed parts it contains in order; "" for a message that
// is none of ours. It is for reports, not for the scheduling path.
func CodeOf(message string) ReasonCode {
	var best ReasonCode
	longest := -1
	for template, code := range ReasonCodes {
		if fixed := fixedParts(template); matchesInOrder(message, fixed) && len(strings.Join(fixed, "")) > longest {
			best, longest = code, len(strings.Join(fixed, ""))
		}
	}
	return best
}

// fixedParts are a template's text between its verbs.
func fixedParts(template string) []string {
	var parts []string
	for _, part := range verb.Split(template, -1) {
		if part != "" {
			parts = append(parts, part)
		}
	}
	return parts
}

var verb = regexp.MustCompile(`%[sdv]`)

func matchesInOrder(message string, parts []string) bool {
	for _, part := range parts {
		i := strings.Index(message, part)
		if i < 0 {
			return false
		}
		message = message[i+len(part):]
	}
	return true
}

// Reasons lists every template, for documentation tests.
var Reasons = []string{
	ReasonNoGPUs, ReasonModeMismatch, ReasonConverting,
	ReasonOtherContainerResource, ReasonOtherModel, ReasonOtherProfile, ReasonInsufficient, ReasonTotalTooSmall, ReasonDRANoDevices, ReasonDRAAllAllocated, ReasonDRASiblingInUse, ReasonDRATainted, ReasonDRATooFewFree,
	ReasonDRANodeNotAdvertised, ReasonSiblingAllocated, ReasonInvalidGPUResources, ReasonModeConflict, ReasonDRANoNodeHasDevices, ReasonNotAdvertised, ReasonLargerThanAnyNode, ReasonPolicyNotRead, ReasonSandboxDisabled, EventReasonUnschedulable,
}

// modeMismatchReason is why a node cannot serve pods of podMode, or "" if
// its mode is podMode. The tracker caches it per node and pod mode. A label
// ignored because sandbox workloads are disabled needs no reason here:
// PreFilter rejects every sandbox pod then, naming the policy.
func modeMismatchReason(state *gpuworkload.NodeState, podMode gpuworkload.Mode) string {
	// A DRA node has no mode: each device is a container or a VM GPU.
	if !state.GPUNode || state.Mode.Mode == podMode || state.DRA && len(state.Resources) == 0 {
		return ""
	}
	return fmt.Sprintf(ReasonModeMismatch, state.Mode.Mode, advertisedList(state), podMode)
}

func advertisedList(state *gpuworkload.NodeState) string {
	if len(state.Resources) == 0 {
		return "no GPU resource"
	}
	names := make([]string, len(state.Resources))
	for i, r := range state.Resources {
		names[i] = string(r.Name)
	}
	return strings.Join(names, ", ")
}

func otherResourceReason(class gpuworkload.ResourceClass) string {
	switch class {
	case gpuworkload.ClassPassthroughGPU:
		return ReasonOtherModel
	case gpuworkload.ClassVGPUProfile:
		return ReasonOtherProfile
	}
	return ReasonOtherContainerResource
}

// subject names the object a message is about: a virt-launcher pod's VMI,
// with the pod when one is given, or else the pod.
func subject(pod *v1.Pod, demand *gpuworkload.PodDemand) string {
	if vmi := demand.VMI; vmi != nil && vmi.Name != "" {
		if pod == nil {
			return vmi.String()
		}
		return vmi.String() + " (pod " + pod.Name + ")"
	}
	if pod == nil {
		return ""
	}
	return "Pod/" + pod.Namespace + "/" + pod.Name
}

// reasonPrefix starts pod-level reasons of virt-launcher pods with their
// VMI; the reasons of other pods are about the pod the event is on.
func reasonPrefix(demand *gpuworkload.PodDemand) string {
	if s := subject(nil, demand); s != "" {
		return s + ": "
	}
	return ""
}

func modeConflictReason(demand *gpuworkload.PodDemand) string {
	return fmt.Sprintf(ReasonModeConflict, reasonPrefix(demand), demand.RequestModes())
}

func sandboxDisabledReason(demand *gpuworkload.PodDemand, mode gpuworkload.Mode, policy gpuworkload.SandboxPolicy, labelled int) string {
	return fmt.Sprintf(ReasonSandboxDisabled, reasonPrefix(demand), mode, policy.Source, gpuworkload.LabelWorkloadConfig, mode, labelled)
}

func largerThanAnyNodeReason(demand *gpuworkload.PodDemand, r gpuworkload.ResourceRequest, largest int64) string {
	return fmt.Sprintf(ReasonLargerThanAnyNode, reasonPrefix(demand), r.Count, r.Name, largest)
}

func notAdvertisedReason(demand *gpuworkload.PodDemand, name v1.ResourceName, advertised map[gpuworkload.ResourceClass][]v1.ResourceName) string {
	return fmt.Sprintf(ReasonNotAdvertised, reasonPrefix(demand), name, describeAdvertised(advertised))
}

func describeAdvertised(advertised map[gpuworkload.ResourceClass][]v1.ResourceName) string {
	var parts []string
	for _, class := range []gpuworkload.ResourceClass{gpuworkload.ClassContainerGPU, gpuworkload.ClassPassthroughGPU, gpuworkload.ClassVGPUProfile} {
		names := advertised[class]
		if len(names) == 0 {
			continue
		}
		list := make([]string, len(names))
		for i, n := range names {
			list[i] = string(n)
		}
		parts = append(parts, class.Describe()+": "+strings.Join(list, ", "))
	}
	if len(parts) == 0 {
		return "no GPU resources"
	}
	return strings.Join(parts, "; ")
}
