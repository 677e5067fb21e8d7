// Package conversionplan is the plan of node conversions for a cluster's
// pending GPU pods: the advisor's relabels, each checked by placing the
// pods with the shipped scheduler profile (pkg/placement), and whether a
// node's own GPU pods and VMs would fit elsewhere before it is drained, as
// cluster-autoscaler checks a scale-down. kubectl gpu-workload advise
// prints it; gpu-workload-controller carries it out.
package conversionplan

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterview"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
)

// Report is the advisor's plan for a cluster, checked by placing the
// pending GPU pods with the shipped profile: kubectl gpu-workload advise
// prints it, and the mode controller carries it out.
type Report struct {
	advisor.Plan
	// Gain is the plan's effect on the pending GPU pods, simulated.
	Gain *SimulatedGain `json:"simulatedGain,omitempty"`
	// Withdrawn are the relabels the advisor found but the simulation showed
	// to place no more pending pods: they would disrupt nodes for nothing.
	Withdrawn []advisor.Relabel `json:"withdrawn,omitempty"`
	// LeftOut are the pending GPU pods that do not count as demand, and why
	// (advisor.DemandRules).
	LeftOut []advisor.Unservable `json:"leftOut,omitempty"`
	Summary string               `json:"summary"`
	// Commands, run in order, carry out the plan: the prerequisite, then
	// each relabel.
	Commands []string `json:"commands"`
	// cluster is what Refit replays.
	cluster refitInput
}

// refitInput is the cluster as the simulator replays it.
type refitInput struct {
	policy  gpuworkload.SandboxPolicy
	nodes   []placement.NodeSpec
	running []placement.PodSpec
}

// SimulatedGain compares placing the pending GPU pods on the cluster as it
// is and as the plan would leave it, with the shipped scheduler profile.
type SimulatedGain struct {
	PendingGPUPods    int   `json:"pendingGPUPods"`
	PlacedBefore      int   `json:"placedBefore"`
	PlacedAfter       int   `json:"placedAfter"`
	UnitsPlacedBefore int64 `json:"unitsPlacedBefore"`
	UnitsPlacedAfter  int64 `json:"unitsPlacedAfter"`
}

// Live is Advise on the cluster config reaches, read as the GPU Operator
// reads it with the deployed scheduler's DRA driver and conversion timeout,
// narrowed: the plan the mode controller carries out is the one
// `kubectl gpu-workload advise` prints, less what the narrowing keeps out.
func Live(ctx context.Context, config *rest.Config, narrowing advisor.Narrowing) (*Report, error) {
	c, err := clusterview.ReadLive(ctx, config, false)
	if err != nil {
		return nil, err
	}
	args, _, err := clusterview.DeployedArgs(ctx, c.Client)
	if err != nil {
		return nil, err
	}
	c.FollowScheduler(args)
	pods, err := c.ListPods(ctx)
	if err != nil {
		return nil, err
	}
	return Advise(ctx, c, pods, narrowing, io.Discard)
}

// Advise builds the advisor's view of the cluster, asks for a plan and
// places the pending GPU pods on the cluster as it is and as the plan would
// leave it; progress hears of a long placement.
func Advise(ctx context.Context, c *clusterview.Cluster, pods []*v1.Pod, narrowing advisor.Narrowing, progress io.Writer) (*Report, error) {
	states, classifier := c.States()
	byName := map[string]*v1.Node{}
	for _, n := range c.Nodes {
		byName[n.Name] = n
	}
	bound := map[string][]*v1.Pod{}
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			bound[p.Spec.NodeName] = append(bound[p.Spec.NodeName], p)
		}
	}
	// Every node as the simulator replays it; the GPU nodes also as the advisor sees them.
	nodes := make([]placement.NodeSpec, len(states))
	in := advisor.Input{Policy: c.Policy}
	for i, s := range states {
		node := byName[s.Name]
		nodes[i] = placement.NodeSpec{
			Name: s.Name, MilliCPU: node.Status.Allocatable.Cpu().MilliValue(), Memory: node.Status.Allocatable.Memory().Value(),
			Mode: s.Mode.Mode, Inventory: s.Inventory(), Labels: node.Labels,
		}
		if !s.GPUNode || s.DRA {
			// A DRA node has no mode to change: the driver serves containers
			// and VMs from it as they come, and offers no vGPU.
			continue
		}
		view := advisor.NodeOf(node, s, nodes[i].Inventory, bound[s.Name], classifier)
		view.Held = narrowing.Held != nil && narrowing.Held(node)
		in.Nodes = append(in.Nodes, view)
	}
	var running, pending []placement.PodSpec
	var unservable, leftOut []advisor.Unservable
	for _, p := range pods {
		if p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
			continue
		}
		demand := poddemand.NewPodDemand(p, classifier)
		if p.Spec.NodeName != "" {
			running = append(running, podSpecOf(p, demand, p.Spec.NodeName))
			continue
		}
		name := p.Namespace + "/" + p.Name
		if !poddemand.HoldsGPU(p, classifier) {
			continue
		}
		if why := narrowing.Demand.Excludes(p); why != "" {
			leftOut = append(leftOut, advisor.Unservable{Pod: name, Why: why})
			continue
		}
		if narrowing.Waiting != nil && !narrowing.Waiting(p) {
			continue
		}
		switch {
		case demand.Invalid != nil:
			unservable = append(unservable, advisor.Unservable{Pod: name, Why: demand.Invalid.Error()})
		case demand.Conflict():
			unservable = append(unservable, advisor.Unservable{Pod: name, Why: fmt.Sprintf("requests GPU resources of several modes (%s) and a node runs one mode: request one mode's resources", demand.RequestModes())})
		case demand.IsGPU():
			pending = append(pending, podSpecOf(p, demand, ""))
			in.Pending = append(in.Pending, advisor.PendingPod{Name: name, Resource: demand.Requests[0].Name, Count: demand.Requests[0].Count, Constraint: poddemand.NodeConstraintOf(p)})
		}
	}
	plan := advisor.Advise(in)
	plan.Unservable = append(unservable, plan.Unservable...)
	report := &Report{Plan: plan, LeftOut: leftOut, cluster: refitInput{policy: c.Policy, nodes: nodes, running: running}}
	if len(plan.Relabels) > 0 && plan.Prerequisite == "" {
		if len(pending) < slowSimulation {
			progress = nil
		} else {
			fmt.Fprintf(progress, "advise: %d relabel(s) proposed; simulating the cluster now and relabelled with %d pending GPU pods (at this size, up to half a minute) ...\n", len(plan.Relabels), len(pending))
		}
		gain, err := simulateGain(ctx, c.Policy, nodes, running, pending, plan, progress)
		if err != nil {
			return nil, err
		}
		report.Gain = gain
		if gain.PlacedAfter <= gain.PlacedBefore && gain.UnitsPlacedAfter <= gain.UnitsPlacedBefore {
			report.Withdrawn, report.Relabels = report.Relabels, []advisor.Relabel{}
		}
	}
	report.Summary = adviseSummary(len(in.Pending)+len(unservable), report)
	report.Commands = []string{}
	if command, ok := gpuworkload.EnableSandboxCommand(c.Policy); ok && plan.Prerequisite != "" {
		report.Commands = append(report.Commands, command)
	}
	for _, r := range report.Relabels {
		report.Commands = append(report.Commands, r.Command)
	}
	return report, nil
}

// Refit says why the GPU pods and VMs running on node would not all fit on
// the cluster's other nodes, leaving out too the nodes in converting (the
// plan's other conversions); "" when they would. As cluster-autoscaler
// simulates a scale-down, it places them, after the pods running
// elsewhere, with the shipped profile: the mode controller drains a node
// only where this says its pods have somewhere to go.
func (r *Report) Refit(ctx context.Context, node string, converting []string) (string, error) {
	away := map[string]bool{node: true}
	for _, n := range converting {
		away[n] = true
	}
	var displaced, elsewhere []placement.PodSpec
	for _, p := range r.cluster.running {
		switch {
		case p.Node == node && (p.GPU != "" || p.VM):
			moved := p
			moved.Node = ""
			displaced = append(displaced, moved)
		case !away[p.Node]:
			elsewhere = append(elsewhere, p)
		}
	}
	if len(displaced) == 0 {
		return "", nil
	}
	remaining := slices.DeleteFunc(slices.Clone(r.cluster.nodes), func(n placement.NodeSpec) bool { return away[n.Name] })
	nodes, _ := relevantNodes(remaining, displaced, advisor.Plan{})
	kept := map[string]bool{}
	for _, n := range nodes {
		kept[n.Name] = true
	}
	pods := slices.DeleteFunc(elsewhere, func(p placement.PodSpec) bool { return !kept[p.Node] })
	unplaced, _, err := place(ctx, r.cluster.policy, nodes, append(pods, displaced...), nil)
	if err != nil {
		return "", fmt.Errorf("simulate the drain of node %s: %w", node, err)
	}
	if unplaced > 0 {
		names := make([]string, len(displaced))
		for i, p := range displaced {
			names[i] = strings.Replace(p.Name, ".", "/", 1)
		}
		return fmt.Sprintf("%d of the %d GPU pods and VMs it runs (%s) would fit on no other node (simulated with the shipped profile, the nodes being converted left out)", unplaced, len(displaced), strings.Join(names, ", ")), nil
	}
	return "", nil
}

// slowSimulation is the number of pending pods from which simulating a plan
// takes long enough to report its progress, every progressEvery pending pods
// (BenchmarkAdviseLargeCluster).
const slowSimulation, progressEvery = 2_000, 5_000

// simulateGain places the pending pods with the shipped profile on the
// cluster as it is and as relabelled; running pods stay where they are.
// With progress, each run reports its pending pods tried and placed so far.
func simulateGain(ctx context.Context, policy gpuworkload.SandboxPolicy, nodes []placement.NodeSpec, running, pending []placement.PodSpec, plan advisor.Plan, progress io.Writer) (*SimulatedGain, error) {
	before, after := relevantNodes(nodes, pending, plan)
	kept := map[string]bool{}
	for _, n := range before {
		kept[n.Name] = true
	}
	// Running pods first: they hold their nodes before any pending pod arrives.
	var scenarioPods []placement.PodSpec
	var runningGPUUnits int64
	for _, spec := range running {
		if kept[spec.Node] {
			scenarioPods = append(scenarioPods, spec)
			runningGPUUnits += spec.GPUCount
		}
	}
	scenarioPods = append(scenarioPods, pending...)
	gain := &SimulatedGain{PendingGPUPods: len(pending)}
	var progressMu sync.Mutex
	simulate := func(name string, nodes []placement.NodeSpec, placed *int, units *int64) error {
		var arrived func(placement.PodSpec, bool)
		if progress != nil {
			var tried, placedSoFar int
			arrived = func(pod placement.PodSpec, placed bool) {
				if pod.Node != "" {
					return
				}
				tried++
				if placed {
					placedSoFar++
				}
				if tried%progressEvery == 0 {
					progressMu.Lock()
					defer progressMu.Unlock()
					fmt.Fprintf(progress, "advise: cluster %s: %d of %d pending GPU pods tried, %d placed so far\n", name, tried, len(pending), placedSoFar)
				}
			}
		}
		unplaced, unitsPlaced, err := place(ctx, policy, nodes, scenarioPods, arrived)
		if err != nil {
			return fmt.Errorf("simulate the plan: %w", err)
		}
		*placed, *units = len(pending)-unplaced, unitsPlaced-runningGPUUnits
		return nil
	}
	// The two runs are independent: one per core.
	var beforeErr error
	var wg sync.WaitGroup
	wg.Go(func() { beforeErr = simulate("now", before, &gain.PlacedBefore, &gain.UnitsPlacedBefore) })
	afterErr := simulate("relabelled", after, &gain.PlacedAfter, &gain.UnitsPlacedAfter)
	wg.Wait()
	if err := errors.Join(beforeErr, afterErr); err != nil {
		return nil, err
	}
	return gain, nil
}

// place places the pods in order, with the shipped profile, on a cluster of
// the nodes: those with a node are bound there, the others scheduled, as
// pods that all arrive at once and none leaves. It returns how many GPU
// pods found no node and the GPU units placed; arrived hears of each pod.
func place(ctx context.Context, policy gpuworkload.SandboxPolicy, nodes []placement.NodeSpec, pods []placement.PodSpec, arrived func(pod placement.PodSpec, placed bool)) (unplacedGPUPods int, unitsPlaced int64, err error) {
	shipped, err := placement.ShippedOptions()
	if err != nil {
		return 0, 0, err
	}
	// The scheduler's cache, informers and trackers run until this returns.
	ctx, cancel := context.WithCancel(klog.NewContext(ctx, logr.Discard()))
	defer cancel()
	cluster, err := placement.New(ctx, placement.Config{Options: shipped, Nodes: nodes, Policy: policy})
	if err != nil {
		return 0, 0, err
	}
	for _, spec := range pods {
		p, err := cluster.NewPod(spec)
		if err != nil {
			return 0, 0, err
		}
		placed, err := cluster.Place(p)
		if err != nil {
			return 0, 0, err
		}
		if arrived != nil {
			arrived(spec, placed)
		}
		switch {
		case spec.GPU == "":
		case placed:
			unitsPlaced += spec.GPUCount
		default:
			unplacedGPUPods++
		}
	}
	return unplacedGPUPods, unitsPlaced, nil
}

// relevantNodes keeps the nodes that advertise, now or after the plan, a
// resource a pending pod requests: no other node can take the pending pods,
// and at 20,000 nodes filtering the others is most of a run. It returns
// the nodes as they are and as relabelled.
func relevantNodes(nodes []placement.NodeSpec, pending []placement.PodSpec, plan advisor.Plan) (before, after []placement.NodeSpec) {
	wanted := map[v1.ResourceName]bool{}
	for _, p := range pending {
		wanted[p.GPU] = true
	}
	relabels := map[string]advisor.Relabel{}
	for _, r := range plan.Relabels {
		relabels[r.Node] = r
	}
	serves := func(n placement.NodeSpec) bool {
		name, _, err := n.Inventory.Advertisement(n.Mode)
		return err == nil && wanted[name]
	}
	for _, n := range nodes {
		relabelled := n
		if r, ok := relabels[n.Name]; ok {
			relabelled.Apply(r)
		}
		if serves(n) || serves(relabelled) {
			before, after = append(before, n), append(after, relabelled)
		}
	}
	return before, after
}

// podSpecOf is the pod as the simulator replays it: its effective requests,
// its first GPU request by name, and node when it already runs.
func podSpecOf(p *v1.Pod, demand poddemand.PodDemand, node string) placement.PodSpec {
	requests := resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{})
	spec := placement.PodSpec{
		Name: p.Namespace + "." + p.Name, MilliCPU: requests.Cpu().MilliValue(), Memory: requests.Memory().Value(),
		VM: demand.VMI != nil, Node: node, NodeSelector: p.Spec.NodeSelector,
	}
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		spec.RequiredNodeAffinity = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	}
	if demand.IsGPU() {
		spec.GPU, spec.GPUCount = demand.Requests[0].Name, demand.Requests[0].Count
	}
	return spec
}

func adviseSummary(pending int, r *Report) string {
	switch {
	case pending == 0 && len(r.LeftOut) > 0:
		return fmt.Sprintf("%d GPU pod(s) pending, none of them counted as demand (above): nothing to relabel.", len(r.LeftOut))
	case pending == 0:
		return "No GPU pod is pending: nothing to relabel."
	case len(r.Withdrawn) > 0:
		g := r.Gain
		return fmt.Sprintf("%d GPU pod(s) pending; relabelling the %d node(s) the advisor found places no more of them in simulation with the shipped profile (%d -> %d pods, GPU units %d -> %d), so none is proposed.",
			pending, len(r.Withdrawn), g.PlacedBefore, g.PlacedAfter, g.UnitsPlacedBefore, g.UnitsPlacedAfter)
	case len(r.Unservable) == pending:
		return fmt.Sprintf("%d GPU pod(s) pending, and no relabel can help any of them (above).", pending)
	case r.Prerequisite != "":
		return "Relabelling has no effect until sandbox workloads are enabled: do that first."
	case len(r.Relabels) == 0 && len(r.DrainFirst) == 0 && len(r.Unserved) == 0:
		return fmt.Sprintf("%d GPU pod(s) pending, and free units of the resources they request already cover them: no relabel needed; kubectl gpu-workload explain pod NAME tells why one still waits.", pending)
	case len(r.Relabels) == 0 && len(r.Kept) > 0:
		return fmt.Sprintf("%d GPU pod(s) pending; the empty nodes that could serve them hold their own resources' last free units beyond a reserve (above), so none is proposed.", pending)
	case len(r.Relabels) == 0 && len(r.DrainFirst) > 0:
		return fmt.Sprintf("%d GPU pod(s) pending; no empty node can serve them; the nodes listed above could after a drain.", pending)
	case len(r.Relabels) == 0:
		return fmt.Sprintf("%d GPU pod(s) pending; no node could serve them after a relabel.", pending)
	}
	s := fmt.Sprintf("%d GPU pod(s) pending; relabel %d empty node(s).", pending, len(r.Relabels))
	if g := r.Gain; g != nil {
		s += fmt.Sprintf(" Simulated with the shipped profile: %d of %d pending GPU pods placed now, %d after the relabels (GPU units %d -> %d).",
			g.PlacedBefore, g.PendingGPUPods, g.PlacedAfter, g.UnitsPlacedBefore, g.UnitsPlacedAfter)
	}
	return s
}
