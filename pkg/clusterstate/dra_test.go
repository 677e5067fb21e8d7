package clusterstate

import (
	"testing"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices/dratest"
)

// The tracker counts a DRA node's devices by state from the claims'
// allocations, whichever of claim and slice it sees first, and frees them
// when the claim goes.
func TestTrackerCountsDRADevicesByState(t *testing.T) {
	container, vfio := gpuworkload.ClassContainerGPU, gpuworkload.ClassPassthroughGPU
	tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	tr.UpsertResourceClaim(dratest.AllocatedClaim("ns", "train", "n1", "gpu-0"))
	otherDriver := dratest.AllocatedClaim("ns", "other-driver", "n1", "gpu-1")
	otherDriver.Status.Allocation.Devices.Results[0].Driver = "example.com"
	tr.UpsertResourceClaim(otherDriver)
	if tr.DRAAvailability("n1") != nil {
		t.Fatal("availability of a node that publishes nothing")
	}
	tr.UpsertResourceSlice(dradevices.DriverSlice("n1", 2))
	for _, c := range []struct{ name, deviceType string }{{dradevices.DRAClassGPU, dradevices.DRATypeGPU}, {dradevices.DRAClassVFIO, dradevices.DRATypeVFIO}} {
		if err := tr.UpsertDeviceClass(dradevices.DriverDeviceClass(c.name, c.deviceType, "")); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []struct {
		name                     string
		change                   func() (released bool)
		free, allocated, sibling [2]int // container, vfio
		holder                   dradevices.DRAHeldDevice
		released                 bool
	}{
		{name: "claim seen before the slice", change: func() bool { return false }, free: [2]int{1, 1}, allocated: [2]int{1, 0}, sibling: [2]int{0, 1},
			holder: dradevices.DRAHeldDevice{Device: "gpu-0", Claim: "ns/train"}},
		{name: "a VM takes the other GPU", change: func() bool { return tr.UpsertResourceClaim(dratest.AllocatedClaim("ns", "vm", "n1", "gpu-vfio-1")) },
			free: [2]int{0, 0}, allocated: [2]int{1, 1}, sibling: [2]int{1, 1}, holder: dradevices.DRAHeldDevice{Device: "gpu-0", Claim: "ns/train"}},
		{name: "the training claim is deleted", change: func() bool { return tr.DeleteResourceClaim("ns", "train") },
			free: [2]int{1, 1}, allocated: [2]int{0, 1}, sibling: [2]int{1, 0}, released: true},
	} {
		if released := step.change(); released != step.released {
			t.Errorf("%s: released %v, want %v", step.name, released, step.released)
		}
		a := tr.DRAAvailability("n1")
		want := [][2]int{step.free, step.allocated, step.sibling}
		// The driver's classes select the devices of one class each: both views agree.
		for view, counts := range map[string][2]dradevices.DRAClassAvailability{
			"class":       {a.ByClass[container], a.ByClass[vfio]},
			"DeviceClass": {a.ByDeviceClass[dradevices.DRAClassGPU], a.ByDeviceClass[dradevices.DRAClassVFIO]},
		} {
			got := [][2]int{{counts[0].Free, counts[1].Free}, {counts[0].Allocated, counts[1].Allocated}, {counts[0].SiblingInUse, counts[1].SiblingInUse}}
			for i, what := range []string{"free", "allocated", "sibling in use"} {
				if got[i] != want[i] {
					t.Errorf("%s: %s by %s (container, vfio) = %v, want %v", step.name, what, view, got[i], want[i])
				}
			}
			if step.holder.Claim != "" && counts[1].SiblingHolder != step.holder {
				t.Errorf("%s: vfio devices by %s blocked by %+v, want %+v", step.name, view, counts[1].SiblingHolder, step.holder)
			}
		}
	}
}

// A DeviceClass's mode is that of the devices it selects, or of the device
// type it names while it selects none; a class of other devices has none.
func TestDRAGPUClassOfDeviceClasses(t *testing.T) {
	tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	tr.UpsertResourceSlice(dradevices.DriverSlice("n1", 1))
	for _, class := range []*resourceapi.DeviceClass{
		dradevices.DriverDeviceClass(dradevices.DRAClassVFIO, dradevices.DRATypeVFIO, ""),
		dradevices.DriverDeviceClass("mig.nvidia.com", dradevices.DRATypeMIG, ""),
		{ObjectMeta: metav1.ObjectMeta{Name: "nics"}, Spec: resourceapi.DeviceClassSpec{Selectors: []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{Expression: "device.driver == 'nic.example.com'"}}}}},
	} {
		if err := tr.UpsertDeviceClass(class); err != nil {
			t.Fatal(err)
		}
	}
	for deviceClass, want := range map[string]struct {
		class   gpuworkload.ResourceClass
		ok      bool
		devices int
	}{
		dradevices.DRAClassVFIO: {gpuworkload.ClassPassthroughGPU, true, 1},
		"mig.nvidia.com":        {gpuworkload.ClassContainerGPU, true, 0},
		"nics":                  {gpuworkload.ClassNotGPU, false, 0},
	} {
		class, ok := tr.DRAGPUClass(deviceClass)
		if class != want.class || ok != want.ok || tr.DRAClassDevices(deviceClass) != want.devices {
			t.Errorf("DeviceClass %s: class %v, %v, %d devices; want %v, %v, %d", deviceClass, class, ok, tr.DRAClassDevices(deviceClass), want.class, want.ok, want.devices)
		}
	}
}

// A claim holds its devices of the driver; writing the same allocation
// again releases nothing, deleting the claim releases them, and another
// driver's slices and allocations are not the tracker's.
func TestDRAClaimsHoldAndRelease(t *testing.T) {
	tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	tr.UpsertResourceSlice(dradevices.DriverSlice("n1", 2))
	other := dradevices.DriverSlice("n3", 1)
	other.Spec.Driver = "example.com"
	tr.UpsertResourceSlice(other)
	if got := tr.DRADevices(gpuworkload.ClassPassthroughGPU); got != 2 {
		t.Fatalf("%d vfio devices, want the driver's 2", got)
	}
	claim := dratest.AllocatedClaim("ns", "vm", "n1", "gpu-vfio-0")
	if tr.UpsertResourceClaim(claim) || tr.UpsertResourceClaim(claim) {
		t.Fatal("taking a device, or writing the same allocation again, released one")
	}
	if !held(tr, "n1", "gpu-vfio-0") {
		t.Fatal("the tracker does not hold the claim's device")
	}
	if !tr.DeleteResourceClaim("ns", "vm") || held(tr, "n1", "gpu-vfio-0") {
		t.Fatal("deleting the claim did not release its device")
	}
}
