// Package sim replays a timed workload through the real scheduler framework,
// with our plugins and the default ones built from the shipped
// KubeSchedulerConfiguration, without an API server, and measures how much
// GPU inventory each scoring policy strands. See docs/simulation.md.
package sim

import (
	"container/heap"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// Scenario is a cluster and a timed workload.
type Scenario struct {
	Name        string
	Description string
	Nodes       []NodeSpec
	Pods        []PodSpec
	// Policy is the ClusterPolicy's sandboxWorkloads the cluster runs with.
	Policy gpuworkload.SandboxPolicy
}

// advisorSuffix and controllerSuffix mark the result of a policy run with
// the advisor by hand, or with the mode controller's policy.
const (
	advisorSuffix    = "+advisor"
	controllerSuffix = "+controller"
)

// AdvisorOptions run the mode advisor during a simulation.
type AdvisorOptions struct {
	// Interval is how often the advisor looks at pending demand.
	Interval time.Duration
	// Conversion is how long a relabelled node advertises nothing while the
	// GPU Operator replaces its operands.
	Conversion time.Duration
	// Controller, when set, carries out the plans as gpu-workload-controller
	// does, with its options' hysteresis and rate limit (Interval and
	// Conversion above apply; its operation must be idleOnly): demand counts
	// once it has waited DemandWait, a node once seen idle for IdleFor at
	// the passes, at most MaxConversions start within Window, and a node
	// converts again only NodeCooldown after its last conversion ended.
	Controller *modecontroller.Options
}

// The advisor's timing when neither the scenario nor a flag gives it.
const (
	DefaultAdvisorInterval   = 5 * time.Minute
	DefaultAdvisorConversion = 10 * time.Minute
)

// minAdvisorInterval keeps a run's advisor passes countable: a year of
// simulated time at one pass per second is 31 million passes.
const minAdvisorInterval = time.Second

// Validate checks the timing, whether it came from a scenario or from flags;
// field names it as they are called there.
func (a AdvisorOptions) Validate(intervalField, conversionField string) error {
	if a.Interval < minAdvisorInterval || a.Interval > MaxTime {
		return fmt.Errorf("%s %s: want from %s to %s, e.g. 5m", intervalField, a.Interval, minAdvisorInterval, maxTimeText)
	}
	if a.Conversion < 0 || a.Conversion > MaxTime {
		return fmt.Errorf("%s %s: want from 0s to %s, e.g. 10m", conversionField, a.Conversion, maxTimeText)
	}
	if c := a.Controller; c != nil {
		if err := c.Validate(); err != nil {
			return fmt.Errorf("controller: %w", err)
		}
		if c.Operation != modecontroller.IdleOnly {
			return fmt.Errorf("controller: operation %s: the simulator replays idleOnly only (a dry run changes nothing; drain evicts)", c.Operation)
		}
	}
	return nil
}

// Options configure a run.
type Options struct {
	// Profile and Percentage come from LoadProfile.
	Profile    *schedconfig.KubeSchedulerProfile
	Percentage *int32
	// Advisor, when set, relabels nodes as the mode advisor proposes.
	Advisor *AdvisorOptions
	// Arrived, when set, hears of each pod's first scheduling attempt:
	// a long run's progress.
	Arrived func(pod PodSpec, placed bool)
	// keepIdlePlugins runs the profile whole, for the test that shows
	// idlePlugins decide nothing.
	keepIdlePlugins bool
	// walkEveryNode looks at every node for every pod, for the test that
	// shows the nodes serving a resource are all a pod needs looked at.
	walkEveryNode bool
	// filterAlways runs Filter on every node it looks at, for the test
	// that shows a remembered verdict is the one Filter would give.
	filterAlways bool
}

// simNode is a node's state during a run.
type simNode struct {
	spec       NodeSpec
	obj        *v1.Node
	mode       gpuworkload.Mode
	resource   v1.ResourceName // advertised GPU resource, "" while converting or without GPUs
	units      int64
	usedUnits  int64
	usedCPU    int64
	usedMemory int64
	pods       int
	gpuPods    int
	vms        int
	converting bool
	version    int
	// relabelledFor is the resource the advisor last converted the node for.
	relabelledFor v1.ResourceName
	// dra is what a DRA node's devices serve, nil for other nodes; draHeld
	// says which of its GPUs a claim holds; draProduct is the productName
	// of its devices.
	dra        draServing
	draHeld    []bool
	draProduct string
}

func (n *simNode) free() int64 { return n.units - n.usedUnits }

// cannotHold says why the node cannot hold a pod pinned to it, or "" if it
// can: a snapshot that overcommits a node or puts a GPU pod on a node of
// another mode would make every figure of the run wrong.
func (n *simNode) cannotHold(p PodSpec) string {
	if n.holds(&p) {
		return ""
	}
	switch {
	case n.pods >= podsPerNode:
		return fmt.Sprintf("holds %d pods, the most a simulated node takes", n.pods)
	case n.usedCPU+p.MilliCPU > n.spec.MilliCPU:
		return fmt.Sprintf("has %dm CPU free, the pod requests %dm", n.spec.MilliCPU-n.usedCPU, p.MilliCPU)
	case n.usedMemory+p.Memory > n.spec.Memory:
		return fmt.Sprintf("has %d bytes of memory free, the pod requests %d", n.spec.Memory-n.usedMemory, p.Memory)
	case p.GPU != "" && n.dra != nil && !n.serves(p.GPU):
		return fmt.Sprintf("publishes its GPUs through DRA, and no DeviceClass serves %s", p.GPU)
	case p.GPU != "" && !n.serves(p.GPU):
		return fmt.Sprintf("advertises %+q in mode %s, the pod requests %s", n.resource, n.mode, p.GPU)
	default:
		return fmt.Sprintf("has %d x %s free, the pod requests %d", n.free(), p.GPU, p.GPUCount)
	}
}

// holds says whether the node has room for one more pod and the pod's CPU,
// memory and GPU units free: NodeResourcesFit's verdict, as the node object
// advertises the same and the pod requests nothing else. On a DRA node the
// units are GPUs no claim holds, which is also GPUWorkloadFit's verdict on
// its devices.
func (n *simNode) holds(p *PodSpec) bool {
	return n.pods < podsPerNode && n.usedCPU+p.MilliCPU <= n.spec.MilliCPU && n.usedMemory+p.Memory <= n.spec.Memory &&
		(p.GPU == "" || n.serves(p.GPU) && n.free() >= p.GPUCount) &&
		(p.ClaimProducts == nil || slices.Contains(p.ClaimProducts, n.draProduct))
}

// serves says whether the node's GPUs serve the resource: the one it
// advertises, or on a DRA node those the DeviceClasses serve and, as
// draGPUs, claims.
func (n *simNode) serves(r v1.ResourceName) bool {
	if n.dra != nil {
		_, ok := n.dra[r]
		return ok || r == draGPUs
	}
	return n.resource == r
}

type simPod struct {
	spec PodSpec
	obj  *v1.Pod
	// constraint is the pod's nodeSelector and required node affinity.
	constraint gpuworkload.NodeConstraint
	node       *simNode
	placedAt   time.Duration
	// departure is when the pod leaves: placed, after its duration; pending,
	// at the departure the workload gives it. Pods without one never leave.
	departure time.Duration
	gaveUp    bool
	tried     bool
	// draGPUs are the GPUs its claim holds on a DRA node.
	draGPUs []int
}

// shape is what decides whether a pod fits a node: pods of one shape fit
// the same nodes, so one failure stands for all until capacity is freed.
type shape struct {
	gpu              v1.ResourceName
	count            int64
	milliCPU, memory int64
	vm               bool
	node             string
	// constraint is the key of the pod's node constraint, its claim's
	// alternatives included.
	constraint string
}

func (p *simPod) shape() shape {
	s := p.spec
	return shape{gpu: s.GPU, count: s.GPUCount, milliCPU: s.MilliCPU, memory: s.Memory, vm: s.VM, node: s.Node, constraint: p.constraint.Key}
}

type run struct {
	ctx    context.Context
	logger klog.Logger
	engine *engine
	opts   Options
	policy gpuworkload.SandboxPolicy
	dra    draServing
	// claims, when pods have claims, runs their allocation.
	claims *claimEngine
	nodes  []*simNode
	byName map[string]*simNode
	// listed is the scheduler's node list that atPosition (the node at each
	// position, so that the Filter path looks up no names) and servingAt
	// (per GPU resource, the positions of the nodes that serve it) were
	// made for. A node object replaced drops them, and a new list remakes
	// them.
	listed     []fwk.NodeInfo
	atPosition []*simNode
	servingAt  map[v1.ResourceName][]int
	pods       []*simPod
	pending    []*simPod
	leaving    departureQueue
	ready      []conversion // sorted by time
	metrics    *metricsRecorder
	relabels   []advisor.Relabel
	// reversals counts relabels that took a node away from the resource its
	// previous relabel served while pods requesting that resource waited.
	reversals int
	// idleSince is the controller's view of idle nodes, with Controller.
	idleSince modecontroller.IdleSince
	// unplaceable are the shapes that found no node since capacity was last
	// freed: placements only fill nodes, so they find none until then.
	unplaceable map[shape]bool
	// shapeNumbers number the shapes for the engine's Filter verdicts.
	shapeNumbers map[shape]int
}

type conversion struct {
	at   time.Duration
	node *simNode
}

// Run replays the scenario under one policy.
func Run(ctx context.Context, scenario *Scenario, policy ScoringPolicy, opts Options) (*Result, error) {
	// The engine's cache, informers and trackers run until this returns.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The simulated scheduler's GPU cluster state, which the engine feeds.
	state := schedulerstate.NewOffline()
	profile, registry, err := policy.profile(opts.Profile, scenario, state)
	if err != nil {
		return nil, err
	}
	withClaims := slices.ContainsFunc(scenario.Pods, func(p PodSpec) bool { return p.ClaimProducts != nil })
	if !opts.keepIdlePlugins {
		profile = withoutIdlePlugins(profile, withClaims)
	}
	e, err := newEngine(ctx, profile, opts.Percentage, registry, state, scenario.Policy)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", policy.Name, err)
	}
	dra, err := draServingOf(scenario.Nodes)
	if err != nil {
		return nil, err
	}
	r := &run{ctx: ctx, logger: klog.FromContext(ctx), engine: e, opts: opts, policy: scenario.Policy, dra: dra, byName: map[string]*simNode{}, unplaceable: map[shape]bool{}, shapeNumbers: map[shape]int{}}
	if withClaims {
		if r.claims, err = newClaimEngine(ctx, e); err != nil {
			return nil, fmt.Errorf("policy %s: %w", policy.Name, err)
		}
	}
	if err := r.publishDRA(scenario.Nodes); err != nil {
		return nil, err
	}
	for _, spec := range scenario.Nodes {
		n := &simNode{spec: spec, mode: spec.Mode}
		if spec.DRA {
			n.dra, n.draHeld, n.draProduct = dra, make([]bool, spec.Inventory.GPUs), spec.Inventory.Card.DRAProductName()
			if err := r.publishForClaims(n); err != nil {
				return nil, err
			}
		}
		r.advertise(n, false)
		r.nodes = append(r.nodes, n)
		r.byName[spec.Name] = n
		e.addNode(r.logger, n.obj)
	}
	r.metrics = newMetricsRecorder(dra)
	for _, spec := range scenario.Pods {
		if spec.Node != "" && r.byName[spec.Node] == nil {
			return nil, fmt.Errorf("pod %s: node %+q is not in the cluster description", spec.Name, spec.Node)
		}
		if spec.Node != "" && spec.ClaimProducts != nil {
			return nil, fmt.Errorf("pod %s: a VM with a claim is placed by the scheduler, which allocates the claim: leave node empty", spec.Name)
		}
		obj := podObject(spec, profile.SchedulerName)
		constraint, err := podConstraint(spec, obj, func(node string) string { return r.byName[node].draProduct })
		if err != nil {
			return nil, err
		}
		r.pods = append(r.pods, &simPod{spec: spec, obj: obj, constraint: constraint})
	}
	if err := r.loop(); err != nil {
		return nil, fmt.Errorf("policy %s: %w", policy.Name, err)
	}
	res := r.metrics.result(r.pods)
	res.Policy = policy.Name
	switch {
	case opts.Advisor != nil && opts.Advisor.Controller != nil:
		res.Policy += controllerSuffix
	case opts.Advisor != nil:
		res.Policy += advisorSuffix
	}
	res.Relabels = r.relabels
	res.Summary.Reversals = r.reversals
	return res, nil
}

// podConstraint is the pod's node constraint: its node affinity and, for
// a VM with a claim, the nodes whose cards its alternatives select, which
// one key stands for in every VM of those cards. productOf is the
// productName of a node's DRA devices.
func podConstraint(spec PodSpec, pod *v1.Pod, productOf func(node string) string) (gpuworkload.NodeConstraint, error) {
	constraint := gpuworkload.NodeConstraintOf(pod)
	if spec.ClaimProducts == nil {
		return constraint, nil
	}
	vfio := func(string) (gpuworkload.ResourceClass, bool) {
		return gpuworkload.DRATypeClass(gpuworkload.DRATypeVFIO), true
	}
	requests, err := gpuworkload.DRAClaimRequestsOf(vmClaimObject(spec), vfio)
	if err != nil {
		return constraint, fmt.Errorf("pod %s: %w", spec.Name, err)
	}
	for i := range requests {
		requests[i].Claim = "of " + strings.Join(spec.ClaimProducts, " or ")
	}
	return constraint.WithClaimSelectors(requests, func(node string) bool {
		return slices.Contains(spec.ClaimProducts, productOf(node))
	}), nil
}

// advertise sets the node object for its mode label and conversion state.
// The node advertises what its effective mode does: with sandbox workloads
// disabled the GPU Operator ignores the label and prepares containers.
// A DRA node advertises nothing; its units are its GPUs, under draGPUs.
func (r *run) advertise(n *simNode, converting bool) {
	n.converting = converting
	n.version++
	n.resource, n.units = "", 0
	if name, count, err := n.spec.Inventory.Advertisement(r.effectiveMode(n)); err == nil && count > 0 && !converting && !n.spec.DRA {
		n.resource, n.units = name, count
	}
	r.listed = nil
	n.obj = nodeObject(n.spec, n.mode, n.resource, n.units, n.version)
	if n.spec.DRA {
		n.resource, n.units = draGPUs, n.spec.Inventory.GPUs
	}
}

func (r *run) effectiveMode(n *simNode) gpuworkload.Mode {
	return r.policy.EffectiveMode(map[string]string{gpuworkload.LabelWorkloadConfig: string(n.mode)}).Mode
}

func (r *run) loop() error {
	next := 0 // next arrival
	var now, nextAdvice time.Duration
	for {
		var ok bool
		if now, ok = r.nextEventTime(now, next, nextAdvice); !ok {
			break
		}
		freed := false
		for r.leaving.Len() > 0 && r.leaving[0].at == now {
			leave := heap.Pop(&r.leaving).(departure)
			switch p := leave.pod; {
			case p.departure != now:
				// Stale: the pod was placed after it was queued to give up.
			case p.node == nil:
				r.giveUp(p)
			default:
				if err := r.depart(p); err != nil {
					return err
				}
				freed = true
			}
		}
		for len(r.ready) > 0 && r.ready[0].at == now {
			r.relabel(r.ready[0].node, r.ready[0].node.mode, false)
			r.ready = r.ready[1:]
			freed = true
		}
		if freed {
			clear(r.unplaceable)
			if err := r.retryPending(now); err != nil {
				return err
			}
		}
		for next < len(r.pods) && r.pods[next].spec.Arrival == now {
			if err := r.arrive(r.pods[next], now); err != nil {
				return err
			}
			next++
		}
		// The controller looks at every interval, to see which nodes stay idle.
		if a := r.opts.Advisor; a != nil && now >= nextAdvice && (r.metrics.waiting.Total() > 0 || a.Controller != nil) {
			r.advise(now)
			nextAdvice = now + r.opts.Advisor.Interval
		}
		r.metrics.sample(now, r.nodes)
	}
	return nil
}

// nextEventTime is the earliest event after now. The advisor's next look is
// an event only while GPU pods are pending and other events remain, so that
// a run always ends.
func (r *run) nextEventTime(now time.Duration, nextArrival int, nextAdvice time.Duration) (time.Duration, bool) {
	var times []time.Duration
	if nextArrival < len(r.pods) {
		times = append(times, r.pods[nextArrival].spec.Arrival)
	}
	if r.leaving.Len() > 0 {
		times = append(times, r.leaving[0].at)
	}
	if len(r.ready) > 0 {
		times = append(times, r.ready[0].at)
	}
	if len(times) == 0 {
		return 0, false
	}
	if r.opts.Advisor != nil && r.metrics.waiting.Total() > 0 && nextAdvice > now {
		times = append(times, nextAdvice)
	}
	return slices.Min(times), true
}

func (r *run) arrive(p *simPod, now time.Duration) error {
	if p.spec.ClaimProducts != nil {
		if err := r.claims.create(p); err != nil {
			return err
		}
	}
	placed, err := r.place(p, now)
	if err != nil {
		return err
	}
	if r.opts.Arrived != nil {
		r.opts.Arrived(p.spec, placed)
	}
	if placed {
		return nil
	}
	r.pending = append(r.pending, p)
	r.metrics.addPending(p)
	if p.spec.Duration > 0 {
		r.leaveAt(p, p.spec.Arrival+p.spec.Duration)
	}
	return nil
}

// giveUp drops a pod still pending at its departure: its demand has passed.
func (r *run) giveUp(p *simPod) {
	p.gaveUp = true
	r.pending = slices.DeleteFunc(r.pending, func(q *simPod) bool { return q == p })
	r.metrics.removePending(p)
}

func (r *run) leaveAt(p *simPod, at time.Duration) {
	p.departure = at
	heap.Push(&r.leaving, departure{at: at, pod: p})
}

// retryPending tries pending pods oldest first, as the scheduling queue does
// after capacity is freed. A shape that fails keeps failing until more is
// freed, so its later pods are not tried again in this pass.
func (r *run) retryPending(now time.Duration) error {
	kept := r.pending[:0]
	for _, p := range r.pending {
		if r.unplaceable[p.shape()] {
			kept = append(kept, p)
			continue
		}
		placed, err := r.place(p, now)
		if err != nil {
			return err
		}
		if placed {
			r.metrics.removePending(p)
			continue
		}
		kept = append(kept, p)
	}
	clear(r.pending[len(kept):])
	r.pending = kept
	return nil
}

// place schedules the pod (or binds it to its given node) and accounts for it.
func (r *run) place(p *simPod, now time.Duration) (bool, error) {
	node := p.spec.Node
	var cycle fwk.CycleState
	if node == "" {
		s := p.shape()
		var err error
		if node, cycle, err = r.engine.schedule(r.ctx, p.obj, r.unplaceable[s], nodesFor{r, p}); err != nil {
			return false, fmt.Errorf("schedule pod %s: %w", p.spec.Name, err)
		}
		if node == "" {
			r.unplaceable[s] = true
		}
	} else if why := r.byName[node].cannotHold(p.spec); why != "" {
		return false, fmt.Errorf("pod %s is pinned to node %s, which %s: pin it to a node that holds it, or leave node empty to schedule it", p.spec.Name, node, why)
	}
	if !p.tried {
		p.tried = true
		if node == "" && p.spec.GPU != "" {
			r.metrics.firstFailure(r.nodes)
		}
	}
	if node == "" {
		return false, nil
	}
	if err := r.engine.bind(r.logger, p.obj, node); err != nil {
		return false, err
	}
	n := r.byName[node]
	p.node, p.placedAt = n, now
	n.pods++
	n.usedCPU += p.spec.MilliCPU
	n.usedMemory += p.spec.Memory
	if p.spec.GPU != "" {
		n.usedUnits += p.spec.GPUCount
		n.gpuPods++
		if n.dra != nil {
			if err := r.allocateDRA(p, n, cycle); err != nil {
				return false, err
			}
		}
	}
	if p.spec.VM {
		n.vms++
	}
	if p.spec.Duration > 0 {
		r.leaveAt(p, now+p.spec.Duration)
	}
	return true, nil
}

// nodesFor is what the run knows of its nodes for one pod.
type nodesFor struct {
	r *run
	p *simPod
}

func (f nodesFor) serving(all []fwk.NodeInfo) []int {
	r := f.r
	if r.listed == nil || len(r.listed) != len(all) || &r.listed[0] != &all[0] {
		r.listed, r.servingAt = all, map[v1.ResourceName][]int{}
		r.atPosition = r.atPosition[:0]
		for _, ni := range all {
			r.atPosition = append(r.atPosition, r.byName[ni.Node().Name])
		}
	}
	gpu := f.p.spec.GPU
	if gpu == "" || r.opts.walkEveryNode {
		return nil
	}
	positions, ok := r.servingAt[gpu]
	if !ok {
		positions = []int{}
		for i, n := range r.atPosition {
			if n.serves(gpu) {
				positions = append(positions, i)
			}
		}
		r.servingAt[gpu] = positions
	}
	return positions
}

func (f nodesFor) full(position int) bool { return !f.r.atPosition[position].holds(&f.p.spec) }

func (f nodesFor) shape() int {
	if f.p.spec.ClaimProducts != nil || f.r.opts.filterAlways {
		return 0
	}
	s := f.p.shape()
	n, ok := f.r.shapeNumbers[s]
	if !ok {
		n = len(f.r.shapeNumbers) + 1
		f.r.shapeNumbers[s] = n
	}
	return n
}

func (r *run) depart(p *simPod) error {
	if err := r.engine.remove(r.logger, p.obj); err != nil {
		return fmt.Errorf("remove pod %s: %w", p.spec.Name, err)
	}
	n := p.node
	n.pods--
	n.usedCPU -= p.spec.MilliCPU
	n.usedMemory -= p.spec.Memory
	if p.spec.GPU != "" {
		n.usedUnits -= p.spec.GPUCount
		n.gpuPods--
		if n.dra != nil {
			if err := r.releaseDRA(p, n); err != nil {
				return err
			}
		}
	}
	if p.spec.VM {
		n.vms--
	}
	return nil
}

// advise relabels the nodes the mode advisor proposes; each advertises
// nothing until its conversion is done. A plan with a prerequisite (sandbox
// workloads disabled) would change nothing, so it is not applied.
func (r *run) advise(now time.Duration) {
	in := r.advisorInput()
	var starts func(advisor.Plan) []advisor.Relabel
	if c := r.opts.Advisor.Controller; c != nil {
		in, starts = r.asController(*c, in, now)
	}
	plan := advisor.Advise(in)
	if plan.Prerequisite != "" {
		return
	}
	relabels := plan.Relabels
	if starts != nil {
		relabels = starts(plan)
	}
	for _, relabel := range relabels {
		n := r.byName[relabel.Node]
		if n.relabelledFor != "" && n.relabelledFor != relabel.Resource && r.pendingFor(n.relabelledFor) {
			r.reversals++
		}
		n.relabelledFor = relabel.Resource
		n.spec.Apply(relabel)
		r.relabel(n, relabel.To, true)
		r.ready = append(r.ready, conversion{at: now + r.opts.Advisor.Conversion, node: n})
		relabel.At = now
		r.relabels = append(r.relabels, relabel)
	}
	slices.SortStableFunc(r.ready, func(a, b conversion) int { return int(a.at - b.at) })
}

// simEpoch is the wall-clock time of a run's start, for the controller's
// functions, which take times.
var simEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// asController narrows the advisor's input as the mode controller does,
// with its own functions, and gives the rate limit's cut of the plan.
func (r *run) asController(c modecontroller.Options, in advisor.Input, now time.Duration) (advisor.Input, func(advisor.Plan) []advisor.Relabel) {
	if r.idleSince == nil {
		r.idleSince = modecontroller.IdleSince{}
	}
	at := simEpoch.Add(now)
	ended := map[string]time.Duration{}
	for _, rl := range r.relabels {
		ended[rl.Node] = max(ended[rl.Node], rl.At+r.opts.Advisor.Conversion)
	}
	for i := range in.Nodes {
		n := &in.Nodes[i]
		r.idleSince.Observe(n.Name, n.GPUPods == 0, at)
		end, converted := ended[n.Name]
		n.Held = n.Held || !c.IdleEnough(r.idleSince.For(n.Name, at)) || converted && c.Cooling(now-end)
	}
	arrival := map[string]time.Duration{}
	for _, p := range r.pending {
		arrival[p.spec.Name] = p.spec.Arrival
	}
	in.Pending = slices.DeleteFunc(in.Pending, func(p advisor.PendingPod) bool { return !c.DemandCounts(now - arrival[p.Name]) })
	started := 0
	for _, rl := range r.relabels {
		if now-rl.At < c.Window {
			started++
		}
	}
	return in, func(plan advisor.Plan) []advisor.Relabel { return modecontroller.Starts(plan, c.Budget(started)) }
}

// pendingFor reports whether a pending pod requests the resource.
func (r *run) pendingFor(resource v1.ResourceName) bool {
	return slices.ContainsFunc(r.pending, func(p *simPod) bool { return p.spec.GPU == resource })
}

// relabel gives the node a mode label and tells the scheduler.
func (r *run) relabel(n *simNode, mode gpuworkload.Mode, converting bool) {
	old := n.obj
	n.mode = mode
	r.advertise(n, converting)
	r.engine.updateNode(r.logger, old, n.obj)
}

func (r *run) advisorInput() advisor.Input {
	in := advisor.Input{Policy: r.policy}
	for _, n := range r.nodes {
		if n.dra != nil {
			// The driver has no modes to change.
			continue
		}
		in.Nodes = append(in.Nodes, advisor.Node{
			Name: n.spec.Name, Mode: r.effectiveMode(n), Inventory: n.spec.Inventory,
			Resource: n.resource, Units: n.units, UsedUnits: n.usedUnits,
			GPUPods: n.gpuPods, VMs: n.vms, Converting: n.converting, RelabelledFor: n.relabelledFor,
		})
	}
	for _, p := range r.pending {
		// No conversion serves a claim: only the DRA driver's devices do.
		if p.spec.GPU != "" && p.spec.ClaimProducts == nil {
			in.Pending = append(in.Pending, advisor.PendingPod{Name: p.spec.Name, Resource: p.spec.GPU, Count: p.spec.GPUCount})
		}
	}
	return in
}

type departure struct {
	at  time.Duration
	pod *simPod
}

// departureQueue orders departures by time, then by pod name for determinism.
type departureQueue []departure

func (q departureQueue) Len() int { return len(q) }
func (q departureQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].pod.spec.Name < q[j].pod.spec.Name
}
func (q departureQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *departureQueue) Push(x any)   { *q = append(*q, x.(departure)) }
func (q *departureQueue) Pop() any {
	old := *q
	d := old[len(old)-1]
	*q = old[:len(old)-1]
	return d
}
