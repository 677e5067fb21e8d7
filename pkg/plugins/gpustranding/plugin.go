// Package gpustranding implements the GPUStranding scoring plugin: it places
// pods so that less GPU inventory is left free but unusable. See
// docs/scoring.md for the formula.
package gpustranding

import (
	"context"
	"fmt"
	"math"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	resourcehelper "k8s.io/component-helpers/resource"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// Name is the plugin's name in the scheduler configuration.
const Name = "GPUStranding"

const cycleStateKey fwk.StateKey = Name

// GPUStranding scores nodes to keep GPU inventory usable.
type GPUStranding struct {
	// state keeps the pod's GPU demand of the cycle and the cluster state.
	state            *schedulerstate.Service
	emptyNodePenalty int64
	nonGPUPodPenalty int64
	demand           *DemandModel
}

var (
	_ fwk.PreFilterPlugin = &GPUStranding{}
	_ fwk.PreScorePlugin  = &GPUStranding{}
	_ fwk.ScorePlugin     = &GPUStranding{}
	_ fwk.ScoreExtensions = &GPUStranding{}
	_ fwk.SignPlugin      = &GPUStranding{}
)

// New builds the plugin from its args; it scores with the pod's GPU demand
// the process's state keeps for the cycle.
func New(_ context.Context, obj runtime.Object, _ fwk.Handle, state *schedulerstate.Service) (fwk.Plugin, error) {
	args, err := config.DecodeGPUStrandingArgs(obj)
	if err != nil {
		return nil, err
	}
	return &GPUStranding{
		state:            state,
		emptyNodePenalty: *args.EmptyNodePenalty,
		nonGPUPodPenalty: *args.NonGPUPodPenalty,
		demand:           NewDemandModel(),
	}, nil
}

// Name returns the plugin name.
func (pl *GPUStranding) Name() string { return Name }

type cycleState struct {
	pod *schedulerstate.PodCycle
	// constraintKey is the pod's own node constraint (NodeConstraint.Key),
	// read once in PreFilter: the worth leaves the pod's own class out.
	constraintKey string
	// demand, milliCPU and memory are set by PreScore: the learned demand
	// and the pod's effective requests, read once for all nodes.
	demand           Demand
	milliCPU, memory int64
	// draDevices is how many DRA devices the pod needs on a DRA node;
	// flexibleCost what taking them costs a pod that device plugins could
	// serve elsewhere (scoreDRAPod).
	draDevices   int64
	flexibleCost float64
	// draDemand is the demand a DRA node's free GPUs serve, pooled over the
	// resources the driver's DeviceClasses serve; hasDRA says the cluster
	// has DRA GPUs, so that nodes without them skip the lookup.
	draDemand ResourceDemand
	hasDRA    bool
	// worth is, per class of the demand for the pod's resource (its first
	// request's), what a unit of the slots it fits is worth to it (worthOf);
	// nil when every node of the cycle can hold every class.
	worth []float64
	// largest is, per request, the most units of its resource one node
	// advertises: the drain delay's measure of an empty node.
	largest []int64
}

func (s *cycleState) Clone() fwk.StateData { return s }

// PreFilter learns the pod's GPU requests from GPUWorkloadFit's PreFilter,
// which runs before it. It runs at every attempt, before Filter, so that
// demand that waits weighs more than demand that is served.
func (pl *GPUStranding) PreFilter(_ context.Context, state fwk.CycleState, pod *v1.Pod, _ []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	pc, err := pl.state.Demand(state, pod)
	if err != nil {
		return nil, fwk.AsStatus(fmt.Errorf("%s: %w", Name, err))
	}
	demand := &pc.Demand
	s := &cycleState{pod: pc}
	if len(demand.Requests) > 0 {
		constraint := poddemand.NodeConstraintOf(pod)
		s.constraintKey = constraint.Key
		for _, r := range demand.Requests {
			pl.demand.Observe(r.Name, r.Count, demand.MilliCPU, demand.Memory, constraint)
		}
	}

	state.Write(cycleStateKey, s)
	return nil, nil
}

// PreFilterExtensions is nil: nothing the plugin keeps depends on other pods.
func (pl *GPUStranding) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

// PreScore reads the demand the scheduler has recently seen and the pod's
// CPU and memory, once for all nodes.
func (pl *GPUStranding) PreScore(_ context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) *fwk.Status {
	prefiltered, err := readCycleState(state)
	if err != nil {
		return fwk.AsStatus(err)
	}
	// A fresh state: PreFilter's is shared with the clones the framework
	// makes, and a pod scored again must not add to its own last score.
	s := &cycleState{pod: prefiltered.pod, constraintKey: prefiltered.constraintKey}
	state.Write(cycleStateKey, s)
	s.demand = pl.demand.Current()
	s.milliCPU, s.memory = s.pod.Demand.CPUAndMemory(pod)
	s.draDevices = s.pod.DRADevices(gpuworkload.ClassContainerGPU) + s.pod.DRADevices(gpuworkload.ClassPassthroughGPU)
	tracker := s.pod.Tracker
	if requests := s.pod.Demand.Requests; len(requests) > 0 {
		s.worth = worthOf(s.demand[requests[0].Name].Classes, requests[0], s.constraintKey, nodes)
		s.largest = make([]int64, len(requests))
		for i, r := range requests {
			s.largest[i] = tracker.Largest(r.Name)
			if _, ok := tracker.DRAServed(r.Name); ok {
				s.flexibleCost += float64(r.Count*s.largest[i]) * (1 + float64(pl.emptyNodePenalty)/100)
			}
		}
	}
	if tracker.DRADevices(gpuworkload.ClassContainerGPU)+tracker.DRADevices(gpuworkload.ClassPassthroughGPU) > 0 {
		s.hasDRA = true
		s.draDemand = s.demand.Pooled(func(name v1.ResourceName) bool {
			_, ok := tracker.DRAServed(name)
			return ok
		})
	}
	return nil
}

func readCycleState(state fwk.CycleState) (*cycleState, error) {
	data, err := state.Read(cycleStateKey)
	if err != nil {
		return nil, fmt.Errorf("%s did not run PreFilter in this cycle (enable it at preFilter): %w", Name, err)
	}
	s, ok := data.(*cycleState)
	if !ok {
		return nil, fmt.Errorf("%s cycle state has type %T", Name, data)
	}
	return s, nil
}

// costScale keeps three decimals of a cost in units in the integer score.
const costScale = 1000

// Score is the negated cost of the placement in GPU units, scaled; see
// docs/scoring.md. NormalizeScore maps it onto 0-100.
func (pl *GPUStranding) Score(_ context.Context, state fwk.CycleState, _ *v1.Pod, nodeInfo fwk.NodeInfo) (int64, *fwk.Status) {
	s, err := readCycleState(state)
	if err != nil {
		return 0, fwk.AsStatus(err)
	}
	if s.draDevices > 0 {
		if available := s.pod.Tracker.DRAAvailability(nodeInfo.Node().Name); available != nil && !advertisesRequests(s, nodeInfo) {
			return pl.scoreDRAPod(s, available, nodeInfo), nil
		}
	}
	if s.pod.Demand.IsGPU() {
		return pl.scoreGPUPod(s, nodeInfo), nil
	}
	return pl.scoreNonGPUPod(s, nodeInfo), nil
}

// scoreGPUPod: the cost is the growth of the node's unusable units, what
// the slots the pod takes are worth to the demand that only some nodes can
// hold, and the delay the pod adds to the node's draining; among equal
// costs the node the pod fills most wins. Both packing pressures are
// weighed by packWeight.
func (pl *GPUStranding) scoreGPUPod(s *cycleState, nodeInfo fwk.NodeInfo) int64 {
	allocatable, requested := nodeInfo.GetAllocatable(), nodeInfo.GetRequested()
	freeCPU, freeMemory := freeCPUAndMemory(nodeInfo)
	var cost, fill float64
	for i, r := range s.pod.Demand.Requests {
		total := allocatable.GetScalarResources()[r.Name]
		used := requested.GetScalarResources()[r.Name]
		if total <= 0 {
			return math.MinInt32
		}
		demand := s.demand[r.Name]
		free := total - used
		after := free - r.Count
		var worth []float64
		if i == 0 {
			worth = s.worth
		}
		growth, taken := unusableGrowthAndWorth(demand.Classes, worth, nodeInfo.Node(), freeUnits{free, freeCPU, freeMemory}, freeUnits{after, freeCPU - s.milliCPU, freeMemory - s.memory})
		cost += growth + taken
		cost += packWeight(demand, free, freeCPU, freeMemory) * float64(pl.emptyNodePenalty) / 100 * drainUnits(total, s.largest[i], demand.Share) / float64(1+podsHolding(nodeInfo, r.Name, used))
		fill += packWeight(demand, after, freeCPU-s.milliCPU, freeMemory-s.memory) * float64(used+r.Count) / float64(total)
	}
	return int64(math.Round((fill/float64(len(s.pod.Demand.Requests)) - cost) * costScale))
}

// scoreDRAPod: on a DRA node each free GPU can serve a container or a VM
// device, so nothing is stranded by mode and no relabel waits for the node
// to drain. Such a flexible GPU is worth keeping for requests that nothing
// else serves (claims: VFIO devices for VMs, containers that ask for
// devices). A pod whose extended resource device plugins also serve pays,
// per unit, more than any device-plugin placement can cost: the largest
// node total of the resource, as units that could be left unusable, plus
// emptyNodePenalty percent of it, as drain delay. So it takes a DRA GPU
// only where no device-plugin node has room. Among DRA nodes the cost is
// the growth of the node's unusable GPUs under the pooled demand, and the
// node the pod fills most wins, weighed by packWeight, as on a device-plugin
// node: this keeps whole nodes for requests of several GPUs, and GPUs
// with the CPU and memory their pods need.
func (pl *GPUStranding) scoreDRAPod(s *cycleState, available *dradevices.DRAAvailability, nodeInfo fwk.NodeInfo) int64 {
	if available.GPUs <= 0 {
		return math.MinInt32
	}
	freeCPU, freeMemory := freeCPUAndMemory(nodeInfo)
	inUse := available.ByClass[gpuworkload.ClassContainerGPU].Allocated + available.ByClass[gpuworkload.ClassPassthroughGPU].Allocated
	free := draFreeGPUs(available)
	after := free - s.draDevices
	cost := unusableGrowth(s.draDemand.Classes, nodeInfo.Node(), freeUnits{free, freeCPU, freeMemory}, freeUnits{after, freeCPU - s.milliCPU, freeMemory - s.memory})
	fill := packWeight(s.draDemand, after, freeCPU-s.milliCPU, freeMemory-s.memory) * float64(int64(inUse)+s.draDevices) / float64(available.GPUs)
	return int64(math.Round((fill - s.flexibleCost - cost) * costScale))
}

// draFreeGPUs counts a DRA node's GPUs free for any device: each GPU's
// gpu and vfio devices are free together, and a node may publish only one
// of them.
func draFreeGPUs(available *dradevices.DRAAvailability) int64 {
	return int64(max(available.ByClass[gpuworkload.ClassContainerGPU].Free, available.ByClass[gpuworkload.ClassPassthroughGPU].Free))
}

// advertisesRequests reports whether the node serves the pod's extended
// resources through a device plugin: then its units are counted, not its
// DRA devices.
func advertisesRequests(s *cycleState, nodeInfo fwk.NodeInfo) bool {
	allocatable := nodeInfo.GetAllocatable().GetScalarResources()
	for _, r := range s.pod.Demand.Requests {
		if allocatable[r.Name] > 0 {
			return true
		}
	}
	return false
}

// podsHolding counts the node's pods that request the resource. A node's
// units can change mode once all those pods are gone: with n of them, of
// similar, memoryless run times, one more pod delays that by 1/(n+1) of a
// run time, so the drain cost of a placement is the node's drainUnits over
// n+1: all of them on an empty node, less the busier the node already is.
// The pods are counted, not estimated from the units in use: one 4-GPU pod
// drains in one run time, four 1-GPU pods take about twice as long.
func podsHolding(nodeInfo fwk.NodeInfo, name v1.ResourceName, used int64) int {
	if used <= 0 {
		return 0
	}
	n := 0
	for _, p := range nodeInfo.GetPods() {
		if p.CalculateResource().Resource.GetScalarResources()[name] > 0 {
			n++
		}
	}
	return n
}

// drainUnits is what an empty node's draining is worth, in units. A relabel
// frees the node's own units, for the requests for other resources (the
// share of recent requests the resource does not have); for the resource's
// own requests draining keeps a node whole, and a whole node is counted as
// the largest one, whatever its size, so that size alone does not send pods
// to the small nodes first: which nodes to keep whole for which demand is
// the worth's to say (worthOf). Where nodes are of one size it is their size.
func drainUnits(total, largest int64, share float64) float64 {
	return float64(total) + float64(max(largest, total)-total)*share
}

// packWeight (0-1) is how much packing on the GPU axis is worth on a node
// with these free units, CPU and memory. Packing keeps free units together
// and lets nodes drain, but where the node's CPU or memory barely covers
// what its free units need, it concentrates GPU pods on CPU that pods
// without GPUs then lack elsewhere: the weight is the node's slack, the
// share of CPU and memory beyond what the free units need (0 with none, 1
// with twice as much), unless requests for other resources (their share of
// recent demand) make draining nodes for a relabel worth more.
func packWeight(demand ResourceDemand, units, milliCPU, memory int64) float64 {
	if units <= 0 {
		return 1
	}
	cover := math.Inf(1)
	if demand.MilliCPUPerUnit > 0 {
		cover = float64(milliCPU) / (float64(units) * demand.MilliCPUPerUnit)
	}
	if demand.MemoryPerUnit > 0 {
		cover = min(cover, float64(memory)/(float64(units)*demand.MemoryPerUnit))
	}
	return max(min(max(cover-1, 0), 1), 1-demand.Share)
}

// scoreNonGPUPod: on a GPU node with free units, the cost is the growth of
// its unusable units as the pod takes CPU and memory, plus nonGPUPodPenalty
// percent of the free units in proportion to the share of the node the pod
// takes. A DRA node's free GPUs count as units of the pooled demand.
// Elsewhere the pod costs nothing.
func (pl *GPUStranding) scoreNonGPUPod(s *cycleState, nodeInfo fwk.NodeInfo) int64 {
	allocatable := nodeInfo.GetAllocatable()
	var available *dradevices.DRAAvailability
	if s.hasDRA {
		available = s.pod.Tracker.DRAAvailability(nodeInfo.Node().Name)
	}
	if available == nil && len(allocatable.GetScalarResources()) == 0 {
		// Without extended resources there are no free units to strand: skip the tracker's lookup.
		return 0
	}
	freeCPU, freeMemory := freeCPUAndMemory(nodeInfo)
	taken := max(fraction(s.milliCPU, allocatable.GetMilliCPU()), fraction(s.memory, allocatable.GetMemory()))
	if available != nil {
		return int64(math.Round(-pl.nonGPUCost(s, s.draDemand.Classes, nodeInfo.Node(), draFreeGPUs(available), freeCPU, freeMemory, taken) * costScale))
	}
	entry := s.pod.Tracker.Entry(nodeInfo.Node())
	if !entry.State.GPUNode {
		return 0
	}
	requested := nodeInfo.GetRequested()
	var cost float64
	for _, r := range entry.State.Resources {
		free := allocatable.GetScalarResources()[r.Name] - requested.GetScalarResources()[r.Name]
		cost += pl.nonGPUCost(s, s.demand[r.Name].Classes, nodeInfo.Node(), free, freeCPU, freeMemory, taken)
	}
	return int64(math.Round(-cost * costScale))
}

// freeCPUAndMemory is what the node's pods leave of its allocatable CPU and
// memory.
func freeCPUAndMemory(nodeInfo fwk.NodeInfo) (milliCPU, memory int64) {
	allocatable, requested := nodeInfo.GetAllocatable(), nodeInfo.GetRequested()
	return allocatable.GetMilliCPU() - requested.GetMilliCPU(), allocatable.GetMemory() - requested.GetMemory()
}

// nonGPUCost is what a pod without GPUs costs free GPU units of a node: the
// growth of their unusable share as it takes CPU and memory, plus
// nonGPUPodPenalty percent of them, in proportion to the share of the node
// it takes.
func (pl *GPUStranding) nonGPUCost(s *cycleState, classes []DemandClass, node *v1.Node, free, freeCPU, freeMemory int64, taken float64) float64 {
	if free <= 0 {
		return 0
	}
	return unusableGrowth(classes, node, freeUnits{free, freeCPU, freeMemory}, freeUnits{free, freeCPU - s.milliCPU, freeMemory - s.memory}) +
		float64(pl.nonGPUPodPenalty)/100*taken*float64(free)
}

// freeUnits is what a node has free for the resource's demand.
type freeUnits struct{ units, milliCPU, memory int64 }

// unusableGrowth is how many more free units recent demand could not use
// after a placement than before it. The units recent demand cannot use are,
// for each request class, the units left over once the node holds as many
// of its pods as its free units, CPU and memory allow, weighted by the
// class's share; all of them for a class whose constraint excludes the
// node, so that pinned demand keeps the hardware it needs.
func unusableGrowth(classes []DemandClass, node *v1.Node, before, after freeUnits) float64 {
	growth, _ := unusableGrowthAndWorth(classes, nil, node, before, after)
	return growth
}

// unusableGrowthAndWorth is unusableGrowth and, with worth, what the slots
// the placement takes from the classes that only some nodes can hold are
// worth to them: per class, its worth per unit times the units of the slots
// it loses on the node. A constraint is matched once for the neighbouring
// classes that share it (a size's CPU bands are neighbours): matching is
// the costly part.
func unusableGrowthAndWorth(classes []DemandClass, worth []float64, node *v1.Node, before, after freeUnits) (growth, taken float64) {
	var accepted bool
	for i, c := range classes {
		if i == 0 || c.Constraint.Key != classes[i-1].Constraint.Key {
			accepted = c.Constraint.Accepts(node)
		}
		// A class whose constraint excludes the node holds no slot there.
		var fitBefore, fitAfter int64
		if accepted {
			fitBefore, fitAfter = slots(c, before), slots(c, after)
		}
		growth += c.Share * (leftOver(c, fitAfter, after) - leftOver(c, fitBefore, before))
		if accepted && worth != nil && worth[i] > 0 {
			taken += worth[i] * float64((fitBefore-fitAfter)*c.Units)
		}
	}
	return growth, taken
}

// worthOf is, per class of a resource's demand that only some of the
// cycle's nodes can hold, other than the pod's own (its request's size and
// constraint), the class's share of the requested units over its share of
// the free units, counted in the slots it fits among the nodes scored: the
// units it asks for against what an even spread would, so that a unit of
// its slots taken is worth that much to it. A class is held by some nodes
// only when a node constraint keeps it to some cards, or when its requests
// are larger than some nodes' units (the hardware keeps it to the large
// nodes). A class whose slots hold most of the free units is worth little;
// one kept to a few scarce cards, or to the last whole large nodes, more
// than a unit. nil when no class is held by some nodes only.
func worthOf(classes []DemandClass, request poddemand.ResourceRequest, own string, nodes []fwk.NodeInfo) []float64 {
	var smallest int64 = math.MaxInt64
	var all int64
	for _, ni := range nodes {
		if total := ni.GetAllocatable().GetScalarResources()[request.Name]; total > 0 {
			smallest = min(smallest, total)
		}
		all += max(freeOf(ni, request.Name), 0)
	}
	var requested float64
	for _, c := range classes {
		requested += c.Share * float64(c.Units)
	}
	var out []float64
	// matched caches, per node, whether the last constraint matched accepts
	// it (1) or not (-1): a size's CPU bands share their constraint, and
	// matching is the costly part.
	var matched []int8
	matchedKey := ""
	for i, c := range classes {
		if c.Share <= 0 || c.Constraint.Key == own && c.Units == request.Count || !c.Constraint.Constrains() && c.Units <= smallest {
			continue
		}
		if matched == nil {
			matched = make([]int8, len(nodes))
		} else if c.Constraint.Key != matchedKey {
			clear(matched)
		}
		matchedKey = c.Constraint.Key
		var fitting int64
		for j, ni := range nodes {
			free := freeOf(ni, request.Name)
			if free < c.Units {
				continue
			}
			if matched[j] == 0 {
				matched[j] = -1
				if c.Constraint.Accepts(ni.Node()) {
					matched[j] = 1
				}
			}
			if matched[j] < 0 {
				continue
			}
			milliCPU, memory := freeCPUAndMemory(ni)
			fitting += slots(c, freeUnits{free, milliCPU, memory}) * c.Units
		}
		if fitting <= 0 {
			continue
		}
		if out == nil {
			out = make([]float64, len(classes))
		}
		out[i] = c.Share * float64(c.Units) / requested * float64(all) / float64(fitting)
	}
	return out
}

// freeOf is the node's free units of the resource.
func freeOf(ni fwk.NodeInfo, name v1.ResourceName) int64 {
	return ni.GetAllocatable().GetScalarResources()[name] - ni.GetRequested().GetScalarResources()[name]
}

// leftOver is the units of free that fit pods of the class would leave
// free: all of them where the class holds no slot.
func leftOver(c DemandClass, fit int64, free freeUnits) float64 {
	if free.units <= 0 {
		return 0
	}
	return float64(free.units - fit*c.Units)
}

// slots is how many pods of the class the free units, CPU and memory hold.
func slots(c DemandClass, free freeUnits) int64 {
	if free.units <= 0 {
		return 0
	}
	fit := free.units / c.Units
	if c.MilliCPU > 0 {
		fit = min(fit, int64(max(float64(free.milliCPU), 0)/c.MilliCPU))
	}
	if c.Memory > 0 {
		fit = min(fit, int64(max(float64(free.memory), 0)/c.Memory))
	}
	return fit
}

func fraction(part, total int64) float64 {
	if total <= 0 {
		return 1
	}
	return min(float64(part)/float64(total), 1)
}

// ScoreExtensions returns the plugin itself for NormalizeScore.
func (pl *GPUStranding) ScoreExtensions() fwk.ScoreExtensions { return pl }

// NormalizeScore maps the costs onto 0-100: the cheapest node gets 100,
// the dearest 0; equal costs leave every node at 0, so other plugins decide.
func (pl *GPUStranding) NormalizeScore(_ context.Context, _ fwk.CycleState, _ *v1.Pod, scores fwk.NodeScoreList) *fwk.Status {
	NormalizeMinMax(scores)
	return nil
}

// NormalizeMinMax maps scores linearly onto 0-100, the lowest to 0 and the
// highest to 100; all to 0 when they are equal.
func NormalizeMinMax(scores fwk.NodeScoreList) {
	if len(scores) == 0 {
		return
	}
	lowest, highest := scores[0].Score, scores[0].Score
	for _, s := range scores {
		lowest, highest = min(lowest, s.Score), max(highest, s.Score)
	}
	for i := range scores {
		if highest == lowest {
			scores[i].Score = 0
			continue
		}
		scores[i].Score = (scores[i].Score - lowest) * fwk.MaxNodeScore / (highest - lowest)
	}
}

// SignPod: of the pod, the score depends on its resource requests only; the
// learned demand it also reads changes by a 200th per request, so pods of one
// signature scheduled in a batch see nearly the same costs.
func (pl *GPUStranding) SignPod(_ context.Context, pod *v1.Pod) ([]fwk.SignFragment, *fwk.Status) {
	requests := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	return []fwk.SignFragment{{Key: SignerName, Value: requests}}, nil
}

// SignerName keys the resource fragment this plugin adds to a pod signature.
const SignerName = "v1.Pod.Spec.GPUStrandingRequests()"
