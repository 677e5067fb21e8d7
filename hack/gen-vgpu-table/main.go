// Command gen-vgpu-table writes pkg/gpuworkload/data/vgpu_profiles.yaml from
// the GPU Operator's default vGPU device manager configuration
// (assets/state-vgpu-device-manager/0500_configmap.yaml): every card family,
// its profiles with instances per GPU, the PCI device IDs its default
// section names, and what vgpu.config=default creates there.
//
//	go run ./hack/gen-vgpu-table ../shared/data/upstream/NVIDIA+gpu-operator/assets/state-vgpu-device-manager/0500_configmap.yaml > pkg/gpuworkload/data/vgpu_profiles.yaml
package main

import (
	"fmt"
	"os"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen-vgpu-table 0500_configmap.yaml > pkg/gpuworkload/data/vgpu_profiles.yaml")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err == nil {
		data, err = gpuworkload.GenerateVGPUTable(data, os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen-vgpu-table:", err)
		os.Exit(1)
	}
	os.Stdout.Write(data)
}
