// Command gen-pci-table writes pkg/gpuworkload/data/nvidia_pci_devices.txt
// from the pci.ids copy the sandbox device plugin ships (utils/pci.ids of
// NVIDIA/kubevirt-gpu-device-plugin): the NVIDIA device lines, from which
// the card identity and the passthrough resource names are derived.
//
//	go run ./hack/gen-pci-table ../shared/data/upstream/NVIDIA+kubevirt-gpu-device-plugin/utils/pci.ids > pkg/gpuworkload/data/nvidia_pci_devices.txt
package main

import (
	"fmt"
	"os"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen-pci-table pci.ids > pkg/gpuworkload/data/nvidia_pci_devices.txt")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err == nil {
		data, err = gpuworkload.GeneratePCITable(data, os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen-pci-table:", err)
		os.Exit(1)
	}
	os.Stdout.Write(data)
}
