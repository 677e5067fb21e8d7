// Package modecontroller carries out the advisor's plans: it converts idle
// GPU nodes to the mode or vGPU profile that waiting pods need, one
// resumable conversion at a time per node, recorded on the node
// (docs/controller.md). The plan is the one `kubectl gpu-workload advise`
// prints; the controller adds hysteresis, guardrails, a rate limit kept in
// an API object, and drains by kubectl drain's and cluster-autoscaler's
// rules.
package modecontroller

import (
	"context"
	"fmt"
	"slices"
	"strings"
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
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// Name is the controller's name in events and leader election.
const Name = "gpu-workload-controller"

// LabelOptOut set to "disabled" on a node keeps the controller off it: its
// mode is managed elsewhere.
const LabelOptOut = "gpu-workload.io/mode-controller"

// Planner plans on the live cluster with the controller's narrowing: the
// plan `kubectl gpu-workload advise` prints, less what the narrowing keeps
// out.
type Planner func(ctx context.Context, narrowing advisor.Narrowing) (Plan, error)

// Plan is the advisor's plan and the simulation a drain asks of it.
type Plan struct {
	advisor.Plan
	// Refit says why the GPU pods and VMs running on node would fit on no
	// other node, the nodes in converting left out; "" when they would all
	// fit (conversionplan.Report.Refit).
	Refit func(ctx context.Context, node string, converting []string) (string, error)
}

// Controller converts nodes. Reconcile is not safe for concurrent use: one
// loop runs it, under leader election.
type Controller struct {
	client   kubernetes.Interface
	dynamic  dynamic.Interface
	plan     Planner
	opts     Options
	clock    clock.PassiveClock
	recorder events.EventRecorder
	metrics  *Metrics
	// idleSince is when each node was first seen running no GPU pod; a
	// restarted controller starts counting again.
	idleSince IdleSince
	// announced is the last dry-run proposal or refused drain announced
	// per node, and warned the last cluster-wide warning, so that each is
	// said once.
	announced map[string]advisor.Relabel
	warned    string
}

// New builds a controller; opts must be valid.
func New(client kubernetes.Interface, dyn dynamic.Interface, plan Planner, opts Options, clk clock.PassiveClock, recorder events.EventRecorder, metrics *Metrics) (*Controller, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return &Controller{
		client: client, dynamic: dyn, plan: plan, opts: opts, clock: clk, recorder: recorder, metrics: metrics,
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

// pass is what one reconcile read of the cluster.
type pass struct {
	now time.Time
	// policy is the one ClusterPolicy, nil when there is none.
	policy     *unstructured.Unstructured
	classifier *gpuworkload.Classifier
	history    *history
}

// Reconcile advances the conversions under way, then starts the ones the
// plan, the cluster's health and the rate limit allow.
func (c *Controller) Reconcile(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	p := &pass{now: c.clock.Now()}
	nodes, err := c.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("list nodes: %w", err)
	}
	if err := c.readPolicies(ctx, p, nodes.Items); err != nil {
		return err
	}
	if p.history, err = c.readHistory(ctx); err != nil {
		return err
	}
	gpuPods, err := c.gpuPodsByNode(ctx, p, "")
	if err != nil {
		return err
	}
	inProgress, served := 0, 0
	for i := range nodes.Items {
		node := &nodes.Items[i]
		served += podsUsing(gpuPods[node.Name], v1.ResourceName(node.Annotations[gpuworkload.AnnotationConvertedFor]), p.classifier)
		c.idleSince.Observe(node.Name, len(gpuPods[node.Name]) == 0, p.now)
		rec, err := recordOf(node)
		if err != nil {
			c.recorder.Eventf(node, nil, v1.EventTypeWarning, "ConversionRecordInvalid", "Convert", "%v: remove the annotation %s and the taint %s to release the node", err, annotationConversion, TaintKey)
			continue
		}
		if rec == nil {
			continue
		}
		if done, err := c.advance(ctx, p, node, rec); err != nil {
			return err
		} else if !done {
			inProgress++
		}
	}
	c.metrics.conversionsInProgress.Set(float64(inProgress))
	c.metrics.podsServedByConversions.Set(float64(served))
	if why := c.opts.unhealthy(nodes.Items); why != "" {
		logger.Info("Not planning: the cluster is not healthy enough to convert nodes", "why", why)
		return nil
	}
	budget := c.opts.Budget(p.history.startedWithin(p.now, c.opts.Window))
	if budget == 0 {
		logger.V(2).Info("Not planning: the window's budget is spent", "window", c.opts.Window)
		return nil
	}
	if !c.operandsTolerateTheTaint(ctx, p.policy) {
		logger.V(2).Info("Not planning: no ClusterPolicy, or its operands do not tolerate the conversion taint", "taint", TaintKey)
		return nil
	}
	rules, err := c.demandRules(ctx)
	if err != nil {
		return err
	}
	plan, err := c.plan(ctx, advisor.Narrowing{Demand: rules, Waiting: c.waitedLongEnough(p.now), Held: c.held(p)})
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	logger.V(2).Info("Planned", "prerequisite", plan.Prerequisite, "relabels", plan.Relabels, "drainFirst", len(plan.DrainFirst), "unserved", plan.Unserved, "budget", budget)
	if plan.Prerequisite != "" {
		c.warnOnce(p.policy, "SandboxWorkloadsDisabled", "pods wait for VM modes but nothing can be converted until this is done: %s", plan.Prerequisite)
		return nil
	}
	c.warned = ""
	starts := Starts(plan.Plan, budget)
	for _, r := range starts {
		if c.opts.Operation == DryRun {
			if err := c.announce(ctx, p, r); err != nil {
				return err
			}
			continue
		}
		if err := c.start(ctx, p, r, false); err != nil {
			return err
		}
	}
	if c.opts.Operation != Drain {
		return nil
	}
	drains, err := c.toDrain(ctx, plan, gpuPods, budget-len(plan.Relabels))
	if err != nil {
		return err
	}
	for _, r := range drains {
		if err := c.start(ctx, p, r, true); err != nil {
			return err
		}
	}
	return nil
}

// readPolicies reads the ClusterPolicy and KubeVirt's permitted devices
// into the pass's classifier: the controller judges GPU work with the
// evidence the advisor and the scheduler use.
func (c *Controller) readPolicies(ctx context.Context, p *pass, nodes []v1.Node) error {
	list, err := c.dynamic.Resource(clusterstate.ClusterPolicyGVR).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("list ClusterPolicies: %w", err)
	}
	policy := gpuworkload.DefaultPolicy()
	switch len(list.Items) {
	case 0:
	case 1:
		p.policy = &list.Items[0]
		if policy, err = gpuworkload.PolicyFromClusterPolicy(p.policy); err != nil {
			return fmt.Errorf("ClusterPolicy %s: %w", p.policy.GetName(), err)
		}
	default:
		names := make([]string, len(list.Items))
		for i := range list.Items {
			names[i] = list.Items[i].GetName()
		}
		return fmt.Errorf("%d ClusterPolicies (%s): the GPU Operator acts on one and ignores the others, so which one holds is not certain; nothing is converted until all but one are deleted", len(names), strings.Join(names, ", "))
	}
	kubevirts, err := c.dynamic.Resource(clusterstate.KubeVirtGVR).List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("list KubeVirts: %w", err)
	}
	var permitted *gpuworkload.PermittedHostDevices
	if sorted := clusterstate.OldestFirst(toAny(kubevirts.Items)); len(sorted) > 0 {
		if permitted, err = gpuworkload.PermittedHostDevicesFromKubeVirt(sorted[0]); err != nil {
			return fmt.Errorf("KubeVirt %s/%s: %w", sorted[0].GetNamespace(), sorted[0].GetName(), err)
		}
	}
	ptrs := make([]*v1.Node, len(nodes))
	for i := range nodes {
		ptrs[i] = &nodes[i]
	}
	p.classifier = gpuworkload.NewClassifier(gpuworkload.ClassifierConfig{Permitted: permitted}, policy, ptrs)
	return nil
}

func toAny(items []unstructured.Unstructured) []any {
	out := make([]any, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

// demandRules are the options' demand rules, with the namespace selector
// resolved against the namespaces' labels.
func (c *Controller) demandRules(ctx context.Context) (advisor.DemandRules, error) {
	rules := advisor.DemandRules{SchedulerNames: c.opts.SchedulerNames, PriorityCutoff: c.opts.PriorityCutoff}
	if c.opts.NamespaceSelector == nil {
		return rules, nil
	}
	list, err := c.client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{LabelSelector: c.opts.NamespaceSelector.String()})
	if err != nil {
		return rules, fmt.Errorf("list namespaces: %w", err)
	}
	selected := map[string]bool{}
	for _, ns := range list.Items {
		selected[ns.Name] = true
	}
	rules.Namespace = func(name string) bool { return selected[name] }
	return rules, nil
}

// toDrain picks, in the advisor's order and up to budget, the busy nodes
// that cover the shortfall the relabels leave, per resource. A node any
// check refuses (judgeDrain), or whose GPU pods and VMs would fit on no
// other node once the plan's other nodes convert, is passed over with one
// event naming each pod and rule.
func (c *Controller) toDrain(ctx context.Context, plan Plan, gpuPods map[string][]*v1.Pod, budget int) ([]advisor.Relabel, error) {
	short := map[v1.ResourceName]int64{}
	for _, u := range plan.Unserved {
		short[u.Resource] += u.Units
	}
	converting := make([]string, len(plan.Relabels))
	for i, r := range plan.Relabels {
		converting[i] = r.Node
	}
	var out []advisor.Relabel
	for _, d := range plan.DrainFirst {
		if len(out) >= budget {
			break
		}
		if short[d.Resource] <= 0 {
			continue
		}
		m, err := c.judgeDrain(ctx, gpuPods[d.Node])
		if err != nil {
			return nil, err
		}
		if len(m.refused) == 0 {
			why, err := plan.Refit(ctx, d.Node, converting)
			if err != nil {
				return nil, err
			}
			if why != "" {
				m.refused = append(m.refused, why)
			}
		}
		if len(m.refused) > 0 {
			if c.announced[d.Node] != d.Relabel {
				c.announced[d.Node] = d.Relabel
				klog.FromContext(ctx).Info("Not draining a node a check refuses", "node", d.Node, "refused", m.refused)
				c.recorder.Eventf(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: d.Node}}, nil, v1.EventTypeNormal, "NotDrained", "Drain",
					"%s; it would serve %d x %s once empty: %s", strings.Join(m.refused, "; "), d.Units, d.Resource, d.Advice)
			}
			continue
		}
		short[d.Resource] -= d.Units
		converting = append(converting, d.Node)
		out = append(out, d.Relabel)
	}
	return out, nil
}

// podsUsing counts the pods that request the resource; none for "".
func podsUsing(pods []*v1.Pod, resource v1.ResourceName, classifier *gpuworkload.Classifier) int {
	if resource == "" {
		return 0
	}
	n := 0
	for _, p := range pods {
		if slices.ContainsFunc(poddemand.NewPodDemand(p, classifier).Requests, func(r poddemand.ResourceRequest) bool { return r.Name == resource }) {
			n++
		}
	}
	return n
}

// gpuPodsByNode lists, from the API server, the bound pods that hold GPUs
// (poddemand.HoldsGPU), on one node or on all.
func (c *Controller) gpuPodsByNode(ctx context.Context, p *pass, node string) (map[string][]*v1.Pod, error) {
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
		pod := &pods.Items[i]
		if poddemand.HoldsGPU(pod, p.classifier) {
			out[pod.Spec.NodeName] = append(out[pod.Spec.NodeName], pod)
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
func (c *Controller) held(p *pass) func(*v1.Node) bool {
	return func(n *v1.Node) bool { return c.holdReason(n, p) != "" }
}

// holdReason is why a node must keep its mode, "" when it may be converted.
func (c *Controller) holdReason(n *v1.Node, p *pass) string {
	switch {
	case n.Labels[LabelOptOut] == "disabled":
		return "its mode is managed elsewhere (" + LabelOptOut + "=disabled)"
	case n.Spec.Unschedulable:
		return "it is cordoned"
	case !ready(n):
		return "it is not Ready"
	case n.Annotations[annotationConversion] != "" || hasTaint(n):
		return "a conversion is under way"
	}
	if at, ok := timeAnnotation(n, annotationFailedAt); ok && p.now.Sub(at) < c.opts.Backoff {
		return fmt.Sprintf("its conversion rolled back at %s (back-off %s)", at.Format(time.RFC3339), c.opts.Backoff)
	}
	if until, cooling := p.history.cooling(n.Name, p.now, c.opts); cooling {
		return fmt.Sprintf("it converted recently; its cool-down ends at %s (--node-cooldown %s)", until.UTC().Format(time.RFC3339), c.opts.NodeCooldown)
	}
	if !c.opts.IdleEnough(c.idleSince.For(n.Name, p.now)) {
		return fmt.Sprintf("it has not been idle for %s", c.opts.IdleFor)
	}
	return ""
}

// ready reads the node's Ready condition; a node without one (never
// reported by a kubelet) is not Ready, as for cluster-autoscaler.
func ready(n *v1.Node) bool {
	for _, cond := range n.Status.Conditions {
		if cond.Type == v1.NodeReady {
			return cond.Status == v1.ConditionTrue
		}
	}
	return false
}

// unhealthy says why no conversion may start while so many nodes are not
// Ready, as cluster-autoscaler halts scale-down: more than
// OkTotalUnreadyCount and more than MaxTotalUnreadyPercentage of the nodes.
func (o Options) unhealthy(nodes []v1.Node) string {
	unready := 0
	for i := range nodes {
		if !ready(&nodes[i]) {
			unready++
		}
	}
	if unready > o.OkTotalUnreadyCount && float64(unready) > o.MaxTotalUnreadyPercentage/100*float64(len(nodes)) {
		return fmt.Sprintf("%d of %d nodes are not Ready (more than --ok-total-unready-count=%d and --max-total-unready-percentage=%g)", unready, len(nodes), o.OkTotalUnreadyCount, o.MaxTotalUnreadyPercentage)
	}
	return ""
}

// announce says, once per proposal, what a dry run would do: on the node
// and on each pod waiting for the resource.
func (c *Controller) announce(ctx context.Context, p *pass, r advisor.Relabel) error {
	if c.announced[r.Node] == r {
		return nil
	}
	node, err := c.client.CoreV1().Nodes().Get(ctx, r.Node, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get node %s: %w", r.Node, err)
	}
	c.announced[r.Node] = r
	c.metrics.wouldConvert.Inc()
	klog.FromContext(ctx).Info("Would convert", "node", r.Node, "from", r.From, "to", r.To, "resource", r.Resource, "units", r.Units)
	c.recorder.Eventf(node, nil, v1.EventTypeNormal, "WouldConvert", "Convert", "dry run: would convert from %s to %s for %d x %s: %s", r.From, r.To, r.Units, r.Resource, r.Command)
	pods, err := c.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName="})
	if err != nil {
		return fmt.Errorf("list pending pods: %w", err)
	}
	for i := range pods.Items {
		pod := &pods.Items[i]
		if slices.ContainsFunc(poddemand.NewPodDemand(pod, p.classifier).Requests, func(q poddemand.ResourceRequest) bool { return q.Name == r.Resource }) {
			c.recorder.Eventf(pod, node, v1.EventTypeNormal, "WouldConvert", "Convert", "dry run: would convert node %s from %s to %s for the pods waiting for %s", r.Node, r.From, r.To, r.Resource)
		}
	}
	return nil
}

// operandsTolerateTheTaint checks that the GPU Operator's operand
// DaemonSets tolerate the conversion taint: the operator starts the new
// mode's operands on the tainted node, and where they do not tolerate it
// no conversion could finish.
func (c *Controller) operandsTolerateTheTaint(ctx context.Context, policy *unstructured.Unstructured) bool {
	if policy == nil {
		return false
	}
	raw, _, err := unstructured.NestedSlice(policy.Object, "spec", "daemonsets", "tolerations")
	if err != nil {
		c.warnOnce(policy, "ConversionTaintNotTolerated", "spec.daemonsets.tolerations is not a list of tolerations (%v); nothing is converted", err)
		return false
	}
	var tolerations []v1.Toleration
	for _, t := range raw {
		var tol v1.Toleration
		if m, ok := t.(map[string]any); ok && runtime.DefaultUnstructuredConverter.FromUnstructured(m, &tol) == nil {
			tolerations = append(tolerations, tol)
		}
	}
	taint := conversionTaint(time.Time{})
	if slices.ContainsFunc(tolerations, func(t v1.Toleration) bool { return t.ToleratesTaint(klog.FromContext(ctx), &taint, false) }) {
		return true
	}
	c.warnOnce(policy, "ConversionTaintNotTolerated", "the operand DaemonSets do not tolerate the taint %s:%s, so a converting node would never get its new operands; nothing is converted. Fix: kubectl patch clusterpolicy %s --type json -p '[{\"op\":\"add\",\"path\":\"/spec/daemonsets/tolerations/-\",\"value\":{\"key\":\"%s\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}}]' (create the list first if it is absent)",
		TaintKey, taint.Effect, policy.GetName(), TaintKey)
	return false
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
