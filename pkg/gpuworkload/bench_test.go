package gpuworkload

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

func BenchmarkNewPodDemand(b *testing.B) {
	pod := func(requests map[string]string) *v1.Pod {
		return &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"},
			Spec: v1.PodSpec{Containers: []v1.Container{
				container(requests, nil),
				container(map[string]string{"cpu": "100m", "memory": "64Mi"}, nil),
			}},
		}
	}
	for _, bc := range []struct {
		name string
		pod  *v1.Pod
	}{
		{"non-gpu", pod(map[string]string{"cpu": "2", "memory": "4Gi"})},
		{"container-gpu", pod(map[string]string{"cpu": "2", "memory": "4Gi", "nvidia.com/gpu": "1"})},
		{"passthrough", pod(map[string]string{"cpu": "2", "memory": "4Gi", "nvidia.com/GA102GL_A10": "1"})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewPodDemand(bc.pod, nil)
			}
		})
	}
}
