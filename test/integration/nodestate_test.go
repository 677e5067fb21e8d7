package integration

import (
	"context"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// The seed's three nodes and its deliberately broken one, stored in a real
// API server and judged from what comes back.
func TestNodeStateOfTheSeedLab(t *testing.T) {
	ctx := context.Background()
	cp := startControlPlane(t)
	client := kubernetes.NewForConfigOrDie(cp.AdminConfig)

	createNode(ctx, t, client, "gpu-container", map[string]string{gpuworkload.LabelWorkloadConfig: "container"}, map[string]string{"nvidia.com/gpu": "1"})
	createNode(ctx, t, client, "gpu-passthrough", map[string]string{gpuworkload.LabelWorkloadConfig: "vm-passthrough"}, map[string]string{"nvidia.com/GA102GL_A10": "1"})
	createNode(ctx, t, client, "gpu-vgpu", map[string]string{gpuworkload.LabelWorkloadConfig: "vm-vgpu"}, map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"})
	createNode(ctx, t, client, "gpu-broken", map[string]string{gpuworkload.LabelWorkloadConfig: "vm-passthrough"}, map[string]string{"nvidia.com/gpu": "1"})
	createNode(ctx, t, client, "cpu-1", nil, nil)

	nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	policy := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer, Runtime: gpuworkload.RuntimeKubeVirt,
		Source: gpuworkload.PolicySource{Kind: gpuworkload.SourceClusterPolicy, Name: "cluster-policy"}}
	want := map[string]struct {
		gpu       bool
		mode      gpuworkload.Mode
		resources []gpuworkload.AdvertisedResource
		findings  []gpuworkload.FindingCode
	}{
		"gpu-container": {true, gpuworkload.ModeContainer,
			[]gpuworkload.AdvertisedResource{{Name: "nvidia.com/gpu", Class: gpuworkload.ClassContainerGPU, Capacity: 1, Allocatable: 1}},
			[]gpuworkload.FindingCode{gpuworkload.FindingOperandLabelsAbsent}},
		"gpu-passthrough": {true, gpuworkload.ModePassthrough,
			[]gpuworkload.AdvertisedResource{{Name: "nvidia.com/GA102GL_A10", Class: gpuworkload.ClassPassthroughGPU, Capacity: 1, Allocatable: 1}},
			[]gpuworkload.FindingCode{gpuworkload.FindingOperandLabelsAbsent}},
		"gpu-vgpu": {true, gpuworkload.ModeVGPU,
			[]gpuworkload.AdvertisedResource{{Name: "nvidia.com/NVIDIA_A10-12Q", Class: gpuworkload.ClassVGPUProfile, Capacity: 4, Allocatable: 4}},
			[]gpuworkload.FindingCode{gpuworkload.FindingOperandLabelsAbsent}},
		"gpu-broken": {true, gpuworkload.ModePassthrough,
			[]gpuworkload.AdvertisedResource{{Name: "nvidia.com/gpu", Class: gpuworkload.ClassContainerGPU, Capacity: 1, Allocatable: 1}},
			[]gpuworkload.FindingCode{gpuworkload.FindingForeignResource, gpuworkload.FindingNothingAdvertised, gpuworkload.FindingOperandLabelsAbsent}},
		"cpu-1": {},
	}
	if len(nodes.Items) != len(want) {
		t.Fatalf("listed %d nodes, want %d", len(nodes.Items), len(want))
	}
	for i := range nodes.Items {
		node := &nodes.Items[i]
		w := want[node.Name]
		s := gpuworkload.NewNodeState(node, policy, nil)
		var codes []gpuworkload.FindingCode
		for _, f := range s.Findings {
			codes = append(codes, f.Code)
		}
		if s.GPUNode != w.gpu || s.Mode.Mode != w.mode && w.gpu || !slices.Equal(s.Resources, w.resources) || !slices.Equal(codes, w.findings) {
			t.Errorf("node %s: gpu %v mode %s resources %+v findings %v\nwant gpu %v mode %s resources %+v findings %v",
				node.Name, s.GPUNode, s.Mode.Mode, s.Resources, codes, w.gpu, w.mode, w.resources, w.findings)
		}
	}
}
