package gpustranding

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	st "k8s.io/kubernetes/pkg/scheduler/testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices/dratest"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

const (
	gpu v1.ResourceName = "nvidia.com/gpu"
	a10 v1.ResourceName = "nvidia.com/GA102GL_A10"
)

func node(name, mode string, resources map[v1.ResourceName]string) *v1.Node {
	all := map[v1.ResourceName]string{v1.ResourceCPU: "32", v1.ResourceMemory: "128Gi"}
	for k, v := range resources {
		all[k] = v
	}
	w := st.MakeNode().Name(name)
	if mode != "" {
		w = w.Label("nvidia.com/gpu.workload.config", mode)
	}
	return w.Capacity(all).Obj()
}

func pod(name string, requests map[v1.ResourceName]string) *v1.Pod {
	return st.MakePod().Name(name).Namespace("ns").UID(name).Req(requests).Obj()
}

func nodeInfo(n *v1.Node, pods ...*v1.Pod) fwk.NodeInfo {
	ni := framework.NewNodeInfo(pods...)
	ni.SetNode(n)
	return ni
}

// observed is a request the scheduler saw before the cycle under test.
type observed struct {
	name            v1.ResourceName
	units, milliCPU int64
	times           int
	// nodeSelector pins the requests to some nodes.
	nodeSelector map[string]string
}

// scores runs GPUWorkloadFit's PreFilter, then GPUStranding's PreFilter, PreScore,
// Score and NormalizeScore over the nodes, as one scheduling cycle does,
// after the tracker has seen the given requests.
func scores(t *testing.T, args runtime.Object, p *v1.Pod, infos []fwk.NodeInfo, history ...observed) (raw, normalized []int64) {
	t.Helper()
	return scoresWithDRA(t, args, nil, p, infos, history...)
}

// scoresWithDRA is scores after dra has fed the tracker DRA objects.
func scoresWithDRA(t *testing.T, args runtime.Object, dra func(*clusterstate.Tracker), p *v1.Pod, infos []fwk.NodeInfo, history ...observed) (raw, normalized []int64) {
	t.Helper()
	ctx := context.Background()
	pl, state := prefiltered(t, args, dra, p, infos, history...)
	if status := pl.PreScore(ctx, state, p, infos); !status.IsSuccess() {
		t.Fatalf("PreScore: %v", status)
	}
	list := make(fwk.NodeScoreList, len(infos))
	for i, ni := range infos {
		s, status := pl.Score(ctx, state, p, ni)
		if !status.IsSuccess() {
			t.Fatalf("Score: %v", status)
		}
		list[i] = fwk.NodeScore{Name: ni.Node().Name, Score: s}
		raw = append(raw, s)
	}
	if status := pl.NormalizeScore(ctx, state, p, list); !status.IsSuccess() {
		t.Fatalf("NormalizeScore: %v", status)
	}
	for _, s := range list {
		normalized = append(normalized, s.Score)
	}
	return raw, normalized
}

// prefiltered builds both plugins over the nodes, feeds the tracker the DRA
// objects and the demand model the history, and runs both PreFilters: a
// cycle's state as PreScore finds it.
func prefiltered(t *testing.T, args runtime.Object, dra func(*clusterstate.Tracker), p *v1.Pod, infos []fwk.NodeInfo, history ...observed) (*GPUStranding, fwk.CycleState) {
	t.Helper()
	ctx := context.Background()
	state := schedulerstate.NewOffline()
	fit, err := gpuworkloadfit.New(ctx, nil, nil, state)
	if err != nil {
		t.Fatal(err)
	}
	tracker := state.Tracker()
	tracker.SetPolicy(&gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer})
	for _, ni := range infos {
		tracker.UpsertNode(ni.Node())
	}
	if dra != nil {
		dra(tracker)
	}
	plugin, err := New(ctx, args, nil, state)
	if err != nil {
		t.Fatal(err)
	}
	pl := plugin.(*GPUStranding)
	for _, h := range history {
		for range h.times {
			pl.demand.Observe(h.name, h.units, h.milliCPU, 0, poddemand.NodeConstraintOf(&v1.Pod{Spec: v1.PodSpec{NodeSelector: h.nodeSelector}}))
		}
	}
	cycle := framework.NewCycleState()
	fit.(fwk.PreFilterPlugin).PreFilter(ctx, cycle, p, infos)
	if _, status := pl.PreFilter(ctx, cycle, p, infos); !status.IsSuccess() {
		t.Fatalf("PreFilter: %v", status)
	}
	return pl, cycle
}

func a10Node(name string, cpu string, pods ...*v1.Pod) fwk.NodeInfo {
	n := node(name, "vm-passthrough", map[v1.ResourceName]string{a10: "4"})
	n.Status.Capacity[v1.ResourceCPU] = resource.MustParse(cpu)
	n.Status.Allocatable = n.Status.Capacity
	return nodeInfo(n, pods...)
}

func vmPod(name string, units, cpu string) *v1.Pod {
	return pod(name, map[v1.ResourceName]string{a10: units, v1.ResourceCPU: cpu})
}

// Demand pinned to a GPU product keeps its nodes: a pod that could go
// anywhere takes a unit where the pinned pods could not use it. Without
// pinned demand the two nodes cost the same.
func TestScorePinnedDemandKeepsItsHardware(t *testing.T) {
	product := func(name, value string) fwk.NodeInfo {
		n := node(name, "container", map[v1.ResourceName]string{gpu: "2"})
		n.Labels[gpuworkload.LabelGPUProduct] = value
		return nodeInfo(n)
	}
	infos := []fwk.NodeInfo{product("t4", "Tesla-T4"), product("g2", "G2")}
	anywhere := pod("anywhere", map[v1.ResourceName]string{gpu: "1"})
	unpinned := observed{name: gpu, units: 1, times: 100}
	raw, _ := scores(t, nil, anywhere, infos, unpinned)
	if raw[0] != raw[1] {
		t.Fatalf("scores %v without pinned demand, want equal", raw)
	}
	pinned := observed{name: gpu, units: 1, times: 100, nodeSelector: map[string]string{gpuworkload.LabelGPUProduct: "Tesla-T4"}}
	raw, _ = scores(t, nil, anywhere, infos, unpinned, pinned)
	if raw[1] <= raw[0] {
		t.Fatalf("scores t4 %d, g2 %d with demand pinned to Tesla-T4: want g2 higher", raw[0], raw[1])
	}
}

// Demand kept to a scarce card keeps it from pods that could run anywhere,
// even where the card's node would pack and drain better: a T4 node with
// three 1-GPU pods and one of four GPUs free against a G2 node with one pod
// and three free. Without pinned demand the pod fills the T4 node (fill 1
// against 0.5, drain 4/4 against 4/2). With half the recent requests pinned
// to Tesla-T4 the G2 node gains half a unit those requests could not use;
// that alone would not outweigh 1.5, but the T4's one free GPU is a quarter
// of the free units, so it is worth about twice a unit to them
// (worthOf), and the pod goes to the G2 node. A pod pinned to Tesla-T4
// itself pays nothing for its own demand.
func TestScoreKeepsScarceCardsForPinnedDemand(t *testing.T) {
	product := func(name, value string, running int) fwk.NodeInfo {
		n := node(name, "container", map[v1.ResourceName]string{gpu: "4"})
		n.Labels[gpuworkload.LabelGPUProduct] = value
		var pods []*v1.Pod
		for i := range running {
			pods = append(pods, pod(fmt.Sprintf("%s-%d", name, i), map[v1.ResourceName]string{gpu: "1"}))
		}
		return nodeInfo(n, pods...)
	}
	infos := []fwk.NodeInfo{product("t4", "Tesla-T4", 3), product("g2", "G2", 1)}
	anywhere := pod("anywhere", map[v1.ResourceName]string{gpu: "1"})
	unpinned := observed{name: gpu, units: 1, times: 100}
	raw, _ := scores(t, nil, anywhere, infos, unpinned)
	if raw[0] <= raw[1] {
		t.Fatalf("scores t4 %d, g2 %d without pinned demand: want t4 higher, it packs better", raw[0], raw[1])
	}
	pinned := observed{name: gpu, units: 1, times: 100, nodeSelector: map[string]string{gpuworkload.LabelGPUProduct: "Tesla-T4"}}
	raw, _ = scores(t, nil, anywhere, infos, unpinned, pinned)
	if raw[1] <= raw[0] {
		t.Fatalf("scores t4 %d, g2 %d with half the demand pinned to Tesla-T4: want g2 higher", raw[0], raw[1])
	}
	own := pod("t4-only", map[v1.ResourceName]string{gpu: "1"})
	own.Spec.NodeSelector = map[string]string{gpuworkload.LabelGPUProduct: "Tesla-T4"}
	pl, state := prefiltered(t, nil, nil, own, infos, unpinned, pinned)
	if status := pl.PreScore(context.Background(), state, own, infos); !status.IsSuccess() {
		t.Fatalf("PreScore: %v", status)
	}
	if s, err := readCycleState(state); err != nil || s.worth != nil {
		t.Fatalf("worth %v (%v) for a pod of the pinned demand itself, want none", s.worth, err)
	}
}

// An empty node costs the same drain delay whatever its size, so that the
// demand decides which nodes a pod that fits anywhere opens: with a quarter
// of the requests pinned to the T4, whose two-GPU nodes hold a fifth of the
// free units, the pod opens the empty 8-GPU G2 node, not the empty T4 node
// (whose drain delay, counted in its own units, was 2 against 8). With a
// tenth of the requests for 8 GPUs, which only the G2 node holds, instead,
// it opens the T4 node and keeps the G2 node whole.
func TestScoreOpensTheNodeTheDemandNeedsLeast(t *testing.T) {
	t4 := node("t4", "container", map[v1.ResourceName]string{gpu: "2"})
	t4.Labels[gpuworkload.LabelGPUProduct] = "Tesla-T4"
	g2 := node("g2", "container", map[v1.ResourceName]string{gpu: "8"})
	g2.Labels[gpuworkload.LabelGPUProduct] = "G2"
	infos := []fwk.NodeInfo{nodeInfo(t4), nodeInfo(g2)}
	anywhere := pod("anywhere", map[v1.ResourceName]string{gpu: "1"})
	for _, tc := range []struct {
		name  string
		other observed
		want  string
	}{
		{name: "a quarter pinned to the T4", other: observed{name: gpu, units: 1, times: 100, nodeSelector: map[string]string{gpuworkload.LabelGPUProduct: "Tesla-T4"}}, want: "g2"},
		{name: "a tenth of the requests for a whole G2", other: observed{name: gpu, units: 8, times: 33}, want: "t4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, _ := scores(t, nil, anywhere, infos, observed{name: gpu, units: 1, times: 300}, tc.other)
			if got := []string{"t4", "g2"}[max(slices.Index(raw, slices.Max(raw)), 0)]; got != tc.want || raw[0] == raw[1] {
				t.Fatalf("scores t4 %d, g2 %d: want %s higher", raw[0], raw[1], tc.want)
			}
		})
	}
}

// One-unit requests are classed by their CPU: where half of them want 4
// CPUs and half 16, a node with 20 CPUs beside its two free GPUs holds one
// 16-CPU pod, not two, so a 16-CPU pod placed there leaves its other unit
// to the 4-CPU pods, usable as before. Classed by their mean (10 CPUs), the
// node held two, and the pod went to a node with CPU for two, where it
// leaves one.
func TestScoreClassesOneUnitRequestsByCPU(t *testing.T) {
	short := nodeInfo(node("cpu-for-one", "container", map[v1.ResourceName]string{gpu: "2"}),
		pod("web", map[v1.ResourceName]string{v1.ResourceCPU: "12"}))
	rich := nodeInfo(node("cpu-for-two", "container", map[v1.ResourceName]string{gpu: "2"}))
	hungry := pod("hungry", map[v1.ResourceName]string{gpu: "1", v1.ResourceCPU: "16"})
	raw, _ := scores(t, nil, hungry, []fwk.NodeInfo{short, rich},
		observed{name: gpu, units: 1, milliCPU: 16000, times: 50}, observed{name: gpu, units: 1, milliCPU: 4000, times: 50})
	if raw[0] <= raw[1] {
		t.Fatalf("scores cpu-for-one %d, cpu-for-two %d: want cpu-for-one higher", raw[0], raw[1])
	}
}

// An empty node's drain units are its own units for a relabel and the
// largest node's for keeping it whole, by the resource's share of requests.
func TestDrainUnits(t *testing.T) {
	for _, tc := range []struct {
		name           string
		total, largest int64
		share          float64
		want           float64
	}{
		{name: "nodes of one size", total: 8, largest: 8, share: 0.6, want: 8},
		{name: "a small node, every request for its resource", total: 2, largest: 8, share: 1, want: 8},
		{name: "a small node, no request for its resource", total: 2, largest: 8, share: 0, want: 2},
		{name: "a small node, a quarter of the requests for its resource", total: 2, largest: 8, share: 0.25, want: 3.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := drainUnits(tc.total, tc.largest, tc.share); got != tc.want {
				t.Fatalf("drainUnits(%d, %d, %v) = %v, want %v", tc.total, tc.largest, tc.share, got, tc.want)
			}
		})
	}
}

// A class's worth is its share of the requested units over the share of
// the free units in the slots it fits; classes every node of the cycle can
// hold, the pod's own and those that fit nowhere get none.
func TestWorthOf(t *testing.T) {
	t4 := node("t4", "container", map[v1.ResourceName]string{gpu: "4"})
	t4.Labels[gpuworkload.LabelGPUProduct] = "Tesla-T4"
	a10 := node("a10", "container", map[v1.ResourceName]string{gpu: "8"})
	a10.Labels[gpuworkload.LabelGPUProduct] = "NVIDIA-A10"
	infos := []fwk.NodeInfo{nodeInfo(t4, pod("busy", map[v1.ResourceName]string{gpu: "2"})), nodeInfo(a10)}
	pinnedTo := func(product string) poddemand.NodeConstraint {
		p := pod("p", nil)
		p.Spec.NodeSelector = map[string]string{gpuworkload.LabelGPUProduct: product}
		return poddemand.NodeConstraintOf(p)
	}
	classes := []DemandClass{
		{Units: 1, Share: 0.4},
		{Units: 1, Share: 0.3, Constraint: pinnedTo("Tesla-T4")},
		{Units: 1, Share: 0.1, Constraint: pinnedTo("NVIDIA-A10")},
		{Units: 1, Share: 0.1, Constraint: pinnedTo("NVIDIA-H100")},
		{Units: 4, Share: 0.05},
		{Units: 8, Share: 0.05},
	}
	// Requested units: 0.4+0.3+0.1+0.1+0.2+0.4 = 1.5. Free: 2 on t4, 8 on
	// a10, 10 in all; every node holds 4 units, only a10 holds 8.
	one := poddemand.ResourceRequest{Name: gpu, Count: 1}
	got := worthOf(classes, one, "", infos)
	want := []float64{0, 0.3 / 1.5 * 10 / 2, 0.1 / 1.5 * 10 / 8, 0, 0, 0.4 / 1.5 * 10 / 8}
	if len(got) != len(want) {
		t.Fatalf("worth %v, want %v", got, want)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	for i := range want {
		if !near(got[i], want[i]) {
			t.Errorf("worth %v, want %v", got, want)
			break
		}
	}
	if got := worthOf(classes, one, pinnedTo("Tesla-T4").Key, infos); got[1] != 0 || !near(got[2], want[2]) {
		t.Errorf("worth for a pod pinned to Tesla-T4 %v: want none for its own class, %v for NVIDIA-A10", got, want[2])
	}
	if got := worthOf(classes, poddemand.ResourceRequest{Name: gpu, Count: 8}, "", infos); got[5] != 0 || !near(got[1], want[1]) {
		t.Errorf("worth for an 8-GPU pod %v: want none for its own class, %v for Tesla-T4", got, want[1])
	}
	if got := worthOf(classes[:1], one, "", infos); got != nil {
		t.Errorf("worth %v of demand every node holds, want nil", got)
	}
}

func TestScoreGPUPods(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     runtime.Object
		pod      *v1.Pod
		nodes    []fwk.NodeInfo
		history  []observed
		wantRaw  []int64
		wantNorm []int64
	}{
		{
			// Only one-unit requests: no unit is ever unusable. Draining costs
			// the node's 4 units over 1 + the pods holding them (0, 1, 1):
			// (fill - cost) * 1000.
			name:     "packs and keeps the empty node",
			pod:      vmPod("vm", "1", "1"),
			nodes:    []fwk.NodeInfo{a10Node("empty", "32"), a10Node("quarter-used", "32", vmPod("a", "1", "1")), a10Node("one-left", "32", vmPod("b", "3", "1"))},
			wantRaw:  []int64{250 - 4000, 500 - 2000, 1000 - 2000},
			wantNorm: []int64{0, 81, 100},
		},
		{
			// Two units in use either way, but one pod drains sooner than two:
			// 4 / (1 + 1) against 4 / (1 + 2), the same fill.
			name:     "counts the pods, not the units",
			pod:      vmPod("vm", "1", "1"),
			nodes:    []fwk.NodeInfo{a10Node("one-pod", "32", vmPod("a", "2", "1")), a10Node("two-pods", "32", vmPod("b", "1", "1"), vmPod("c", "1", "1"))},
			wantRaw:  []int64{750 - 2000, 750 - 1333},
			wantNorm: []int64{0, 100},
		},
		{
			name:     "emptyNodePenalty 0 leaves only the fill",
			args:     runtimeArgs(`{"emptyNodePenalty":0}`),
			pod:      vmPod("vm", "1", "1"),
			nodes:    []fwk.NodeInfo{a10Node("empty", "32"), a10Node("quarter-used", "32", vmPod("a", "1", "1"))},
			wantRaw:  []int64{250, 500},
			wantNorm: []int64{0, 100},
		},
		{
			// Two-unit requests are common: taking one of three free units
			// leaves two that fit one; taking one of two leaves one nobody uses.
			name:     "keeps free units in sizes the demand uses",
			pod:      vmPod("vm", "1", "1"),
			nodes:    []fwk.NodeInfo{a10Node("three-free", "32", vmPod("a", "1", "1")), a10Node("two-free", "32", vmPod("b", "2", "1"))},
			history:  []observed{{name: a10, units: 2, milliCPU: 1000, times: 1000}},
			wantNorm: []int64{100, 0},
		},
		{
			// Pods want 8 CPUs per unit; this one wants 24. On the node with
			// 32 CPUs free it would leave one of the two other units without
			// CPU. Most demand is for another resource, so both nodes are worth
			// draining alike.
			name:     "does not strand units behind used-up CPU",
			pod:      vmPod("vm", "1", "24"),
			nodes:    []fwk.NodeInfo{a10Node("cpu-rich", "64", vmPod("a", "1", "8")), a10Node("cpu-poor", "40", vmPod("b", "1", "8"))},
			history:  []observed{{name: a10, units: 1, milliCPU: 8000, times: 1000}, {name: gpu, units: 1, milliCPU: 8000, times: 3000}},
			wantNorm: []int64{100, 0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, normalized := scores(t, tc.args, tc.pod, tc.nodes, tc.history...)
			if tc.wantRaw != nil && !slices.Equal(raw, tc.wantRaw) {
				t.Errorf("raw scores %v, want %v", raw, tc.wantRaw)
			}
			if !slices.Equal(normalized, tc.wantNorm) {
				t.Errorf("normalized %v (raw %v), want %v", normalized, raw, tc.wantNorm)
			}
		})
	}
}

func TestScoreNonGPUPods(t *testing.T) {
	allGPUsUsed := pod("gpu-user", map[v1.ResourceName]string{gpu: "2"})
	infos := []fwk.NodeInfo{
		nodeInfo(node("cpu", "", nil)),
		nodeInfo(node("gpu-free", "container", map[v1.ResourceName]string{gpu: "2"})),
		nodeInfo(node("gpu-free-busy-cpu", "container", map[v1.ResourceName]string{gpu: "2"}), pod("cpu-hog", map[v1.ResourceName]string{v1.ResourceCPU: "16"})),
		nodeInfo(node("gpu-all-used", "container", map[v1.ResourceName]string{gpu: "2"}), allGPUsUsed),
	}
	web := pod("web", map[v1.ResourceName]string{v1.ResourceCPU: "8"})
	// The pod takes a quarter of a GPU node's 32 CPUs: 50% of a quarter of 2 free units.
	raw, normalized := scores(t, nil, web, infos)
	if want := []int64{0, -250, -250, 0}; !slices.Equal(raw, want) {
		t.Fatalf("raw scores %v, want %v", raw, want)
	}
	if want := []int64{100, 0, 0, 100}; !slices.Equal(normalized, want) {
		t.Fatalf("normalized %v, want %v", normalized, want)
	}
	// GPU pods have wanted 8 CPUs per GPU: on the busy node the pod's CPUs
	// would leave one of the two free GPUs without CPU.
	raw, _ = scores(t, nil, web, infos, observed{name: gpu, units: 1, milliCPU: 8000, times: 1000})
	if want := []int64{0, -250, -1250, 0}; !slices.Equal(raw, want) {
		t.Fatalf("with learned CPU per GPU: raw scores %v, want %v", raw, want)
	}
}

// A scheduler without GPUWorkloadFit, or a profile without GPUStranding's
// own PreFilter, fails every cycle with the fix rather than scoring on no
// demand.
func TestMisconfiguredProfileFailsWithTheFix(t *testing.T) {
	ctx := context.Background()
	plugin, err := New(ctx, nil, nil, schedulerstate.NewOffline())
	if err != nil {
		t.Fatal(err)
	}
	pl := plugin.(*GPUStranding)
	for _, tc := range []struct {
		name string
		run  func(fwk.CycleState) *fwk.Status
		want string
	}{
		{"PreFilter without GPUWorkloadFit", func(s fwk.CycleState) *fwk.Status {
			_, status := pl.PreFilter(ctx, s, pod("p", nil), nil)
			return status
		}, "GPUStranding: no profile of the scheduler enables GPUWorkloadFit, which builds the GPU cluster state: enable it"},
		{"PreScore without PreFilter", func(s fwk.CycleState) *fwk.Status {
			return pl.PreScore(ctx, s, pod("p", nil), nil)
		}, "GPUStranding did not run PreFilter in this cycle (enable it at preFilter)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status := tc.run(framework.NewCycleState())
			if status.Code() != fwk.Error || !strings.Contains(status.Message(), tc.want) {
				t.Fatalf("status %v, want an error containing %q", status, tc.want)
			}
		})
	}
}

func TestNewRejectsInvalidArgs(t *testing.T) {
	if _, err := New(context.Background(), runtimeArgs(`{"emptyNodePenalty":150}`), nil, schedulerstate.NewOffline()); err == nil {
		t.Fatal("New accepted emptyNodePenalty 150")
	}
}

func runtimeArgs(s string) runtime.Object {
	return &runtime.Unknown{Raw: []byte(s), ContentType: runtime.ContentTypeJSON}
}

func TestPackWeight(t *testing.T) {
	// Pods have wanted 10 CPUs and 64 GiB per unit.
	classes := []DemandClass{{Units: 1, Share: 0.5, MilliCPU: 10000, Memory: 64 << 30}, {Units: 2, Share: 0.5, MilliCPU: 20000, Memory: 128 << 30}}
	for _, tc := range []struct {
		name            string
		elsewhere       float64
		units, milliCPU int64
		memory          int64
		want            float64
	}{
		{"no free units", 0, 0, 0, 0, 1},
		{"twice the CPU and memory the units need", 0, 4, 80000, 512 << 30, 1},
		{"half again the CPU", 0, 4, 60000, 512 << 30, 0.5},
		{"memory is the tighter", 0, 4, 80000, 320 << 30, 0.25},
		{"less CPU than the units need", 0, 4, 30000, 512 << 30, 0},
		{"other resources wanted", 0.7, 4, 30000, 512 << 30, 0.7},
		{"nothing learned yet", 0, 4, 0, 0, 1},
	} {
		learned := classes
		if tc.name == "nothing learned yet" {
			learned = nil
		}
		demand := newResourceDemand(learned, 1-tc.elsewhere)
		if got := packWeight(demand, tc.units, tc.milliCPU, tc.memory); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: packWeight = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// draNodes publishes two GPUs on each node as the NVIDIA DRA driver does
// (gpu-i and gpu-vfio-i), serves nvidia.com/gpu through gpu.nvidia.com and
// allocates the given devices of node dra-half.
func draNodes(t *testing.T, allocated ...string) func(*clusterstate.Tracker) {
	return func(tr *clusterstate.Tracker) {
		for _, class := range []*resourceapi.DeviceClass{
			dradevices.DriverDeviceClass(dradevices.DRAClassGPU, dradevices.DRATypeGPU, gpu),
			dradevices.DriverDeviceClass(dradevices.DRAClassVFIO, dradevices.DRATypeVFIO, ""),
		} {
			if err := tr.UpsertDeviceClass(class); err != nil {
				t.Fatal(err)
			}
		}
		for _, n := range []string{"dra-half", "dra-empty"} {
			tr.UpsertResourceSlice(dradevices.DriverSlice(n, 2))
		}
		for _, d := range allocated {
			tr.UpsertResourceClaim(dratest.AllocatedClaim("ns", "holds-"+d, "dra-half", d))
		}
	}
}

// A free DRA GPU serves either class: a container pod whose resource a
// device plugin serves goes to a device-plugin node while one has room, and
// among DRA nodes fills the fullest, unless CPU or memory decide. DRA GPUs
// count as units of the demand their DeviceClasses serve: a pod without
// GPUs keeps off them, a GPU pod takes the one its node's CPU leaves
// unusable to the usual pods.
func TestScoreDRANodes(t *testing.T) {
	container := pod("ctr", map[v1.ResourceName]string{gpu: "1"})
	busy := nodeInfo(node("busy-device-plugin", "container", map[v1.ResourceName]string{gpu: "8"}),
		pod("a", map[v1.ResourceName]string{gpu: "1"}), pod("b", map[v1.ResourceName]string{gpu: "1"}), pod("c", map[v1.ResourceName]string{gpu: "1"}))
	empty := nodeInfo(node("empty-device-plugin", "container", map[v1.ResourceName]string{gpu: "8"}))
	half, free := nodeInfo(node("dra-half", "", nil)), nodeInfo(node("dra-empty", "", nil))
	cpuPoor := nodeInfo(node("dra-half", "", nil), pod("web", map[v1.ResourceName]string{v1.ResourceCPU: "12"}))
	cpuOnly := nodeInfo(node("cpu", "", nil))
	learned := []observed{{name: gpu, units: 1, times: 100}}
	cpuHungry := []observed{{name: gpu, units: 1, milliCPU: 16000, times: 100}}
	for _, tc := range []struct {
		name      string
		pod       *v1.Pod
		allocated []string
		history   []observed
		nodes     []fwk.NodeInfo
		want      []string // best first
	}{
		{name: "device-plugin nodes with room come first, even an empty one", pod: container, allocated: []string{"gpu-0"}, history: learned,
			nodes: []fwk.NodeInfo{half, free, busy, empty}, want: []string{"busy-device-plugin", "empty-device-plugin", "dra-half", "dra-empty"}},
		{name: "only DRA nodes: the half-used one", pod: container, allocated: []string{"gpu-0"}, history: learned,
			nodes: []fwk.NodeInfo{free, half}, want: []string{"dra-half", "dra-empty"}},
		{name: "a pod without GPUs keeps off a DRA node's free GPUs", pod: pod("batch", map[v1.ResourceName]string{v1.ResourceCPU: "16"}), history: cpuHungry,
			nodes: []fwk.NodeInfo{free, cpuOnly}, want: []string{"cpu", "dra-empty"}},
		{name: "a GPU pod takes the GPU its node's CPU leaves unusable", pod: pod("light", map[v1.ResourceName]string{gpu: "1", v1.ResourceCPU: "4"}), history: cpuHungry,
			nodes: []fwk.NodeInfo{free, cpuPoor}, want: []string{"dra-half", "dra-empty"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, _ := scoresWithDRA(t, nil, draNodes(t, tc.allocated...), tc.pod, tc.nodes, tc.history...)
			order := make([]int, len(raw))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int { return int(raw[b] - raw[a]) })
			var got []string
			for _, i := range order {
				got = append(got, tc.nodes[i].Node().Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("raw scores %v: order %v, want %v", raw, got, tc.want)
			}
		})
	}
}

// A pod scored twice in one cycle's state (the framework rescores clones of
// it, as opportunistic batching does) gets the same scores both times.
func TestPreScoreAgainScoresTheSame(t *testing.T) {
	ctx := context.Background()
	infos := []fwk.NodeInfo{nodeInfo(node("empty-device-plugin", "container", map[v1.ResourceName]string{gpu: "8"})), nodeInfo(node("dra-half", "", nil))}
	p := pod("ctr", map[v1.ResourceName]string{gpu: "1"})
	pl, state := prefiltered(t, nil, draNodes(t, "gpu-0"), p, infos)
	scoreAll := func(state fwk.CycleState) []int64 {
		if status := pl.PreScore(ctx, state, p, infos); !status.IsSuccess() {
			t.Fatalf("PreScore: %v", status)
		}
		var out []int64
		for _, ni := range infos {
			s, status := pl.Score(ctx, state, p, ni)
			if !status.IsSuccess() {
				t.Fatalf("Score: %v", status)
			}
			out = append(out, s)
		}
		return out
	}
	first := scoreAll(state.Clone())
	if again := scoreAll(state.Clone()); !slices.Equal(first, again) {
		t.Fatalf("scores %v, then %v on a clone of the same PreFilter state: PreScore added to the state it shares", first, again)
	}
}
