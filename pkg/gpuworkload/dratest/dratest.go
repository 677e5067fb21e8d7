// Package dratest builds allocated ResourceClaims for unit tests.
package dratest

import (
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// AllocatedClaim is a claim namespace/name holding one device of the
// driver in pool.
func AllocatedClaim(namespace, name, pool, device string) *resourceapi.ResourceClaim {
	return &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Status: resourceapi.ResourceClaimStatus{
		Allocation: &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{
			{Request: "gpu", Driver: gpuworkload.DRADriver, Pool: pool, Device: device}}}}}}
}
