package gpustranding

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
)

// Score allocates nothing per node, on every path: a GPU pod on a
// device-plugin node of each mode, on a DRA node, and a pod without GPUs on
// a GPU node and on a CPU node.
func TestScoreDoesNotAllocate(t *testing.T) {
	vgpu := v1.ResourceName("nvidia.com/NVIDIA_A10-12Q")
	running := pod("running", map[v1.ResourceName]string{gpu: "1"})
	container := nodeInfo(node("container", "container", map[v1.ResourceName]string{gpu: "8"}), running)
	passthrough := nodeInfo(node("passthrough", "vm-passthrough", map[v1.ResourceName]string{a10: "4"}))
	vgpuNode := nodeInfo(node("vgpu", "vm-vgpu", map[v1.ResourceName]string{vgpu: "8"}))
	dra, cpu := nodeInfo(node("dra-half", "", nil)), nodeInfo(node("cpu", "", nil))
	infos := []fwk.NodeInfo{container, passthrough, vgpuNode, dra, nodeInfo(node("dra-empty", "", nil)), cpu}
	for _, tc := range []struct {
		name string
		pod  *v1.Pod
		node fwk.NodeInfo
	}{
		{"container GPU pod", pod("cuda", map[v1.ResourceName]string{gpu: "1"}), container},
		{"passthrough VM", pod("vm", map[v1.ResourceName]string{a10: "1"}), passthrough},
		{"vGPU VM", pod("vdi", map[v1.ResourceName]string{vgpu: "1"}), vgpuNode},
		{"container GPU pod on a DRA node", pod("cuda-dra", map[v1.ResourceName]string{gpu: "1"}), dra},
		{"pod without GPUs on a GPU node", pod("web", map[v1.ResourceName]string{v1.ResourceCPU: "1"}), container},
		{"pod without GPUs on a CPU node", pod("web", map[v1.ResourceName]string{v1.ResourceCPU: "1"}), cpu},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl, state := prefiltered(t, nil, draNodes(t, "gpu-0"), tc.pod, infos, observed{name: gpu, units: 1, times: 10}, observed{name: a10, units: 1, times: 10})
			ctx := context.Background()
			if status := pl.PreScore(ctx, state, tc.pod, infos); !status.IsSuccess() {
				t.Fatalf("PreScore: %v", status)
			}
			var status *fwk.Status
			if allocs := testing.AllocsPerRun(100, func() { _, status = pl.Score(ctx, state, tc.pod, tc.node) }); allocs != 0 || !status.IsSuccess() {
				t.Fatalf("Score: %v with %.0f allocations per call, want success with none", status, allocs)
			}
		})
	}
}
