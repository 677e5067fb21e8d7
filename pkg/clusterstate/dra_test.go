package clusterstate

import (
	"fmt"
	"testing"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// twoGPUs publishes gpu-0/gpu-vfio-0 and gpu-1/gpu-vfio-1 of node n.
func twoGPUs(n string) *resourceapi.ResourceSlice {
	slice := &resourceapi.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: n + "-gpus"}, Spec: resourceapi.ResourceSliceSpec{
		Driver: gpuworkload.DRADriver, NodeName: ptr.To(n), Pool: resourceapi.ResourcePool{Name: n}}}
	for i := range 2 {
		bus := fmt.Sprintf("0000:0%d:00.0", i+1)
		for name, deviceType := range map[string]string{fmt.Sprintf("gpu-%d", i): "gpu", fmt.Sprintf("gpu-vfio-%d", i): "vfio"} {
			slice.Spec.Devices = append(slice.Spec.Devices, resourceapi.Device{Name: name, Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				"type": {StringValue: ptr.To(deviceType)}, "resource.kubernetes.io/pciBusID": {StringValue: ptr.To(bus)}}})
		}
	}
	return slice
}

func allocatedClaim(name, driver, pool, device string) *resourceapi.ResourceClaim {
	return &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}, Status: resourceapi.ResourceClaimStatus{
		Allocation: &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{
			{Request: "gpu", Driver: driver, Pool: pool, Device: device}}}}}}
}

// The tracker counts a DRA node's devices by state from the claims'
// allocations, whichever of claim and slice it sees first, and frees them
// when the claim goes.
func TestTrackerCountsDRADevicesByState(t *testing.T) {
	container, vfio := gpuworkload.ClassContainerGPU, gpuworkload.ClassPassthroughGPU
	tr := NewTracker(argsPolicy(), nil, reasonOf)
	tr.UpsertResourceClaim(allocatedClaim("train", gpuworkload.DRADriver, "n1", "gpu-0"))
	tr.UpsertResourceClaim(allocatedClaim("other-driver", "example.com", "n1", "gpu-1"))
	if tr.DRAAvailability("n1") != nil {
		t.Fatal("availability of a node that publishes nothing")
	}
	tr.UpsertResourceSlice(twoGPUs("n1"))
	for _, step := range []struct {
		name                     string
		change                   func()
		free, allocated, sibling [2]int // container, vfio
		holder                   gpuworkload.DRAHeldDevice
	}{
		{name: "claim seen before the slice", change: func() {}, free: [2]int{1, 1}, allocated: [2]int{1, 0}, sibling: [2]int{0, 1},
			holder: gpuworkload.DRAHeldDevice{Device: "gpu-0", Claim: "ns/train"}},
		{name: "a VM takes the other GPU", change: func() { tr.UpsertResourceClaim(allocatedClaim("vm", gpuworkload.DRADriver, "n1", "gpu-vfio-1")) },
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
