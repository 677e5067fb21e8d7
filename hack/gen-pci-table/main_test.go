package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/test/upstream"
)

const (
	sandboxDevicePluginPCIIDs = "NVIDIA+kubevirt-gpu-device-plugin/utils/pci.ids"
	table                     = "../../pkg/gpuworkload/hardware/data/nvidia_pci_devices.txt"
)

// The PCI table hardware embeds is what the generator makes of the plugin's
// pci.ids: regenerate it with go run ./hack/gen-pci-table when that file changes.
func TestPCITableIsGenerated(t *testing.T) {
	generated, err := generate(upstream.Read(t, sandboxDevicePluginPCIIDs), sandboxDevicePluginPCIIDs)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(generated, committed) {
		t.Fatalf("pkg/gpuworkload/hardware/data/nvidia_pci_devices.txt is not what go run ./hack/gen-pci-table %s generates", filepath.Join(upstream.Dir(), sandboxDevicePluginPCIIDs))
	}
}
