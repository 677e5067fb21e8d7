package schedulerstate

import (
	"errors"
	"fmt"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/dynamic-resource-allocation/resourceclaim"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// podKey is where a cycle keeps the pod's GPU demand: it belongs to the
// state, not to a plugin, so that each plugin that needs it reads it
// without the other.
const podKey fwk.StateKey = "gpu-workload-scheduler/pod-gpu-demand"

// PodCycle is the pod's GPU demand in one scheduling cycle, and the cluster
// state it is judged against. Nothing changes it once computed.
type PodCycle struct {
	Demand  poddemand.PodDemand
	Tracker *clusterstate.Tracker
	// ClaimAllocated is set when a claim of the pod is allocated already:
	// its devices then count as taken, by the pod itself.
	ClaimAllocated bool
}

// Clone shares the demand: nothing changes it.
func (c *PodCycle) Clone() fwk.StateData { return c }

// Demand is the pod's GPU demand of this cycle, with the GPU requests of
// its claims not allocated yet: computed by the first plugin that asks,
// read by the others.
func (s *Service) Demand(state fwk.CycleState, pod *v1.Pod) (*PodCycle, error) {
	if data, err := state.Read(podKey); err == nil {
		if c, ok := data.(*PodCycle); ok {
			return c, nil
		}
	}
	tracker := s.tracker.Load()
	if tracker == nil {
		return nil, errors.New("no profile of the scheduler enables GPUWorkloadFit, which builds the GPU cluster state: enable it")
	}
	c := &PodCycle{Demand: poddemand.NewPodDemand(pod, tracker.Classifier()), Tracker: tracker}
	allocated, err := s.addClaims(pod, &c.Demand)
	if err != nil {
		return nil, err
	}
	c.ClaimAllocated = allocated
	state.Write(podKey, c)
	return c, nil
}

// DRADevices is how many DRA devices of the class the pod needs on a node
// that does not advertise its DRA-served resources: for those resources and
// for its pending claims, whose first alternative the allocator tries first.
func (c *PodCycle) DRADevices(class gpuworkload.ResourceClass) int64 {
	var n int64
	for _, r := range c.Demand.Requests {
		if served, ok := c.Tracker.DRAServed(r.Name); ok && served.Class == class {
			n += r.Count
		}
	}
	for _, claim := range c.Demand.Claims {
		if claim.Class == class {
			n += claim.Count
		}
	}
	return n
}

// addClaims adds the GPU requests of the pod's claims that are not
// allocated yet, and reports whether one is: DynamicResources then holds the
// pod to its node, and the devices the tracker counts as allocated include
// the pod's own. A claim not created yet is DynamicResources' to report.
func (s *Service) addClaims(pod *v1.Pod, demand *poddemand.PodDemand) (allocated bool, err error) {
	claims := s.claimReader()
	if len(pod.Spec.ResourceClaims) == 0 || claims == nil {
		return false, nil
	}
	allocated = pod.Status.ExtendedResourceClaimStatus != nil
	for i := range pod.Spec.ResourceClaims {
		name, _, err := resourceclaim.Name(pod, &pod.Spec.ResourceClaims[i])
		if err != nil || name == nil {
			continue
		}
		claim, err := claims.Get(pod.Namespace, *name)
		if apierrors.IsNotFound(err) || errors.Is(err, assumecache.ErrNotFound) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("read ResourceClaim %s/%s of pod %s/%s: %w", pod.Namespace, *name, pod.Namespace, pod.Name, err)
		}
		if claim.Status.Allocation != nil {
			allocated = true
			continue
		}
		requests, err := s.tracker.Load().DRAClaimRequestsOf(claim)
		if err != nil {
			return false, fmt.Errorf("pod %s/%s: %w", pod.Namespace, pod.Name, err)
		}
		demand.Claims = append(demand.Claims, requests...)
	}
	return allocated, nil
}
