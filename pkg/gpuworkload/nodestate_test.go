package gpuworkload

import (
	"os"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
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
			name: "healthy passthrough node with the seed's shared A2/A16 ID and a NIC", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModePassthrough), map[string]string{LabelWorkloadConfig: "vm-passthrough"}),
			quantities: map[string]string{"nvidia.com/GA107GL_A2___A16": "4", "nvidia.com/hostdev": "2"},
			gpuNode:    true, mode: ModePassthrough,
			want: []FindingCode{FindingNotGPUResource},
		},
		{
			// The Network Operator's NICs and Kata's NVSwitches are not GPUs,
			// even on a node of a GPU mode: no units of the mode count them.
			name: "NICs and NVSwitches beside passthrough GPUs", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModePassthrough), map[string]string{LabelWorkloadConfig: "vm-passthrough"}),
			quantities: map[string]string{"nvidia.com/GA102GL_A10": "2", "nvidia.com/mlnxnics": "8", "nvidia.com/nvswitch": "4"},
			gpuNode:    true, mode: ModePassthrough,
			want: []FindingCode{FindingNotGPUResource},
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
			labels:     merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "X9000-4Q", LabelGPUCount: "2"}),
			quantities: map[string]string{"nvidia.com/GRID_X9000-4Q": "3"},
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
			name: "fractional and wrapped GPU counts are findings, not GPUs", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeContainer), map[string]string{LabelGPUPresent: "true"}),
			quantities: map[string]string{"nvidia.com/gpu": "500m", "nvidia.com/mig-1g.10gb": "9223372036854775808"},
			gpuNode:    true, mode: ModeContainer, converting: true,
			want: []FindingCode{FindingNothingAdvertised, FindingUncountableResource},
		},
		{
			name: "negative GPU count alone still makes a GPU node", policy: enabledPolicy(ModeContainer),
			labels:     deployLabels(ModeContainer),
			quantities: map[string]string{"nvidia.com/gpu": "-1"},
			gpuNode:    true, mode: ModeContainer, converting: true,
			want: []FindingCode{FindingNothingAdvertised, FindingUncountableResource},
		},
		{
			name: "gpu.count label that is not a count", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeContainer), map[string]string{LabelGPUCount: "abc"}),
			quantities: map[string]string{"nvidia.com/gpu": "4"},
			gpuNode:    true, mode: ModeContainer,
			want: []FindingCode{FindingInvalidGPUCountLabel},
		},
		{
			name: "gpu.count of zero", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeContainer), map[string]string{LabelGPUCount: "0"}),
			quantities: map[string]string{"nvidia.com/gpu": "4"},
			gpuNode:    true, mode: ModeContainer,
			want: []FindingCode{FindingInvalidGPUCountLabel},
		},
		{
			name: "vgpu.config that is no label value", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "!!!"}),
			quantities: map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"},
			gpuNode:    true, mode: ModeVGPU,
			want: []FindingCode{FindingInvalidVGPUConfig},
		},
		{
			name: "vgpu.config naming a custom device manager section is not judged", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "custom-mixed"}),
			quantities: map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"},
			gpuNode:    true, mode: ModeVGPU,
		},
		{
			name: "vgpu.config profile the card lacks", policy: enabledPolicy(ModeContainer),
			labels:     merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "A10-7Q"}),
			quantities: map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"},
			gpuNode:    true, mode: ModeVGPU,
			want: []FindingCode{FindingVGPUProfileNotOnCard},
		},
		{
			name: "vgpu.config profile the card lacks, the card from the product label", policy: enabledPolicy(ModeContainer),
			labels:  merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "A10-7Q", LabelGPUProduct: "NVIDIA-A10"}),
			gpuNode: true, mode: ModeVGPU, converting: true,
			want: []FindingCode{FindingNothingAdvertised, FindingVGPUProfileNotOnCard},
		},
		{
			// The product label identifies the card: an A100 SXM4 80GB takes A100DX profiles, not A100D.
			name: "another family's profile, the card from the product label", policy: enabledPolicy(ModeContainer),
			labels:  merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "A100D-1-10C", LabelGPUProduct: "NVIDIA-A100-SXM4-80GB"}),
			gpuNode: true, mode: ModeVGPU, converting: true,
			want: []FindingCode{FindingNothingAdvertised, FindingVGPUProfileNotOnCard},
		},
		{
			// A product label no pci.ids board matches names no family: nothing is judged by it.
			name: "a product the tables do not know", policy: enabledPolicy(ModeContainer),
			labels:  merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "A100D-1-10C", LabelGPUProduct: "NVIDIA-H42-80GB"}),
			gpuNode: true, mode: ModeVGPU, converting: true,
			want: []FindingCode{FindingNothingAdvertised},
		},
		{
			name: "raw device ID when pci.ids lacks the model", policy: enabledPolicy(ModePassthrough),
			labels:     deployLabels(ModePassthrough),
			quantities: map[string]string{"nvidia.com/26b5": "1"},
			gpuNode:    true, mode: ModePassthrough,
		},
		{
			// spec.vgpuDeviceManager.config.default, not "default", is what an unlabelled node gets.
			name: "unlabelled vGPU node with the ClusterPolicy's default config", policy: withVGPUConfigDefault(enabledPolicy(ModeVGPU), "A10-4Q"),
			labels:     merge(deployLabels(ModeVGPU), map[string]string{LabelGPUCount: "1"}),
			quantities: map[string]string{"nvidia.com/NVIDIA_A10-4Q": "6"},
			gpuNode:    true, mode: ModeVGPU,
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

func TestNodeStateBadInputMessages(t *testing.T) {
	vgpu := merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu"})
	unhealthy := testNode("gpu-3", merge(deployLabels(ModeContainer), map[string]string{LabelGPUPresent: "true"}), map[string]string{"nvidia.com/gpu": "4"})
	unhealthy.Status.Allocatable = resourceList(map[string]string{"nvidia.com/gpu": "0"})
	for _, tc := range []struct {
		name string
		node *v1.Node
		want Finding
	}{
		{
			name: "milli GPU count",
			node: testNode("gpu-1", deployLabels(ModeContainer), map[string]string{"nvidia.com/gpu": "500m"}),
			want: Finding{Code: FindingUncountableResource, Severity: SeverityError,
				Message: "GPU quantities that no device plugin advertises, left out of the node's GPUs: status.allocatable[nvidia.com/gpu]: 500m is not a whole number of units from 0 to 65536; status.capacity[nvidia.com/gpu]: 500m is not a whole number of units from 0 to 65536",
				Fix:     "a device plugin advertises whole devices: find what wrote these quantities to the node's status and restart the node's device plugin (kubectl get pods -A -o wide --field-selector spec.nodeName=gpu-1)"},
		},
		{
			name: "capacity 4, allocatable 0",
			node: unhealthy,
			want: Finding{Code: FindingUnhealthyDevices, Severity: SeverityWarning,
				Message: "nvidia.com/gpu: 4 of 4 units are not allocatable: the device plugin reports them unhealthy",
				Fix:     "check the node's GPUs (nvidia-smi, Xid errors in the kernel log) and its device plugin's log (kubectl get pods -A -o wide --field-selector spec.nodeName=gpu-3); the units return when the device plugin reports them healthy"},
		},
		{
			name: "negative gpu.count",
			node: testNode("gpu-4", merge(deployLabels(ModeContainer), map[string]string{LabelGPUCount: "-3"}), map[string]string{"nvidia.com/gpu": "4"}),
			want: Finding{Code: FindingInvalidGPUCountLabel, Severity: SeverityWarning,
				Message: `nvidia.com/gpu.count="-3" is not a whole number of GPUs from 1 to 65536; the node's GPU count is unknown`,
				Fix:     "gpu-feature-discovery sets the label from the GPUs it finds: check its pod on the node (kubectl get pods -A -o wide --field-selector spec.nodeName=gpu-4), and remove a hand-set value: kubectl label node gpu-4 nvidia.com/gpu.count-"},
		},
		{
			name: "A10-7Q",
			node: testNode("vgpu-1", merge(vgpu, map[string]string{LabelVGPUConfig: "A10-7Q"}), map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"}),
			want: Finding{Code: FindingVGPUProfileNotOnCard, Severity: SeverityError,
				Message: "nvidia.com/vgpu.config=A10-7Q: the A10 has no 7Q profile in the vGPU device manager's default configuration, so applying it fails",
				Fix:     "pick a profile of the A10 (1Q, 2Q, 3Q, 4Q, 6Q, 8Q, 12Q, 24Q, 4C, 6C, 8C, 12C, 24C): kubectl label node vgpu-1 nvidia.com/vgpu.config=A10-12Q --overwrite"},
		},
		{
			name: "another card's profile",
			node: testNode("vgpu-2", merge(vgpu, map[string]string{LabelVGPUConfig: "T4-8Q"}), map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"}),
			want: Finding{Code: FindingVGPUProfileNotOnCard, Severity: SeverityError,
				Message: "nvidia.com/vgpu.config=T4-8Q names a profile of the T4, but the node's GPUs are A10; the vGPU device manager fails to apply it",
				Fix:     "pick a profile of the A10 (1Q, 2Q, 3Q, 4Q, 6Q, 8Q, 12Q, 24Q, 4C, 6C, 8C, 12C, 24C): kubectl label node vgpu-2 nvidia.com/vgpu.config=A10-12Q --overwrite"},
		},
		{
			name: "not a label value",
			node: testNode("vgpu-3", merge(vgpu, map[string]string{LabelVGPUConfig: "!!!"}), map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"}),
			want: Finding{Code: FindingInvalidVGPUConfig, Severity: SeverityError,
				Message: `nvidia.com/vgpu.config="!!!" is not a valid label value: the API server rejects it and no vGPU device manager configuration has that name`,
				Fix:     "name a vGPU profile or a section of the vGPU device manager's ConfigMap: kubectl label node vgpu-3 nvidia.com/vgpu.config=A10-12Q --overwrite"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewNodeState(tc.node, enabledPolicy(ModeContainer), nil)
			i := slices.IndexFunc(s.Findings, func(f Finding) bool { return f.Code == tc.want.Code })
			if i < 0 {
				t.Fatalf("no %s finding in %+v", tc.want.Code, s.Findings)
			}
			if s.Findings[i] != tc.want {
				t.Fatalf("got  %+v\nwant %+v", s.Findings[i], tc.want)
			}
			for _, r := range s.Resources {
				if r.Capacity < 0 || r.Allocatable < 0 || r.Capacity > MaxUnits {
					t.Fatalf("resource %+v out of range", r)
				}
			}
		})
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

// The mode rule: a GPU node serves its own mode's pods only; a DRA node
// that advertises no device-plugin resource has no mode and serves any; a
// DRA node that also advertises one keeps its mode; a node without GPUs
// serves none.
func TestServesMode(t *testing.T) {
	for _, tc := range []struct {
		name   string
		node   *v1.Node
		dra    bool
		serves []Mode
	}{
		{name: "container node", node: testNode("c", map[string]string{LabelWorkloadConfig: "container"}, map[string]string{"nvidia.com/gpu": "4"}), serves: []Mode{ModeContainer}},
		{name: "passthrough node", node: testNode("p", map[string]string{LabelWorkloadConfig: "vm-passthrough"}, map[string]string{"nvidia.com/GA102GL_A10": "2"}), serves: []Mode{ModePassthrough}},
		{name: "DRA node", node: testNode("d", draDeployLabels(), nil), dra: true, serves: Modes[:]},
		{name: "DRA node that advertises a device-plugin resource", node: testNode("d", merge(draDeployLabels(), map[string]string{LabelWorkloadConfig: "container"}), map[string]string{"nvidia.com/gpu": "1"}), dra: true, serves: []Mode{ModeContainer}},
		{name: "no GPUs", node: testNode("cpu", nil, map[string]string{"cpu": "8"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewNodeState(tc.node, enabledPolicy(ModeContainer), nil)
			if tc.dra {
				s.PublishedByDRA()
			}
			var serves []Mode
			for _, m := range Modes {
				if s.ServesMode(m) {
					serves = append(serves, m)
				}
			}
			if !slices.Equal(serves, tc.serves) {
				t.Fatalf("serves %v, want %v", serves, tc.serves)
			}
		})
	}
}

func withVGPUConfigDefault(p SandboxPolicy, config string) SandboxPolicy {
	p.VGPUConfigDefault = config
	return p
}

// A DRA node carries the deploy labels of the operator's DRA path, not a
// mode's: those are no mismatch; a device-plugin operand's label there is.
func TestDRANodeDeployLabels(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   []FindingCode
	}{
		{name: "the operator's DRA labels", labels: draDeployLabels()},
		{name: "and a device-plugin operand's", labels: merge(draDeployLabels(), map[string]string{DeployLabelPrefix + "device-plugin": "true"}), want: []FindingCode{FindingDeployLabelsMismatch}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewNodeState(testNode("dra-1", tc.labels, nil), enabledPolicy(ModeContainer), nil)
			s.PublishedByDRA()
			if got := findingCodes(s); !slices.Equal(got, tc.want) {
				t.Fatalf("findings %v, want %v\n%+v", got, tc.want, s.Findings)
			}
		})
	}
}

// draDeployLabels are the deploy labels the GPU Operator's DRA path sets,
// with the GPU present label GPU feature discovery's replacement keeps.
func draDeployLabels() map[string]string {
	out := map[string]string{LabelGPUPresent: "true"}
	for _, l := range []string{"driver", "dra-driver", "dra-validator", "dcgm-dra", "dcgm-exporter-dra"} {
		out[DeployLabelPrefix+l] = "true"
	}
	return out
}

// A card is read from whatever the node shows, and the same card comes out
// of each: the product label GFD sets, NFD's PCI device label, or what the
// sandbox device plugin advertises.
func TestIdentifyCardFromNodeLabelsAndAdvertisement(t *testing.T) {
	for _, tc := range []struct {
		name                             string
		labels, quantities               map[string]string
		family, passthroughName, product string
	}{
		{name: "A10 by product", labels: map[string]string{LabelGPUProduct: "NVIDIA-A10"},
			family: "A10", passthroughName: "GA102GL_A10", product: "NVIDIA-A10"},
		{name: "T4 by its Tesla product", labels: map[string]string{LabelGPUProduct: "Tesla-T4"},
			family: "T4", passthroughName: "TU104GL_TESLA_T4", product: "Tesla-T4"},
		// The vGPU family is not the marketing name: an 80 GB A100 SXM4 is A100DX.
		{name: "A100 SXM4 80GB by product", labels: map[string]string{LabelGPUProduct: "NVIDIA-A100-SXM4-80GB"},
			family: "A100DX", passthroughName: "GA100_A100_SXM4_80GB", product: "NVIDIA-A100-SXM4-80GB"},
		// NVML puts 80GB before PCIe, pci.ids after.
		{name: "A100 PCIe 80GB by product", labels: map[string]string{LabelGPUProduct: "NVIDIA-A100-80GB-PCIe"},
			family: "A100D", passthroughName: "GA100_A100_PCIE_80GB", product: "NVIDIA-A100-80GB-PCIe"},
		// Without the label, the product is built from pci.ids' board.
		{name: "A100 PCIe 80GB by passthrough name", quantities: map[string]string{"nvidia.com/GA100_A100_PCIE_80GB": "1"},
			family: "A100D", passthroughName: "GA100_A100_PCIE_80GB", product: "NVIDIA-A100-PCIe-80GB"},
		// One device ID sold as two boards of two families.
		{name: "A16 by product", labels: map[string]string{LabelGPUProduct: "NVIDIA-A16"},
			family: "A16", passthroughName: "GA107GL_A2___A16", product: "NVIDIA-A16"},
		{name: "A2 by product", labels: map[string]string{LabelGPUProduct: "NVIDIA-A2"},
			family: "A2", passthroughName: "GA107GL_A2___A16", product: "NVIDIA-A2"},
		{name: "A2 or A16 by passthrough name", quantities: map[string]string{"nvidia.com/GA107GL_A2___A16": "1"},
			passthroughName: "GA107GL_A2___A16"},
		{name: "Quadro RTX 8000 by product", labels: map[string]string{LabelGPUProduct: "Quadro-RTX-8000"},
			family: "RTX8000P", passthroughName: "TU102GL_QUADRO_RTX_6000_8000", product: "Quadro-RTX-8000"},
		{name: "H100 SXM5 by NFD's device label", labels: map[string]string{"feature.node.kubernetes.io/pci-0302_10de_2330.present": "true"},
			family: "H100XM", passthroughName: "GH100_H100_SXM5_80GB", product: "NVIDIA-H100-SXM5-80GB"},
		{name: "A100 SXM4 80GB by passthrough name", quantities: map[string]string{"nvidia.com/GA100_A100_SXM4_80GB": "1"},
			family: "A100DX", passthroughName: "GA100_A100_SXM4_80GB", product: "NVIDIA-A100-SXM4-80GB"},
		{name: "T4 by its GRID vGPU type", quantities: map[string]string{"nvidia.com/GRID_T4-2Q": "8"},
			family: "T4", passthroughName: "TU104GL_TESLA_T4", product: "Tesla-T4"},
		// The advertisement outranks a product label left from container mode.
		{name: "stale product label", labels: map[string]string{LabelGPUProduct: "NVIDIA-A10"}, quantities: map[string]string{"nvidia.com/GH100_H100_PCIE": "1"},
			family: "H100", passthroughName: "GH100_H100_PCIE", product: "NVIDIA-H100-PCIe"},
		// DC spans RTX PRO 6000 Blackwell Server Edition and RTX PRO 4500 Blackwell: one family, two device names.
		{name: "DC by its vGPU type", quantities: map[string]string{"nvidia.com/NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q": "2"},
			family: "DC"},
		{name: "an NVML name pci.ids does not list", labels: map[string]string{LabelGPUProduct: "NVIDIA-H100-80GB-HBM3"}},
		{name: "raw device ID of a device pci.ids lacks", quantities: map[string]string{"nvidia.com/ffff": "1"}, passthroughName: "ffff"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			node := testNode("n1", tc.labels, tc.quantities)
			card := hardware.IdentifyCard(cardEvidenceOf(node, NewNodeState(node, enabledPolicy(ModeContainer), nil)))
			if card.VGPUFamily != tc.family || card.PassthroughName != tc.passthroughName || card.Product() != tc.product {
				t.Fatalf("family %q, passthrough name %q, product %q; want %q, %q, %q (devices %v)",
					card.VGPUFamily, card.PassthroughName, card.Product(), tc.family, tc.passthroughName, tc.product, card.Devices)
			}
		})
	}
}

// The vGPU default of a family whose cards differ is the device's.
func TestDefaultProfileOfADevice(t *testing.T) {
	node := testNode("n1", map[string]string{"feature.node.kubernetes.io/pci-10de_2bb5.present": "true"}, nil)
	card := hardware.IdentifyCard(cardEvidenceOf(node, NewNodeState(node, enabledPolicy(ModeContainer), nil)))
	if p := card.DefaultProfile(); p.Name() != "DC-48Q" {
		t.Fatalf("default profile of device 2bb5 %q, want DC-48Q", p.Name())
	}
	if _, ok := hardware.DefaultVGPUProfile("DC"); ok {
		t.Fatal("DC has a default without a device ID; its cards get 48Q and 16Q")
	}
}

// Every NVIDIA entry of the plugin's pci.ids (the table hardware embeds,
// which hack/gen-pci-table's TestPCITableIsGenerated holds to the file), advertised as the plugin
// names it, is a passthrough GPU, and the card read from that name is the
// entry or another of the same name.
func TestEveryPCIIDsEntryIsAPassthroughName(t *testing.T) {
	text, err := os.ReadFile("hardware/data/nvidia_pci_devices.txt")
	if err != nil {
		t.Fatal(err)
	}
	var devices []hardware.PCIDevice
	for line := range strings.Lines(string(text)) {
		if line = strings.TrimSuffix(line, "\n"); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		d, err := hardware.ParsePCIDeviceLine(line)
		if err != nil {
			t.Fatal(err)
		}
		devices = append(devices, d)
	}
	if len(devices) < 1900 {
		t.Fatalf("%d NVIDIA devices, want the 1,900 or more of pci.ids", len(devices))
	}
	for _, d := range devices {
		name := d.PassthroughName()
		if class, recognised := classifyByName(v1.ResourceName(hardware.ResourceDomain + name)); !recognised || class != ClassPassthroughGPU {
			t.Errorf("device %s (%s): nvidia.com/%s is %v (recognised %v), want a passthrough GPU", d.ID, d.Name, name, class, recognised)
			continue
		}
		card := hardware.IdentifyCard(hardware.CardEvidence{PassthroughName: name})
		if !slices.ContainsFunc(card.Devices, func(c hardware.PCIDevice) bool { return c.PassthroughName() == name }) {
			t.Errorf("device %s (%s): the card read from nvidia.com/%s is %v", d.ID, d.Name, name, card.Devices)
		}
	}
}
