package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
	"github.com/gpu-workload-scheduler/scheduler/pkg/sim"
)

// AdviseReport is the output of advise.
type AdviseReport struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Policy     string `json:"policy"`
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

const podsWanted = "the output of 'kubectl get pods -A -o json' (a PodList, a List of Pods, or one Pod), as JSON or YAML"

func newAdviseCommand(o *rootOptions) *cobra.Command {
	var src sourceFlags
	var podsFile string
	rules := advisor.DefaultDemandRules()
	cmd := &cobra.Command{
		Use:   "advise [--nodes NODES --pods PODS [--cluster-policy CP]]",
		Short: "Propose which empty GPU nodes to relabel so that pending GPU pods can run, with the commands and the simulated gain",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutputFormat(o.output); err != nil {
				return err
			}
			c, pods, err := clusterAndPods(cmd, o, src, podsFile)
			if err != nil {
				return err
			}
			report, err := advise(cmd.Context(), c, pods, advisor.Narrowing{Demand: rules}, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			return printAdviseReport(o.out, o.output, report)
		},
	}
	podSourceFlags(cmd, &src, &podsFile, "")
	cmd.Flags().StringVar(&src.dra, "dra", "", "DRA dump with --nodes: "+draWanted+"; without it DRA nodes count as nodes of the default mode")
	cmd.Flags().StringSliceVar(&rules.SchedulerNames, "scheduler-name", rules.SchedulerNames, "only pending pods of these schedulers count as demand, as for the mode controller")
	cmd.Flags().Int32Var(&rules.PriorityCutoff, "expendable-pods-priority-cutoff", rules.PriorityCutoff, "pending pods of a lower priority do not count as demand, as for the mode controller")
	return cmd
}

// clusterAndPods reads the cluster and every pod: from node and pod dumps
// given together, or live when neither is.
func clusterAndPods(cmd *cobra.Command, o *rootOptions, src sourceFlags, podsFile string) (*cluster, []*v1.Pod, error) {
	var c *cluster
	var pods []*v1.Pod
	var err error
	switch {
	case src.nodes != "" && podsFile != "":
		if c, err = loadOffline(src, o.inputs(cmd)); err == nil {
			pods, err = readPods(podsFile, o.inputs(cmd))
		}
	case src.nodes == "" && podsFile == "" && src.clusterPolicy == "":
		if c, err = loadLive(cmd.Context(), o.config, false); err == nil {
			pods, err = listPods(cmd.Context(), c)
		}
	default:
		err = usageErrorf("give --nodes and --pods (and optionally --cluster-policy) together, or none to read the live cluster")
	}
	return c, pods, err
}

// podSourceFlags are the flags of clusterAndPods' inputs.
func podSourceFlags(cmd *cobra.Command, src *sourceFlags, podsFile *string, podsNote string) {
	cmd.Flags().StringVar(&src.nodes, "nodes", "", "node dump instead of the live cluster: "+nodesWanted)
	cmd.Flags().StringVar(podsFile, "pods", "", "pod dump with --nodes: "+podsWanted+podsNote)
	cmd.Flags().StringVar(&src.clusterPolicy, "cluster-policy", "", "ClusterPolicy dump with --nodes; without it the GPU Operator's defaults apply")
}

func listPods(ctx context.Context, c *cluster) ([]*v1.Pod, error) {
	list, err := c.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	out := make([]*v1.Pod, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out, nil
}

// AdviseLive is advise on the cluster config reaches, narrowed: the plan
// the mode controller carries out is the one `kubectl gpu-workload advise`
// prints, less what the narrowing keeps out.
func AdviseLive(ctx context.Context, config *rest.Config, narrowing advisor.Narrowing) (*AdviseReport, error) {
	c, err := readLive(ctx, config, false)
	if err != nil {
		return nil, err
	}
	pods, err := listPods(ctx, c)
	if err != nil {
		return nil, err
	}
	return advise(ctx, c, pods, narrowing, io.Discard)
}

// advise builds the advisor's view of the cluster, asks for a plan and
// simulates it.
func advise(ctx context.Context, c *cluster, pods []*v1.Pod, narrowing advisor.Narrowing, progress io.Writer) (*AdviseReport, error) {
	states, classifier := c.states()
	byName := map[string]*v1.Node{}
	for _, n := range c.nodes {
		byName[n.Name] = n
	}
	// Every node as the simulator replays it; the GPU nodes also as the advisor sees them.
	nodes := make([]placement.NodeSpec, len(states))
	in := advisor.Input{Policy: c.policy}
	views := map[string]*advisor.Node{}
	for i, s := range states {
		node := byName[s.Name]
		nodes[i] = placement.NodeSpec{
			Name: s.Name, MilliCPU: node.Status.Allocatable.Cpu().MilliValue(), Memory: node.Status.Allocatable.Memory().Value(),
			Mode: s.Mode.Mode, Inventory: gpuworkload.InventoryOf(node, s), Labels: node.Labels,
		}
		if !s.GPUNode || s.DRA {
			// A DRA node has no mode to change: the driver serves containers
			// and VMs from it as they come, and offers no vGPU.
			continue
		}
		view := advisor.Node{
			Name: s.Name, Mode: s.Mode.Mode, Inventory: nodes[i].Inventory, Converting: s.Unsettled(), Object: node,
			RelabelledFor: v1.ResourceName(node.Annotations[gpuworkload.AnnotationConvertedFor]),
			Held:          narrowing.Held != nil && narrowing.Held(node),
		}
		if len(s.Resources) > 0 {
			view.Resource, view.Units = s.Resources[0].Name, s.Resources[0].Allocatable
		}
		in.Nodes = append(in.Nodes, view)
	}
	for i := range in.Nodes {
		views[in.Nodes[i].Name] = &in.Nodes[i]
	}
	var running, pending []placement.PodSpec
	var unservable, leftOut []advisor.Unservable
	for _, p := range pods {
		if p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
			continue
		}
		demand := gpuworkload.NewPodDemand(p, classifier)
		if p.Spec.NodeName != "" {
			running = append(running, podSpecOf(p, demand, p.Spec.NodeName))
			if view := views[p.Spec.NodeName]; view != nil && gpuworkload.HoldsGPU(p, classifier) {
				view.GPUPods++
				for _, r := range demand.Requests {
					if r.Name == view.Resource {
						view.UsedUnits += r.Count
					}
				}
				if vmi := gpuworkload.VMIOf(p); vmi != nil {
					view.VMs++
					view.Displaced = append(view.Displaced, "VM "+vmi.Namespace+"/"+vmi.Name)
				} else {
					view.Displaced = append(view.Displaced, p.Namespace+"/"+p.Name)
				}
			}
			continue
		}
		name := p.Namespace + "/" + p.Name
		if !gpuworkload.HoldsGPU(p, classifier) {
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
			in.Pending = append(in.Pending, advisor.PendingPod{Name: name, Resource: demand.Requests[0].Name, Count: demand.Requests[0].Count, Constraint: gpuworkload.NodeConstraintOf(p)})
		}
	}
	plan := advisor.Advise(in)
	plan.Unservable = append(unservable, plan.Unservable...)
	report := &AdviseReport{APIVersion: ReportAPIVersion, Kind: "AdviseReport", Policy: describePolicy(c.policy), Plan: plan, LeftOut: leftOut,
		cluster: refitInput{policy: c.policy, nodes: nodes, running: running}}
	if len(plan.Relabels) > 0 && plan.Prerequisite == "" {
		if len(pending) < slowSimulation {
			progress = nil
		} else {
			fmt.Fprintf(progress, "advise: %d relabel(s) proposed; simulating the cluster now and relabelled with %d pending GPU pods (at this size, up to half a minute) ...\n", len(plan.Relabels), len(pending))
		}
		gain, err := simulateGain(ctx, c.policy, nodes, running, pending, plan, progress)
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
	if command, ok := gpuworkload.EnableSandboxCommand(c.policy); ok && plan.Prerequisite != "" {
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
func (r *AdviseReport) Refit(ctx context.Context, node string, converting []string) (string, error) {
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
	shipped, err := sim.ShippedOptions()
	if err != nil {
		return "", err
	}
	policies, err := sim.ScoringPoliciesByName(sim.GPUStrandingPolicy)
	if err != nil {
		return "", err
	}
	res, err := sim.Run(klog.NewContext(ctx, logr.Discard()), &sim.Scenario{Name: "refit-" + node, Policy: r.cluster.policy, Nodes: nodes, Pods: append(pods, displaced...)}, policies[0], shipped)
	if err != nil {
		return "", fmt.Errorf("simulate the drain of node %s: %w", node, err)
	}
	if unplaced := res.Summary.UnplacedGPUPods; unplaced > 0 {
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
	shipped, err := sim.ShippedOptions()
	if err != nil {
		return nil, err
	}
	policies, err := sim.ScoringPoliciesByName(sim.GPUStrandingPolicy)
	if err != nil {
		return nil, err
	}
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
	ctx = klog.NewContext(ctx, logr.Discard())
	gain := &SimulatedGain{PendingGPUPods: len(pending)}
	var progressMu sync.Mutex
	simulate := func(name string, nodes []placement.NodeSpec, placed *int, units *int64) error {
		opts := shipped
		if progress != nil {
			var tried, placedSoFar int
			opts.Arrived = func(pod placement.PodSpec, placed bool) {
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
		res, err := sim.Run(ctx, &sim.Scenario{Name: name, Policy: policy, Nodes: nodes, Pods: scenarioPods}, policies[0], opts)
		if err != nil {
			return fmt.Errorf("simulate the plan: %w", err)
		}
		*placed, *units = len(pending)-res.Summary.UnplacedGPUPods, res.Summary.GPUUnitsPlaced-runningGPUUnits
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
func podSpecOf(p *v1.Pod, demand gpuworkload.PodDemand, node string) placement.PodSpec {
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

func adviseSummary(pending int, r *AdviseReport) string {
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

func printAdviseReport(out io.Writer, format string, r *AdviseReport) error {
	if format != "table" {
		return printStructured(out, format, r)
	}
	if r.Prerequisite != "" {
		fmt.Fprintf(out, "First: %s\n\n", r.Prerequisite)
	}
	if len(r.Relabels) > 0 {
		w := newTable(out)
		w.row("NODE", "FROM", "TO", "ADVERTISES", "COMMAND")
		for _, x := range r.Relabels {
			to := string(x.To)
			if x.Profile != "" {
				to += " (" + x.Profile + ")"
			}
			w.row(x.Node, string(x.From), to, fmt.Sprintf("%d %s", x.Units, x.Resource), x.Command)
		}
		if err := w.flush(); err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	for _, d := range r.DrainFirst {
		fmt.Fprintf(out, "Not proposed: %s %s\n", d.Node, d.Advice)
	}
	for _, u := range r.Unserved {
		if u.Constraint != "" {
			fmt.Fprintf(out, "Still short: %d unit(s) of %s for pods with %s\n", u.Units, u.Resource, u.Constraint)
			continue
		}
		fmt.Fprintf(out, "Still short: %d unit(s) of %s\n", u.Units, u.Resource)
	}
	for _, x := range r.Withdrawn {
		fmt.Fprintf(out, "Not proposed, no simulated gain: %s %s -> %s (%d %s)\n", x.Node, x.From, x.To, x.Units, x.Resource)
	}
	for _, u := range r.Unservable {
		fmt.Fprintf(out, "No relabel helps %s: %s\n", u.Pod, u.Why)
	}
	for _, u := range r.LeftOut {
		fmt.Fprintf(out, "Not counted as demand: %s: %s\n", u.Pod, u.Why)
	}
	_, err := fmt.Fprintln(out, r.Summary)
	return err
}
