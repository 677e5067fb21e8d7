// Package gpuworkloadfit implements the GPUWorkloadFit scheduler plugin: it
// filters nodes by GPU workload mode, model and vGPU profile with exact
// reasons, explains unschedulable GPU pods, and requeues them when a node,
// the ClusterPolicy or the KubeVirt CR changes in a way that can help.
package gpuworkloadfit

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// Name is the plugin's name in the scheduler configuration.
const Name = "GPUWorkloadFit"

const cycleStateKey fwk.StateKey = Name

// GPUWorkloadFit filters nodes for GPU pods by workload mode.
type GPUWorkloadFit struct {
	handle fwk.Handle
	// profile is the profile's part of the process's GPU cluster state.
	profile *schedulerstate.Profile
	state   *schedulerstate.Service
	hints   hintCache
	// narrows says PreFilter may narrow GPU pods to the advertisers: in a
	// scheduler that follows a cluster. The simulator's cycle skips nodes
	// without the pod's units before Filter already, and there the
	// framework's copy of the set each cycle would be all narrowing adds.
	narrows bool
}

var (
	_ fwk.PreFilterPlugin   = &GPUWorkloadFit{}
	_ fwk.FilterPlugin      = &GPUWorkloadFit{}
	_ fwk.PostFilterPlugin  = &GPUWorkloadFit{}
	_ fwk.EnqueueExtensions = &GPUWorkloadFit{}
	_ fwk.SignPlugin        = &GPUWorkloadFit{}
	_ fwk.ReservePlugin     = &GPUWorkloadFit{}
)

// New builds the plugin from its args and joins the profile to the
// process's GPU cluster state, which its args configure; it starts
// nothing. handle may be nil where no framework runs.
func New(ctx context.Context, obj runtime.Object, handle fwk.Handle, state *schedulerstate.Service) (fwk.Plugin, error) {
	args, err := config.DecodeGPUWorkloadFitArgs(obj)
	if err != nil {
		return nil, err
	}
	profile, err := state.Join(ctx, args, handle)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	return &GPUWorkloadFit{handle: handle, profile: profile, state: state, narrows: profile.FollowsCluster()}, nil
}

// Reserve forgets the pod's explanation: it no longer waits.
func (pl *GPUWorkloadFit) Reserve(_ context.Context, _ fwk.CycleState, pod *v1.Pod, _ string) *fwk.Status {
	pl.profile.Placed(pod)
	return nil
}

// Unreserve keeps nothing to undo: a pod whose reservation failed is
// explained again at its next attempt.
func (pl *GPUWorkloadFit) Unreserve(context.Context, fwk.CycleState, *v1.Pod, string) {}

// Name returns the plugin name.
func (pl *GPUWorkloadFit) Name() string { return Name }

// cycleData is what PreFilter learns about the pod, for Filter, PostFilter
// and Reserve. It is the plugin's own: GPUStranding reads the pod's demand
// from the cluster-state service (schedulerstate.Service.Demand).
type cycleData struct {
	demand  *poddemand.PodDemand
	tracker *clusterstate.Tracker
	// start is when PreFilter began: the explanation ends within
	// explanation.SelectorTimeout of it, the cycle's allocation attempts too.
	start time.Time
	// modeIndex is the pod mode's index in gpuworkload.Modes.
	modeIndex int
	// Per request, the reasons Filter returns, built once per cycle.
	otherResource []reasons.Reason
	notServedDRA  []reasons.Reason
	totalTooSmall []reasons.Reason
	insufficient  []reasons.Reason
	// rejected is PreFilter's verdict when it rejected the pod for every node.
	rejected *fwk.Status
	// narrowed says PreFilter kept the cycle to the nodes advertising the
	// pod's resource.
	narrowed bool
	// draServed holds, per request, the extended resource's DeviceClass when
	// the DRA driver serves it; nil when it serves none of the pod's.
	draServed []dradevices.DRAExtendedResource
	// draNeeds are the DRA devices the pod needs per DeviceClass, from
	// extended resources a DeviceClass serves and from its pending claims.
	draNeeds []draNeed
	// draChoices are the pending claims' requests with alternatives.
	draChoices []draChoice
	// claimAllocated is set when a claim of the pod is allocated already:
	// its devices then count as taken, by the pod itself.
	claimAllocated bool
}

// draNeed is what the pod needs of the devices one DeviceClass selects,
// with the reasons Filter gives, built once per cycle where they name no
// node. class is the mode of those devices (Tracker.DRAGPUClass). Filter
// counts only what the allocator must have: enough devices of the class
// free, or tainted and tolerated, whatever the requests' own selectors
// match, which the allocator evaluates under its timeout.
type draNeed struct {
	deviceClass string
	// claimed is set for claims' requests, unset for extended resources
	// DRA serves: those need devices only on nodes that do not advertise them.
	claimed bool
	// tolerations are a claim request's own, nil without: a need with them
	// is the request's alone.
	tolerations                []resourceapi.DeviceToleration
	class                      gpuworkload.ResourceClass
	count                      int64
	noDevices, tainted, tooFew reasons.Reason
}

// of counts, by state, the node's devices the need can take.
func (need *draNeed) of(ctx context.Context, available *dradevices.DRAAvailability) dradevices.DRAClassAvailability {
	return available.Matching(ctx, need.deviceClass, nil, need.tolerations)
}

// draChoice is a claim request with alternatives (firstAvailable): a node
// can serve it when one alternative has enough free devices there. The
// reasons name every alternative's DeviceClass.
type draChoice struct {
	alternatives      []draNeed
	noDevices, tooFew reasons.Reason
}

// usesDRADevices reports whether Filter judges DRA devices for the pod.
func (d *cycleData) usesDRADevices() bool { return d.draNeeds != nil || d.draChoices != nil }

// Clone shares the data: nothing changes it after PreFilter.
func (d *cycleData) Clone() fwk.StateData { return d }

// readCycleData returns what GPUWorkloadFit's PreFilter wrote in this cycle.
func readCycleData(state fwk.CycleState) (*cycleData, error) {
	data, err := state.Read(cycleStateKey)
	if err != nil {
		return nil, fmt.Errorf("%s did not run PreFilter in this cycle (is it enabled in the profile?): %w", Name, err)
	}
	d, ok := data.(*cycleData)
	if !ok {
		return nil, fmt.Errorf("%s cycle state has type %T", Name, data)
	}
	return d, nil
}

// PreFilter computes the pod's GPU demand. Pods without GPU requests are
// skipped; requests no node can ever serve are rejected for all nodes at once.
func (pl *GPUWorkloadFit) PreFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	start := time.Now()
	cycle, err := pl.state.Demand(state, pod)
	if err != nil {
		return nil, fwk.AsStatus(err)
	}
	data := &cycleData{demand: &cycle.Demand, tracker: cycle.Tracker, claimAllocated: cycle.ClaimAllocated, start: start}
	state.Write(cycleStateKey, data)
	demand := data.demand
	tracker := data.tracker
	logger := klog.FromContext(ctx)
	if demand.Invalid != nil {
		logger.V(4).Info("Pod's GPU resources cannot be served", "pod", klog.KObj(pod), "err", demand.Invalid)
		return nil, data.reject(reasons.InvalidGPUResources.About(demand, demand.Invalid))
	}
	if !demand.IsGPU() && len(demand.Claims) == 0 {
		return nil, fwk.NewStatus(fwk.Skip)
	}
	if demand.Conflict() {
		logger.V(4).Info("Pod requests GPU resources of several modes", "pod", klog.KObj(pod), "modes", demand.Modes)
		return nil, data.reject(reasons.ModeConflict.About(demand, demand.RequestModes()))
	}
	mode, _ := demand.Mode()
	data.prepareNodeReasons(mode)
	if policy := tracker.Policy(); mode.IsSandbox() && !policy.Enabled && !tracker.PolicyRead() {
		logger.V(4).Info("Pod needs a sandbox mode and the ClusterPolicy is not read yet", "pod", klog.KObj(pod), "mode", mode)
		return nil, data.reject(reasons.PolicyNotRead.About(demand, mode))
	} else if mode.IsSandbox() && !policy.Enabled {
		logger.V(4).Info("Pod needs a sandbox mode but sandbox workloads are disabled", "pod", klog.KObj(pod), "mode", mode, "policy", policy.Source)
		return nil, data.reject(reasons.SandboxDisabledFor(demand, mode, policy, tracker.LabelledNodes(mode)))
	}
	for _, c := range demand.Claims {
		if !slices.ContainsFunc(c.Alternatives(), func(a dradevices.DRAClaimRequest) bool { return tracker.DRAClassDevices(a.DeviceClass) > 0 }) {
			logger.V(4).Info("No node publishes DRA devices of the class a claim asks for", "pod", klog.KObj(pod), "claim", c.Claim, "request", c.Request)
			return nil, data.reject(reasons.DRANoNodeHasDevices.About(demand, deviceClasses(c)))
		}
	}
	for i, r := range demand.Requests {
		// The tracker's totals are the fast path; the cycle's snapshot decides,
		// because the tracker may not have seen the node update that requeued this pod.
		if tracker.Largest(r.Name) >= r.Count {
			continue
		}
		// DynamicResources counts the devices a DeviceClass serves node by node.
		if served, ok := data.servedByDRA(i); ok && tracker.DRAClassDevices(served.DeviceClass) > 0 {
			continue
		}
		switch largest := largestInSnapshot(nodes, r.Name); {
		case largest == 0:
			logger.V(4).Info("No node advertises the requested GPU resource", "pod", klog.KObj(pod), "resource", r.Name)
			return nil, data.reject(reasons.NotAdvertisedFor(demand, r.Name, tracker.AdvertisedByClass()))
		case largest < r.Count:
			logger.V(4).Info("The GPU request exceeds every node's total", "pod", klog.KObj(pod), "resource", r.Name, "count", r.Count, "largest", largest)
			return nil, data.reject(reasons.LargerThanAnyNode.About(demand, r.Count, r.Name, largest))
		}
	}
	if advertisers := pl.advertisersWithRoom(data); advertisers != nil {
		data.narrowed = true
		return &fwk.PreFilterResult{NodeNames: advertisers}, nil
	}
	return nil, nil
}

// advertisersWithRoom narrows the cycle to the nodes that advertise the
// pod's one GPU resource, so that the framework filters only nodes that can
// take it: NodeResourcesFit and GPUWorkloadFit reject all others. It does so
// only when one of them has the units free in the cycle's snapshot. A pod
// that fits nowhere is filtered on every node, so that FailedScheduling
// still says per node why (docs/reasons.md), and a node the tracker has not
// seen advertise yet is found all the same. Pods whose devices DRA serves
// are not narrowed: the framework looks for more feasible nodes in a
// shorter list (numFeasibleNodesToFind), and for such a pod each feasible
// DRA node costs DynamicResources an allocation attempt; narrowed to the
// nodes that could serve them, the DRA mix ran at 0.81 of the default
// profile (docs/performance.md). nil: all nodes.
func (pl *GPUWorkloadFit) advertisersWithRoom(data *cycleData) sets.Set[string] {
	requests := data.demand.Requests
	if !pl.narrows || len(requests) != 1 || len(data.demand.Claims) > 0 || data.draServed != nil {
		return nil
	}
	r := requests[0]
	advertisers := pl.profile.Tracker().Advertisers(r.Name)
	snapshot := pl.handle.SnapshotSharedLister().NodeInfos()
	for node := range advertisers {
		ni, err := snapshot.Get(node)
		if err == nil && ni.GetAllocatable().GetScalarResources()[r.Name]-ni.GetRequested().GetScalarResources()[r.Name] >= r.Count {
			return advertisers
		}
	}
	return nil
}

// prepareNodeReasons builds, once per cycle, the reasons Filter returns.
// They are ready before PreFilter can reject the pod, so that the kubectl
// plugin can still show what each node would say.
func (d *cycleData) prepareNodeReasons(mode gpuworkload.Mode) {
	requests := d.demand.Requests
	d.modeIndex = slices.Index(gpuworkload.Modes[:], mode)
	d.otherResource = make([]reasons.Reason, len(requests))
	d.notServedDRA = make([]reasons.Reason, len(requests))
	d.totalTooSmall = make([]reasons.Reason, len(requests))
	d.insufficient = make([]reasons.Reason, len(requests))
	for i, r := range requests {
		d.otherResource[i] = reasons.OtherResource(r.Class)
		d.notServedDRA[i] = reasons.DRANodeNotAdvertised.With(r.Name)
		d.totalTooSmall[i] = reasons.TotalTooSmall.With(r.Name)
		d.insufficient[i] = reasons.Insufficient.With(r.Name)
		if served, ok := d.tracker.DRAServed(r.Name); ok {
			if d.draServed == nil {
				d.draServed = make([]dradevices.DRAExtendedResource, len(requests))
			}
			d.draServed[i] = served
			d.addDRANeed(dradevices.DRAClaimRequest{Class: served.Class, DeviceClass: served.DeviceClass, Count: r.Count}, false)
		}
	}
	for _, c := range d.demand.Claims {
		if len(c.Or) == 0 {
			d.addDRANeed(c, true)
			continue
		}
		classes := deviceClasses(c)
		choice := draChoice{noDevices: reasons.DRANoDevices.With(classes), tooFew: reasons.DRATooFewFree.With(classes)}
		for _, a := range c.Alternatives() {
			choice.alternatives = append(choice.alternatives, draNeed{deviceClass: a.DeviceClass, claimed: true, tolerations: a.Tolerations, class: a.Class, count: a.Count})
		}
		d.draChoices = append(d.draChoices, choice)
	}
}

// deviceClasses names the DeviceClasses of a claim request's alternatives.
func deviceClasses(c dradevices.DRAClaimRequest) string {
	names := make([]string, 0, 1+len(c.Or))
	for _, a := range c.Alternatives() {
		names = append(names, a.DeviceClass)
	}
	return strings.Join(names, " or ")
}

// addDRANeed adds a request without alternatives to the pod's needs; those
// of one DeviceClass and origin without tolerations add up: the allocator
// gives each request devices of its own.
func (d *cycleData) addDRANeed(r dradevices.DRAClaimRequest, claimed bool) {
	for i := range d.draNeeds {
		if need := &d.draNeeds[i]; need.deviceClass == r.DeviceClass && need.claimed == claimed && need.tolerations == nil && r.Tolerations == nil {
			need.count += r.Count
			return
		}
	}
	d.draNeeds = append(d.draNeeds, draNeed{
		class: r.Class, count: r.Count, deviceClass: r.DeviceClass, claimed: claimed, tolerations: r.Tolerations,
		noDevices: reasons.DRANoDevices.With(r.DeviceClass),
		tainted:   reasons.DRATainted.With(r.DeviceClass),
		tooFew:    reasons.DRATooFewFree.With(r.DeviceClass),
	})
}

// servedByDRA is the DeviceClass that serves request i through DRA, if any.
func (d *cycleData) servedByDRA(i int) (dradevices.DRAExtendedResource, bool) {
	if d.draServed == nil || d.draServed[i].DeviceClass == "" {
		return dradevices.DRAExtendedResource{}, false
	}
	return d.draServed[i], true
}

// reject records why PreFilter rejects the pod for every node.
func (d *cycleData) reject(reason reasons.Reason) *fwk.Status {
	d.rejected = reason.Status(fwk.UnschedulableAndUnresolvable)
	return d.rejected
}

// filtersEachNode reports whether Filter can judge single nodes for the
// pod, as it can whenever the pod requests GPU resources of one mode, even
// after PreFilter rejected it.
func (d *cycleData) filtersEachNode() bool { return d.modeIndex >= 0 && d.otherResource != nil }

func largestInSnapshot(nodes []fwk.NodeInfo, name v1.ResourceName) int64 {
	var largest int64
	for _, ni := range nodes {
		largest = max(largest, ni.GetAllocatable().GetScalarResources()[name])
	}
	return largest
}

// PreFilterExtensions is nil: the filter does not depend on other pods'
// placement beyond the node's requested totals.
func (pl *GPUWorkloadFit) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

// Filter checks, in order: the node has GPUs, runs the pod's mode, is not
// converting, advertises every requested resource, and has enough free
// units; and for the devices DRA serves, that the node has enough of them
// that the allocator could give. A rejection carries its reason's code
// (reasons.CodeOf), which `kubectl gpu-workload explain` reports. The
// framework calls Filter only after PreFilter let the pod through; called
// after a rejection (as explain does, to say what else stands in the way
// on each node), it judges the node when it can, and otherwise returns
// PreFilter's verdict.
func (pl *GPUWorkloadFit) Filter(ctx context.Context, state fwk.CycleState, _ *v1.Pod, nodeInfo fwk.NodeInfo) *fwk.Status {
	data, err := readCycleData(state)
	if err != nil {
		return fwk.AsStatus(err)
	}
	if data.rejected != nil && !data.filtersEachNode() {
		return data.rejected
	}
	var available *dradevices.DRAAvailability
	if data.usesDRADevices() {
		// One read of the tracker per node: it says what the node publishes too.
		available = data.tracker.DRAAvailability(nodeInfo.Node().Name)
	}
	if available != nil && data.servedByDRAOn(nodeInfo) {
		return filterDRA(ctx, data, available, false)
	}
	if len(data.demand.Requests) > 0 {
		if status := filterDevicePlugin(data, nodeInfo); status != nil {
			return status
		}
	}
	// A pod that mixes device-plugin resources and claims needs both here.
	return filterDRA(ctx, data, available, true)
}

// servedByDRAOn reports whether DRA serves every one of the pod's extended
// resources on the node, which advertises none of them; false for a pod
// without any.
func (d *cycleData) servedByDRAOn(nodeInfo fwk.NodeInfo) bool {
	allocatable := nodeInfo.GetAllocatable().GetScalarResources()
	for i, r := range d.demand.Requests {
		if _, ok := d.servedByDRA(i); !ok || allocatable[r.Name] > 0 {
			return false
		}
	}
	return len(d.demand.Requests) > 0
}

// filterDevicePlugin judges the pod's extended resources on a node that
// serves them through a device plugin, by the node's mode and units.
func filterDevicePlugin(data *cycleData, nodeInfo fwk.NodeInfo) *fwk.Status {
	entry := data.tracker.Entry(nodeInfo.Node())
	check, i := checkDevicePlugin(entry, data.modeIndex, data.demand.Requests, nodeInfo.GetAllocatable().GetScalarResources(), nodeInfo.GetRequested().GetScalarResources())
	switch check {
	case notGPUNode:
		return reasons.NoGPUs.Plain().Status(fwk.UnschedulableAndUnresolvable)
	case modeMismatch:
		return reasons.Reason{Code: reasons.ModeMismatch.Code, Message: entry.ModeMismatch[data.modeIndex]}.Status(fwk.UnschedulableAndUnresolvable)
	case converting:
		return reasons.Converting.Plain().Status(fwk.UnschedulableAndUnresolvable)
	case mismatched:
		return reasons.Mismatched.Plain().Status(fwk.UnschedulableAndUnresolvable)
	case notServedByDRA:
		return data.notServedDRA[i].Status(fwk.UnschedulableAndUnresolvable)
	case notAdvertised:
		return data.otherResource[i].Status(fwk.UnschedulableAndUnresolvable)
	case totalTooSmall:
		return data.totalTooSmall[i].Status(fwk.UnschedulableAndUnresolvable)
	case insufficient:
		return data.insufficient[i].Status(fwk.Unschedulable)
	}
	return nil
}

// devicePluginCheck is the first of Filter's checks of a pod's extended
// resources that a device-plugin node fails; fits when it fails none.
type devicePluginCheck int

const (
	fits devicePluginCheck = iota
	notGPUNode
	modeMismatch
	converting
	mismatched
	notServedByDRA
	notAdvertised
	totalTooSmall
	insufficient
)

// checkDevicePlugin runs Filter's checks, in Filter's order, of the
// requests of a pod of mode modeIndex on the node of entry, whose scalar
// resources are allocatable, of which requested are taken; failed is the
// request a unit check failed on. The queueing hints ask it too, of a node
// without its usage, so that a hint and Filter never disagree.
func checkDevicePlugin(entry *clusterstate.NodeEntry, modeIndex int, requests []poddemand.ResourceRequest, allocatable, requested map[v1.ResourceName]int64) (check devicePluginCheck, failed int) {
	switch {
	case !entry.State.GPUNode:
		return notGPUNode, 0
	case entry.ModeMismatch[modeIndex] != "":
		return modeMismatch, 0
	case entry.Converting:
		return converting, 0
	case entry.State.Mismatched:
		return mismatched, 0
	}
	for i, r := range requests {
		total := allocatable[r.Name]
		switch {
		case total == 0 && entry.State.DRA:
			return notServedByDRA, i
		case total == 0:
			return notAdvertised, i
		case total < r.Count:
			return totalTooSmall, i
		case total-requested[r.Name] < r.Count:
			return insufficient, i
		}
	}
	return fits, 0
}

// filterDRA judges the pod's DRA devices on a node by what it has available
// (nil: it publishes none), those of its claims only when claimsOnly is set. DynamicResources allocates the devices, so a
// node is rejected only where the allocation must fail: no device of a
// needed class, or too few free ones, by the claims' allocations (those in
// flight included), the slices' taints the requests do not tolerate, and
// the siblings in use. What the requests' own selectors and constraints
// rule out is the allocator's to find.
func filterDRA(ctx context.Context, data *cycleData, available *dradevices.DRAAvailability, claimsOnly bool) *fwk.Status {
	if !data.usesDRADevices() {
		return nil
	}
	// A node without devices for one need is rejected as unresolvable, even
	// when another need is only short of free devices. A pod whose claim is
	// allocated already counts among the holders: no shortage then.
	var short *reasons.Reason
	for i := range data.draNeeds {
		need := &data.draNeeds[i]
		if claimsOnly && !need.claimed {
			continue
		}
		devices := need.of(ctx, available)
		if devices.Total() == 0 {
			return need.noDevices.Status(fwk.UnschedulableAndUnresolvable)
		}
		if short == nil && !data.claimAllocated && int64(devices.Free) < need.count {
			shortage := need.shortage(devices)
			short = &shortage
		}
	}
	for i := range data.draChoices {
		choice := &data.draChoices[i]
		published, enough := false, false
		for j := range choice.alternatives {
			a := &choice.alternatives[j]
			devices := a.of(ctx, available)
			published = published || devices.Total() > 0
			enough = enough || int64(devices.Free) >= a.count
		}
		if !published {
			return choice.noDevices.Status(fwk.UnschedulableAndUnresolvable)
		}
		if short == nil && !data.claimAllocated && !enough {
			short = &choice.tooFew
		}
	}
	if short == nil {
		return nil
	}
	return short.Status(fwk.Unschedulable)
}

// shortage says why the free devices the need's DeviceClass selects on a
// node do not cover it.
func (need *draNeed) shortage(selected dradevices.DRAClassAvailability) reasons.Reason {
	switch {
	case selected.Free > 0:
		return need.tooFew
	case selected.SiblingInUse > 0:
		return reasons.DRASiblingInUse.With(need.deviceClass, selected.SiblingHolder.Claim, selected.SiblingHolder.Device)
	case selected.Tainted > 0:
		return need.tainted
	}
	return reasons.DRAAllAllocated.With(selected.Total(), need.deviceClass)
}

// SignPod lets the scheduler batch pods with the same GPU demand: the filter
// depends on nothing else of the pod.
func (pl *GPUWorkloadFit) SignPod(_ context.Context, pod *v1.Pod) ([]fwk.SignFragment, *fwk.Status) {
	demand := poddemand.NewPodDemand(pod, pl.profile.Tracker().Classifier())
	return []fwk.SignFragment{{Key: SignerName, Value: demand.Requests}}, nil
}

// SignerName keys the GPU demand fragment of a pod signature.
const SignerName = "v1.Pod.Spec.GPUWorkloadDemand()"
