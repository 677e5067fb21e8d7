// Package modecontroller carries out the advisor's plans: it converts idle
// GPU nodes to the mode or vGPU profile that waiting pods need, one
// resumable conversion at a time per node, recorded on the node
// (docs/controller.md). The plan is the one `kubectl gpu-workload advise`
// prints; the controller adds hysteresis, guardrails and a rate limit.
package modecontroller

import (
	"context"
	"fmt"
	"slices"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Name is the controller's name in events and leader election.
const Name = "gpu-workload-controller"

// LabelOptOut set to "disabled" on a node keeps the controller off it: its
// mode is managed elsewhere.
const LabelOptOut = "gpu-workload.io/mode-controller"

// Planner plans on the live cluster with the controller's narrowing: the
// plan `kubectl gpu-workload advise` prints, less what the narrowing keeps
// out.
type Planner func(ctx context.Context, narrowing advisor.Narrowing) (advisor.Plan, error)

// Controller converts nodes. Reconcile is not safe for concurrent use: one
// loop runs it, under leader election.
type Controller struct {
	client   kubernetes.Interface
	dynamic  dynamic.Interface
	plan     Planner
	opts     Options
	clock    clock.PassiveClock
	recorder events.EventRecorder
	// idleSince is when each node was first seen running no GPU pod; a
	// restarted controller starts counting again.
	idleSince IdleSince
	// announced is the last dry-run proposal announced per node, and
	// warned the last cluster-wide warning, so that each is said once.
	announced map[string]advisor.Relabel
	warned    string
}

// New builds a controller; opts must be valid.
func New(client kubernetes.Interface, dyn dynamic.Interface, plan Planner, opts Options, clk clock.PassiveClock, recorder events.EventRecorder) (*Controller, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return &Controller{
		client: client, dynamic: dyn, plan: plan, opts: opts, clock: clk, recorder: recorder,
		idleSince: IdleSince{}, announced: map[string]advisor.Relabel{},
	}, nil
}

// Run reconciles every Interval until ctx ends; a failed pass is logged and
// the next one retries.
func (c *Controller) Run(ctx context.Context) {
	logger := klog.FromContext(ctx)
	tick := time.NewTicker(c.opts.Interval)
	defer tick.Stop()
	for {
		if err := c.Reconcile(ctx); err != nil {
			logger.Error(err, "Reconcile failed; retrying at the next interval")
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Reconcile advances the conversions under way, then starts the ones the
// plan and the rate limit allow.
func (c *Controller) Reconcile(ctx context.Context) error {
	now := c.clock.Now()
	nodes, err := c.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("list nodes: %w", err)
	}
	gpuPods, err := c.gpuPodsByNode(ctx, "")
	if err != nil {
		return err
	}
	started, inProgress, served := 0, 0, 0
	for i := range nodes.Items {
		node := &nodes.Items[i]
		served += podsUsing(gpuPods[node.Name], v1.ResourceName(node.Annotations[gpuworkload.AnnotationConvertedFor]))
		c.idleSince.Observe(node.Name, len(gpuPods[node.Name]) == 0, now)
		if at, ok := timeAnnotation(node, annotationStartedAt); ok && now.Sub(at) < c.opts.Window {
			started++
		}
		rec, err := recordOf(node)
		if err != nil {
			c.recorder.Eventf(node, nil, v1.EventTypeWarning, "ConversionRecordInvalid", "Convert", "%v: remove the annotation %s and the taint %s to release the node", err, annotationConversion, TaintKey)
			continue
		}
		if rec == nil {
			continue
		}
		if done, err := c.advance(ctx, node, rec); err != nil {
			return err
		} else if !done {
			inProgress++
		}
	}
	conversionsInProgress.Set(float64(inProgress))
	podsServedByConversions.Set(float64(served))
	budget := c.opts.Budget(started)
	if budget == 0 {
		klog.FromContext(ctx).V(2).Info("Not planning: the window's budget is spent", "started", started, "window", c.opts.Window)
		return nil
	}
	policy, blocked, err := c.operandsTolerateTheTaint(ctx)
	if err != nil {
		return err
	}
	if blocked {
		klog.FromContext(ctx).V(2).Info("Not planning: no ClusterPolicy, or its operands do not tolerate the conversion taint", "taint", TaintKey)
		return nil
	}
	plan, err := c.plan(ctx, advisor.Narrowing{Waiting: c.waitedLongEnough(now), Held: c.held(now)})
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	klog.FromContext(ctx).V(2).Info("Planned", "prerequisite", plan.Prerequisite, "relabels", plan.Relabels, "drainFirst", len(plan.DrainFirst), "unserved", plan.Unserved, "budget", budget)
	if plan.Prerequisite != "" {
		c.warnOnce(policy, "SandboxWorkloadsDisabled", "pods wait for VM modes but nothing can be converted until this is done: %s", plan.Prerequisite)
		return nil
	}
	c.warned = ""
	for _, r := range Starts(plan, budget) {
		if c.opts.Operation == DryRun {
			if err := c.announce(ctx, r); err != nil {
				return err
			}
			continue
		}
		if err := c.start(ctx, r, false); err != nil {
			return err
		}
	}
	if c.opts.Operation != Drain {
		return nil
	}
	budget -= len(plan.Relabels)
	drains, err := c.toDrain(ctx, plan, gpuPods)
	if err != nil {
		return err
	}
	for _, r := range drains {
		if budget <= 0 {
			break
		}
		budget--
		if err := c.start(ctx, r, true); err != nil {
			return err
		}
	}
	return nil
}

// toDrain picks, in the advisor's order, the busy nodes that cover the
// shortfall the relabels leave, per resource. A node that runs a VM KubeVirt
// cannot live-migrate is passed over, with an event: the controller never
// stops a VM. gpuPods are the pass's GPU pods by node.
func (c *Controller) toDrain(ctx context.Context, plan advisor.Plan, gpuPods map[string][]*v1.Pod) ([]advisor.Relabel, error) {
	short := map[v1.ResourceName]int64{}
	for _, u := range plan.Unserved {
		short[u.Resource] += u.Units
	}
	var out []advisor.Relabel
	for _, d := range plan.DrainFirst {
		if short[d.Resource] <= 0 {
			continue
		}
		if d.VMs > 0 {
			pinned, err := c.pinnedVM(ctx, gpuPods[d.Node])
			if err != nil {
				return nil, err
			}
			if pinned != "" {
				if c.announced[d.Node] != d.Relabel {
					c.announced[d.Node] = d.Relabel
					klog.FromContext(ctx).Info("Not draining a node whose VMs cannot live-migrate", "node", d.Node, "vms", d.VMs, "resource", d.Resource)
					c.recorder.Eventf(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: d.Node}}, nil, v1.EventTypeNormal, "NotDrained", "Drain",
						"%s; it would serve %d x %s once empty: %s", pinned, d.Units, d.Resource, d.Advice)
				}
				continue
			}
		}
		short[d.Resource] -= d.Units
		out = append(out, d.Relabel)
	}
	return out, nil
}

// pinnedVM says which VM of the node's GPU pods cannot live-migrate, and
// why; "" when every VM there can.
func (c *Controller) pinnedVM(ctx context.Context, pods []*v1.Pod) (string, error) {
	for _, p := range pods {
		ref := gpuworkload.VMIOf(p)
		if ref == nil {
			continue
		}
		if _, why, err := c.migratable(ctx, *ref); why != "" || err != nil {
			return why, err
		}
	}
	return "", nil
}

// podsUsing counts the pods that request the resource; none for "".
func podsUsing(pods []*v1.Pod, resource v1.ResourceName) int {
	if resource == "" {
		return 0
	}
	n := 0
	for _, p := range pods {
		if slices.ContainsFunc(gpuworkload.NewPodDemand(p, nil).Requests, func(r gpuworkload.ResourceRequest) bool { return r.Name == resource }) {
			n++
		}
	}
	return n
}

// gpuPodsByNode lists the running GPU pods and VMs, on one node or on all.
func (c *Controller) gpuPodsByNode(ctx context.Context, node string) (map[string][]*v1.Pod, error) {
	selector := "spec.nodeName!="
	if node != "" {
		selector = "spec.nodeName=" + node
	}
	pods, err := c.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: selector})
	if err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	out := map[string][]*v1.Pod{}
	for i := range pods.Items {
		p := &pods.Items[i]
		if p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
			continue
		}
		if d := gpuworkload.NewPodDemand(p, nil); d.IsGPU() || d.VMI != nil {
			out[p.Spec.NodeName] = append(out[p.Spec.NodeName], p)
		}
	}
	return out, nil
}

// waitedLongEnough keeps the pods the scheduler has found unschedulable for
// at least DemandWait: a burst shorter than that converts nothing.
func (c *Controller) waitedLongEnough(now time.Time) func(*v1.Pod) bool {
	return func(p *v1.Pod) bool {
		for _, cond := range p.Status.Conditions {
			if cond.Type == v1.PodScheduled && cond.Status == v1.ConditionFalse && cond.Reason == v1.PodReasonUnschedulable {
				return c.opts.DemandCounts(now.Sub(cond.LastTransitionTime.Time))
			}
		}
		return false
	}
}

// held says which nodes the controller must leave in their mode.
func (c *Controller) held(now time.Time) func(*v1.Node) bool {
	return func(n *v1.Node) bool { return c.holdReason(n, now) != "" }
}

// holdReason is why a node must keep its mode, "" when it may be converted.
func (c *Controller) holdReason(n *v1.Node, now time.Time) string {
	switch {
	case n.Labels[LabelOptOut] == "disabled":
		return "its mode is managed elsewhere (" + LabelOptOut + "=disabled)"
	case n.Spec.Unschedulable:
		return "it is cordoned"
	case notReady(n):
		return "it is not Ready"
	case n.Annotations[annotationConversion] != "" || hasTaint(n):
		return "a conversion is under way"
	}
	if at, ok := timeAnnotation(n, annotationFailedAt); ok && now.Sub(at) < c.opts.Backoff {
		return fmt.Sprintf("its conversion rolled back at %s (back-off %s)", at.Format(time.RFC3339), c.opts.Backoff)
	}
	if !c.opts.IdleEnough(c.idleSince.For(n.Name, now)) {
		return fmt.Sprintf("it has not been idle for %s", c.opts.IdleFor)
	}
	return ""
}

func notReady(n *v1.Node) bool {
	for _, cond := range n.Status.Conditions {
		if cond.Type == v1.NodeReady {
			return cond.Status != v1.ConditionTrue
		}
	}
	return false
}

// announce says, once per proposal, what a dry run would do: on the node
// and on each pod waiting for the resource.
func (c *Controller) announce(ctx context.Context, r advisor.Relabel) error {
	if c.announced[r.Node] == r {
		return nil
	}
	node, err := c.client.CoreV1().Nodes().Get(ctx, r.Node, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get node %s: %w", r.Node, err)
	}
	c.announced[r.Node] = r
	wouldConvert.Inc()
	klog.FromContext(ctx).Info("Would convert", "node", r.Node, "from", r.From, "to", r.To, "resource", r.Resource, "units", r.Units)
	c.recorder.Eventf(node, nil, v1.EventTypeNormal, "WouldConvert", "Convert", "dry run: would convert from %s to %s for %d x %s: %s", r.From, r.To, r.Units, r.Resource, r.Command)
	pods, err := c.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName="})
	if err != nil {
		return fmt.Errorf("list pending pods: %w", err)
	}
	for i := range pods.Items {
		p := &pods.Items[i]
		if slices.ContainsFunc(gpuworkload.NewPodDemand(p, nil).Requests, func(q gpuworkload.ResourceRequest) bool { return q.Name == r.Resource }) {
			c.recorder.Eventf(p, node, v1.EventTypeNormal, "WouldConvert", "Convert", "dry run: would convert node %s from %s to %s for the pods waiting for %s", r.Node, r.From, r.To, r.Resource)
		}
	}
	return nil
}

// operandsTolerateTheTaint checks that the GPU Operator's operand
// DaemonSets tolerate the conversion taint: the operator starts the new
// mode's operands on the tainted node, and where they do not tolerate it
// no conversion could finish. It returns the ClusterPolicy in force.
func (c *Controller) operandsTolerateTheTaint(ctx context.Context) (*unstructured.Unstructured, bool, error) {
	list, err := c.dynamic.Resource(clusterstate.ClusterPolicyGVR).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, true, fmt.Errorf("list ClusterPolicies: %w", err)
	}
	if len(list.Items) == 0 {
		return nil, true, nil
	}
	policy := &list.Items[0]
	raw, _, err := unstructured.NestedSlice(policy.Object, "spec", "daemonsets", "tolerations")
	if err != nil {
		return policy, true, fmt.Errorf("ClusterPolicy %s: spec.daemonsets.tolerations: %w", policy.GetName(), err)
	}
	var tolerations []v1.Toleration
	for _, t := range raw {
		var tol v1.Toleration
		if m, ok := t.(map[string]any); ok && runtime.DefaultUnstructuredConverter.FromUnstructured(m, &tol) == nil {
			tolerations = append(tolerations, tol)
		}
	}
	taint := conversionTaint()
	if slices.ContainsFunc(tolerations, func(t v1.Toleration) bool { return t.ToleratesTaint(klog.FromContext(ctx), &taint, false) }) {
		return policy, false, nil
	}
	c.warnOnce(policy, "ConversionTaintNotTolerated", "the operand DaemonSets do not tolerate the taint %s:%s, so a converting node would never get its new operands; nothing is converted. Fix: kubectl patch clusterpolicy %s --type json -p '[{\"op\":\"add\",\"path\":\"/spec/daemonsets/tolerations/-\",\"value\":{\"key\":\"%s\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}}]' (create the list first if it is absent)",
		TaintKey, taint.Effect, policy.GetName(), TaintKey)
	return policy, true, nil
}

// warnOnce records a cluster-wide warning on the ClusterPolicy, once while it holds.
func (c *Controller) warnOnce(policy *unstructured.Unstructured, reason, format string, args ...any) {
	message := fmt.Sprintf(format, args...)
	if c.warned == message {
		return
	}
	c.warned = message
	if policy != nil {
		c.recorder.Eventf(policy, nil, v1.EventTypeWarning, reason, "Convert", "%s", message)
	}
}
