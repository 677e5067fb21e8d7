package gpuworkload

import (
	"slices"
	"strings"
	"testing"
)

// The labels NVIDIA/gpu-operator controllers/state_manager.go (gpuStateLabels)
// sets on every node of each mode, minus kata-manager and cc-manager, whose
// DaemonSets only some configurations deploy.
func TestExpectedDeployLabelsMatchTheOperator(t *testing.T) {
	for _, tc := range []struct {
		mode    Mode
		runtime SandboxRuntime
		want    []string
	}{
		{mode: ModeContainer, runtime: RuntimeKubeVirt, want: []string{
			"nvidia.com/gpu.deploy.container-toolkit", "nvidia.com/gpu.deploy.dcgm", "nvidia.com/gpu.deploy.dcgm-exporter",
			"nvidia.com/gpu.deploy.device-plugin", "nvidia.com/gpu.deploy.driver", "nvidia.com/gpu.deploy.gpu-feature-discovery",
			"nvidia.com/gpu.deploy.node-status-exporter", "nvidia.com/gpu.deploy.operator-validator",
		}},
		{mode: ModePassthrough, runtime: RuntimeKubeVirt, want: []string{
			"nvidia.com/gpu.deploy.sandbox-device-plugin", "nvidia.com/gpu.deploy.sandbox-validator", "nvidia.com/gpu.deploy.vfio-manager",
		}},
		{mode: ModePassthrough, runtime: RuntimeKata, want: []string{
			"nvidia.com/gpu.deploy.kata-sandbox-device-plugin", "nvidia.com/gpu.deploy.sandbox-validator", "nvidia.com/gpu.deploy.vfio-manager",
		}},
		{mode: ModeVGPU, runtime: RuntimeKubeVirt, want: []string{
			"nvidia.com/gpu.deploy.sandbox-device-plugin", "nvidia.com/gpu.deploy.sandbox-validator",
			"nvidia.com/gpu.deploy.vgpu-device-manager", "nvidia.com/gpu.deploy.vgpu-manager",
		}},
	} {
		t.Run(string(tc.mode)+"/"+string(tc.runtime), func(t *testing.T) {
			if got := Operands().ExpectedDeployLabels(tc.mode, tc.runtime); !slices.Equal(got, tc.want) {
				t.Fatalf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestForeignDeployLabels(t *testing.T) {
	got := Operands().ForeignDeployLabels(ModeVGPU)
	for _, key := range []string{"nvidia.com/gpu.deploy.driver", "nvidia.com/gpu.deploy.vfio-manager"} {
		if !slices.Contains(got, key) {
			t.Errorf("foreign labels of vm-vgpu lack %s: %q", key, got)
		}
	}
	for _, key := range []string{"nvidia.com/gpu.deploy.sandbox-device-plugin", "nvidia.com/gpu.deploy.cc-manager", "nvidia.com/gpu.deploy.client"} {
		if slices.Contains(got, key) {
			t.Errorf("foreign labels of vm-vgpu contain its own %s", key)
		}
	}
}

func TestOperandTableDescribesEveryOperand(t *testing.T) {
	for _, mode := range Modes {
		for _, o := range Operands().Modes[mode] {
			if !strings.HasPrefix(o.LabelKey(), DeployLabelPrefix) || o.DaemonSet == "" || o.Purpose == "" {
				t.Errorf("%s: incomplete operand %+v", mode, o)
			}
		}
	}
}

func TestParseOperandTableRejects(t *testing.T) {
	for _, tc := range []struct{ name, yaml, wantErr string }{
		{name: "unknown mode", yaml: "modes:\n  vm:\n    - {deployLabel: a, daemonSet: b, purpose: c}\n", wantErr: `modes: invalid GPU workload mode "vm"`},
		{name: "missing field", yaml: "modes:\n  container:\n    - {deployLabel: a}\n", wantErr: "modes.container[0]: deployLabel, daemonSet and purpose are required"},
		{name: "unknown key", yaml: "modes: {}\nextra: 1\n", wantErr: `unknown field "extra"`},
		{name: "missing mode", yaml: "modes:\n  container:\n    - {deployLabel: a, daemonSet: b, purpose: c}\n", wantErr: "no operands"},
		{name: "bad runtime", yaml: "modes:\n  container:\n    - {deployLabel: a, daemonSet: b, purpose: c, runtime: xen}\n", wantErr: `runtime: "xen"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseOperandTable([]byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}
