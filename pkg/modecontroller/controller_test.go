package modecontroller

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/events"
	componentmetrics "k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/testutil"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/test/upstream"
)

const a10 v1.ResourceName = "nvidia.com/GA102GL_A10"

type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time                  { return c.now }
func (c *fakeClock) Since(t time.Time) time.Duration { return c.now.Sub(t) }

func testOptions(op Operation) Options {
	o := Defaults()
	o.Operation = op
	return o
}

func containerNode(name string) *v1.Node {
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{gpuworkload.LabelWorkloadConfig: "container"}},
		Status: v1.NodeStatus{
			Allocatable: v1.ResourceList{"nvidia.com/gpu": resource.MustParse("1")},
			Conditions:  []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}},
		},
	}
}

// waitingVM is a launcher pod the scheduler found unschedulable at since.
func waitingVM(name string, since time.Time) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: v1.PodSpec{SchedulerName: "gpu-workload-scheduler", Containers: []v1.Container{{Name: "compute", Resources: v1.ResourceRequirements{
			Requests: v1.ResourceList{a10: resource.MustParse("1")}, Limits: v1.ResourceList{a10: resource.MustParse("1")}}}}},
		Status: v1.PodStatus{Phase: v1.PodPending, Conditions: []v1.PodCondition{{
			Type: v1.PodScheduled, Status: v1.ConditionFalse, Reason: v1.PodReasonUnschedulable, LastTransitionTime: metav1.NewTime(since)}}},
	}
}

func clusterPolicy(tolerated bool) *unstructured.Unstructured {
	spec := map[string]any{"sandboxWorkloads": map[string]any{"enabled": true}}
	if tolerated {
		spec["daemonsets"] = map[string]any{"tolerations": []any{
			map[string]any{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
			map[string]any{"key": TaintKey, "operator": "Exists", "effect": "NoSchedule"},
		}}
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy", "metadata": map[string]any{"name": "cluster-policy"}, "spec": spec,
	}}
}

// rig is a controller on fake clients whose planner proposes, for each
// waiting pod the narrowing keeps and no passthrough node serves, the next
// container node it does not hold: the narrowing and the conversions are
// what these tests judge; the advisor's own tests judge its plans.
type rig struct {
	*Controller
	client   *fake.Clientset
	clock    *fakeClock
	recorder *events.FakeRecorder
	// unfit is, per node, why its GPU pods would fit nowhere else (the
	// plan's Refit); the CLI's tests judge the simulation itself.
	unfit map[string]string
}

// newRig serves the typed objects from a fake clientset and the
// unstructured ones (VMIs) from a fake dynamic client.
func newRig(t *testing.T, opts Options, tolerated bool, objects ...runtime.Object) *rig {
	t.Helper()
	var typed []runtime.Object
	dynamicObjects := []runtime.Object{clusterPolicy(tolerated)}
	for _, o := range objects {
		if _, ok := o.(*unstructured.Unstructured); ok {
			dynamicObjects = append(dynamicObjects, o)
		} else {
			typed = append(typed, o)
		}
	}
	client := fake.NewClientset(typed...)
	scheme := runtime.NewScheme()
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(scheme, map[schema.GroupVersionResource]string{
		clusterstate.ClusterPolicyGVR: "ClusterPolicyList", clusterstate.KubeVirtGVR: "KubeVirtList", clusterstate.VMIGVR: "VirtualMachineInstanceList", clusterstate.VMIMigrationGVR: "VirtualMachineInstanceMigrationList",
	}, dynamicObjects...)
	r := &rig{client: client, clock: &fakeClock{now: time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)}, recorder: events.NewFakeRecorder(100)}
	r.unfit = map[string]string{}
	refit := func(_ context.Context, node string, _ []string) (string, error) { return r.unfit[node], nil }
	planner := func(ctx context.Context, n advisor.Narrowing) (Plan, error) {
		pods, err := client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
		if err != nil {
			return Plan{}, err
		}
		nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return Plan{}, err
		}
		// As the advisor does, a node of the VMs' mode, converting or not,
		// serves one of them.
		served := 0
		for i := range nodes.Items {
			if nodes.Items[i].Labels[gpuworkload.LabelWorkloadConfig] == "vm-passthrough" {
				served++
			}
		}
		plan := advisor.Plan{}
		next := 0
		for i := range pods.Items {
			if p := &pods.Items[i]; p.Spec.NodeName != "" || n.Demand.Excludes(p) != "" || !n.Waiting(p) {
				continue
			}
			if served > 0 {
				served--
				continue
			}
			for next < len(nodes.Items) && (n.Held(&nodes.Items[next]) || nodes.Items[next].Labels[gpuworkload.LabelWorkloadConfig] != "container") {
				next++
			}
			if next == len(nodes.Items) {
				break
			}
			name := nodes.Items[next].Name
			plan.Relabels = append(plan.Relabels, advisor.Relabel{Node: name, From: gpuworkload.ModeContainer, To: gpuworkload.ModePassthrough, Resource: a10, Units: 1,
				Command: gpuworkload.RelabelCommand(name, gpuworkload.ModePassthrough)})
			next++
		}
		return Plan{Plan: plan, Refit: refit}, nil
	}
	// Metrics count only once registered; each rig has its own.
	metrics := NewMetrics()
	metrics.Register(componentmetrics.NewKubeRegistry().MustRegister)
	c, err := New(client, dyn, planner, opts, r.clock, r.recorder, metrics)
	if err != nil {
		t.Fatal(err)
	}
	r.Controller = c
	return r
}

func (r *rig) reconcile(t *testing.T) {
	t.Helper()
	if err := r.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) node(t *testing.T, name string) *v1.Node {
	t.Helper()
	n, err := r.client.CoreV1().Nodes().Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// events drains the recorded events' reasons.
func (r *rig) events() []string { return reasonsOf(r.messages()) }

// messages drains the recorded events, each "TYPE REASON MESSAGE".
func (r *rig) messages() []string {
	var out []string
	for {
		select {
		case e := <-r.recorder.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

func reasonsOf(events []string) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = strings.Fields(e)[1]
	}
	return out
}

// advertise is the operator's side: the node advertises its new resource.
func (r *rig) advertise(t *testing.T, name string, units string) {
	t.Helper()
	n := r.node(t, name)
	n.Status.Allocatable = v1.ResourceList{a10: resource.MustParse(units)}
	if _, err := r.client.CoreV1().Nodes().UpdateStatus(context.Background(), n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) nodeWrites() int {
	n := 0
	for _, a := range r.client.Actions() {
		if a.GetVerb() == "patch" && a.GetResource().Resource == "nodes" {
			n++
		}
	}
	return n
}

func TestConversionSucceeds(t *testing.T) {
	opts := testOptions(IdleOnly)
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	r := newRig(t, opts, true, containerNode("c1"), containerNode("c2"), waitingVM("vm-1", start.Add(-time.Hour)))
	r.reconcile(t)
	if n := r.node(t, "c1"); hasTaint(n) {
		t.Fatalf("converted c1 before it had been idle for %s", opts.IdleFor)
	}
	r.clock.now = start.Add(opts.IdleFor)
	r.reconcile(t)
	n := r.node(t, "c1")
	if rec, err := recordOf(n); err != nil || rec == nil || rec.Phase != phaseTainted || !hasTaint(n) || n.Labels[gpuworkload.LabelWorkloadConfig] != "container" {
		t.Fatalf("c1 at the start: record %+v (%v), taints %v, labels %v; want tainted with its labels unchanged until the next pass", rec, err, n.Spec.Taints, n.Labels)
	}
	if taint := n.Spec.Taints[0]; taint.Value != "20261203T123000Z" {
		t.Errorf("taint %+v, want its value the start time", taint)
	}
	r.clock.now = r.clock.now.Add(opts.Interval)
	r.reconcile(t)
	n = r.node(t, "c1")
	rec, err := recordOf(n)
	if err != nil || rec == nil || rec.Phase != phaseRelabelled || !hasTaint(n) || n.Labels[gpuworkload.LabelWorkloadConfig] != "vm-passthrough" {
		t.Fatalf("c1 after the plan: record %+v (%v), taints %v, labels %v; want relabelled and tainted", rec, err, n.Spec.Taints, n.Labels)
	}
	if *rec.OldMode != "container" || rec.OldConfig != nil {
		t.Errorf("record keeps old labels %v/%v, want container and none", rec.OldMode, rec.OldConfig)
	}
	if c2 := r.node(t, "c2"); hasTaint(c2) || c2.Labels[gpuworkload.LabelWorkloadConfig] != "container" {
		t.Errorf("c2 changed for one waiting VM: %v %v", c2.Spec.Taints, c2.Labels)
	}
	r.clock.now = r.clock.now.Add(opts.Interval)
	r.reconcile(t)
	if n := r.node(t, "c1"); !hasTaint(n) {
		t.Fatal("untainted before the node advertises its new resource")
	}
	r.advertise(t, "c1", "1")
	r.reconcile(t)
	n = r.node(t, "c1")
	if hasTaint(n) || n.Annotations[annotationConversion] != "" || n.Annotations[gpuworkload.AnnotationConvertedFor] != string(a10) {
		t.Errorf("c1 after the operator: taints %v, annotations %v; want untainted, no record, converted-for %s", n.Spec.Taints, n.Annotations, a10)
	}
	if got, want := strings.Join(r.events(), " "), "ConversionStarted ConversionSucceeded"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}

	vm, err := r.client.CoreV1().Pods("default").Get(t.Context(), "vm-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	vm.Spec.NodeName = "c1"
	if _, err := r.client.CoreV1().Pods("default").Update(t.Context(), vm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	r.reconcile(t)
	if served, err := testutil.GetGaugeMetricValue(r.metrics.podsServedByConversions); err != nil || served != 1 {
		t.Errorf("pods served by conversions %v (%v), want 1: vm-1 runs on c1, converted for it", served, err)
	}
}

func TestConversionRollsBackAtTheTimeout(t *testing.T) {
	opts := testOptions(IdleOnly)
	opts.IdleFor = 0
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	r := newRig(t, opts, true, containerNode("c1"), waitingVM("vm-1", start.Add(-time.Hour)))
	r.reconcile(t)
	r.clock.now = start.Add(opts.ConversionTimeout - time.Second)
	r.reconcile(t)
	if n := r.node(t, "c1"); n.Labels[gpuworkload.LabelWorkloadConfig] != "vm-passthrough" {
		t.Fatalf("rolled back before the timeout: %v", n.Labels)
	}
	r.clock.now = start.Add(opts.ConversionTimeout)
	r.reconcile(t)
	n := r.node(t, "c1")
	if hasTaint(n) || n.Annotations[annotationConversion] != "" || n.Labels[gpuworkload.LabelWorkloadConfig] != "container" || n.Annotations[annotationFailedAt] == "" {
		t.Fatalf("after the timeout: taints %v, labels %v, annotations %v; want untainted, container, failure recorded", n.Spec.Taints, n.Labels, n.Annotations)
	}
	if got, want := strings.Join(r.events(), " "), "ConversionStarted ConversionRolledBack"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	r.clock.now = r.clock.now.Add(opts.Backoff - time.Second)
	r.reconcile(t)
	if n := r.node(t, "c1"); hasTaint(n) {
		t.Error("converted again within the back-off")
	}
	r.clock.now = r.clock.now.Add(time.Second)
	r.reconcile(t)
	if n := r.node(t, "c1"); !hasTaint(n) {
		t.Error("not converted again after the back-off")
	}
}

// A controller restarted between two steps resumes from the node's record.
func TestConversionResumesFromTheRecord(t *testing.T) {
	recorded := func(p phase, mode string, pods ...runtime.Object) []runtime.Object {
		n := containerNode("c1")
		n.Labels[gpuworkload.LabelWorkloadConfig] = mode
		n.Spec.Taints = []v1.Taint{conversionTaint(time.Date(2026, 12, 3, 11, 59, 0, 0, time.UTC))}
		old := "container"
		raw, _ := json.Marshal(record{Phase: p, Resource: a10, Units: 1, To: gpuworkload.ModePassthrough, OldMode: &old,
			Started: metav1.NewTime(time.Date(2026, 12, 3, 11, 59, 0, 0, time.UTC))})
		n.Annotations = map[string]string{annotationConversion: string(raw)}
		if p == phaseRelabelled {
			n.Status.Allocatable = v1.ResourceList{a10: resource.MustParse("1")}
		}
		return append([]runtime.Object{n}, pods...)
	}
	landed := waitingVM("job", time.Time{})
	landed.Spec.NodeName, landed.Status.Phase = "c1", v1.PodRunning
	for _, tc := range []struct {
		name    string
		objects []runtime.Object
		mode    string
		tainted bool
		event   string
	}{
		{"tainted, still empty: relabelled, waits for the operator", recorded(phaseTainted, "container"), "vm-passthrough", true, ""},
		{"tainted, a GPU pod landed: aborted, labels unchanged", recorded(phaseTainted, "container", landed), "container", false, "ConversionAborted"},
		{"relabelled and advertising: done", recorded(phaseRelabelled, "vm-passthrough"), "vm-passthrough", false, "ConversionSucceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, testOptions(IdleOnly), true, tc.objects...)
			r.reconcile(t)
			n := r.node(t, "c1")
			if hasTaint(n) != tc.tainted || (n.Annotations[annotationConversion] != "") != tc.tainted || n.Labels[gpuworkload.LabelWorkloadConfig] != tc.mode {
				t.Errorf("taints %v, labels %v, annotations %v; want tainted %v, mode %s", n.Spec.Taints, n.Labels, n.Annotations, tc.tainted, tc.mode)
			}
			if got := strings.Join(r.events(), " "); got != tc.event {
				t.Errorf("events %q, want %q", got, tc.event)
			}
		})
	}
}

func TestDryRunChangesNothing(t *testing.T) {
	opts := testOptions(DryRun)
	opts.IdleFor = 0
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	r := newRig(t, opts, true, containerNode("c1"), waitingVM("vm-1", start.Add(-time.Hour)))
	r.reconcile(t)
	r.reconcile(t)
	if n := r.nodeWrites(); n != 0 {
		t.Errorf("a dry run updated nodes %d times", n)
	}
	if got, want := strings.Join(r.events(), " "), "WouldConvert WouldConvert"; got != want {
		t.Errorf("events over two passes %q, want %q (the node and the VM, once)", got, want)
	}
}

// Demand that waits less than DemandWait converts nothing, however it
// alternates; demand that waits longer converts.
func TestDemandMustHaveWaited(t *testing.T) {
	opts := testOptions(IdleOnly)
	opts.IdleFor = 0
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	r := newRig(t, opts, true, containerNode("c1"))
	for i := range 3 {
		vm := waitingVM("vm", r.clock.now)
		if _, err := r.client.CoreV1().Pods("default").Create(context.Background(), vm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		r.clock.now = r.clock.now.Add(opts.DemandWait - time.Second)
		r.reconcile(t)
		if err := r.client.CoreV1().Pods("default").Delete(context.Background(), "vm", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		r.clock.now = r.clock.now.Add(opts.DemandWait - time.Second)
		r.reconcile(t)
		if n := r.nodeWrites(); n != 0 {
			t.Fatalf("burst %d, shorter than %s: %d node updates", i, opts.DemandWait, n)
		}
	}
	if _, err := r.client.CoreV1().Pods("default").Create(context.Background(), waitingVM("vm", start), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	r.reconcile(t)
	if n := r.node(t, "c1"); !hasTaint(n) {
		t.Error("demand that waited longer than DemandWait converted nothing")
	}
}

func TestRateLimit(t *testing.T) {
	opts := testOptions(IdleOnly)
	opts.IdleFor, opts.MaxConversions = 0, 1
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	r := newRig(t, opts, true, containerNode("c1"), containerNode("c2"), waitingVM("vm-1", start.Add(-time.Hour)), waitingVM("vm-2", start.Add(-time.Hour)))
	r.reconcile(t)
	r.reconcile(t)
	r.advertise(t, "c1", "1")
	r.reconcile(t)
	if c1, c2 := r.node(t, "c1"), r.node(t, "c2"); c1.Annotations[gpuworkload.AnnotationConvertedFor] == "" || hasTaint(c2) {
		t.Fatalf("with one conversion an hour: c1 %v, c2 taints %v; want c1 converted, c2 untouched", c1.Annotations, c2.Spec.Taints)
	}
	r.clock.now = start.Add(opts.Window)
	r.reconcile(t)
	if c2 := r.node(t, "c2"); !hasTaint(c2) {
		t.Error("c2 not converted once the window passed")
	}
}

func TestNothingConvertsWhenOperandsDoNotTolerateTheTaint(t *testing.T) {
	opts := testOptions(IdleOnly)
	opts.IdleFor = 0
	r := newRig(t, opts, false, containerNode("c1"), waitingVM("vm-1", time.Date(2026, 12, 3, 11, 0, 0, 0, time.UTC)))
	r.reconcile(t)
	r.reconcile(t)
	if n := r.nodeWrites(); n != 0 {
		t.Errorf("%d node updates", n)
	}
	if got := r.events(); len(got) != 1 || got[0] != "ConversionTaintNotTolerated" {
		t.Errorf("events %q, want one ConversionTaintNotTolerated", got)
	}
}

func TestHoldReason(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	opts := testOptions(IdleOnly)
	node := func(change func(*v1.Node)) *v1.Node {
		n := containerNode("c1")
		n.Annotations = map[string]string{}
		change(n)
		return n
	}
	for _, tc := range []struct {
		name string
		node *v1.Node
		idle time.Duration
		want string
	}{
		{"idle long enough", node(func(*v1.Node) {}), opts.IdleFor, ""},
		{"idle too briefly", node(func(*v1.Node) {}), opts.IdleFor - time.Second, "it has not been idle for 30m0s"},
		{"opted out", node(func(n *v1.Node) { n.Labels[LabelOptOut] = "disabled" }), opts.IdleFor, "its mode is managed elsewhere (gpu-workload.io/mode-controller=disabled)"},
		{"cordoned", node(func(n *v1.Node) { n.Spec.Unschedulable = true }), opts.IdleFor, "it is cordoned"},
		{"not ready", node(func(n *v1.Node) {
			n.Status.Conditions = []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionUnknown}}
		}), opts.IdleFor, "it is not Ready"},
		{"ready", node(func(n *v1.Node) {
			n.Status.Conditions = []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}}
		}), opts.IdleFor, ""},
		{"tainted by another controller's conversion", node(func(n *v1.Node) {
			n.Spec.Taints = []v1.Taint{conversionTaint(time.Date(2026, 12, 3, 11, 59, 0, 0, time.UTC))}
		}), opts.IdleFor, "a conversion is under way"},
		{"rolled back within the back-off", node(func(n *v1.Node) {
			n.Annotations[annotationFailedAt] = now.Add(-time.Hour).Format(time.RFC3339)
		}), opts.IdleFor, "its conversion rolled back at 2026-12-03T11:00:00Z (back-off 6h0m0s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, opts, true)
			r.idleSince["c1"] = now.Add(-tc.idle)
			if got := r.holdReason(tc.node, &pass{now: now, history: &history{}}); got != tc.want {
				t.Errorf("holdReason = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestOptionsValidate(t *testing.T) {
	bad := Defaults()
	bad.Operation, bad.Interval, bad.MaxConversions, bad.Backoff = "evict", 0, 0, -time.Second
	want := `invalid options: [operation: Unsupported value: "evict": supported values: "dryRun", "idleOnly", "drain", interval: Invalid value: "0s": must be at least 1s, backoff: Invalid value: "-1s": must be 0 or at least 1s, max-conversions: Invalid value: 0: must be at least 1; to stop conversions use --operation=dryRun]`
	if err := bad.Validate(); err == nil || err.Error() != want {
		t.Errorf("Validate() = %v, want %s", err, want)
	}
	if err := Defaults().Validate(); err != nil {
		t.Errorf("the defaults: %v", err)
	}
	typo := Defaults()
	typo.Window, typo.ConversionTimeout, typo.DemandWait, typo.SchedulerNames = time.Nanosecond, 999*time.Millisecond, time.Nanosecond, nil
	want = `invalid options: [demand-wait: Invalid value: "1ns": must be 0 or at least 1s, window: Invalid value: "1ns": must be at least 1s, conversion-timeout: Invalid value: "999ms": must be at least 1s, scheduler-name: Required value: name the scheduler whose pending pods may drive conversions (gpu-workload-scheduler)]`
	if err := typo.Validate(); err == nil || err.Error() != want {
		t.Errorf("Validate() = %v, want %s", err, want)
	}
	if _, err := ParseNamespaceSelector("team in (a"); err == nil || !strings.Contains(err.Error(), "demand-namespace-selector: Invalid value") {
		t.Errorf("ParseNamespaceSelector of a bad selector: %v, want the flag named", err)
	}
}

// Under drain a busy node's GPU pods go all or nothing: every pod passes
// kubectl drain's filters, cluster-autoscaler's rules and its budget, or
// none is evicted; VMs are live-migrated, never stopped.
func TestDrain(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	draining := func(started time.Time, pods ...runtime.Object) []runtime.Object {
		n := containerNode("c1")
		n.Spec.Taints = []v1.Taint{conversionTaint(started)}
		old := "container"
		raw, _ := json.Marshal(record{Phase: phaseTainted, Resource: a10, Units: 1, To: gpuworkload.ModePassthrough, OldMode: &old,
			Started: metav1.NewTime(started), Drain: true})
		n.Annotations = map[string]string{annotationConversion: string(raw)}
		for _, o := range pods {
			if p, ok := o.(*v1.Pod); ok {
				p.Spec.NodeName, p.Status.Phase = "c1", v1.PodRunning
			}
		}
		return append([]runtime.Object{n}, pods...)
	}
	// job is a GPU pod of a ReplicaSet, which kubectl drain evicts.
	job := func(name string, change ...func(*v1.Pod)) *v1.Pod {
		p := waitingVM(name, time.Time{})
		p.Labels = map[string]string{"app": "train"}
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "train", UID: "rs", Controller: ptr.To(true)}}
		p.Spec.Containers[0].Resources = v1.ResourceRequirements{Limits: v1.ResourceList{"nvidia.com/gpu": resource.MustParse("1")}}
		for _, f := range change {
			f(p)
		}
		return p
	}
	noController := func(p *v1.Pod) { p.OwnerReferences = nil }
	annotated := func(value string) func(*v1.Pod) {
		return func(p *v1.Pod) { p.Annotations = map[string]string{SafeToEvictAnnotation: value} }
	}
	emptyDir := func(p *v1.Pod) {
		p.Spec.Volumes = []v1.Volume{{Name: "scratch", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}}
	}
	daemonSet := func(p *v1.Pod) {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "dcgm", UID: "ds", Controller: ptr.To(true)}}
	}
	budget := func(allowed int32) *policyv1.PodDisruptionBudget {
		return &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: "default", Generation: 1},
			Spec:       policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "train"}}},
			Status:     policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: allowed},
		}
	}
	for _, tc := range []struct {
		name       string
		objects    []runtime.Object
		opts       func(*Options)
		refuse     bool
		evictions  int
		tainted    bool
		failed     bool
		events     string
		message    string
		migrations int
	}{
		{name: "a GPU pod of a ReplicaSet is evicted", objects: draining(start, job("job")), evictions: 1, tainted: true, events: "EvictedForConversion"},
		{name: "an eviction refused by the API server: aborted, back-off", objects: draining(start, job("job")), refuse: true, evictions: 1, failed: true, events: "ConversionAborted",
			message: "the eviction of pod default/job was refused"},
		{name: "a pod that declares no controller is never evicted", objects: draining(start, job("job", noController)), failed: true, events: "ConversionAborted",
			message: "pod default/job is refused by kubectl drain's rules: cannot delete Pods that declare no controller"},
		{name: "safe-to-evict=true lets a pod with no controller go, as cluster-autoscaler", objects: draining(start, job("job", noController, annotated("true"))), evictions: 1, tainted: true, events: "EvictedForConversion"},
		{name: "safe-to-evict=false is never evicted", objects: draining(start, job("job", annotated("false"))), failed: true, events: "ConversionAborted",
			message: "pod default/job is annotated cluster-autoscaler.kubernetes.io/safe-to-evict=false"},
		{name: "local storage is refused", objects: draining(start, job("job", emptyDir)), failed: true, events: "ConversionAborted",
			message: "cannot delete Pods with local storage"},
		{name: "local storage with --delete-emptydir-data is evicted", objects: draining(start, job("job", emptyDir)), opts: func(o *Options) { o.DeleteEmptyDirData = true },
			evictions: 1, tainted: true, events: "EvictedForConversion"},
		{name: "a kube-system pod without a budget is refused", objects: draining(start, job("job", func(p *v1.Pod) { p.Namespace = "kube-system" })), failed: true, events: "ConversionAborted",
			message: "pod kube-system/job is a kube-system pod without a PodDisruptionBudget"},
		{name: "a budget allowing none: nothing evicted", objects: draining(start, job("job"), budget(0)), failed: true, events: "ConversionAborted",
			message: "PodDisruptionBudget default/train allows 0 disruption(s) and the drain needs 1 (pod default/job)"},
		{name: "a budget allowing one of two: nothing evicted", objects: draining(start, job("job-a"), job("job-b"), budget(1)), failed: true, events: "ConversionAborted",
			message: "allows 1 disruption(s) and the drain needs 2 (pod default/job-a, default/job-b)"},
		{name: "a budget allowing both: both evicted", objects: draining(start, job("job-a"), job("job-b"), budget(2)), evictions: 2, tainted: true, events: "EvictedForConversion EvictedForConversion"},
		{name: "one pod refused: the other is not evicted either", objects: draining(start, job("job-a"), job("job-b", noController)), failed: true, events: "ConversionAborted",
			message: "pod default/job-b is refused"},
		{name: "a DaemonSet's GPU pod stays, so the node does not convert", objects: draining(start, job("job", daemonSet), &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "dcgm", Namespace: "default"}}),
			failed: true, events: "ConversionAborted", message: "pod default/job is a DaemonSet or static (mirror) pod"},
		{name: "a static pod's GPU stays, so the node does not convert", objects: draining(start, job("job", noController, func(p *v1.Pod) { p.Annotations = map[string]string{v1.MirrorPodAnnotationKey: "x"} })),
			failed: true, events: "ConversionAborted", message: "pod default/job is a DaemonSet or static (mirror) pod"},
		{name: "a VM without its VMI is never evicted", objects: draining(start, launcher("vm-a")), failed: true, events: "ConversionAborted", message: "has no VirtualMachineInstance"},
		{name: "a VM that cannot live-migrate is never stopped", objects: draining(start, launcher("vm-a"), vmi("vm-a", "False")), failed: true, events: "ConversionAborted", message: "is not live-migratable"},
		{name: "a live-migratable VM is migrated, not evicted", objects: draining(start, launcher("vm-a"), vmi("vm-a", "True")), tainted: true, events: "MigratedForConversion", migrations: 1},
		{name: "pods still run at the timeout: rolled back", objects: draining(start.Add(-Defaults().ConversionTimeout), job("job")), failed: true, events: "ConversionRolledBack"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := testOptions(Drain)
			if tc.opts != nil {
				tc.opts(&opts)
			}
			r := newRig(t, opts, true, tc.objects...)
			evictions := 0
			r.client.PrependReactor("create", "pods", func(action k8stesting.Action) (bool, runtime.Object, error) {
				if action.GetSubresource() != "eviction" {
					return false, nil, nil
				}
				evictions++
				if tc.refuse {
					return true, nil, apierrors.NewTooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0)
				}
				return true, nil, nil
			})
			r.reconcile(t)
			n := r.node(t, "c1")
			if hasTaint(n) != tc.tainted || n.Labels[gpuworkload.LabelWorkloadConfig] != "container" || (n.Annotations[annotationFailedAt] != "") != tc.failed {
				t.Errorf("taints %v, labels %v, annotations %v; want tainted %v, container, failure recorded %v", n.Spec.Taints, n.Labels, n.Annotations, tc.tainted, tc.failed)
			}
			if evictions != tc.evictions {
				t.Errorf("%d evictions, want %d", evictions, tc.evictions)
			}
			messages := r.messages()
			if got := strings.Join(reasonsOf(messages), " "); got != tc.events {
				t.Errorf("events %q, want %q", got, tc.events)
			}
			if tc.message != "" && !strings.Contains(strings.Join(messages, "\n"), tc.message) {
				t.Errorf("events %q, want one saying %q", messages, tc.message)
			}
			migrations, err := r.dynamic.Resource(clusterstate.VMIMigrationGVR).Namespace("default").List(t.Context(), metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(migrations.Items) != tc.migrations {
				t.Errorf("%d VirtualMachineInstanceMigrations, want %d", len(migrations.Items), tc.migrations)
			}
			for _, m := range migrations.Items {
				if vmiName, _, _ := unstructured.NestedString(m.Object, "spec", "vmiName"); vmiName != "vm-a" || m.GetLabels()[LabelConvertingNode] != "c1" {
					t.Errorf("migration %s: vmiName %q, labels %v; want vm-a, converting node c1", m.GetName(), vmiName, m.GetLabels())
				}
			}
		})
	}
}

// launcher is a running virt-launcher pod of the VMI.
func launcher(vmiName string) *v1.Pod {
	p := waitingVM("virt-launcher-"+vmiName+"-abcde", time.Time{})
	p.Labels = map[string]string{"kubevirt.io": "virt-launcher"}
	p.Annotations = map[string]string{"kubevirt.io/domain": vmiName}
	return p
}

// vmi is a VMI in default with KubeVirt's LiveMigratable condition.
func vmi(name, liveMigratable string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
		"metadata": map[string]any{"name": name, "namespace": "default"},
		"status": map[string]any{"conditions": []any{map[string]any{
			"type": "LiveMigratable", "status": liveMigratable, "reason": "HostDeviceNotLiveMigratable", "message": "VMI uses a PCI host devices",
		}}},
	}}
}

// Drain takes the busy nodes that cover what the relabels leave short, in
// the advisor's order, and passes over a node that runs a VM KubeVirt
// cannot live-migrate.
func TestToDrain(t *testing.T) {
	busy := func(name string, vms int) advisor.DrainFirst {
		return advisor.DrainFirst{Relabel: advisor.Relabel{Node: name, Resource: a10, Units: 1, To: gpuworkload.ModePassthrough}, GPUPods: 1, VMs: vms}
	}
	pinned, migratable := launcher("vm-pinned"), launcher("vm-moves")
	pinned.Spec.NodeName, migratable.Spec.NodeName = "v1", "v2"
	r := newRig(t, testOptions(Drain), true, pinned, migratable, vmi("vm-pinned", "False"), vmi("vm-moves", "True"))
	gpuPods, err := r.gpuPodsByNode(context.Background(), &pass{}, "")
	if err != nil {
		t.Fatal(err)
	}
	r.unfit["c2"] = "1 of the 1 GPU pods and VMs it runs (default/job) would fit on no other node"
	got, err := r.toDrain(context.Background(), Plan{Plan: advisor.Plan{
		DrainFirst: []advisor.DrainFirst{busy("v1", 1), busy("c1", 0), busy("c2", 0), busy("v2", 1), busy("c3", 0), busy("c4", 0)},
		Unserved:   []advisor.Shortfall{{Resource: a10, Units: 4}},
	}, Refit: func(_ context.Context, node string, _ []string) (string, error) { return r.unfit[node], nil }}, gpuPods, 3)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, x := range got {
		names = append(names, x.Node)
	}
	if strings.Join(names, " ") != "c1 v2 c3" {
		t.Errorf("drains %v, want c1 v2 c3: v1's VM cannot live-migrate, c2's pods fit nowhere else, and c4 is beyond the budget of 3", names)
	}
	if events := strings.Join(r.events(), " "); events != "NotDrained NotDrained" {
		t.Errorf("events %q, want NotDrained for v1 and c2", events)
	}
}

// The rate limit counts every start in the window from the history
// ConfigMap, however often one node flips, across a restarted controller;
// the node's cool-down keeps a finished conversion from being reversed.
func TestRateLimitByHistory(t *testing.T) {
	opts := testOptions(IdleOnly)
	opts.IdleFor, opts.MaxConversions, opts.Window, opts.NodeCooldown = 0, 2, time.Hour, 0
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	r := newRig(t, opts, true, containerNode("c1"), waitingVM("vm-1", start.Add(-time.Hour)))
	flip := func() {
		t.Helper()
		r.reconcile(t) // start
		r.reconcile(t) // relabel
		r.advertise(t, "c1", "1")
		r.reconcile(t) // succeed
		// The VM leaves and the node is relabelled back by hand: the
		// planner proposes it again for the next waiting VM.
		n := r.node(t, "c1")
		n.Labels[gpuworkload.LabelWorkloadConfig] = "container"
		if _, err := r.client.CoreV1().Nodes().Update(t.Context(), n, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		r.clock.now = r.clock.now.Add(time.Minute)
	}
	flip()
	flip()
	// A restarted controller reads the same history.
	restarted, err := New(r.client, r.dynamic, r.plan, opts, r.clock, r.recorder, r.metrics)
	if err != nil {
		t.Fatal(err)
	}
	r.Controller = restarted
	r.reconcile(t)
	if n := r.node(t, "c1"); hasTaint(n) {
		t.Fatalf("a third conversion of one node within the window of %d: taints %v", opts.MaxConversions, n.Spec.Taints)
	}
	r.clock.now = start.Add(opts.Window)
	r.reconcile(t)
	if n := r.node(t, "c1"); !hasTaint(n) {
		t.Error("not converted once the first start left the window")
	}

	cooled := testOptions(IdleOnly)
	cooled.IdleFor, cooled.MaxConversions = 0, 10
	r = newRig(t, cooled, true, containerNode("c1"), waitingVM("vm-1", start.Add(-time.Hour)))
	flip()
	r.reconcile(t)
	if n := r.node(t, "c1"); hasTaint(n) {
		t.Fatalf("converted again %s after its conversion ended, within --node-cooldown %s", time.Minute, cooled.NodeCooldown)
	}
	cm, err := r.client.CoreV1().ConfigMaps(cooled.Namespace).Get(t.Context(), HistoryConfigMap, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var entries []conversionEntry
	if err := json.Unmarshal([]byte(cm.Data[historyKey]), &entries); err != nil || len(entries) != 1 || entries[0].Node != "c1" || entries[0].Ended == nil {
		t.Errorf("history %s (%v), want one ended conversion of c1", cm.Data[historyKey], err)
	}
	r.clock.now = r.clock.now.Add(cooled.NodeCooldown)
	r.reconcile(t)
	if n := r.node(t, "c1"); !hasTaint(n) {
		t.Error("not converted once the cool-down passed")
	}
}

// A GPU pod that reaches the node after the relabel, or a vGPU
// configuration the device manager fails, rolls the conversion back at
// once; a pod requesting a renamed time-slicing resource the name rules do
// not know is GPU work, by what the node advertises.
func TestRollbackAtOnce(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	relabelled := func(to gpuworkload.Mode, change func(*v1.Node)) *v1.Node {
		n := containerNode("c1")
		n.Labels[gpuworkload.LabelWorkloadConfig] = string(to)
		n.Spec.Taints = []v1.Taint{conversionTaint(start)}
		old := "container"
		raw, _ := json.Marshal(record{Phase: phaseRelabelled, Resource: a10, Units: 1, To: to, OldMode: &old, Started: metav1.NewTime(start)})
		n.Annotations = map[string]string{annotationConversion: string(raw)}
		change(n)
		return n
	}
	arrived := func(name v1.ResourceName) *v1.Pod {
		p := waitingVM("arrived", time.Time{})
		p.Spec.NodeName, p.Status.Phase = "c1", v1.PodRunning
		p.Spec.Containers[0].Resources = v1.ResourceRequirements{Limits: v1.ResourceList{name: resource.MustParse("1")}}
		return p
	}
	// A container node elsewhere advertises the renamed resource, so the
	// classifier knows it as a container GPU.
	sharing := containerNode("c-shared")
	sharing.Status.Capacity = v1.ResourceList{"nvidia.com/gpu-shared": resource.MustParse("4")}
	for _, tc := range []struct {
		name    string
		objects []runtime.Object
		message string
	}{
		{"a GPU pod arrived before the taint came off", []runtime.Object{relabelled(gpuworkload.ModePassthrough, func(*v1.Node) {}), arrived("nvidia.com/gpu")},
			"GPU pods (default/arrived) reached the node while it converted"},
		{"a renamed time-slicing resource arrived", []runtime.Object{relabelled(gpuworkload.ModePassthrough, func(*v1.Node) {}), arrived("nvidia.com/gpu-shared"), sharing},
			"GPU pods (default/arrived) reached the node while it converted"},
		{"a renamed resource no node advertises still counts", []runtime.Object{relabelled(gpuworkload.ModePassthrough, func(*v1.Node) {}), arrived("nvidia.com/gpu-timeshared")},
			"GPU pods (default/arrived) reached the node while it converted"},
		{"the vGPU device manager failed", []runtime.Object{relabelled(gpuworkload.ModeVGPU, func(n *v1.Node) {
			n.Labels[gpuworkload.LabelVGPUConfig] = "A10-12Q"
			n.Labels[gpuworkload.LabelVGPUConfigState] = gpuworkload.VGPUConfigStateFailed
		})}, "the vGPU device manager failed to apply nvidia.com/vgpu.config=A10-12Q"},
		{"the vGPU device manager failed on the default configuration", []runtime.Object{relabelled(gpuworkload.ModeVGPU, func(n *v1.Node) {
			n.Labels[gpuworkload.LabelVGPUConfigState] = gpuworkload.VGPUConfigStateFailed
		})}, "the vGPU device manager failed to apply the ClusterPolicy's default vGPU configuration (no nvidia.com/vgpu.config label)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, testOptions(IdleOnly), true, tc.objects...)
			r.clock.now = start.Add(time.Minute)
			r.reconcile(t)
			n := r.node(t, "c1")
			if hasTaint(n) || n.Labels[gpuworkload.LabelWorkloadConfig] != "container" || n.Annotations[annotationFailedAt] == "" {
				t.Errorf("taints %v, labels %v, annotations %v; want rolled back to container, untainted, failure recorded", n.Spec.Taints, n.Labels, n.Annotations)
			}
			if messages := r.messages(); len(messages) != 1 || !strings.Contains(messages[0], "ConversionRolledBack") || !strings.Contains(messages[0], tc.message) {
				t.Errorf("events %q, want one ConversionRolledBack saying %q", messages, tc.message)
			}
		})
	}
}

// An outcome whose update conflicts is not counted: the next pass, which
// writes it, counts it once.
func TestOutcomeCountedOnce(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	opts := testOptions(IdleOnly)
	opts.IdleFor = 0
	r := newRig(t, opts, true, containerNode("c1"), waitingVM("vm-1", start.Add(-time.Hour)))
	r.reconcile(t)
	r.reconcile(t)
	r.advertise(t, "c1", "1")
	conflicts := 1
	r.client.PrependReactor("patch", "nodes", func(action k8stesting.Action) (bool, runtime.Object, error) {
		if conflicts == 0 {
			return false, nil, nil
		}
		conflicts--
		return true, nil, apierrors.NewConflict(v1.Resource("nodes"), "c1", nil)
	})
	before, err := testutil.GetCounterMetricValue(r.metrics.conversionsSucceeded)
	if err != nil {
		t.Fatal(err)
	}
	r.reconcile(t)
	r.reconcile(t)
	after, err := testutil.GetCounterMetricValue(r.metrics.conversionsSucceeded)
	if err != nil {
		t.Fatal(err)
	}
	if after-before != 1 {
		t.Errorf("succeeded counted %v times over a conflicting pass and the next, want 1", after-before)
	}
}

// No conversion starts while too many nodes are not Ready, as
// cluster-autoscaler halts; a node without a Ready condition is not Ready;
// two ClusterPolicies stop the controller.
func TestClusterGates(t *testing.T) {
	start := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	opts := testOptions(IdleOnly)
	opts.IdleFor = 0
	unready := func(name string) *v1.Node {
		n := containerNode(name)
		n.Labels = nil
		n.Status.Conditions = nil
		return n
	}
	r := newRig(t, opts, true, containerNode("c1"), unready("u1"), unready("u2"), unready("u3"), unready("u4"), waitingVM("vm-1", start.Add(-time.Hour)))
	r.reconcile(t)
	if n := r.node(t, "c1"); hasTaint(n) {
		t.Errorf("converted while 4 of 5 nodes are not Ready")
	}
	if err := r.client.CoreV1().Nodes().Delete(t.Context(), "u4", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	r.reconcile(t)
	if n := r.node(t, "c1"); !hasTaint(n) {
		t.Errorf("not converted with 3 nodes not Ready, --ok-total-unready-count=3")
	}

	second := clusterPolicy(true)
	second.SetName("another-policy")
	r = newRig(t, opts, true, containerNode("c1"), second, waitingVM("vm-1", start.Add(-time.Hour)))
	if err := r.Reconcile(t.Context()); err == nil || !strings.Contains(err.Error(), "2 ClusterPolicies (another-policy, cluster-policy)") {
		t.Errorf("Reconcile with two ClusterPolicies: %v, want an error naming both", err)
	}
	if n := r.nodeWrites(); n != 0 {
		t.Errorf("%d node updates with two ClusterPolicies", n)
	}
}

// The GPU Operator's own sample ClusterPolicy tolerates no conversion taint
// (spec.daemonsets has none): the controller reads it and converts nothing,
// with the event that gives the patch.
func TestUpstreamSampleClusterPolicy(t *testing.T) {
	var sample unstructured.Unstructured
	if err := yaml.Unmarshal(upstream.Read(t, "NVIDIA+gpu-operator/config/samples/v1_clusterpolicy.yaml"), &sample.Object); err != nil {
		t.Fatal(err)
	}
	opts := testOptions(IdleOnly)
	opts.IdleFor = 0
	r := newRig(t, opts, true, containerNode("c1"), waitingVM("vm-1", time.Date(2026, 12, 3, 11, 0, 0, 0, time.UTC)))
	resource := r.dynamic.Resource(clusterstate.ClusterPolicyGVR)
	if err := resource.Delete(t.Context(), "cluster-policy", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := resource.Create(t.Context(), &sample, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	r.reconcile(t)
	if n := r.nodeWrites(); n != 0 {
		t.Errorf("%d node updates under the sample ClusterPolicy", n)
	}
	if got := r.events(); len(got) != 1 || got[0] != "ConversionTaintNotTolerated" {
		t.Errorf("events %q, want one ConversionTaintNotTolerated", got)
	}
}

// The controller's node writes carry only its labels, annotations and
// taints, with the resourceVersion read as a precondition: the admission
// policy sees nothing else change.
func TestNodePatch(t *testing.T) {
	foreign := v1.Taint{Key: "example.com/maintenance", Effect: v1.TaintEffectNoSchedule}
	read := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "gpu-1", ResourceVersion: "42",
		Labels:      map[string]string{gpuworkload.LabelWorkloadConfig: "container", "team": "ml"},
		Annotations: map[string]string{annotationFailedAt: "2026-12-05T00:00:00Z", "owner": "ops"}},
		Spec: v1.NodeSpec{Taints: []v1.Taint{foreign}}}
	for _, tc := range []struct {
		name   string
		change func(*v1.Node)
		want   string
	}{
		{"nothing", func(*v1.Node) {}, `{"metadata":{"resourceVersion":"42"}}`},
		{"the mode label and a new label", func(n *v1.Node) {
			n.Labels[gpuworkload.LabelWorkloadConfig] = "vm-passthrough"
			n.Labels[gpuworkload.LabelVGPUConfig] = "A10-12Q"
		}, `{"metadata":{"labels":{"nvidia.com/gpu.workload.config":"vm-passthrough","nvidia.com/vgpu.config":"A10-12Q"},"resourceVersion":"42"}}`},
		{"an annotation removed", func(n *v1.Node) { delete(n.Annotations, annotationFailedAt) },
			`{"metadata":{"annotations":{"gpu-workload.io/conversion-failed-at":null},"resourceVersion":"42"}}`},
		{"the taint added, the foreign one kept", func(n *v1.Node) {
			n.Spec.Taints = append(n.Spec.Taints, v1.Taint{Key: TaintKey, Effect: v1.TaintEffectNoSchedule})
		}, `{"metadata":{"resourceVersion":"42"},"spec":{"taints":[{"key":"example.com/maintenance","effect":"NoSchedule"},{"key":"gpu-workload.io/converting","effect":"NoSchedule"}]}}`},
		{"the last taint removed", func(n *v1.Node) { n.Spec.Taints = nil }, `{"metadata":{"resourceVersion":"42"},"spec":{"taints":[]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := read.DeepCopy()
			tc.change(next)
			patch, err := nodePatch(read, next)
			if err != nil {
				t.Fatal(err)
			}
			if string(patch) != tc.want {
				t.Errorf("patch\n%s\nwant\n%s", patch, tc.want)
			}
		})
	}
}
