package sim

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpustranding"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// FragmentationGradientName is the simulator-only baseline plugin in the
// style of FGD (Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing
// Workloads with Fragmentation Gradient Descent", USENIX ATC '23).
const FragmentationGradientName = "FragmentationGradient"

// taskClass is one kind of pod in the workload and its share of all pods.
type taskClass struct {
	taskKey
	// constrainedBy is 1 + the index of the pods' nodeSelector and required
	// node affinity in the workload's constraints, 0 for none: FGD counts
	// a node its tasks cannot use as fragmented for them.
	constrainedBy int
	popularity    float64
}

// taskKey tells the classes apart.
type taskKey struct {
	gpu              v1.ResourceName
	count            int64
	milliCPU, memory int64
	constraint       string
}

// targetWorkload is the workload's request distribution: FGD's "target
// workload", which it is given in advance, with the cards each class
// accepts.
func targetWorkload(pods []placement.PodSpec, nodes []placement.NodeSpec) (*fragmentationGradient, error) {
	products := map[string]string{}
	for _, n := range nodes {
		if n.DRA {
			products[n.Name] = n.Inventory.Card.DRAProductName()
		}
	}
	pl := &fragmentationGradient{}
	index := map[taskKey]int{}
	cel := dradevices.NewCELCache()
	for _, p := range pods {
		constraint, err := placement.ConstraintOf(cel, p, func(node string) string { return products[node] })
		if err != nil {
			return nil, err
		}
		key := taskKey{gpu: p.GPU, count: p.GPUCount, milliCPU: p.MilliCPU, memory: p.Memory, constraint: constraint.Key}
		i, ok := index[key]
		if !ok {
			i = len(pl.classes)
			index[key] = i
			pl.classes = append(pl.classes, taskClass{taskKey: key, constrainedBy: pl.constraintNumber(constraint)})
		}
		pl.classes[i].popularity++
	}
	for i := range pl.classes {
		pl.classes[i].popularity /= float64(len(pods))
	}
	return pl, nil
}

// constraintNumber is 1 + the constraint's index in pl.constraints, which
// it joins if new; 0 for a pod without one.
func (pl *fragmentationGradient) constraintNumber(c poddemand.NodeConstraint) int {
	if !c.Constrains() {
		return 0
	}
	i := slices.IndexFunc(pl.constraints, func(o poddemand.NodeConstraint) bool { return o.Key == c.Key })
	if i < 0 {
		i = len(pl.constraints)
		pl.constraints = append(pl.constraints, c)
	}
	return i + 1
}

// fragmentationGradient scores a node by how much placing the pod lowers the
// node's expected fragmentation: the free GPU units that a task drawn from
// the workload could not use. A task that cannot run on the node (other
// resource, too few units, too little CPU or memory), or that uses no GPU,
// leaves all free units fragmented; a task that fits leaves none, because
// units are whole.
type fragmentationGradient struct {
	// state keeps the pod's GPU demand of the cycle and the cluster state.
	state   *schedulerstate.Service
	classes []taskClass
	// learned, when set, replaces the advance knowledge: the classes are
	// learned from the pods scheduling attempts carry, as GPUStranding
	// learns its demand, and popularity is their decayed share.
	learned *learnedClasses
	// constraints are the classes' distinct node constraints, and accepted
	// what each node object's answer to them is (acceptedBy); Score runs
	// in parallel over nodes.
	constraints []poddemand.NodeConstraint
	accepted    sync.Map
}

// learnedClasses are FGD's task classes as seen online, with the decay
// GPUStranding's demand model uses.
type learnedClasses struct {
	index   map[taskKey]int
	weights []float64
}

var (
	_ fwk.PreFilterPlugin = &fragmentationGradient{}
	_ fwk.PreScorePlugin  = &fragmentationGradient{}
	_ fwk.ScorePlugin     = &fragmentationGradient{}
	_ fwk.ScoreExtensions = &fragmentationGradient{}
)

func newFragmentationGradient(target *fragmentationGradient, state *schedulerstate.Service) frameworkruntime.PluginFactory {
	return func(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
		return &fragmentationGradient{state: state, classes: target.classes, constraints: target.constraints}, nil
	}
}

// newOnlineFragmentationGradient learns the classes instead of being given them.
func newOnlineFragmentationGradient(state *schedulerstate.Service) frameworkruntime.PluginFactory {
	return func(context.Context, runtime.Object, fwk.Handle) (fwk.Plugin, error) {
		return &fragmentationGradient{state: state, learned: &learnedClasses{index: map[taskKey]int{}}}, nil
	}
}

// PreFilter learns the pod's class; it runs in the online variant only.
// The simulator schedules one pod at a time, so the classes need no lock.
func (pl *fragmentationGradient) PreFilter(_ context.Context, state fwk.CycleState, pod *v1.Pod, _ []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	gpu, err := pl.state.Demand(state, pod)
	if err != nil {
		return nil, fwk.AsStatus(err)
	}
	constraint := poddemand.NodeConstraintOf(pod)
	c := taskClass{taskKey: taskKey{constraint: constraint.Key}}
	c.milliCPU, c.memory = gpu.Demand.CPUAndMemory(pod)
	for _, r := range gpu.Demand.Requests {
		c.gpu, c.count = r.Name, r.Count
	}
	l := pl.learned
	i, ok := l.index[c.taskKey]
	if !ok {
		i = len(pl.classes)
		l.index[c.taskKey] = i
		c.constrainedBy = pl.constraintNumber(constraint)
		pl.classes = append(pl.classes, c)
		l.weights = append(l.weights, 0)
	}
	total := 0.0
	for j := range l.weights {
		l.weights[j] *= gpustranding.DemandDecay
		if j == i {
			l.weights[j]++
		}
		total += l.weights[j]
	}
	for j := range pl.classes {
		pl.classes[j].popularity = l.weights[j] / total
	}
	return nil, nil
}

func (pl *fragmentationGradient) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

func (pl *fragmentationGradient) Name() string { return FragmentationGradientName }

const fgdStateKey fwk.StateKey = FragmentationGradientName

type fgdState struct {
	gpu              *schedulerstate.PodCycle
	milliCPU, memory int64
}

func (s *fgdState) Clone() fwk.StateData { return s }

func (pl *fragmentationGradient) PreScore(_ context.Context, state fwk.CycleState, pod *v1.Pod, _ []fwk.NodeInfo) *fwk.Status {
	gpu, err := pl.state.Demand(state, pod)
	if err != nil {
		return fwk.AsStatus(err)
	}
	s := &fgdState{gpu: gpu}
	s.milliCPU, s.memory = gpu.Demand.CPUAndMemory(pod)
	state.Write(fgdStateKey, s)
	return nil
}

// fgdScale keeps three decimals of the fragmentation delta in the integer score.
const fgdScale = 1000

func (pl *fragmentationGradient) Score(_ context.Context, state fwk.CycleState, _ *v1.Pod, nodeInfo fwk.NodeInfo) (int64, *fwk.Status) {
	data, err := state.Read(fgdStateKey)
	if err != nil {
		return 0, fwk.AsStatus(err)
	}
	s, ok := data.(*fgdState)
	if !ok {
		return 0, fwk.AsStatus(fmt.Errorf("%s pre-score state has type %T", FragmentationGradientName, data))
	}
	allocatable, requested := nodeInfo.GetAllocatable(), nodeInfo.GetRequested()
	node := nodeFree{
		accepted: pl.acceptedBy(nodeInfo.Node()),
		milliCPU: allocatable.GetMilliCPU() - requested.GetMilliCPU(),
		memory:   allocatable.GetMemory() - requested.GetMemory(),
	}
	for _, r := range s.gpu.Tracker.Entry(nodeInfo.Node()).State.Resources {
		node.gpu = r.Name
		node.units = allocatable.GetScalarResources()[r.Name] - requested.GetScalarResources()[r.Name]
	}
	after := node
	after.milliCPU -= s.milliCPU
	after.memory -= s.memory
	for _, r := range s.gpu.Demand.Requests {
		if r.Name == node.gpu {
			after.units -= r.Count
		}
	}
	delta := pl.fragmentation(after) - pl.fragmentation(node)
	return int64(math.Round(-delta * fgdScale)), nil
}

// acceptedBy says which of the workload's constraints accept the node, by
// index; remembered per node object, which the simulator replaces when the
// node's labels change: matching every class's constraint at every node
// costs more than the rest of the fragmentation sum.
func (pl *fragmentationGradient) acceptedBy(node *v1.Node) []bool {
	if len(pl.constraints) == 0 {
		return nil
	}
	if known, ok := pl.accepted.Load(node); ok {
		if accepted := known.([]bool); len(accepted) == len(pl.constraints) {
			return accepted
		}
	}
	accepted := make([]bool, len(pl.constraints))
	for i, c := range pl.constraints {
		accepted[i] = c.Accepts(node)
	}
	pl.accepted.Store(node, accepted)
	return accepted
}

type nodeFree struct {
	// accepted is acceptedBy's answer for the node.
	accepted         []bool
	gpu              v1.ResourceName
	units            int64
	milliCPU, memory int64
}

func (pl *fragmentationGradient) fragmentation(n nodeFree) float64 {
	if n.units <= 0 {
		return 0
	}
	var f float64
	for _, c := range pl.classes {
		fits := c.gpu == n.gpu && c.count <= n.units && c.milliCPU <= n.milliCPU && c.memory <= n.memory && (c.constrainedBy == 0 || n.accepted[c.constrainedBy-1])
		if !fits {
			f += c.popularity * float64(n.units)
		}
	}
	return f
}

func (pl *fragmentationGradient) ScoreExtensions() fwk.ScoreExtensions { return pl }

// NormalizeScore maps the deltas onto 0-100, the least fragmenting node highest.
func (pl *fragmentationGradient) NormalizeScore(_ context.Context, _ fwk.CycleState, _ *v1.Pod, scores fwk.NodeScoreList) *fwk.Status {
	gpustranding.NormalizeMinMax(scores)
	return nil
}
