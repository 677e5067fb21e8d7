package gpuworkload

import (
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
)

func findingCodes(s *NodeState) []FindingCode {
	codes := make([]FindingCode, len(s.Findings))
	for i, f := range s.Findings {
		codes[i] = f.Code
	}
	return codes
}

func TestNodeStateFindings(t *testing.T) {
	a10 := map[string]string{"nvidia.com/GA102GL_A10": "2"}
	for _, tc := range []struct {
		name       string
		policy     SandboxPolicy
		labels     map[string]string
		quantities map[string]string
		gpuNode    bool
		mode       Mode
		converting bool
		want       []FindingCode
	}{
		{
			name: "CPU node", policy: enabledPolicy(ModeContainer),
			quantities: map[string]string{"cpu": "8", "nvidia.com/hostdev": "4"},
		},
		{
			name: "healthy container node", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeContainer), map[string]string{LabelWorkloadConfig: "container", LabelGPUPresent: "true"}),
			quantities: map[string]string{"nvidia.com/gpu": "4"},
			gpuNode:    true, mode: ModeContainer,
		},
		{
			name: "healthy passthrough node with the seed's shared A2/A16 ID", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModePassthrough), map[string]string{LabelWorkloadConfig: "vm-passthrough"}),
			quantities: map[string]string{"nvidia.com/GA107GL_A2___A16": "4", "nvidia.com/hostdev": "2"},
			gpuNode:    true, mode: ModePassthrough,
		},
		{
			name: "healthy vGPU node with the default profile", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelGPUCount: "2"}),
			quantities: map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"},
			gpuNode:    true, mode: ModeVGPU,
		},
		{
			name: "the seed's trap: label ignored while sandbox is disabled", policy: disabledPolicy(),
			labels:     merge(deployLabels(ModeContainer), map[string]string{LabelWorkloadConfig: "vm-passthrough"}),
			quantities: map[string]string{"nvidia.com/gpu": "2"},
			gpuNode:    true, mode: ModeContainer,
			want: []FindingCode{FindingModeLabelIgnored},
		},
		{
			name: "invalid label", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeContainer), map[string]string{LabelWorkloadConfig: "passthrough"}),
			quantities: map[string]string{"nvidia.com/gpu": "2"},
			gpuNode:    true, mode: ModeContainer,
			want: []FindingCode{FindingInvalidModeLabel},
		},
		{
			name: "relabelled to passthrough, still advertising nvidia.com/gpu", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModePassthrough), map[string]string{LabelWorkloadConfig: "vm-passthrough"}),
			quantities: map[string]string{"nvidia.com/gpu": "2"},
			gpuNode:    true, mode: ModePassthrough, converting: true,
			want: []FindingCode{FindingForeignResource, FindingNothingAdvertised},
		},
		{
			name: "mixed classes", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModePassthrough), map[string]string{LabelWorkloadConfig: "vm-passthrough"}),
			quantities: map[string]string{"nvidia.com/gpu": "1", "nvidia.com/GA102GL_A10": "1"},
			gpuNode:    true, mode: ModePassthrough, converting: true,
			want: []FindingCode{FindingForeignResource, FindingMixedResourceClasses},
		},
		{
			name: "operands not ready", policy: enabledPolicy(ModeContainer),
			labels:  merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu"}),
			gpuNode: true, mode: ModeVGPU, converting: true,
			want: []FindingCode{FindingNothingAdvertised},
		},
		{
			name: "vGPU profile change in progress", policy: enabledPolicy(ModeContainer),
			labels: merge(deployLabels(ModeVGPU), map[string]string{
				LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "A10-4Q", LabelVGPUConfigState: "pending",
				"nvidia.com/gpu.deploy.sandbox-device-plugin": PausedForVGPUChange,
				"nvidia.com/gpu.deploy.sandbox-validator":     PausedForVGPUChange,
			}),
			quantities: map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"},
			gpuNode:    true, mode: ModeVGPU, converting: true,
			want: []FindingCode{FindingVGPUProfileMismatch, FindingVGPUConfigPending, FindingOperandsPaused},
		},
		{
			name: "vGPU config failed", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "A10-4Q", LabelVGPUConfigState: "failed"}),
			quantities: map[string]string{"nvidia.com/NVIDIA_A10-4Q": "12"},
			gpuNode:    true, mode: ModeVGPU, converting: true,
			want: []FindingCode{FindingVGPUConfigFailed},
		},
		{
			name: "vGPU count below profile limit x GPUs", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "A10-4Q", LabelGPUCount: "2"}),
			quantities: map[string]string{"nvidia.com/NVIDIA_A10-4Q": "6"},
			gpuNode:    true, mode: ModeVGPU,
			want: []FindingCode{FindingVGPUCountMismatch},
		},
		{
			name: "vGPU count of an unknown card is not judged", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "V100-4Q", LabelGPUCount: "2"}),
			quantities: map[string]string{"nvidia.com/GRID_V100-4Q": "3"},
			gpuNode:    true, mode: ModeVGPU,
		},
		{
			name: "deploy labels of another mode", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModePassthrough), map[string]string{LabelWorkloadConfig: "vm-passthrough", "nvidia.com/gpu.deploy.driver": "true"}),
			quantities: a10,
			gpuNode:    true, mode: ModePassthrough,
			want: []FindingCode{FindingDeployLabelsMismatch},
		},
		{
			name: "no deploy labels at all", policy: enabledPolicy(ModeContainer),
			labels:     map[string]string{LabelWorkloadConfig: "vm-passthrough"},
			quantities: a10,
			gpuNode:    true, mode: ModePassthrough,
			want: []FindingCode{FindingOperandLabelsAbsent},
		},
		{
			name: "operands disabled", policy: enabledPolicy(ModeContainer),
			labels:  map[string]string{LabelGPUPresent: "true", LabelDeployOperands: "false"},
			gpuNode: true, mode: ModeContainer,
			want: []FindingCode{FindingOperandsDisabled},
		},
		{
			name: "stale zero nvidia.com/gpu after a switch to passthrough", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModePassthrough), map[string]string{LabelWorkloadConfig: "vm-passthrough"}),
			quantities: map[string]string{"nvidia.com/gpu": "0", "nvidia.com/GA102GL_A10": "1"},
			gpuNode:    true, mode: ModePassthrough,
			want: []FindingCode{FindingStaleZeroResource},
		},
		{
			name: "raw device ID when pci.ids lacks the model", policy: enabledPolicy(ModePassthrough),
			labels:     deployLabels(ModePassthrough),
			quantities: map[string]string{"nvidia.com/26b5": "1"},
			gpuNode:    true, mode: ModePassthrough,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewNodeState(testNode("n1", tc.labels, tc.quantities), tc.policy, nil)
			if s.GPUNode != tc.gpuNode {
				t.Fatalf("GPUNode = %v, want %v", s.GPUNode, tc.gpuNode)
			}
			if tc.gpuNode && s.Mode.Mode != tc.mode {
				t.Fatalf("mode %s, want %s", s.Mode.Mode, tc.mode)
			}
			if got := findingCodes(s); !slices.Equal(got, tc.want) {
				t.Fatalf("findings %v, want %v\n%+v", got, tc.want, s.Findings)
			}
			if s.Converting() != tc.converting {
				t.Fatalf("Converting() = %v, want %v", s.Converting(), tc.converting)
			}
			for _, f := range s.Findings {
				if f.Severity != f.Code.Severity() || f.Message == "" || f.Fix == "" {
					t.Fatalf("incomplete finding %+v", f)
				}
			}
		})
	}
}

func TestNodeStateMessages(t *testing.T) {
	trap := NewNodeState(testNode("gpu-2", map[string]string{LabelWorkloadConfig: "vm-passthrough"}, map[string]string{"nvidia.com/gpu": "1"}), disabledPolicy(), nil)
	want := Finding{
		Code:     FindingModeLabelIgnored,
		Severity: SeverityWarning,
		Message:  "label nvidia.com/gpu.workload.config=vm-passthrough is ignored because sandboxWorkloads is disabled in ClusterPolicy cluster-policy; the GPU Operator prepares the node for containers",
		Fix:      `enable sandbox workloads: kubectl patch clusterpolicies.nvidia.com cluster-policy --type merge -p '{"spec":{"sandboxWorkloads":{"enabled":true}}}'`,
	}
	if trap.Findings[0] != want {
		t.Fatalf("got %+v\nwant %+v", trap.Findings[0], want)
	}

	relabelled := NewNodeState(testNode("gpu-1", merge(deployLabels(ModePassthrough), map[string]string{LabelWorkloadConfig: "vm-passthrough"}),
		map[string]string{"nvidia.com/gpu": "2"}), enabledPolicy(ModeContainer), nil)
	foreign := relabelled.Findings[0]
	if foreign.Message != "mode vm-passthrough (nvidia.com/gpu.workload.config=vm-passthrough) but the node advertises nvidia.com/gpu (container GPU)" {
		t.Fatalf("message %q", foreign.Message)
	}
	if foreign.Fix != "if the node was relabelled recently, wait for the vm-passthrough operands to replace the previous device plugin; otherwise make the label match what the node serves: kubectl label node gpu-1 nvidia.com/gpu.workload.config=container --overwrite" {
		t.Fatalf("fix %q", foreign.Fix)
	}
}

func TestNodeStateResources(t *testing.T) {
	node := testNode("n", map[string]string{LabelWorkloadConfig: "vm-vgpu"}, map[string]string{
		"nvidia.com/NVIDIA_A10-12Q": "4", "nvidia.com/gpu": "0", "cpu": "16", "nvidia.com/hostdev": "1",
	})
	node.Status.Allocatable[v1.ResourceName("nvidia.com/NVIDIA_A10-12Q")] = resourceList(map[string]string{"x": "3"})["x"]
	s := NewNodeState(node, enabledPolicy(ModeContainer), nil)
	want := []AdvertisedResource{{Name: "nvidia.com/NVIDIA_A10-12Q", Class: ClassVGPUProfile, Capacity: 4, Allocatable: 3}}
	if !slices.Equal(s.Resources, want) {
		t.Fatalf("resources %+v, want %+v", s.Resources, want)
	}
	if !slices.Equal(s.StaleResources, []v1.ResourceName{"nvidia.com/gpu"}) {
		t.Fatalf("stale %v", s.StaleResources)
	}
	if r, ok := s.Advertised("nvidia.com/NVIDIA_A10-12Q"); !ok || r.Allocatable != 3 {
		t.Fatalf("Advertised() = %+v, %v", r, ok)
	}
}
