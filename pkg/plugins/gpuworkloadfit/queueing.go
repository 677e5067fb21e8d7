package gpuworkloadfit

import (
	"context"
	"slices"
	"sync"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/dynamic-resource-allocation/resourceclaim"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	schedutil "k8s.io/kubernetes/pkg/scheduler/util"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// EventsToRegister names the cluster events that can make a rejected GPU pod
// schedulable. ClusterPolicy and KubeVirt changes are not among them: the
// tracker follows those itself and activates pending pods (see
// activatePendingGPUPods), because their CRDs may be installed only later.
func (pl *GPUWorkloadFit) EventsToRegister(_ context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{
		{Event: fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Add | fwk.UpdateNodeLabel | fwk.UpdateNodeAllocatable}, QueueingHintFn: pl.isSchedulableAfterNodeChange},
		{Event: fwk.ClusterEvent{Resource: fwk.AssignedPod, ActionType: fwk.Delete}, QueueingHintFn: pl.isSchedulableAfterAssignedPodDelete},
		// What the DRA driver publishes can serve a GPU pod no node advertised
		// for; a slice update also carries a new device taint, and a claim's
		// change frees or settles a sibling a Reserve rejection waited for.
		{Event: fwk.ClusterEvent{Resource: fwk.ResourceSlice, ActionType: fwk.Add | fwk.Update}, QueueingHintFn: pl.isSchedulableAfterSliceChange},
		{Event: fwk.ClusterEvent{Resource: fwk.DeviceClass, ActionType: fwk.Add | fwk.Update}, QueueingHintFn: pl.isSchedulableAfterDeviceClassChange},
		{Event: fwk.ClusterEvent{Resource: fwk.ResourceClaim, ActionType: fwk.Add | fwk.Update | fwk.Delete}, QueueingHintFn: pl.isSchedulableAfterClaimChange},
	}, nil
}

// mayUseDRAGPUs queues pods with claims or GPU requests of one mode on a DRA
// change; DynamicResources and the next cycle judge the devices.
func (pl *GPUWorkloadFit) mayUseDRAGPUs(_ klog.Logger, pod *v1.Pod, _, _ any) (fwk.QueueingHint, error) {
	if len(pod.Spec.ResourceClaims) > 0 {
		return fwk.Queue, nil
	}
	if demand := pl.hints.demand(pod, pl.profile.Tracker().Classifier()); demand.IsGPU() && !demand.Conflict() {
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}

// isSchedulableAfterSliceChange queues only for the driver's slices: what
// other drivers publish serves no GPU pod.
func (pl *GPUWorkloadFit) isSchedulableAfterSliceChange(logger klog.Logger, pod *v1.Pod, oldObj, newObj any) (fwk.QueueingHint, error) {
	_, slice, err := schedutil.As[*resourceapi.ResourceSlice](oldObj, newObj)
	if err != nil {
		return fwk.Queue, err
	}
	if slice.Spec.Driver != pl.profile.Tracker().DRADriver() {
		logger.V(5).Info("ResourceSlice of another DRA driver", "pod", klog.KObj(pod), "slice", klog.KObj(slice), "driver", slice.Spec.Driver)
		return fwk.QueueSkip, nil
	}
	return pl.mayUseDRAGPUs(logger, pod, oldObj, newObj)
}

// isSchedulableAfterDeviceClassChange queues only for classes that select
// the driver's GPU devices.
func (pl *GPUWorkloadFit) isSchedulableAfterDeviceClassChange(logger klog.Logger, pod *v1.Pod, oldObj, newObj any) (fwk.QueueingHint, error) {
	_, class, err := schedutil.As[*resourceapi.DeviceClass](oldObj, newObj)
	if err != nil {
		return fwk.Queue, err
	}
	if dradevices.DRAClassType(class, pl.profile.Tracker().DRADriver()) == "" {
		logger.V(5).Info("DeviceClass selects no GPU device of the driver", "pod", klog.KObj(pod), "deviceClass", klog.KObj(class))
		return fwk.QueueSkip, nil
	}
	return pl.mayUseDRAGPUs(logger, pod, oldObj, newObj)
}

// isSchedulableAfterClaimChange queues the pod for a change of one of its
// own claims, or of a claim whose allocation holds or held devices of the
// driver. It changes nothing: the queue replays events recorded during a
// cycle later, with their old objects. The tracker follows claims from the
// informer, and retries the pods Filter rejected for devices once it sees
// them freed (OnDRAFreed), for the case this hint runs first.
func (pl *GPUWorkloadFit) isSchedulableAfterClaimChange(logger klog.Logger, pod *v1.Pod, oldObj, newObj any) (fwk.QueueingHint, error) {
	oldClaim, newClaim, err := schedutil.As[*resourceapi.ResourceClaim](oldObj, newObj)
	if err != nil {
		return fwk.Queue, err
	}
	claim := newClaim
	if claim == nil {
		claim = oldClaim
	}
	if claim != nil && !ownsClaim(pod, claim) && !holdsDevicesOf(oldClaim, pl.profile.Tracker().DRADriver()) && !holdsDevicesOf(newClaim, pl.profile.Tracker().DRADriver()) {
		logger.V(5).Info("ResourceClaim of another pod holds no device of the driver", "pod", klog.KObj(pod), "claim", klog.KObj(claim))
		return fwk.QueueSkip, nil
	}
	return pl.mayUseDRAGPUs(logger, pod, oldObj, newObj)
}

// ownsClaim reports whether the pod uses the claim.
func ownsClaim(pod *v1.Pod, claim *resourceapi.ResourceClaim) bool {
	if claim.Namespace != pod.Namespace {
		return false
	}
	for i := range pod.Spec.ResourceClaims {
		if name, _, err := resourceclaim.Name(pod, &pod.Spec.ResourceClaims[i]); err == nil && name != nil && *name == claim.Name {
			return true
		}
	}
	return pod.Status.ExtendedResourceClaimStatus != nil && pod.Status.ExtendedResourceClaimStatus.ResourceClaimName == claim.Name
}

// holdsDevicesOf reports whether the claim's allocation holds a device of the driver.
func holdsDevicesOf(claim *resourceapi.ResourceClaim, driver string) bool {
	if claim == nil || claim.Status.Allocation == nil {
		return false
	}
	for _, r := range claim.Status.Allocation.Devices.Results {
		if r.Driver == driver {
			return true
		}
	}
	return false
}

// isSchedulableAfterNodeChange queues the pod only when the node can now
// serve it and could not before, or offers more of what it requests.
func (pl *GPUWorkloadFit) isSchedulableAfterNodeChange(logger klog.Logger, pod *v1.Pod, oldObj, newObj any) (fwk.QueueingHint, error) {
	oldNode, newNode, err := schedutil.As[*v1.Node](oldObj, newObj)
	if err != nil {
		return fwk.Queue, err
	}
	demand := pl.hints.demand(pod, pl.profile.Tracker().Classifier())
	if !demand.IsGPU() || demand.Conflict() {
		return fwk.QueueSkip, nil
	}
	oldEntry, newEntry := pl.hints.entries(pl.profile.Tracker(), oldNode, newNode)
	if !canServe(newNode, newEntry, &demand) {
		logger.V(5).Info("Node changed but cannot serve the GPU pod", "pod", klog.KObj(pod), "node", klog.KObj(newNode))
		return fwk.QueueSkip, nil
	}
	if oldNode == nil || !canServe(oldNode, oldEntry, &demand) {
		logger.V(5).Info("Node can now serve the GPU pod", "pod", klog.KObj(pod), "node", klog.KObj(newNode))
		return fwk.Queue, nil
	}
	for _, r := range demand.Requests {
		before, after := oldNode.Status.Allocatable[r.Name], newNode.Status.Allocatable[r.Name]
		if after.Cmp(before) > 0 {
			logger.V(5).Info("Node offers more of a requested GPU resource", "pod", klog.KObj(pod), "node", klog.KObj(newNode), "resource", r.Name)
			return fwk.Queue, nil
		}
	}
	return fwk.QueueSkip, nil
}

// canServe is Filter's check without the node's current usage: mode, a
// settled node and advertisement of every requested resource in the needed
// amount (checkDevicePlugin).
func canServe(node *v1.Node, entry *clusterstate.NodeEntry, demand *poddemand.PodDemand) bool {
	mode, _ := demand.Mode()
	modeIndex := slices.Index(gpuworkload.Modes[:], mode)
	if modeIndex < 0 {
		return false
	}
	allocatable := make(map[v1.ResourceName]int64, len(demand.Requests))
	for _, r := range demand.Requests {
		if units, err := gpuworkload.Units(node.Status.Allocatable[r.Name]); err == nil {
			allocatable[r.Name] = units
		}
	}
	check, _ := checkDevicePlugin(entry, modeIndex, demand.Requests, allocatable, nil)
	return check == fits
}

// isSchedulableAfterAssignedPodDelete queues the pod when the deleted pod
// held a GPU resource it requests.
func (pl *GPUWorkloadFit) isSchedulableAfterAssignedPodDelete(logger klog.Logger, pod *v1.Pod, oldObj, newObj any) (fwk.QueueingHint, error) {
	deleted, _, err := schedutil.As[*v1.Pod](oldObj, newObj)
	if err != nil {
		return fwk.Queue, err
	}
	classifier := pl.profile.Tracker().Classifier()
	demand := pl.hints.demand(pod, classifier)
	if !demand.IsGPU() || demand.Conflict() {
		return fwk.QueueSkip, nil
	}
	freed := pl.hints.demand(deleted, classifier)
	for _, want := range demand.Requests {
		for _, had := range freed.Requests {
			if had.Name == want.Name {
				logger.V(5).Info("Deleted pod freed a requested GPU resource", "pod", klog.KObj(pod), "deletedPod", klog.KObj(deleted), "resource", want.Name)
				return fwk.Queue, nil
			}
		}
	}
	return fwk.QueueSkip, nil
}

// hintCache keeps what the hints compute, so that one cluster event costs
// one node-state computation per node object and one demand per pod, not
// one of each per pending pod: the queue runs a hint for every pending pod
// with the same event objects, and the same pod objects at every event.
type hintCache struct {
	mu                 sync.Mutex
	oldNode, newNode   *v1.Node
	oldEntry, newEntry *clusterstate.NodeEntry
	classifier         *gpuworkload.Classifier
	demands            map[*v1.Pod]poddemand.PodDemand
}

// maxCachedDemands bounds the cache: pod objects replaced by updates or
// deleted stay in it until it is cleared.
const maxCachedDemands = 10000

// entries returns the node states of the event's objects, computed once per event.
func (c *hintCache) entries(tracker *clusterstate.Tracker, oldNode, newNode *v1.Node) (oldEntry, newEntry *clusterstate.NodeEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if oldNode != c.oldNode || newNode != c.newNode || c.newEntry == nil {
		c.oldNode, c.newNode, c.oldEntry = oldNode, newNode, nil
		if oldNode != nil {
			c.oldEntry = tracker.Entry(oldNode)
		}
		c.newEntry = tracker.Entry(newNode)
	}
	return c.oldEntry, c.newEntry
}

// demand returns the pod's GPU demand under the classifier, computed once
// per pod object and classifier.
func (c *hintCache) demand(pod *v1.Pod, classifier *gpuworkload.Classifier) poddemand.PodDemand {
	c.mu.Lock()
	defer c.mu.Unlock()
	if classifier != c.classifier || len(c.demands) >= maxCachedDemands {
		c.classifier = classifier
		c.demands = make(map[*v1.Pod]poddemand.PodDemand)
	}
	d, ok := c.demands[pod]
	if !ok {
		d = poddemand.NewPodDemand(pod, classifier)
		c.demands[pod] = d
	}
	return d
}
