// Package reasons is the catalogue of why GPUWorkloadFit (and, for one
// reason, GPUDynamicResources) rejects a pod or a node: each reason's message template and its stable code. The reasons are
// a public interface: users read them in FailedScheduling events, programs
// read the codes (the explanation event's annotation, explain -o json), and
// docs/reasons.md documents each one verbatim. A reason is made with its
// code, so that whoever reports it never has to recover the code from text.
//
// Filter reasons never name the node: the framework counts identical
// strings across nodes ("0/N nodes are available: 2 <reason>, ...").
package reasons

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// Code is a reason's stable CamelCase name, for programs.
type Code string

// Template is one reason: its code and its message, with fmt verbs for what
// the message names.
type Template struct {
	Code   Code
	Format string
}

// Reason is a template filled in: what a status or an event says, with the
// code of the template it came from.
type Reason struct {
	Code    Code
	Message string
}

// With fills the template in.
func (t Template) With(args ...any) Reason {
	return Reason{Code: t.Code, Message: fmt.Sprintf(t.Format, args...)}
}

// Error is the reason's message: a reason rides in a framework status as
// its error (Status), so that whoever reads the status finds its code.
func (r Reason) Error() string { return r.Message }

// Status is the framework status a plugin returns for the reason. Its
// message is the reason's, as the framework counts and reports it; its
// error is the reason itself, for CodeOf.
func (r Reason) Status(code fwk.Code) *fwk.Status {
	return fwk.NewStatus(code).WithError(r)
}

// CodeOf is the code of the reason a status carries (Status), "" when it
// carries none: a status that succeeded or that a reason did not make.
func CodeOf(status *fwk.Status) Code {
	var r Reason
	if errors.As(status.AsError(), &r) {
		return r.Code
	}
	return ""
}

// Plain is the template as it is, for a template without verbs.
func (t Template) Plain() Reason { return Reason{Code: t.Code, Message: t.Format} }

// About fills in a pod-level template, whose first verb names the object
// the reason is about (Prefix).
func (t Template) About(demand *poddemand.PodDemand, args ...any) Reason {
	return t.With(append([]any{Prefix(demand)}, args...)...)
}

// catalogue is every template, in the order they are defined: All lists
// what the code can produce, so documentation tests need no list of their own.
var catalogue []Template

func define(code Code, format string) Template {
	t := Template{Code: code, Format: format}
	catalogue = append(catalogue, t)
	return t
}

// All is every reason template the scheduler can give.
func All() []Template { return slices.Clone(catalogue) }

// Node reasons, from Filter (and one from Reserve).
var (
	// NoGPUs: the node has no NVIDIA GPU at all.
	NoGPUs = define("NoGPUs", "node has no NVIDIA GPUs")
	// ModeMismatch: node mode, its GPU resources, the pod's mode.
	ModeMismatch = define("ModeMismatch", "node's GPU mode is %s (advertises %s), pod needs %s")
	// Converting: the node is between modes or vGPU profiles.
	Converting = define("Converting", "node is converting its GPU mode or vGPU profile")
	// Mismatched: the node's mode, advertisement and vGPU configuration
	// have disagreed for longer than a conversion takes (conversionTimeout).
	Mismatched = define("Mismatched", "node's GPU mode and advertised resources have disagreed for longer than a conversion takes")
	// OtherContainerResource, OtherModel, OtherProfile: same mode, but not
	// the requested resource.
	OtherContainerResource = define("OtherContainerResource", "node's container GPUs are another resource")
	OtherModel             = define("OtherModel", "node's passthrough GPUs are another model")
	OtherProfile           = define("OtherProfile", "node's vGPUs are another profile")
	// Insufficient: the requested resource. Preemption may help.
	Insufficient = define("Insufficient", "insufficient free %s")
	// TotalTooSmall: the requested resource. Even an empty node would not
	// hold the request, so preemption cannot help.
	TotalTooSmall = define("TotalTooSmall", "node has fewer %s in total than the pod requests")

	// DRANoDevices: the DeviceClass serving the requested extended resource,
	// or the one the pod's claim asks for; the node publishes no DRA GPU of
	// that class.
	DRANoDevices = define("DRANoDevices", "node's DRA driver publishes no device of DeviceClass %s")
	// DRAAllAllocated: the node's devices of the class, the DeviceClass.
	DRAAllAllocated = define("DRAAllAllocated", "all %d devices of DeviceClass %s on the node are allocated")
	// DRASiblingInUse: the DeviceClass, a claim and the device it holds
	// whose GPU the node's free devices of the class share.
	DRASiblingInUse = define("DRASiblingInUse", "the node's free devices of DeviceClass %s are GPUs in use through another device (claim %s holds %s)")
	// DRATainted: the DeviceClass; its free devices on the node are tainted.
	DRATainted = define("DRATainted", "the node's free devices of DeviceClass %s are tainted")
	// DRATooFewFree: the DeviceClass; some are free, fewer than the pod needs.
	DRATooFewFree = define("DRATooFewFree", "too few free devices of DeviceClass %s on the node")
	// DRACannotAllocate: DynamicResources' own words; explain gives it where
	// the allocator refuses a node GPUWorkloadFit lets through.
	DRACannotAllocate = define("DRACannotAllocate", "cannot allocate all claims")
	// DRAAttemptTimedOut: the filterTimeout. From GPUDynamicResources: the
	// attempt's time to allocate devices on all nodes together passed.
	DRAAttemptTimedOut = define("DRAAttemptTimedOut", "the scheduling attempt's %s to allocate devices on all nodes passed before this node was tried to the end")
	// DRANodeNotAdvertised: the requested resource. The node's GPUs are DRA
	// devices and no DeviceClass serves the resource.
	DRANodeNotAdvertised = define("DRANodeNotAdvertised", "node publishes its GPUs through DRA, and no DeviceClass serves %s")
)

// Pod reasons, from PreFilter: the first verb is Prefix.
var (
	// InvalidGPUResources: each GPU resource field no node can serve, with
	// its path and what is wrong.
	InvalidGPUResources = define("InvalidGPUResources", "%spod's GPU resources cannot be served: %v")
	// ModeConflict: the pod's resources with their modes.
	ModeConflict = define("ModeConflict", "%spod requests GPU resources of several modes (%s); a node runs one mode")
	// NotAdvertised: the resource, then what the cluster advertises by class.
	NotAdvertised = define("NotAdvertised", "%sno node advertises %s; the cluster advertises %s")
	// PolicyNotRead: the pod's mode.
	PolicyNotRead = define("PolicyNotRead", "%spod needs %s mode and the scheduler has not read the ClusterPolicy yet; it retries the pod when it has")
	// DRANoNodeHasDevices: the DeviceClass the pod needs devices of.
	DRANoNodeHasDevices = define("DRANoNodeHasDevices", "%sno node's DRA driver publishes a device of DeviceClass %s")
	// LargerThanAnyNode: the count, the resource, the largest node total.
	LargerThanAnyNode = define("LargerThanAnyNode", "%sno node has %d x %s in total; the largest has %d")
	// SandboxDisabled: the pod's mode, the policy source, the mode label key
	// and value, how many nodes carry that label.
	SandboxDisabled = define("SandboxDisabled", "%spod needs %s mode but sandboxWorkloads is disabled in %s: the GPU Operator ignores %s=%s, set on %d node(s), and runs every GPU node in container mode")
)

// Explanation reasons: the cause an explanation's fix answers, never a
// Filter or PreFilter verdict.
var (
	// DRASelectorsTooCostly: the claim, the explanation's deadline.
	DRASelectorsTooCostly = define("DRASelectorsTooCostly", "evaluating the selectors of claim %s on the DRA nodes' devices took longer than %s, so not every node's devices are counted; the allocator gives one node as long: select with fewer or cheaper expressions")
	// GPUsFree: where the pod's GPU units or devices are free. The pod
	// waits for something other plugins judge, not for GPUs.
	GPUsFree = define("GPUsFree", "%s; the FailedScheduling message says what else rejects those nodes, such as CPU, memory, taints or a pod nominated there")
)

// EventReasonUnschedulable is the reason of the explanation event
// PostFilter records.
const EventReasonUnschedulable = "GPUWorkloadUnschedulable"

// OtherResource is the reason for a node of the pod's mode that advertises
// another resource of the class.
func OtherResource(class gpuworkload.ResourceClass) Reason {
	switch class {
	case gpuworkload.ClassPassthroughGPU:
		return OtherModel.Plain()
	case gpuworkload.ClassVGPUProfile:
		return OtherProfile.Plain()
	}
	return OtherContainerResource.Plain()
}

// ModeMismatchOf is why a node cannot serve pods of podMode, or "" if its
// mode is podMode. A label ignored because sandbox workloads are disabled
// needs no reason here: PreFilter rejects every sandbox pod then, naming the
// policy.
func ModeMismatchOf(state *gpuworkload.NodeState, podMode gpuworkload.Mode) string {
	if !state.GPUNode || state.ServesMode(podMode) {
		return ""
	}
	return ModeMismatch.With(state.Mode.Mode, advertisedList(state), podMode).Message
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

// Subject names the object a message is about: a virt-launcher pod's VMI,
// with the pod when one is given, or else the pod.
func Subject(pod *v1.Pod, demand *poddemand.PodDemand) string {
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

// Prefix starts pod-level reasons of virt-launcher pods with their VMI; the
// reasons of other pods are about the pod the event is on.
func Prefix(demand *poddemand.PodDemand) string {
	if s := Subject(nil, demand); s != "" {
		return s + ": "
	}
	return ""
}

// SandboxDisabledFor is SandboxDisabled for a pod of mode, with labelled
// nodes carrying that mode's label.
func SandboxDisabledFor(demand *poddemand.PodDemand, mode gpuworkload.Mode, policy gpuworkload.SandboxPolicy, labelled int) Reason {
	return SandboxDisabled.About(demand, mode, policy.Source, gpuworkload.LabelWorkloadConfig, mode, labelled)
}

// NotAdvertisedFor is NotAdvertised, naming what the cluster advertises by class.
func NotAdvertisedFor(demand *poddemand.PodDemand, name v1.ResourceName, advertised map[gpuworkload.ResourceClass][]v1.ResourceName) Reason {
	return NotAdvertised.About(demand, name, describeAdvertised(advertised))
}

func describeAdvertised(advertised map[gpuworkload.ResourceClass][]v1.ResourceName) string {
	var parts []string
	for _, class := range gpuworkload.GPUClasses {
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
