package main

import (
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/test/upstream"
)

// The PCI table hardware embeds is what this program makes of the sandbox
// device plugin's pci.ids: regenerate it when that file changes.
func TestPCITableIsGenerated(t *testing.T) {
	upstream.CheckGenerated(t, "NVIDIA+kubevirt-gpu-device-plugin/utils/pci.ids", "../../pkg/gpuworkload/hardware/data/nvidia_pci_devices.txt", "gen-pci-table", generate)
}
