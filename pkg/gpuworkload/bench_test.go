package gpuworkload

import (
	"testing"

	v1 "k8s.io/api/core/v1"
)

func BenchmarkNewNodeState(b *testing.B) {
	policy := enabledPolicy(ModeContainer)
	for _, bc := range []struct {
		name string
		node *v1.Node
	}{
		{"container", testNode("c", merge(deployLabels(ModeContainer), map[string]string{LabelWorkloadConfig: "container"}),
			map[string]string{"cpu": "64", "memory": "512Gi", "pods": "110", "nvidia.com/gpu": "8"})},
		{"vgpu", testNode("v", merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelGPUCount: "2"}),
			map[string]string{"cpu": "64", "memory": "512Gi", "pods": "110", "nvidia.com/NVIDIA_A10-12Q": "4"})},
		{"cpu-only", testNode("cpu", map[string]string{"kubernetes.io/os": "linux"}, map[string]string{"cpu": "64", "memory": "512Gi", "pods": "110"})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewNodeState(bc.node, policy, nil)
			}
		})
	}
}
