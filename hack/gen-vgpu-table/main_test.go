package main

import (
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/test/upstream"
)

// The vGPU table hardware embeds is what this program makes of the GPU
// Operator's vGPU device manager configuration: regenerate it when that
// file changes.
func TestVGPUTableIsGenerated(t *testing.T) {
	upstream.CheckGenerated(t, "NVIDIA+gpu-operator/assets/state-vgpu-device-manager/0500_configmap.yaml", "../../pkg/gpuworkload/hardware/data/vgpu_profiles.yaml", "gen-vgpu-table", generate)
}
