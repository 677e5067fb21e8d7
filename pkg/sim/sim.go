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
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// Scenario is a cluster and a timed workload.
type Scenario struct {
	Name        string
	Description string
	Nodes       []placement.NodeSpec
	Pods        []placement.PodSpec
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
	// Options are the scheduler configuration, from ShippedOptions or
	// LoadProfile.
	placement.Options
	// Advisor, when set, relabels nodes as the mode advisor proposes.
	Advisor *AdvisorOptions
	// Arrived, when set, hears of each pod's first scheduling attempt:
	// a long run's progress.
	Arrived func(pod placement.PodSpec, placed bool)
}

// simPod is a pod of the workload: when it was placed, when it leaves.
type simPod struct {
	*placement.Pod
	placedAt time.Duration
	// departure is when the pod leaves: placed, after its duration; pending,
	// at the departure the workload gives it. Pods without one never leave.
	departure time.Duration
	gaveUp    bool
	tried     bool
}

type run struct {
	logger   klog.Logger
	cluster  *placement.Cluster
	opts     Options
	policy   gpuworkload.SandboxPolicy
	pods     []*simPod
	pending  []*simPod
	leaving  departureQueue
	ready    []conversion // sorted by time
	metrics  *metricsRecorder
	relabels []advisor.Relabel
	// reversals counts relabels that took a node away from the resource its
	// previous relabel served while pods requesting that resource waited.
	reversals int
	// idleSince is the controller's view of idle nodes, with Controller.
	idleSince modecontroller.IdleSince
}

type conversion struct {
	at   time.Duration
	node *placement.Node
}

// Run replays the scenario under one policy.
func Run(ctx context.Context, scenario *Scenario, policy ScoringPolicy, opts Options) (*Result, error) {
	// The scheduler's cache, informers and trackers run until this returns.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The simulated scheduler's GPU cluster state, which the policy's
	// plugins share with ours.
	state := schedulerstate.NewOffline()
	profile, registry, err := policy.profile(opts.Profile, scenario, state)
	if err != nil {
		return nil, err
	}
	cfg := placement.Config{Options: opts.Options, Nodes: scenario.Nodes, Policy: scenario.Policy, Registry: registry, State: state,
		Claims: slices.ContainsFunc(scenario.Pods, func(p placement.PodSpec) bool { return p.ClaimProducts != nil })}
	cfg.Profile = profile
	cluster, err := placement.New(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("policy %s: %w", policy.Name, err)
	}
	r := &run{logger: klog.FromContext(ctx), cluster: cluster, opts: opts, policy: scenario.Policy, metrics: newMetricsRecorder(cluster)}
	for _, spec := range scenario.Pods {
		p, err := cluster.NewPod(spec)
		if err != nil {
			return nil, err
		}
		r.pods = append(r.pods, &simPod{Pod: p})
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
			case p.Node == nil:
				r.giveUp(p)
			default:
				if err := r.cluster.Remove(p.Pod); err != nil {
					return err
				}
				freed = true
			}
		}
		for len(r.ready) > 0 && r.ready[0].at == now {
			r.cluster.FinishConversion(r.ready[0].node)
			r.ready = r.ready[1:]
			freed = true
		}
		if freed {
			if err := r.retryPending(now); err != nil {
				return err
			}
		}
		for next < len(r.pods) && r.pods[next].Spec.Arrival == now {
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
		r.metrics.sample(now)
	}
	return nil
}

// nextEventTime is the earliest event after now. The advisor's next look is
// an event only while GPU pods are pending and other events remain, so that
// a run always ends.
func (r *run) nextEventTime(now time.Duration, nextArrival int, nextAdvice time.Duration) (time.Duration, bool) {
	var times []time.Duration
	if nextArrival < len(r.pods) {
		times = append(times, r.pods[nextArrival].Spec.Arrival)
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
	placed, err := r.place(p, now)
	if err != nil {
		return err
	}
	if r.opts.Arrived != nil {
		r.opts.Arrived(p.Spec, placed)
	}
	if placed {
		return nil
	}
	r.pending = append(r.pending, p)
	r.metrics.addPending(p)
	if p.Spec.Duration > 0 {
		r.leaveAt(p, p.Spec.Arrival+p.Spec.Duration)
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
		if r.cluster.Unplaceable(p.Pod) {
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

// place places the pod and times it.
func (r *run) place(p *simPod, now time.Duration) (bool, error) {
	placed, err := r.cluster.Place(p.Pod)
	if err != nil {
		return false, err
	}
	if !p.tried {
		p.tried = true
		if !placed && p.Spec.GPU != "" {
			r.metrics.firstFailure()
		}
	}
	if !placed {
		return false, nil
	}
	p.placedAt = now
	if p.Spec.Duration > 0 {
		r.leaveAt(p, now+p.Spec.Duration)
	}
	return true, nil
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
		n := r.cluster.Node(relabel.Node)
		if n.RelabelledFor != "" && n.RelabelledFor != relabel.Resource && r.pendingFor(n.RelabelledFor) {
			r.reversals++
		}
		r.cluster.StartConversion(n, relabel)
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
		arrival[p.Spec.Name] = p.Spec.Arrival
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
	return slices.ContainsFunc(r.pending, func(p *simPod) bool { return p.Spec.GPU == resource })
}

func (r *run) advisorInput() advisor.Input {
	in := advisor.Input{Policy: r.policy}
	for _, n := range r.cluster.Nodes() {
		if n.DRA() {
			// The driver has no modes to change.
			continue
		}
		in.Nodes = append(in.Nodes, advisor.Node{
			Name: n.Spec.Name, Mode: r.cluster.EffectiveMode(n), Inventory: n.Spec.Inventory,
			Resource: n.Resource, Units: n.Units, UsedUnits: n.UsedUnits,
			GPUPods: n.GPUPods, VMs: n.VMs, Converting: n.Converting, RelabelledFor: n.RelabelledFor, Object: n.Object,
		})
	}
	for _, p := range r.pending {
		// No conversion serves a claim: only the DRA driver's devices do.
		if p.Spec.GPU != "" && p.Spec.ClaimProducts == nil {
			in.Pending = append(in.Pending, advisor.PendingPod{Name: p.Spec.Name, Resource: p.Spec.GPU, Count: p.Spec.GPUCount, Constraint: p.Constraint})
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
	return q[i].pod.Spec.Name < q[j].pod.Spec.Name
}
func (q departureQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *departureQueue) Push(x any)   { *q = append(*q, x.(departure)) }
func (q *departureQueue) Pop() any {
	old := *q
	d := old[len(old)-1]
	*q = old[:len(old)-1]
	return d
}

// ShippedOptions run the profile the install manifests ship
// (manifests/install/config.yaml), as the Deployment runs it.
func ShippedOptions() (Options, error) {
	scheduler, err := placement.ShippedOptions()
	return Options{Options: scheduler}, err
}
