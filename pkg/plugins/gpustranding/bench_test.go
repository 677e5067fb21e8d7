package gpustranding

import (
	"context"
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// BenchmarkScore reports ns and allocations per node over 1,000 and 5,000
// nodes, a quarter each container, passthrough, vGPU and CPU-only. Each
// container node runs one GPU pod and seven without GPUs, as DaemonSets do,
// which the drain delay's pod count walks. The GPU pod is scored with only
// its own request learned, and with openb's mix of sizes and CPU bands.
func BenchmarkScore(b *testing.B) {
	for _, size := range []int{1000, 5000} {
		benchmarkScore(b, size)
	}
}

func benchmarkScore(b *testing.B, size int) {
	ctx := context.Background()
	infos := make([]fwk.NodeInfo, size)
	for i := range infos {
		switch i % 4 {
		case 0:
			pods := []*v1.Pod{pod(fmt.Sprintf("r-%d", i), map[v1.ResourceName]string{gpu: "1"})}
			for d := range 7 {
				pods = append(pods, pod(fmt.Sprintf("daemon-%d-%d", i, d), map[v1.ResourceName]string{v1.ResourceCPU: "100m"}))
			}
			infos[i] = nodeInfo(node(fmt.Sprintf("c-%d", i), "container", map[v1.ResourceName]string{gpu: "8"}), pods...)
		case 1:
			infos[i] = nodeInfo(node(fmt.Sprintf("p-%d", i), "vm-passthrough", map[v1.ResourceName]string{a10: "4"}))
		case 2:
			infos[i] = nodeInfo(node(fmt.Sprintf("v-%d", i), "vm-vgpu", map[v1.ResourceName]string{"nvidia.com/NVIDIA_A10-12Q": "8"}))
		default:
			infos[i] = nodeInfo(node(fmt.Sprintf("cpu-%d", i), "", nil))
		}
	}
	state := schedulerstate.NewOffline()
	fitPlugin, _ := gpuworkloadfit.New(ctx, nil, nil, state)
	fit := fitPlugin.(*gpuworkloadfit.GPUWorkloadFit)
	for _, ni := range infos {
		state.Tracker().UpsertNode(ni.Node())
	}
	plugin, _ := New(ctx, nil, nil, state)
	pl := plugin.(*GPUStranding)
	// openb's GPU requests: one GPU with 1 to 32 CPUs (a class per power of
	// two), and 2, 4 and 8 GPUs.
	var openbDemand []observed
	for cpu := int64(1000); cpu <= 32000; cpu *= 2 {
		openbDemand = append(openbDemand, observed{name: gpu, units: 1, milliCPU: cpu, times: 30})
	}
	for _, units := range []int64{2, 4, 8} {
		openbDemand = append(openbDemand, observed{name: gpu, units: units, milliCPU: units * 8000, times: 10})
	}
	for _, bc := range []struct {
		name string
		pod  *v1.Pod
		// learned is observed before the cycle: the cases run in order, on
		// one plugin, so a case with a history comes last.
		learned []observed
	}{
		{name: "container-gpu-pod", pod: pod("c", map[v1.ResourceName]string{gpu: "1"})},
		{name: "non-gpu-pod", pod: pod("web", map[v1.ResourceName]string{v1.ResourceCPU: "2"})},
		{name: "container-gpu-pod-openb-demand", pod: pod("c", map[v1.ResourceName]string{gpu: "1"}), learned: openbDemand},
	} {
		for _, h := range bc.learned {
			for range h.times {
				pl.demand.Observe(h.name, h.units, h.milliCPU, 0, poddemand.NodeConstraint{})
			}
		}
		b.Run(fmt.Sprintf("%s/%d-nodes", bc.name, size), func(b *testing.B) {
			state := framework.NewCycleState()
			fit.PreFilter(ctx, state, bc.pod, infos)
			if _, status := pl.PreFilter(ctx, state, bc.pod, infos); !status.IsSuccess() {
				b.Fatal(status)
			}
			if status := pl.PreScore(ctx, state, bc.pod, infos); !status.IsSuccess() {
				b.Fatal(status)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				for _, ni := range infos {
					pl.Score(ctx, state, bc.pod, ni)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(infos)), "ns/node")
		})
	}
}
