package poddemand

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// ResourceRequest is one GPU resource a pod needs.
type ResourceRequest struct {
	Name  v1.ResourceName
	Class gpuworkload.ResourceClass
	Count int64
}

// PodDemand is what a pod asks of the GPU inventory.
type PodDemand struct {
	// Requests are the pod's GPU resources, from its effective requests, sorted by name.
	Requests []ResourceRequest
	// Modes are the distinct modes the requests imply, in Modes order. More
	// than one is a conflict no node can serve.
	Modes []gpuworkload.Mode
	// Claims are the GPU requests of the pod's pending ResourceClaims; the
	// scheduler fills them from the claims (NewPodDemand sees the pod only).
	// They have no mode: each DRA device is a container or a VM GPU by itself.
	Claims []dradevices.DRAClaimRequest
	// VMI is set for virt-launcher pods.
	VMI *gpuworkload.VMIRef
	// MilliCPU and Memory are the effective requests of a pod that names an
	// nvidia.com/ resource, computed with the GPU requests; zero for others.
	MilliCPU, Memory int64
	// Invalid holds the pod's GPU quantities that are not a count of units
	// (Units), each with its field; such a pod has no Requests.
	Invalid error
}

// IsGPU reports whether the pod requests any GPU resource.
func (d PodDemand) IsGPU() bool { return len(d.Requests) > 0 }

// Conflict reports whether the pod requests resources of more than one mode.
func (d PodDemand) Conflict() bool { return len(d.Modes) > 1 }

// RequestModes lists the requests with their modes: "nvidia.com/gpu: container, ...".
func (d PodDemand) RequestModes() string {
	parts := make([]string, len(d.Requests))
	for i, r := range d.Requests {
		mode, _ := r.Class.Mode()
		parts[i] = fmt.Sprintf("%s: %s", r.Name, mode)
	}
	return gpuworkload.JoinBounded(parts, ", ")
}

// Mode is the single mode the pod needs; ok is false for non-GPU pods and conflicts.
func (d PodDemand) Mode() (mode gpuworkload.Mode, ok bool) {
	if len(d.Modes) != 1 {
		return "", false
	}
	return d.Modes[0], true
}

// NewPodDemand computes a pod's GPU demand. Pods that name no nvidia.com/
// resource return at once without computing effective requests.
func NewPodDemand(pod *v1.Pod, classifier *gpuworkload.Classifier) PodDemand {
	d := PodDemand{VMI: gpuworkload.VMIOf(pod)}
	if !namesNVIDIAResource(pod) {
		return d
	}
	requests := resourcehelper.PodRequests(withExtendedRequestsDefaulted(pod), resourcehelper.PodResourcesOptions{})
	d.MilliCPU, d.Memory = requests.Cpu().MilliValue(), requests.Memory().Value()
	for name, q := range requests {
		if q.IsZero() {
			continue
		}
		class := classifier.Classify(name)
		if !class.IsGPU() {
			continue
		}
		count, err := gpuworkload.Units(q)
		if err != nil {
			d.Requests, d.Invalid = nil, invalidRequests(pod, name, err)
			return d
		}
		d.Requests = append(d.Requests, ResourceRequest{Name: name, Class: class, Count: count})
	}
	slices.SortFunc(d.Requests, func(a, b ResourceRequest) int { return strings.Compare(string(a.Name), string(b.Name)) })
	for _, m := range gpuworkload.Modes {
		for _, r := range d.Requests {
			if rm, _ := r.Class.Mode(); rm == m {
				d.Modes = append(d.Modes, m)
				break
			}
		}
	}
	return d
}

// invalidRequests names the fields behind an effective request that is not a
// count of units; a sum of valid containers' requests can be out of range too.
func invalidRequests(pod *v1.Pod, name v1.ResourceName, err error) error {
	if errs := gpuworkload.PodGPUQuantityErrors(pod); len(errs) > 0 {
		messages := make([]string, len(errs))
		for i, e := range errs {
			messages[i] = e.Error()
		}
		return errors.New(gpuworkload.JoinBounded(messages, ", "))
	}
	return fmt.Errorf("the containers' requests of %s add up to more than a pod can ask: %w", name, err)
}

// CPUAndMemory is the pod's effective CPU and memory requests: kept from
// NewPodDemand for a GPU pod, computed for another.
func (d *PodDemand) CPUAndMemory(pod *v1.Pod) (milliCPU, memory int64) {
	if d.IsGPU() {
		return d.MilliCPU, d.Memory
	}
	requests := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	return requests.Cpu().MilliValue(), requests.Memory().Value()
}

func namesNVIDIAResource(pod *v1.Pod) bool {
	for name := range pod.Spec.Overhead {
		if strings.HasPrefix(string(name), hardware.ResourceDomain) {
			return true
		}
	}
	return anyResourceList(pod, hasNVIDIAName)
}

// anyResourceList says whether holds is true of one of the pod's own or
// its containers' and init containers' requests or limits.
func anyResourceList(pod *v1.Pod, holds func(v1.ResourceList) bool) bool {
	if r := pod.Spec.Resources; r != nil && (holds(r.Requests) || holds(r.Limits)) {
		return true
	}
	for _, list := range [][]v1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range list {
			if holds(list[i].Resources.Requests) || holds(list[i].Resources.Limits) {
				return true
			}
		}
	}
	return false
}

func hasNVIDIAName(list v1.ResourceList) bool {
	for name := range list {
		if strings.HasPrefix(string(name), hardware.ResourceDomain) {
			return true
		}
	}
	return false
}

// withExtendedRequestsDefaulted applies the API server's defaulting of
// extended resource requests from limits, for pods that did not go through
// it (manifests read from files). Pods from the API are returned as they are.
func withExtendedRequestsDefaulted(pod *v1.Pod) *v1.Pod {
	containerLists := func(p *v1.Pod) [][]v1.Container {
		return [][]v1.Container{p.Spec.Containers, p.Spec.InitContainers}
	}
	var copied *v1.Pod
	for li, list := range containerLists(pod) {
		for ci := range list {
			for name, limit := range list[ci].Resources.Limits {
				if _, ok := list[ci].Resources.Requests[name]; ok || !strings.HasPrefix(string(name), hardware.ResourceDomain) {
					continue
				}
				if copied == nil {
					copied = pod.DeepCopy()
				}
				c := &containerLists(copied)[li][ci]
				if c.Resources.Requests == nil {
					c.Resources.Requests = v1.ResourceList{}
				}
				c.Resources.Requests[name] = limit
			}
		}
	}
	if copied == nil {
		return pod
	}
	return copied
}

// HoldsGPU says whether a pod that has not finished holds, or may hold, a
// node's GPUs: what makes a node busy for the mode controller and the
// advisor, what emptying it must move, and what a conversion must never
// run under. It is wider than Requests on purpose: a virt-launcher pod, a
// pod with a ResourceClaim (the pod alone does not say which driver serves
// it) and a pod naming a resource that may be a GPU (Classifier.MayBeGPU)
// all count.
func HoldsGPU(pod *v1.Pod, classifier *gpuworkload.Classifier) bool {
	if pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed {
		return false
	}
	if len(pod.Spec.ResourceClaims) > 0 || gpuworkload.VMIOf(pod) != nil {
		return true
	}
	return anyResourceList(pod, func(list v1.ResourceList) bool {
		for name, q := range list {
			if !q.IsZero() && classifier.MayBeGPU(name) {
				return true
			}
		}
		return false
	})
}
