package drasiblings

import (
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// One node, two GPUs, each published as gpu-N and gpu-vfio-N; gpu-2 consumes
// shared counters, so the allocator already keeps it apart; a GPU in MIG
// mode has two MIG devices with its PCI bus ID, independent of each other.
func lookup() SiblingLookup {
	lookup, _ := lookupNode()
	return lookup
}

func lookupNode() (SiblingLookup, *dradevices.DRANode) {
	node := dradevices.NewDRANode([]dradevices.DRADevice{
		{Pool: "n1", Name: "gpu-3-mig-1g5gb-0", Type: "mig", Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3e:00.0"},
		{Pool: "n1", Name: "gpu-3-mig-1g5gb-1", Type: "mig", Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3e:00.0"},
		{Pool: "n1", Name: "gpu-0", Type: "gpu", Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3b:00.0"},
		{Pool: "n1", Name: "gpu-vfio-0", Type: "vfio", Class: gpuworkload.ClassPassthroughGPU, PCIBusID: "0000:3b:00.0"},
		{Pool: "n1", Name: "gpu-1", Type: "gpu", Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3c:00.0"},
		{Pool: "n1", Name: "gpu-vfio-1", Type: "vfio", Class: gpuworkload.ClassPassthroughGPU, PCIBusID: "0000:3c:00.0"},
		{Pool: "n1", Name: "gpu-2", Type: "gpu", Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3d:00.0", Counted: true},
		{Pool: "n1", Name: "gpu-vfio-2", Type: "vfio", Class: gpuworkload.ClassPassthroughGPU, PCIBusID: "0000:3d:00.0", Counted: true},
	})
	return func(pool, device string) (string, []dradevices.DRADevice) { return "n1", node.Siblings(pool, device) }, node
}

func TestConflicts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		allocs []Allocation
		want   int
	}{
		{name: "two GPUs, one half each", allocs: []Allocation{{Claim: "a", Pool: "n1", Device: "gpu-0"}, {Claim: "b", Pool: "n1", Device: "gpu-vfio-1"}}},
		{name: "both halves of one GPU", allocs: []Allocation{{Claim: "a", Written: true, Pool: "n1", Device: "gpu-0"}, {Pool: "n1", Device: "gpu-vfio-0"}}, want: 1},
		{name: "MIG devices of one GPU are independent", allocs: []Allocation{{Claim: "a", Written: true, Pool: "n1", Device: "gpu-3-mig-1g5gb-0"}, {Pool: "n1", Device: "gpu-3-mig-1g5gb-1"}}},
		{name: "counted devices are the allocator's business", allocs: []Allocation{{Claim: "a", Pool: "n1", Device: "gpu-2"}, {Claim: "b", Pool: "n1", Device: "gpu-vfio-2"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Conflicts(tc.allocs, lookup()); len(got) != tc.want {
				t.Fatalf("conflicts %v, want %d", got, tc.want)
			}
		})
	}
}
