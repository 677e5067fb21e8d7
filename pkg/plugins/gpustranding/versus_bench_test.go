package gpustranding

import (
	"context"
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// BenchmarkFilterScoreVersusNodeResourcesFit compares, per node, our Filter +
// Score (GPUWorkloadFit + GPUStranding) with NodeResourcesFit's Filter + Score
// (LeastAllocated, the default) over the same nodes and pod. The goal is ours
// within 10% of NodeResourcesFit's.
func BenchmarkFilterScoreVersusNodeResourcesFit(b *testing.B) {
	ctx := context.Background()
	for _, size := range []int{1000, 5000} {
		infos := make([]fwk.NodeInfo, size)
		for i := range infos {
			infos[i] = nodeInfo(node(fmt.Sprintf("p-%d", i), "vm-passthrough", map[v1.ResourceName]string{a10: "4"}),
				pod(fmt.Sprintf("r-%d", i), map[v1.ResourceName]string{a10: "1", v1.ResourceCPU: "1"}))
		}
		vm := pod("vm", map[v1.ResourceName]string{a10: "1", v1.ResourceCPU: "2", v1.ResourceMemory: "4Gi"})

		gpuState := schedulerstate.NewOffline()
		fitPlugin, _ := gpuworkloadfit.New(ctx, nil, nil, gpuState)
		fit := fitPlugin.(*gpuworkloadfit.GPUWorkloadFit)
		enabled := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer, Runtime: gpuworkload.RuntimeKubeVirt}
		gpuState.Tracker().SetPolicy(&enabled)
		for _, ni := range infos {
			gpuState.Tracker().UpsertNode(ni.Node())
		}
		strandingPlugin, _ := New(ctx, nil, nil, gpuState)
		stranding := strandingPlugin.(*GPUStranding)
		b.Run(fmt.Sprintf("ours/%d-nodes", size), func(b *testing.B) {
			state := framework.NewCycleState()
			if _, status := fit.PreFilter(ctx, state, vm, infos); !status.IsSuccess() {
				b.Fatal(status)
			}
			if status := fit.Filter(ctx, state, vm, infos[0]); !status.IsSuccess() {
				b.Fatalf("the benchmark must measure the path where nodes fit: %v", status)
			}
			if _, status := stranding.PreFilter(ctx, state, vm, infos); !status.IsSuccess() {
				b.Fatal(status)
			}
			if status := stranding.PreScore(ctx, state, vm, infos); !status.IsSuccess() {
				b.Fatal(status)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				for _, ni := range infos {
					fit.Filter(ctx, state, vm, ni)
					stranding.Score(ctx, state, vm, ni)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(infos)), "ns/node")
		})

		nrf, err := noderesources.NewFit(ctx, &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{
			Type:      config.LeastAllocated,
			Resources: []config.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}},
		}}, nil, feature.Features{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("NodeResourcesFit/%d-nodes", size), func(b *testing.B) {
			state := framework.NewCycleState()
			nrf.(fwk.PreFilterPlugin).PreFilter(ctx, state, vm, infos)
			nrf.(fwk.PreScorePlugin).PreScore(ctx, state, vm, infos)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				for _, ni := range infos {
					nrf.(fwk.FilterPlugin).Filter(ctx, state, vm, ni)
					nrf.(fwk.ScorePlugin).Score(ctx, state, vm, ni)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(infos)), "ns/node")
		})
	}
}
