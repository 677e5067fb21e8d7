package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/test/upstream"
)

const (
	vgpuDeviceManagerConfig = "NVIDIA+gpu-operator/assets/state-vgpu-device-manager/0500_configmap.yaml"
	table                   = "../../pkg/gpuworkload/hardware/data/vgpu_profiles.yaml"
)

// The vGPU table hardware embeds is what the generator makes of the operator's
// configuration: regenerate it with go run ./hack/gen-vgpu-table when that
// file changes.
func TestVGPUTableIsGenerated(t *testing.T) {
	generated, err := generate(upstream.Read(t, vgpuDeviceManagerConfig), vgpuDeviceManagerConfig)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(generated, committed) {
		t.Fatalf("pkg/gpuworkload/hardware/data/vgpu_profiles.yaml is not what go run ./hack/gen-vgpu-table %s generates", filepath.Join(upstream.Dir(), vgpuDeviceManagerConfig))
	}
}
