package gpustranding

import (
	"context"
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	st "k8s.io/kubernetes/pkg/scheduler/testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
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

// scores runs GPUWorkloadFit's PreFilter, then GPUStranding's PreScore,
// Score and NormalizeScore over the nodes, as one scheduling cycle does.
func scores(t *testing.T, args runtime.Object, p *v1.Pod, infos []fwk.NodeInfo) (raw, normalized []int64) {
	t.Helper()
	ctx := context.Background()
	nodes := make([]*v1.Node, len(infos))
	for i, ni := range infos {
		nodes[i] = ni.Node()
	}
	fit, err := gpuworkloadfit.New(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		fit.(*gpuworkloadfit.GPUWorkloadFit).Tracker().UpsertNode(n)
	}
	plugin, err := New(ctx, args, nil)
	if err != nil {
		t.Fatal(err)
	}
	pl := plugin.(*GPUStranding)
	state := framework.NewCycleState()
	fit.(fwk.PreFilterPlugin).PreFilter(ctx, state, p, infos)
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

func TestScoreGPUPods(t *testing.T) {
	busy := pod("busy", map[v1.ResourceName]string{a10: "1"})
	busy3 := pod("busy3", map[v1.ResourceName]string{a10: "3"})
	infos := []fwk.NodeInfo{
		nodeInfo(node("empty", "vm-passthrough", map[v1.ResourceName]string{a10: "4"})),
		nodeInfo(node("quarter-used", "vm-passthrough", map[v1.ResourceName]string{a10: "4"}), busy),
		nodeInfo(node("one-left", "vm-passthrough", map[v1.ResourceName]string{a10: "4"}), busy3),
	}
	raw, normalized := scores(t, nil, pod("vm", map[v1.ResourceName]string{a10: "1"}), infos)
	// (used+1)/4 on the 0-100 scale; the empty node keeps half.
	if want := []int64{12, 50, 100}; !slices.Equal(raw, want) {
		t.Fatalf("raw scores %v, want %v", raw, want)
	}
	if want := []int64{12, 50, 100}; !slices.Equal(normalized, want) {
		t.Fatalf("normalized %v, want %v", normalized, want)
	}

	raw, normalized = scores(t, runtimeArgs(`{"emptyNodePenalty":0}`), pod("vm", map[v1.ResourceName]string{a10: "1"}), infos[:2])
	if want := []int64{25, 50}; !slices.Equal(raw, want) {
		t.Fatalf("without penalty: raw %v, want %v", raw, want)
	}
	if want := []int64{50, 100}; !slices.Equal(normalized, want) {
		t.Fatalf("without penalty: normalized %v, want %v", normalized, want)
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
	raw, normalized := scores(t, nil, pod("web", map[v1.ResourceName]string{v1.ResourceCPU: "8"}), infos)
	// GPU nodes with free GPUs: 50 * (1 - CPU share after placement).
	if want := []int64{100, 37, 12, 100}; !slices.Equal(raw, want) {
		t.Fatalf("raw scores %v, want %v", raw, want)
	}
	if !slices.Equal(normalized, raw) {
		t.Fatalf("non-GPU scores were normalized: %v", normalized)
	}
}

func TestPreScoreNeedsGPUWorkloadFit(t *testing.T) {
	plugin, err := New(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	status := plugin.(*GPUStranding).PreScore(context.Background(), framework.NewCycleState(), pod("p", nil), nil)
	if status.IsSuccess() || status.Code() != fwk.Error {
		t.Fatalf("status %v, want an error naming the missing plugin", status)
	}
}

func TestNewRejectsInvalidArgs(t *testing.T) {
	if _, err := New(context.Background(), runtimeArgs(`{"emptyNodePenalty":150}`), nil); err == nil {
		t.Fatal("New accepted emptyNodePenalty 150")
	}
}

func runtimeArgs(s string) runtime.Object {
	return &runtime.Unknown{Raw: []byte(s), ContentType: runtime.ContentTypeJSON}
}
