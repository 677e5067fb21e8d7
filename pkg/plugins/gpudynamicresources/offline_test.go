package gpudynamicresources

import (
	"context"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// The offline allocator counts a held device's sibling as allocated, as
// the scheduler's does: a GPU in use as gpu-0 gives no claim its
// gpu-vfio-0; a free GPU does.
func TestOfflineAllocatorKeepsSiblingsOut(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	slices := []*resourceapi.ResourceSlice{dradevices.DriverSlice("n1", 1)}
	classes := []*resourceapi.DeviceClass{dradevices.DriverDeviceClass(dradevices.DRAClassVFIO, dradevices.DRATypeVFIO, "")}
	vm := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "vms", Name: "vm", UID: "vm"}, Spec: resourceapi.ResourceClaimSpec{Devices: resourceapi.DeviceClaim{
		Requests: []resourceapi.DeviceRequest{{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: dradevices.DRAClassVFIO, AllocationMode: resourceapi.DeviceAllocationModeExactCount, Count: 1}}}}}}
	train := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "ml", Name: "train"}, Status: resourceapi.ResourceClaimStatus{Allocation: &resourceapi.AllocationResult{
		Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{{Request: "gpu", Driver: dradevices.DRADriver, Pool: "n1", Device: "gpu-0"}}}}}}
	for _, tc := range []struct {
		name   string
		claims []*resourceapi.ResourceClaim
		want   string
	}{
		{name: "the GPU is free", claims: []*resourceapi.ResourceClaim{vm}, want: "gpu-vfio-0"},
		{name: "the GPU is in use as gpu-0", claims: []*resourceapi.ResourceClaim{vm, train}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			allocator, err := NewOfflineAllocator(ctx, dradevices.DRADriver, slices, classes, tc.claims)
			if err != nil {
				t.Fatal(err)
			}
			results, err := allocator.Allocate(ctx, node, []*resourceapi.ResourceClaim{vm})
			if err != nil {
				t.Fatal(err)
			}
			var got string
			if len(results) == 1 && len(results[0].Devices.Results) == 1 {
				got = results[0].Devices.Results[0].Device
			}
			if got != tc.want {
				t.Errorf("allocated %q (%+v), want %q", got, results, tc.want)
			}
		})
	}
}

// A dump that holds one object twice is an error that names it, not a panic.
func TestOfflineAllocatorNamesADuplicateObject(t *testing.T) {
	claim := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "vms", Name: "vm"}}
	_, err := NewOfflineAllocator(t.Context(), dradevices.DRADriver, nil, nil, []*resourceapi.ResourceClaim{claim, claim})
	if want := "ResourceClaim vms/vm: "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want one that starts with %q", err, want)
	}
}
