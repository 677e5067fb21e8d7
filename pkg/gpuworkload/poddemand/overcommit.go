package poddemand

import (
	"fmt"

	v1 "k8s.io/api/core/v1"

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
