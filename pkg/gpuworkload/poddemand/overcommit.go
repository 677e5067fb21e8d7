package poddemand

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// OverCommitFindings reports each GPU resource of which the pods bound to
// the node request more units than it has allocatable. The kubelet's device
// admission fails the pods it cannot serve (OutOf<resource>); a scheduler
// that lost track of a binding (a bind whose response was lost) is one way
// it happens. pods are the node's bound pods; finished pods hold nothing.
func OverCommitFindings(state *gpuworkload.NodeState, pods []*v1.Pod, classifier *gpuworkload.Classifier) []gpuworkload.Finding {
	var out []gpuworkload.Finding
	for _, r := range state.Resources {
		var requested int64
		var holders []string
		for _, pod := range pods {
			if pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed {
				continue
			}
			for _, req := range NewPodDemand(pod, classifier).Requests {
				if req.Name == r.Name {
					requested += req.Count
					holders = append(holders, fmt.Sprintf("%s/%s (%d)", pod.Namespace, pod.Name, req.Count))
				}
			}
		}
		if requested > r.Allocatable {
			out = append(out, gpuworkload.NewFinding(gpuworkload.FindingOverCommitted,
				"delete pods until the rest fit; the kubelet fails those it cannot serve with OutOf"+string(r.Name),
				"%d units of %s are bound to the node, which has %d allocatable: %s", requested, r.Name, r.Allocatable, gpuworkload.JoinBounded(holders, ", ")))
		}
	}
	return out
}

// OtherSchedulerFindings reports, per scheduler other than ours, the GPU
// pods it bound to the node and the units they hold: GPU resources by name,
// and the driver's devices their claims hold (claimDevices, by pod UID).
// Ours sees their placements only once they are bound, and two schedulers
// placing on one node's units race. Finished pods hold nothing.
func OtherSchedulerFindings(pods []*v1.Pod, classifier *gpuworkload.Classifier, ours string, claimDevices map[types.UID]int64) []gpuworkload.Finding {
	type held struct {
		pods    []string
		units   map[string]int64
		devices int64
	}
	bySchedulers := map[string]*held{}
	for _, pod := range pods {
		if pod.Spec.SchedulerName == ours || pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed {
			continue
		}
		requests, devices := NewPodDemand(pod, classifier).Requests, claimDevices[pod.UID]
		if len(requests) == 0 && devices == 0 {
			continue
		}
		h := bySchedulers[pod.Spec.SchedulerName]
		if h == nil {
			h = &held{units: map[string]int64{}}
			bySchedulers[pod.Spec.SchedulerName] = h
		}
		h.pods = append(h.pods, pod.Namespace+"/"+pod.Name)
		for _, r := range requests {
			h.units[string(r.Name)] += r.Count
		}
		h.devices += devices
	}
	var out []gpuworkload.Finding
	for _, scheduler := range slices.Sorted(maps.Keys(bySchedulers)) {
		h := bySchedulers[scheduler]
		var units []string
		for _, name := range slices.Sorted(maps.Keys(h.units)) {
			units = append(units, fmt.Sprintf("%d %s", h.units[name], name))
		}
		if h.devices > 0 {
			units = append(units, fmt.Sprintf("%d DRA device(s) through claims", h.devices))
		}
		out = append(out, gpuworkload.NewFinding(gpuworkload.FindingOtherSchedulerGPUPods,
			fmt.Sprintf("give them schedulerName %s, or let the chart's routing policy do it (docs/install.md#routing): %s sees their placements only once they are bound", ours, ours),
			"%d GPU pod(s) bound by scheduler %s hold %s: %s", len(h.pods), scheduler, strings.Join(units, ", "), gpuworkload.JoinBounded(h.pods, ", ")))
	}
	return out
}
