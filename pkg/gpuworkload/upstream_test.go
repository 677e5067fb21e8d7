package gpuworkload

import (
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
	"github.com/gpu-workload-scheduler/scheduler/test/upstream"
)

const vgpuDeviceManagerConfig = "NVIDIA+gpu-operator/assets/state-vgpu-device-manager/0500_configmap.yaml"

// Every profile of the operator's configuration, on a one-GPU node labelled
// with it and advertising what the device manager creates, gives no
// finding; so does RTX PRO 6000 Blackwell, whose label is the last word of
// its advertised type. The device manager creates a configured type as
// named when the driver has it, and otherwise without its MIG attribute
// suffix (vgpu-device-manager pkg/vgpu/config.go, stripVGPUConfigSuffix):
// the driver has the ME types of A30, A100 and Hopper, but no GFX type of
// RTX PRO 6000 Blackwell, so DC-1-24QGFX is advertised as DC-1-24Q.
func TestEveryUpstreamVGPUProfileOnALabelledNode(t *testing.T) {
	var cm struct {
		Data map[string]string `json:"data"`
	}
	if err := yaml.Unmarshal(upstream.Read(t, vgpuDeviceManagerConfig), &cm); err != nil {
		t.Fatal(err)
	}
	// The part of the configuration hack/gen-vgpu-table reads too.
	var config struct {
		VGPUConfigs map[string][]struct {
			VGPUDevices map[string]int `json:"vgpu-devices"`
		} `json:"vgpu-configs"`
	}
	if err := yaml.Unmarshal([]byte(cm.Data["config.yaml"]), &config); err != nil {
		t.Fatal(err)
	}
	type labelled struct{ label, advertised string }
	nodes := []labelled{{"DC-48Q", "NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q"}}
	for name := range config.VGPUConfigs {
		if name != hardware.VGPUConfigDefault {
			nodes = append(nodes, labelled{name, "NVIDIA_" + strings.TrimSuffix(name, "GFX")})
		}
	}
	if len(nodes) < 700 {
		t.Fatalf("%d profiles, want the configuration's 700 or more", len(nodes))
	}
	for _, n := range nodes {
		count := config.VGPUConfigs[n.label][0].VGPUDevices[n.label]
		node := testNode("n1", merge(deployLabels(ModeVGPU), map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: n.label, LabelGPUCount: "1"}),
			map[string]string{hardware.ResourceDomain + n.advertised: strconv.Itoa(count)})
		if s := NewNodeState(node, enabledPolicy(ModeContainer), nil); len(s.Findings) > 0 || s.Mode.Mode != ModeVGPU {
			t.Errorf("vgpu.config=%s advertising %d x %s: mode %s, findings %+v", n.label, count, n.advertised, s.Mode.Mode, s.Findings)
		}
	}
}
