// Package dratest builds the DRA objects the NVIDIA driver publishes, for
// unit tests.
package dratest

import (
	"fmt"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Slice publishes gpus GPUs of a node as the driver does with
// PassthroughSupport: gpu-i and gpu-vfio-i, one PCI bus ID each, in a pool
// named after the node; every device carries the taints.
func Slice(node string, gpus int, taints ...resourceapi.DeviceTaint) *resourceapi.ResourceSlice {
	slice := &resourceapi.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: node + "-slice"}, Spec: resourceapi.ResourceSliceSpec{
		Driver: gpuworkload.DRADriver, NodeName: ptr.To(node), Pool: resourceapi.ResourcePool{Name: node}}}
	for i := range gpus {
		busID := fmt.Sprintf("0000:%02x:00.0", i+1)
		for _, d := range []struct{ name, deviceType string }{{fmt.Sprintf("gpu-%d", i), "gpu"}, {fmt.Sprintf("gpu-vfio-%d", i), "vfio"}} {
			slice.Spec.Devices = append(slice.Spec.Devices, resourceapi.Device{Name: d.name, Taints: taints, Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				"type": {StringValue: ptr.To(d.deviceType)}, "resource.kubernetes.io/pciBusID": {StringValue: ptr.To(busID)}}})
		}
	}
	return slice
}

// AllocatedClaim is a claim namespace/name holding one device of the
// driver in pool.
func AllocatedClaim(namespace, name, pool, device string) *resourceapi.ResourceClaim {
	return &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Status: resourceapi.ResourceClaimStatus{
		Allocation: &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{
			{Request: "gpu", Driver: gpuworkload.DRADriver, Pool: pool, Device: device}}}}}}
}
