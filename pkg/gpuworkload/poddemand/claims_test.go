package poddemand

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// a100AndH100Node publishes an A100 and an H100 through the driver.
func a100AndH100Node(t *testing.T) *dradevices.DRANode {
	t.Helper()
	slice := dradevices.DriverSlice("n1", 2)
	for i, product := range []string{"NVIDIA A100-SXM4-40GB", "NVIDIA H100 80GB HBM3"} {
		slice.Spec.Devices[2*i].Attributes["productName"] = resourceapi.DeviceAttribute{StringValue: ptr.To(product)}
	}
	_, devices := dradevices.DRADevicesOf(slice, dradevices.DRADriver)
	gpu, err := dradevices.CompileDRADeviceClass(nil, dradevices.DriverDeviceClass(dradevices.DRAClassGPU, dradevices.DRATypeGPU, gpuworkload.ResourceGPU))
	if err != nil {
		t.Fatal(err)
	}
	return dradevices.NewDRANode(devices).SelectedBy(context.Background(), map[string]*dradevices.DRADeviceClass{dradevices.DRAClassGPU: gpu})
}

// A claim request's own selectors pin the pod to the nodes whose devices
// they match, an alternative of firstAvailable being enough; a claim
// without selectors leaves the pod's constraint as it was.
func TestClaimSelectorsPinTheNodeConstraint(t *testing.T) {
	node := a100AndH100Node(t)
	states := make([]dradevices.DRADeviceState, len(node.Devices))
	for i, d := range node.Devices {
		states[i] = dradevices.DRADeviceState{DRADevice: d, State: dradevices.DRADeviceFree}
	}
	selector := func(product string) []resourceapi.DeviceSelector {
		return []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{Expression: "device.attributes['gpu.nvidia.com'].productName.contains('" + product + "')"}}}
	}
	gpuClass := func(string) (gpuworkload.ResourceClass, bool) { return gpuworkload.ClassContainerGPU, true }
	n1, n2 := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n2"}}
	for _, tc := range []struct {
		name    string
		request resourceapi.DeviceRequest
		pinned  bool
		accepts bool
	}{
		{"an H100", resourceapi.DeviceRequest{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: dradevices.DRAClassGPU, Count: 1, Selectors: selector("H100")}}, true, true},
		{"an L40S", resourceapi.DeviceRequest{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: dradevices.DRAClassGPU, Count: 1, Selectors: selector("L40S")}}, true, false},
		{"an L40S or else an H100", resourceapi.DeviceRequest{Name: "gpu", FirstAvailable: []resourceapi.DeviceSubRequest{
			{Name: "l40s", DeviceClassName: dradevices.DRAClassGPU, Count: 1, Selectors: selector("L40S")},
			{Name: "h100", DeviceClassName: dradevices.DRAClassGPU, Count: 1, Selectors: selector("H100")},
		}}, true, true},
		{"any GPU", resourceapi.DeviceRequest{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: dradevices.DRAClassGPU, Count: 1}}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			claim := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c"}}
			claim.Spec.Devices.Requests = []resourceapi.DeviceRequest{tc.request}
			claims, err := dradevices.DRAClaimRequestsOf(nil, claim, gpuClass)
			if err != nil {
				t.Fatal(err)
			}
			publishes := func(name string) bool {
				return name == "n1" && dradevices.DRAPublishesFor(context.Background(), states, node.Selected, claims)
			}
			constraint := NodeConstraintOf(&v1.Pod{}).WithClaimSelectors(claims, publishes)
			if constraint.Constrains() != tc.pinned {
				t.Fatalf("constraint %q: pins the pod %v, want %v", constraint.Description, constraint.Constrains(), tc.pinned)
			}
			if tc.pinned && constraint.Description != "the selectors of claim request ns/c/gpu" {
				t.Errorf("description %q names no claim request", constraint.Description)
			}
			if got := constraint.Accepts(n1); got != tc.accepts {
				t.Errorf("accepts n1: %v, want %v", got, tc.accepts)
			}
			if got := constraint.Accepts(n2); got != !tc.pinned {
				t.Errorf("accepts n2, which publishes nothing: %v, want %v", got, !tc.pinned)
			}
		})
	}
}
