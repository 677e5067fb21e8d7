package clusterstate

import (
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dratest"
)

// The tracker counts a DRA node's devices by state from the claims'
// allocations, whichever of claim and slice it sees first, and frees them
// when the claim goes.
func TestTrackerCountsDRADevicesByState(t *testing.T) {
	container, vfio := gpuworkload.ClassContainerGPU, gpuworkload.ClassPassthroughGPU
	tr := NewTracker(argsPolicy(), nil, reasonOf)
	tr.UpsertResourceClaim(dratest.AllocatedClaim("ns", "train", "n1", "gpu-0"))
	otherDriver := dratest.AllocatedClaim("ns", "other-driver", "n1", "gpu-1")
	otherDriver.Status.Allocation.Devices.Results[0].Driver = "example.com"
	tr.UpsertResourceClaim(otherDriver)
	if tr.DRAAvailability("n1") != nil {
		t.Fatal("availability of a node that publishes nothing")
	}
	tr.UpsertResourceSlice(gpuworkload.DriverSlice("n1", 2))
	for _, step := range []struct {
		name                     string
		change                   func()
		free, allocated, sibling [2]int // container, vfio
		holder                   gpuworkload.DRAHeldDevice
	}{
		{name: "claim seen before the slice", change: func() {}, free: [2]int{1, 1}, allocated: [2]int{1, 0}, sibling: [2]int{0, 1},
			holder: gpuworkload.DRAHeldDevice{Device: "gpu-0", Claim: "ns/train"}},
		{name: "a VM takes the other GPU", change: func() { tr.UpsertResourceClaim(dratest.AllocatedClaim("ns", "vm", "n1", "gpu-vfio-1")) },
			free: [2]int{0, 0}, allocated: [2]int{1, 1}, sibling: [2]int{1, 1}, holder: gpuworkload.DRAHeldDevice{Device: "gpu-0", Claim: "ns/train"}},
		{name: "the training claim is deleted", change: func() { tr.DeleteResourceClaim("ns", "train") },
			free: [2]int{1, 1}, allocated: [2]int{0, 1}, sibling: [2]int{1, 0}},
	} {
		step.change()
		a := tr.DRAAvailability("n1")
		got := [][2]int{{a.Free[container], a.Free[vfio]}, {a.Allocated[container], a.Allocated[vfio]}, {a.SiblingInUse[container], a.SiblingInUse[vfio]}}
		want := [][2]int{step.free, step.allocated, step.sibling}
		for i, what := range []string{"free", "allocated", "sibling in use"} {
			if got[i] != want[i] {
				t.Errorf("%s: %s (container, vfio) = %v, want %v", step.name, what, got[i], want[i])
			}
		}
		if step.holder.Claim != "" && a.SiblingHolder[vfio] != step.holder {
			t.Errorf("%s: vfio devices blocked by %+v, want %+v", step.name, a.SiblingHolder[vfio], step.holder)
		}
	}
}
