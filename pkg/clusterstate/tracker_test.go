package clusterstate

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	fakediscovery "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2/ktesting"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

func node(name, rv, mode string, quantities map[string]string) *v1.Node {
	list := v1.ResourceList{}
	for k, q := range quantities {
		list[v1.ResourceName(k)] = resource.MustParse(q)
	}
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: rv}, Status: v1.NodeStatus{Capacity: list, Allocatable: list}}
	if mode != "" {
		n.Labels = map[string]string{gpuworkload.LabelWorkloadConfig: mode}
	}
	return n
}

func reasonOf(state *gpuworkload.NodeState, podMode gpuworkload.Mode) string {
	if state.GPUNode && state.Mode.Mode != podMode {
		return string(state.Mode.Mode) + "!=" + string(podMode)
	}
	return ""
}

func argsPolicy() gpuworkload.SandboxPolicy {
	return gpuworkload.SandboxPolicy{DefaultWorkload: gpuworkload.ModeContainer, Runtime: gpuworkload.RuntimeKubeVirt,
		Source: gpuworkload.PolicySource{Kind: gpuworkload.SourcePluginArgs}}
}

func TestTrackerFollowsPolicyAndNodes(t *testing.T) {
	tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	pt := node("pt", "1", "vm-passthrough", map[string]string{"nvidia.com/GA102GL_A10": "2", "nvidia.com/gpu": "0"})
	tr.UpsertNode(pt)

	// Args policy: sandbox disabled, so the passthrough label is ignored.
	if e := tr.Entry(pt); e.State.Mode.Mode != gpuworkload.ModeContainer || e.ModeMismatch[1] != "container!=vm-passthrough" || !e.Converting {
		t.Fatalf("with sandbox disabled: %+v", e)
	}
	if tr.Largest("nvidia.com/GA102GL_A10") != 2 || tr.Largest("nvidia.com/gpu") != 0 {
		t.Fatalf("largest: A10 %d, gpu %d; a zero quantity is no advertisement", tr.Largest("nvidia.com/GA102GL_A10"), tr.Largest("nvidia.com/gpu"))
	}

	enabled := argsPolicy()
	enabled.Enabled = true
	enabled.Source = gpuworkload.PolicySource{Kind: gpuworkload.SourceClusterPolicy, Name: "cluster-policy"}
	if !tr.SetPolicy(&enabled) || tr.SetPolicy(&enabled) {
		t.Fatal("SetPolicy must report a change once")
	}
	if e := tr.Entry(pt); e.State.Mode.Mode != gpuworkload.ModePassthrough || e.ModeMismatch[1] != "" || e.Converting {
		t.Fatalf("after enabling sandbox: %+v", e)
	}

	// A newer node object than the tracker's is judged as it is, not from the cache.
	newer := node("pt", "2", "vm-vgpu", map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"})
	if e := tr.Entry(newer); e.State.Mode.Mode != gpuworkload.ModeVGPU {
		t.Fatalf("entry of a newer object: %+v", e.State.Mode)
	}
	tr.UpsertNode(newer)
	if tr.Largest("nvidia.com/GA102GL_A10") != 0 || tr.Largest("nvidia.com/NVIDIA_A10-12Q") != 4 {
		t.Fatal("advertised totals did not follow the update")
	}
	tr.DeleteNode("pt")
	if tr.Largest("nvidia.com/NVIDIA_A10-12Q") != 0 || tr.entries["pt"] != nil {
		t.Fatal("delete left state behind")
	}
	if !tr.SetPolicy(nil) || tr.Policy().Source.Kind != gpuworkload.SourcePluginArgs {
		t.Fatal("SetPolicy(nil) must return to the args policy")
	}
}

func TestTrackerAdvertisedByClass(t *testing.T) {
	tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	tr.UpsertNode(node("c1", "1", "container", map[string]string{"nvidia.com/gpu": "4", "cpu": "8"}))
	tr.UpsertNode(node("pt1", "1", "vm-passthrough", map[string]string{"nvidia.com/GH100_H100_PCIE": "2"}))
	tr.UpsertNode(node("pt2", "1", "vm-passthrough", map[string]string{"nvidia.com/GA102GL_A10": "2", "nvidia.com/hostdev": "1"}))
	tr.UpsertNode(node("v1", "1", "vm-vgpu", map[string]string{"nvidia.com/NVIDIA_A10-12Q": "0"}))
	want := map[gpuworkload.ResourceClass][]v1.ResourceName{
		gpuworkload.ClassContainerGPU:   {"nvidia.com/gpu"},
		gpuworkload.ClassPassthroughGPU: {"nvidia.com/GA102GL_A10", "nvidia.com/GH100_H100_PCIE"},
	}
	if got := tr.AdvertisedByClass(); !maps.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("got %v, want %v: GPU resources only, sorted, none for a zero quantity", got, want)
	}
	tr.DeleteNode("c1")
	if got := tr.AdvertisedByClass(); got[gpuworkload.ClassContainerGPU] != nil {
		t.Fatalf("after the only container node left: %v", got)
	}
}

func TestTrackerLearnsUnrecognisedNamesFromNodeModes(t *testing.T) {
	enabled := argsPolicy()
	enabled.Enabled = true
	tr := NewTracker(enabled, nil, reasonOf, TrackerOptions{})
	name := v1.ResourceName("nvidia.com/custom_pgpu")
	if tr.Classifier().Classify(name).IsGPU() {
		t.Fatal("an unrecognised name is not a GPU before any node advertises it")
	}
	tr.UpsertNode(node("pt", "1", "vm-passthrough", map[string]string{string(name): "1"}))
	if c := tr.Classifier().Classify(name); c != gpuworkload.ClassPassthroughGPU {
		t.Fatalf("after a passthrough node advertised it: %s", c)
	}
	if tr.Largest(name) != 1 {
		t.Fatal("the newly classified resource is not counted")
	}
}

// An unrecognised name is classified by node mode exactly while all nodes
// advertising it have one mode, whatever the order of node events.
func TestTrackerClassifiesUnrecognisedNamesInAnyOrder(t *testing.T) {
	enabled := argsPolicy()
	enabled.Enabled = true
	name := v1.ResourceName("nvidia.com/custom_pgpu")
	pt := func(n, rv string) *v1.Node {
		return node(n, rv, "vm-passthrough", map[string]string{string(name): "1"})
	}
	container := node("c", "1", "container", map[string]string{string(name): "1"})
	cpu := node("cpu", "1", "", map[string]string{"cpu": "8"})
	permutations := func(nodes []*v1.Node) [][]*v1.Node {
		var out [][]*v1.Node
		var permute func(int)
		permute = func(k int) {
			if k == len(nodes) {
				out = append(out, slices.Clone(nodes))
				return
			}
			for i := k; i < len(nodes); i++ {
				nodes[k], nodes[i] = nodes[i], nodes[k]
				permute(k + 1)
				nodes[k], nodes[i] = nodes[i], nodes[k]
			}
		}
		permute(0)
		return out
	}
	classOf := func(tr *Tracker) gpuworkload.ResourceClass { return tr.Classifier().Classify(name) }
	for _, order := range permutations([]*v1.Node{pt("pt", "1"), container, cpu}) {
		tr := NewTracker(enabled, nil, reasonOf, TrackerOptions{})
		for _, n := range order {
			tr.UpsertNode(n)
		}
		if got := classOf(tr); got != gpuworkload.ClassNotGPU {
			t.Fatalf("order %s: %s; nodes of two modes advertise it, so nothing places it", names(order), got)
		}
		tr.DeleteNode("c")
		if got := classOf(tr); got != gpuworkload.ClassPassthroughGPU {
			t.Fatalf("order %s, then the container node left: %s", names(order), got)
		}
	}
	for _, order := range permutations([]*v1.Node{pt("pt1", "1"), pt("pt2", "1"), cpu}) {
		tr := NewTracker(enabled, nil, reasonOf, TrackerOptions{})
		for _, n := range order {
			tr.UpsertNode(n)
		}
		if got := classOf(tr); got != gpuworkload.ClassPassthroughGPU {
			t.Fatalf("order %s: %s", names(order), got)
		}
		relabelled := pt("pt2", "2")
		relabelled.Labels[gpuworkload.LabelWorkloadConfig] = "container"
		tr.UpsertNode(relabelled)
		if got := classOf(tr); got != gpuworkload.ClassNotGPU {
			t.Fatalf("order %s, then pt2 relabelled to container: %s", names(order), got)
		}
		tr.UpsertNode(pt("pt2", "3"))
		if got := classOf(tr); got != gpuworkload.ClassPassthroughGPU {
			t.Fatalf("order %s, then pt2 relabelled back: %s", names(order), got)
		}
	}
}

func names(nodes []*v1.Node) string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.Name
	}
	return fmt.Sprint(out)
}

func TestTrackerPermittedHostDevices(t *testing.T) {
	tr := NewTracker(argsPolicy(), map[v1.ResourceName]gpuworkload.ResourceClass{"nvidia.com/hostdev": gpuworkload.ClassNotGPU}, reasonOf, TrackerOptions{})
	permitted := &gpuworkload.PermittedHostDevices{Source: "KubeVirt/kubevirt/kubevirt",
		MediatedDevices: []gpuworkload.PermittedDevice{{ResourceName: "nvidia.com/custom_vgpu", External: true}}}
	if !tr.SetPermitted(permitted) || tr.SetPermitted(permitted) {
		t.Fatal("SetPermitted must report a change once")
	}
	if c := tr.Classifier().Classify("nvidia.com/custom_vgpu"); c != gpuworkload.ClassVGPUProfile {
		t.Fatalf("permitted mediated device classified %s", c)
	}
}

func clusterPolicyObject(name string, created time.Time, sandbox map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"sandboxWorkloads": sandbox},
	}}
	u.SetCreationTimestamp(metav1.NewTime(created))
	return u
}

func TestSelectClusterPolicy(t *testing.T) {
	logger, _ := ktesting.NewTestContext(t)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	store := cache.NewStore(cache.MetaNamespaceKeyFunc)
	_ = store.Add(clusterPolicyObject("newer", base.Add(time.Hour), map[string]any{"enabled": false}))
	_ = store.Add(clusterPolicyObject("older", base, map[string]any{"enabled": true, "defaultWorkload": "vm-vgpu"}))

	tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	if !tr.selectClusterPolicy(logger, store, "") {
		t.Fatal("no change reported")
	}
	if p := tr.Policy(); p.Source.Name != "older" || !p.Enabled || p.DefaultWorkload != gpuworkload.ModeVGPU {
		t.Fatalf("without a name the oldest is chosen: %+v", p)
	}
	tr.selectClusterPolicy(logger, store, "newer")
	if p := tr.Policy(); p.Source.Name != "newer" || p.Enabled {
		t.Fatalf("the named one is chosen: %+v", p)
	}
	tr.selectClusterPolicy(logger, store, "absent")
	if p := tr.Policy(); p.Source.Kind != gpuworkload.SourcePluginArgs {
		t.Fatalf("a missing named ClusterPolicy falls back to the args, with an error logged: %+v", p)
	}
	empty := cache.NewStore(cache.MetaNamespaceKeyFunc)
	tr.selectClusterPolicy(logger, store, "")
	if !tr.selectClusterPolicy(logger, empty, "") || tr.Policy().Source.Kind != gpuworkload.SourcePluginArgs {
		t.Fatal("deleting the last ClusterPolicy returns to the args policy")
	}
}

// Until discovery answers, the args policy is a guess: a forbidden or failed
// discovery keeps it a guess (and is logged as an error), a CRD that is not
// served settles it.
func TestFollowWhenServedSettlesOnlyOnAnswers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		settled bool
	}{
		{name: "CRD not installed", err: apierrors.NewNotFound(schema.GroupResource{Group: "nvidia.com"}, "v1"), settled: true},
		{name: "discovery forbidden", err: apierrors.NewForbidden(schema.GroupResource{}, "", errors.New("RBAC")), settled: false},
		{name: "API unreachable", err: errors.New("dial tcp 127.0.0.1:6443: connect: connection refused"), settled: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logger, ctx := ktesting.NewTestContext(t)
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			disco := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{}}
			asked := make(chan struct{})
			disco.AddReactor("get", "resource", func(clienttesting.Action) (bool, runtime.Object, error) {
				select {
				case asked <- struct{}{}:
				case <-ctx.Done():
				}
				return true, nil, tc.err
			})
			tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
			tr.AwaitPolicy()
			done := make(chan struct{})
			go func() {
				defer close(done)
				tr.followWhenServed(ctx, logger, disco, nil, time.Millisecond, ClusterPolicyGVR, func(cache.Store) {}, func() { tr.markPolicyRead() })
			}()
			// The answer to one look is acted on before the next look.
			<-asked
			<-asked
			if tr.PolicyRead() != tc.settled {
				t.Fatalf("after two looks PolicyRead is %v, want %v", tr.PolicyRead(), tc.settled)
			}
			cancel()
			<-done
		})
	}
}

// A node unsettled for the conversion timeout is mismatched, not
// converting: the tracker times it from when it first saw it unsettled,
// computes its entry again when the timeout passes, and forgets the time
// once the node settles.
func TestTrackerTimesConversions(t *testing.T) {
	const timeout = 20 * time.Minute
	clk := testingclock.NewFakeClock(time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC))
	enabled := argsPolicy()
	enabled.Enabled = true
	tr := NewTracker(enabled, nil, reasonOf, TrackerOptions{ConversionTimeout: timeout, Clock: clk})
	broken := node("broken", "1", "vm-passthrough", map[string]string{"nvidia.com/gpu": "1"})
	tr.UpsertNode(broken)
	mismatched := func() int { modes, _, _ := tr.ModeCounts(); return modes[1].Mismatched }
	if e := tr.Entry(broken); !e.Converting || e.State.Mismatched || mismatched() != 0 {
		t.Fatalf("just seen unsettled: converting %v, mismatched %v (%d counted)", e.Converting, e.State.Mismatched, mismatched())
	}

	// An update in between keeps the start.
	clk.Step(timeout / 2)
	broken = node("broken", "2", "vm-passthrough", map[string]string{"nvidia.com/gpu": "1"})
	tr.UpsertNode(broken)
	clk.Step(timeout/2 - time.Second)
	if e := tr.Entry(broken); !e.Converting {
		t.Fatal("mismatched before the timeout")
	}
	clk.Step(time.Second)
	if err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return mismatched() == 1, nil
	}); err != nil {
		t.Fatalf("the census counts %d mismatched after the timeout", mismatched())
	}
	if e := tr.Entry(broken); e.Converting || !e.State.Mismatched || !e.State.HasFinding(gpuworkload.FindingMismatchedNode) {
		t.Fatalf("after the timeout: converting %v, mismatched %v", e.Converting, e.State.Mismatched)
	}

	// Settled, then unsettled again: a new conversion, timed afresh.
	tr.UpsertNode(node("broken", "3", "container", map[string]string{"nvidia.com/gpu": "1"}))
	broken = node("broken", "4", "vm-passthrough", map[string]string{"nvidia.com/gpu": "1"})
	tr.UpsertNode(broken)
	if e := tr.Entry(broken); !e.Converting || mismatched() != 0 {
		t.Fatalf("unsettled again: converting %v, %d mismatched", e.Converting, mismatched())
	}
	tr.DeleteNode("broken")
	if clk.HasWaiters() {
		t.Fatal("a deleted node's timer is still armed")
	}
}

// A node whose mode label was written before the timeout is mismatched at
// once: its managed fields time the conversion (the kubectl plugin's case).
func TestTrackerTimesFromTheLabelWrite(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC))
	enabled := argsPolicy()
	enabled.Enabled = true
	tr := NewTracker(enabled, nil, reasonOf, TrackerOptions{Clock: clk})
	broken := node("broken", "1", "vm-passthrough", map[string]string{"nvidia.com/gpu": "1"})
	written := metav1.NewTime(clk.Now().Add(-gpuworkload.DefaultConversionTimeout))
	broken.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl-label", Operation: metav1.ManagedFieldsOperationUpdate, Time: &written,
		FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{"f:nvidia.com/gpu.workload.config":{}}}}`)}}}
	tr.UpsertNode(broken)
	if e := tr.Entry(broken); e.Converting || !e.State.Mismatched {
		t.Fatalf("converting %v, mismatched %v; want mismatched", e.Converting, e.State.Mismatched)
	}
	if clk.HasWaiters() {
		t.Fatal("a timer is armed for a node already mismatched")
	}
}
