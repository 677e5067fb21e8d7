// Package dratest builds allocated ResourceClaims and claim selectors for
// tests and benchmarks.
package dratest

import (
	"fmt"
	"strconv"
	"strings"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// AllocatedClaim is a claim namespace/name holding one device of the
// driver in pool.
func AllocatedClaim(namespace, name, pool, device string) *resourceapi.ResourceClaim {
	return &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Status: resourceapi.ResourceClaimStatus{
		Allocation: &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{
			{Request: "gpu", Driver: dradevices.DRADriver, Pool: pool, Device: device}}}}}}
}

// CostlySelector is a claim selector the API server accepts, with an
// estimated cost of 630,948 of its 1,000,000: on each of the driver's
// devices with a productName it matches a regular expression 29,929 times,
// then asks for a product no device of the tests has.
func CostlySelector() resourceapi.DeviceSelector { return nestedProductSelector(173) }

// OverCostSelector is CostlySelector nested wider, 240 by 240: an
// estimated cost over the API server's 1,000,000, which it refuses to store.
func OverCostSelector() resourceapi.DeviceSelector { return nestedProductSelector(240) }

// nestedProductSelector matches a regular expression n*n times on each
// device, then asks for a product no device of the tests has: its
// estimated cost grows with the square of n.
func nestedProductSelector(n int) resourceapi.DeviceSelector {
	values := make([]string, n)
	for i := range values {
		values[i] = strconv.Itoa(i)
	}
	list := "[" + strings.Join(values, ",") + "]"
	return resourceapi.DeviceSelector{CEL: &resourceapi.CELDeviceSelector{Expression: fmt.Sprintf(
		"%s.all(x, %s.all(y, device.attributes['%[3]s'].productName.matches('^NVIDIA'))) && device.attributes['%[3]s'].productName == 'NVIDIA H100'",
		list, list, dradevices.DRADriver)}}
}
