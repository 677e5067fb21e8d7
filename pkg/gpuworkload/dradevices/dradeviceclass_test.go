package dradevices

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Which devices a DeviceClass takes is what its CEL selectors say: the
// driver's gpu and mig classes are both container GPUs and never take each
// other's devices.
func TestDRADeviceClassSelects(t *testing.T) {
	slice := DriverSlice("n1", 1)
	for i := range 2 {
		slice.Spec.Devices = append(slice.Spec.Devices, resourceapi.Device{Name: "gpu-1-mig-1g5gb-" + string(rune('0'+i)), Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
			"type": {StringValue: ptr.To(DRATypeMIG)}, "productName": {StringValue: ptr.To("NVIDIA A100-SXM4-40GB")}, pciBusIDAttribute: {StringValue: ptr.To("0000:3b:00.0")}}})
	}
	_, devices := DRADevicesOf(slice, DRADriver)
	node := NewDRANode(devices)
	classes := map[string]*DRADeviceClass{}
	for _, c := range []*resourceapi.DeviceClass{
		DriverDeviceClass(DRAClassGPU, DRATypeGPU, gpuworkload.ResourceGPU),
		DriverDeviceClass("mig.nvidia.com", DRATypeMIG, ""),
		DriverDeviceClass(DRAClassVFIO, DRATypeVFIO, ""),
		{ObjectMeta: metav1.ObjectMeta{Name: "a100"}, Spec: resourceapi.DeviceClassSpec{Selectors: []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{
			Expression: "device.attributes['gpu.nvidia.com'].productName.startsWith('NVIDIA A100')"}}}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "other-driver"}, Spec: resourceapi.DeviceClassSpec{Selectors: []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{
			Expression: "device.driver == 'example.com'"}}}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "everything"}},
	} {
		compiled, err := CompileDRADeviceClass(nil, c)
		if err != nil {
			t.Fatal(err)
		}
		classes[c.Name] = compiled
	}
	node = node.SelectedBy(context.Background(), classes)
	for class, want := range map[string][]string{
		DRAClassGPU:      {"gpu-0"},
		"mig.nvidia.com": {"gpu-1-mig-1g5gb-0", "gpu-1-mig-1g5gb-1"},
		DRAClassVFIO:     {"gpu-vfio-0"},
		"a100":           {"gpu-1-mig-1g5gb-0", "gpu-1-mig-1g5gb-1"},
		"other-driver":   nil,
		"everything":     {"gpu-0", "gpu-vfio-0", "gpu-1-mig-1g5gb-0", "gpu-1-mig-1g5gb-1"},
	} {
		var got []string
		for _, i := range node.Selected[class] {
			got = append(got, node.Devices[i].Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("DeviceClass %s selects %v, want %v", class, got, want)
		}
	}
	// Both MIG slices are free, the full GPU's two devices too: a claim of
	// mig.nvidia.com sees two devices, one of gpu.nvidia.com one.
	available := node.Availability(func(_, device string) string {
		if device == "gpu-vfio-0" {
			return "vms/vm"
		}
		return ""
	})
	if got := available.ByDeviceClass[DRAClassGPU]; got.Free != 0 || got.SiblingInUse != 1 || got.SiblingHolder.Device != "gpu-vfio-0" {
		t.Errorf("gpu.nvidia.com with its GPU's vfio device held: %+v, want 0 free, 1 sibling in use held through gpu-vfio-0", got)
	}
	if got := available.ByDeviceClass["mig.nvidia.com"]; got.Free != 2 || got.Total() != 2 {
		t.Errorf("mig.nvidia.com: %+v, want 2 free of 2", got)
	}
}

// A selector that does not compile names the class, the field and the fix.
func TestCompileDRADeviceClassError(t *testing.T) {
	class := &resourceapi.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "broken"}, Spec: resourceapi.DeviceClassSpec{Selectors: []resourceapi.DeviceSelector{
		{CEL: &resourceapi.CELDeviceSelector{Expression: "true"}},
		{CEL: &resourceapi.CELDeviceSelector{Expression: "device.attributes["}},
	}}}
	_, err := CompileDRADeviceClass(nil, class)
	if err == nil {
		t.Fatal("no error for a selector that does not compile")
	}
	for _, want := range []string{"DeviceClass broken", "spec.selectors[1].cel.expression", "fix the expression"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// A request with alternatives joins the demand only when every alternative
// is of a GPU class: one of other devices may serve it.
func TestDRAClaimRequestsOfFirstAvailable(t *testing.T) {
	gpuClass := func(deviceClass string) (gpuworkload.ResourceClass, bool) {
		return gpuworkload.ClassContainerGPU, deviceClass == DRAClassGPU || deviceClass == "mig.nvidia.com"
	}
	claim := func(alternatives ...string) *resourceapi.ResourceClaim {
		c := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c"}}
		request := resourceapi.DeviceRequest{Name: "gpu"}
		for _, a := range alternatives {
			request.FirstAvailable = append(request.FirstAvailable, resourceapi.DeviceSubRequest{Name: a, DeviceClassName: a, Count: 2})
		}
		c.Spec.Devices.Requests = []resourceapi.DeviceRequest{request}
		return c
	}
	got, err := DRAClaimRequestsOf(nil, claim("mig.nvidia.com", DRAClassGPU), gpuClass)
	if err != nil || len(got) != 1 {
		t.Fatalf("requests %+v, want one with two alternatives", got)
	}
	var classes []string
	for _, a := range got[0].Alternatives() {
		classes = append(classes, a.DeviceClass+"/"+a.Request)
		if a.Count != 2 || a.Claim != "ns/c" {
			t.Errorf("alternative %+v: want 2 devices of claim ns/c", a)
		}
	}
	if want := []string{"mig.nvidia.com/gpu/mig.nvidia.com", DRAClassGPU + "/gpu/" + DRAClassGPU}; !slices.Equal(classes, want) {
		t.Errorf("alternatives %v, want %v", classes, want)
	}
	if got, err := DRAClaimRequestsOf(nil, claim(DRAClassGPU, "nic.example.com"), gpuClass); err != nil || len(got) != 0 {
		t.Errorf("a request with a NIC alternative joined the GPU demand: %+v, %v", got, err)
	}
}

// a100AndH100Node is node n1 with an A100 and an H100, as the driver
// publishes them, and the devices gpu.nvidia.com selects.
func a100AndH100Node(t *testing.T) *DRANode {
	t.Helper()
	slice := DriverSlice("n1", 2)
	for i, product := range []string{"NVIDIA A100-SXM4-40GB", "NVIDIA H100 80GB HBM3"} {
		slice.Spec.Devices[2*i].Attributes["productName"] = resourceapi.DeviceAttribute{StringValue: ptr.To(product)}
	}
	_, devices := DRADevicesOf(slice, DRADriver)
	gpu, err := CompileDRADeviceClass(nil, DriverDeviceClass(DRAClassGPU, DRATypeGPU, gpuworkload.ResourceGPU))
	if err != nil {
		t.Fatal(err)
	}
	return NewDRANode(devices).SelectedBy(context.Background(), map[string]*DRADeviceClass{DRAClassGPU: gpu})
}

// A claim's own selectors narrow its DeviceClass's devices: of two free
// GPUs of gpu.nvidia.com, a request for an H100 matches the one H100, and
// one for an L40S none of them.
func TestDRAClaimSelectorsNarrowTheClass(t *testing.T) {
	node := a100AndH100Node(t)
	available := node.Availability(func(string, string) string { return "" })
	gpuClass := func(string) (gpuworkload.ResourceClass, bool) { return gpuworkload.ClassContainerGPU, true }
	for product, want := range map[string]int{"H100": 1, "L40S": 0} {
		claim := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c"}}
		claim.Spec.Devices.Requests = []resourceapi.DeviceRequest{{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: DRAClassGPU, Count: 1,
			Selectors: []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{Expression: "device.attributes['gpu.nvidia.com'].productName.contains('" + product + "')"}}}}}}
		requests, err := DRAClaimRequestsOf(nil, claim, gpuClass)
		if err != nil || len(requests) != 1 || requests[0].Selector == nil {
			t.Fatalf("%s: requests %+v, %v; want one with a selector", product, requests, err)
		}
		if got := available.Matching(context.Background(), DRAClassGPU, requests[0].Selector, nil); got.Free != want || got.Total() != want {
			t.Errorf("%s: %+v match, want %d free of %d", product, got, want, want)
		}
		if want := "gpu.nvidia.com matching the selectors of request gpu of claim ns/c"; requests[0].Devices() != want {
			t.Errorf("Devices() = %q, want %q", requests[0].Devices(), want)
		}
	}
	if got := available.Matching(context.Background(), DRAClassGPU, nil, nil); got.Free != 2 {
		t.Errorf("without selectors %+v, want the class's 2 free", got)
	}
	broken := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "broken"}}
	broken.Spec.Devices.Requests = []resourceapi.DeviceRequest{{Name: "gpu", FirstAvailable: []resourceapi.DeviceSubRequest{
		{Name: "a", DeviceClassName: DRAClassGPU, Count: 1, Selectors: []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{Expression: "device.nope("}}}}}}}
	_, err := DRAClaimRequestsOf(nil, broken, gpuClass)
	for _, want := range []string{"ResourceClaim ns/broken", "spec.devices.requests[0].firstAvailable[0].selectors[0].cel.expression", "fix the expression"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not say %q", err, want)
		}
	}
}

// A request takes a tainted device only when it tolerates every taint that
// keeps the allocator away, as the allocator decides: of two GPUs tainted
// NoSchedule, one also NoExecute, a toleration of the NoSchedule key frees
// one; a device whose sibling is held stays blocked once tolerated; an
// effect of None keeps nobody away.
func TestDRATaintsTheRequestTolerates(t *testing.T) {
	maintenance := resourceapi.DeviceTaint{Key: "example.com/maintenance", Value: "true", Effect: resourceapi.DeviceTaintEffectNoSchedule}
	unhealthy := resourceapi.DeviceTaint{Key: "example.com/unhealthy", Effect: resourceapi.DeviceTaintEffectNoExecute}
	slice := DriverSlice("n1", 3)
	// Devices gpu-0, gpu-vfio-0, gpu-1, gpu-vfio-1, gpu-2, gpu-vfio-2.
	slice.Spec.Devices[0].Taints = []resourceapi.DeviceTaint{maintenance}
	slice.Spec.Devices[2].Taints = []resourceapi.DeviceTaint{maintenance, unhealthy}
	slice.Spec.Devices[4].Taints = []resourceapi.DeviceTaint{maintenance, {Key: "example.com/note", Effect: resourceapi.DeviceTaintEffectNone}}
	_, devices := DRADevicesOf(slice, DRADriver)
	gpu, err := CompileDRADeviceClass(nil, DriverDeviceClass(DRAClassGPU, DRATypeGPU, gpuworkload.ResourceGPU))
	if err != nil {
		t.Fatal(err)
	}
	node := NewDRANode(devices).SelectedBy(context.Background(), map[string]*DRADeviceClass{DRAClassGPU: gpu})
	available := node.Availability(func(_, device string) string {
		if device == "gpu-vfio-2" {
			return "ns/vm"
		}
		return ""
	})
	tolerateMaintenance := []resourceapi.DeviceToleration{{Key: maintenance.Key, Operator: resourceapi.DeviceTolerationOpEqual, Value: "true", Effect: resourceapi.DeviceTaintEffectNoSchedule}}
	for _, tc := range []struct {
		name        string
		tolerations []resourceapi.DeviceToleration
		want        DRAClassAvailability
	}{
		{"no tolerations", nil, DRAClassAvailability{Tainted: 3}},
		{"maintenance tolerated", tolerateMaintenance, DRAClassAvailability{Free: 1, Tainted: 1, SiblingInUse: 1, SiblingHolder: DRAHeldDevice{Device: "gpu-vfio-2", Claim: "ns/vm"}}},
		{"the value differs", []resourceapi.DeviceToleration{{Key: maintenance.Key, Operator: resourceapi.DeviceTolerationOpEqual, Value: "false"}}, DRAClassAvailability{Tainted: 3}},
		{"everything tolerated", []resourceapi.DeviceToleration{{Operator: resourceapi.DeviceTolerationOpExists}}, DRAClassAvailability{Free: 2, SiblingInUse: 1, SiblingHolder: DRAHeldDevice{Device: "gpu-vfio-2", Claim: "ns/vm"}}},
	} {
		if got := available.Matching(context.Background(), DRAClassGPU, nil, tc.tolerations); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// nestedSelector is a selector whose estimated cost grows with the square
// of n: about 634,000 at n=150 and 1,125,000 at n=200.
func nestedSelector(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = strconv.Itoa(i)
	}
	list := "[" + strings.Join(items, ",") + "]"
	return fmt.Sprintf("%s.all(x, %s.all(y, device.attributes['%s'].productName.matches('^(a|b)+c$')))", list, list, DRADriver)
}

// A claim's selector is held to the API server's limits on length and
// estimated cost: one over them is an error naming the claim, the field and
// the fix, never evaluated; one within them compiles.
func TestDRAClaimRequestsOfSelectorLimits(t *testing.T) {
	gpuClass := func(string) (gpuworkload.ResourceClass, bool) { return gpuworkload.ClassPassthroughGPU, true }
	for _, tc := range []struct {
		name, expression string
		want             []string
	}{
		{name: "within the cost limit", expression: nestedSelector(150)},
		{name: "over the cost limit", expression: nestedSelector(200),
			want: []string{"ResourceClaim ns/vm: spec.devices.requests[0].exactly.selectors[0].cel.expression is too complex", "exceeds the API server's limit of 1000000", "simplify the expression"}},
		{name: "over the length limit", expression: "true || " + strings.Repeat("true || ", 1300) + "true",
			want: []string{"spec.devices.requests[0].exactly.selectors[0].cel.expression is 10412 characters long, more than the API server's limit of 10240", "shorten the expression"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			claim := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "vm"}}
			claim.Spec.Devices.Requests = []resourceapi.DeviceRequest{{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{
				DeviceClassName: DRAClassVFIO, Selectors: []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{Expression: tc.expression}}}}}}
			got, err := DRAClaimRequestsOf(nil, claim, gpuClass)
			if tc.want == nil {
				if err != nil || len(got) != 1 || got[0].Selector == nil {
					t.Fatalf("requests %+v, error %v; want one request with its selector", got, err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
		})
	}
}
