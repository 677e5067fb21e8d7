package gpuworkloadfit

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// Filter allocates nothing where a node fits, on every path the scheduler
// takes per node: each mode's resource, a pod pinned to a model, an
// extended resource a DeviceClass serves on a DRA node, and a VM's claim.
func TestFilterDoesNotAllocateOnANodeThatFits(t *testing.T) {
	draNode := gpuNode("dra", "", nil)
	nodes := append(testNodes(), draNode)
	pinned := podRequesting("pinned", map[v1.ResourceName]string{gpu: "1"})
	pinned.Spec.NodeSelector = map[string]string{gpuworkload.LabelGPUProduct: "NVIDIA-A10"}
	for _, tc := range []struct {
		name string
		pod  *v1.Pod
		node *v1.Node
	}{
		{"container", podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"}), nodes[0]},
		{"passthrough", launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}), nodes[1]},
		{"vGPU", launcherPod("vdi", map[v1.ResourceName]string{a10_12q: "1"}), nodes[3]},
		{"pinned to a model", pinned, nodes[0]},
		{"extended resource through DRA", podRequesting("cuda-dra", map[v1.ResourceName]string{gpu: "1"}), draNode},
		{"VM claim through DRA", vmWithClaim("vm", "vm-gpu"), draNode},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl := newPlugin(t, enabled(), nodes)
			pl.state.ReadClaimsFrom(claimGetter{claims: []*resourceapi.ResourceClaim{claim("vm-gpu", "vfio.gpu.nvidia.com", "")}})
			mustUpsertClass(t, pl.profile.Tracker(), gpuDeviceClass())
			mustUpsertClass(t, pl.profile.Tracker(), vfioDeviceClass())
			pl.profile.Tracker().UpsertResourceSlice(dradevices.DriverSlice("dra", 2))
			ctx := context.Background()
			state := framework.NewCycleState()
			if _, status := pl.PreFilter(ctx, state, tc.pod, nil); !status.IsSuccess() {
				t.Fatalf("PreFilter: %v", status)
			}
			ni := nodeInfo(tc.node)
			var status *fwk.Status
			if allocs := testing.AllocsPerRun(100, func() { status = pl.Filter(ctx, state, tc.pod, ni) }); allocs != 0 || !status.IsSuccess() {
				t.Fatalf("Filter: %v with %.0f allocations per call, want success with none", status, allocs)
			}
		})
	}
}
