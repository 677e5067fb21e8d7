package dradevices

import (
	"context"
	"fmt"
	"slices"
	"testing"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

func draDevice(name, deviceType, pciBusID string) resourceapi.Device {
	attrs := map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{"type": {StringValue: ptr.To(deviceType)}}
	if pciBusID != "" {
		attrs["resource.kubernetes.io/pciBusID"] = resourceapi.DeviceAttribute{StringValue: ptr.To(pciBusID)}
	}
	return resourceapi.Device{Name: name, Attributes: attrs}
}

func TestDRADevicesOf(t *testing.T) {
	slice := &resourceapi.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: "s"}, Spec: resourceapi.ResourceSliceSpec{
		Driver: DRADriver, NodeName: ptr.To("dra-1"), Pool: resourceapi.ResourcePool{Name: "dra-1"},
		Devices: []resourceapi.Device{
			draDevice("gpu-0", "gpu", "0000:3b:00.0"), draDevice("gpu-vfio-0", "vfio", "0000:3b:00.0"),
			draDevice("gpu-0-mig-1g", "mig", ""), draDevice("nic-0", "nic", ""),
		},
	}}
	node, devices := DRADevicesOf(slice, DRADriver)
	if node != "dra-1" || len(devices) != 3 {
		t.Fatalf("node %q, %d devices %+v; want dra-1 and the three GPU devices", node, len(devices), devices)
	}
	n := NewDRANode(devices)
	if n.ByClass[gpuworkload.ClassContainerGPU] != 2 || n.ByClass[gpuworkload.ClassPassthroughGPU] != 1 || !n.Has(gpuworkload.ClassPassthroughGPU) || n.Has(gpuworkload.ClassVGPUProfile) {
		t.Fatalf("by class %v: want 2 container (gpu, mig) and 1 passthrough (vfio)", n.ByClass)
	}
	if devices[0].PCIBusID != devices[1].PCIBusID || devices[0].PCIBusID == "" {
		t.Fatalf("the gpu and vfio devices of one GPU share the PCI bus ID: %+v", devices[:2])
	}
	other := slice.DeepCopy()
	other.Spec.Driver = "gpu.example.com"
	if node, devices := DRADevicesOf(other, DRADriver); node != "" || devices != nil {
		t.Fatalf("another driver's slice: %q %v", node, devices)
	}
}

func TestDRAExtendedResourceOf(t *testing.T) {
	class := func(name, expression, extended string) *resourceapi.DeviceClass {
		c := &resourceapi.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if expression != "" {
			c.Spec.Selectors = []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{Expression: expression}}}
		}
		if extended != "" {
			c.Spec.ExtendedResourceName = ptr.To(extended)
		}
		return c
	}
	for _, tc := range []struct {
		name  string
		class *resourceapi.DeviceClass
		want  gpuworkload.ResourceClass
		ok    bool
	}{
		{name: "the driver's gpu class", class: class("gpu.nvidia.com", "device.attributes['gpu.nvidia.com'].type == 'gpu'", "nvidia.com/gpu"), want: gpuworkload.ClassContainerGPU, ok: true},
		{name: "a class of the cluster's own selecting vfio", class: class("a10-vms", `device.attributes["gpu.nvidia.com"].type == "vfio"`, "example.com/vm-gpu"), want: gpuworkload.ClassPassthroughGPU, ok: true},
		{name: "no extended resource", class: class("vfio.gpu.nvidia.com", "device.attributes['gpu.nvidia.com'].type == 'vfio'", ""), ok: false},
		{name: "another driver", class: class("fpga", "device.attributes['fpga.example.com'].type == 'gpu'", "example.com/fpga"), ok: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := DRAExtendedResourceOf(tc.class, DRADriver)
			if ok != tc.ok || ok && (got.Class != tc.want || got.DeviceClass != tc.class.Name || string(got.Name) != *tc.class.Spec.ExtendedResourceName) {
				t.Fatalf("got %+v, %v; want class %s, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestExclusiveDRADevices(t *testing.T) {
	gpu := DRADevice{Pool: "n", Name: "gpu-0", Type: DRATypeGPU, PCIBusID: "0000:3b:00.0"}
	vfio := DRADevice{Pool: "n", Name: "gpu-vfio-0", Type: DRATypeVFIO, PCIBusID: "0000:3b:00.0"}
	mig := func(i int) DRADevice {
		return DRADevice{Pool: "n", Name: fmt.Sprintf("gpu-0-mig-%d", i), Type: DRATypeMIG, PCIBusID: "0000:3b:00.0"}
	}
	otherGPU := vfio
	otherGPU.PCIBusID = "0000:3c:00.0"
	counted := vfio
	counted.Counted = true
	noBusID := vfio
	noBusID.PCIBusID = ""
	for _, tc := range []struct {
		name string
		a, b DRADevice
		want bool
	}{
		{"the gpu and vfio devices of one GPU", gpu, vfio, true},
		{"either way round", vfio, gpu, true},
		{"two MIG slices of one GPU", mig(0), mig(1), false},
		{"a MIG slice and a vfio device with its bus ID", mig(0), vfio, false},
		{"two GPUs", gpu, otherGPU, false},
		{"shared counters: the allocator's business", gpu, counted, false},
		{"no PCI bus ID", gpu, noBusID, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ExclusiveDRADevices(tc.a, tc.b); got != tc.want {
				t.Fatalf("ExclusiveDRADevices = %v, want %v", got, tc.want)
			}
		})
	}
}

// Static MIG: 7 slices of one A100 with the parent's bus ID, 2 allocated;
// the other 5 stay free, none is sibling-in-use.
func TestDeviceStatesOfMIGSlices(t *testing.T) {
	var devices []DRADevice
	for i := range 7 {
		devices = append(devices, DRADevice{Pool: "n", Name: fmt.Sprintf("gpu-0-mig-1g5gb-%d", i), Type: DRATypeMIG, Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3b:00.0"})
	}
	n := NewDRANode(devices)
	holder := func(_, device string) string {
		if device == "gpu-0-mig-1g5gb-0" || device == "gpu-0-mig-1g5gb-1" {
			return "ns/claim-" + device
		}
		return ""
	}
	a := n.Availability(holder)
	if c := a.ByClass[gpuworkload.ClassContainerGPU]; c.Allocated != 2 || c.Free != 5 || c.SiblingInUse != 0 || a.GPUs != 1 {
		t.Fatalf("availability %+v: want 2 allocated, 5 free, none sibling-in-use, 1 GPU", a)
	}
	if s := n.Siblings("n", "gpu-0-mig-1g5gb-0"); len(s) != 0 {
		t.Fatalf("siblings of a MIG slice: %v, want none", s)
	}
}

// The devices counted are those the allocator allocates from: the newest
// generation of each pool, and nothing of a pool with fewer or more slices
// of that generation than it declares.
func TestDRAUsableDevices(t *testing.T) {
	slice := func(pool string, generation, count int64, devices ...string) DRAPoolSlice {
		s := DRAPoolSlice{Pool: pool, Generation: generation, Count: count}
		for _, d := range devices {
			s.Devices = append(s.Devices, DRADevice{Pool: pool, Name: d})
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		slices []DRAPoolSlice
		want   []string
	}{
		{name: "one complete slice", slices: []DRAPoolSlice{slice("n1", 1, 1, "gpu-0", "gpu-vfio-0")}, want: []string{"n1/gpu-0", "n1/gpu-vfio-0"}},
		{name: "an old generation is ignored, in any order",
			slices: []DRAPoolSlice{slice("n1", 2, 1, "gpu-0"), slice("n1", 1, 1, "gpu-vfio-1"), slice("n1", 3, 1, "gpu-1")}, want: []string{"n1/gpu-1"}},
		{name: "a pool missing one of its slices is skipped", slices: []DRAPoolSlice{slice("n1", 1, 2, "gpu-0")}},
		{name: "a slice without GPUs completes its pool", slices: []DRAPoolSlice{slice("n1", 1, 2, "gpu-0"), slice("n1", 1, 2)}, want: []string{"n1/gpu-0"}},
		{name: "a pool with more slices than it declares is skipped", slices: []DRAPoolSlice{slice("n1", 1, 1, "gpu-0"), slice("n1", 1, 1, "gpu-1")}},
		{name: "pools are judged apart", slices: []DRAPoolSlice{slice("a", 1, 2, "gpu-0"), slice("b", 1, 1, "gpu-0")}, want: []string{"b/gpu-0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range DRAUsableDevices(tc.slices) {
				got = append(got, d.Pool+"/"+d.Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("devices %v, want %v", got, tc.want)
			}
		})
	}
}

// The driver withdraws gpu-0 once it prepared gpu-vfio-0 for a VM: the GPU
// still counts whole, its container device sibling-in-use, held through the
// VM's claim, selected by the driver's gpu class, never free; a GPU whose
// two devices are published, MIG slices and a MIG-mode GPU's vfio device
// beside them, and a pool of vfio devices only, add nothing.
func TestWithWithdrawnSiblings(t *testing.T) {
	slice := DriverSlice("n1", 2)
	slice.Spec.Devices = slices.DeleteFunc(slice.Spec.Devices, func(d resourceapi.Device) bool { return d.Name == DRAGPUDevice(0) })
	_, devices := DRADevicesOf(slice, DRADriver)
	devices = WithWithdrawnSiblings(devices)
	var withdrawn []string
	for _, d := range devices {
		if d.Withdrawn {
			withdrawn = append(withdrawn, d.Name)
		}
	}
	if !slices.Equal(withdrawn, []string{"gpu-0"}) {
		t.Fatalf("withdrawn devices %v, want [gpu-0]", withdrawn)
	}
	classes := map[string]*DRADeviceClass{}
	for _, class := range []*resourceapi.DeviceClass{DriverDeviceClass(DRAClassGPU, DRATypeGPU, ""), DriverDeviceClass(DRAClassVFIO, DRATypeVFIO, "")} {
		compiled, err := CompileDRADeviceClass(nil, class)
		if err != nil {
			t.Fatal(err)
		}
		classes[class.Name] = compiled
	}
	n := NewDRANode(devices).SelectedBy(context.Background(), classes)
	for _, held := range []string{"", "ns/vm"} {
		a := n.Availability(func(_, device string) string {
			if device == "gpu-vfio-0" {
				return held
			}
			return ""
		})
		gpus := a.ByDeviceClass[DRAClassGPU]
		if a.GPUs != 2 || gpus.SiblingInUse != 1 || gpus.Free != 1 || gpus.Allocated != 0 {
			t.Errorf("vfio held by %q: %+v, want 2 GPUs and gpu.nvidia.com 1 sibling-in-use, 1 free", held, a)
		}
	}
	full := DriverSlice("n1", 1)
	_, published := DRADevicesOf(full, DRADriver)
	mig := DRADevice{Pool: "n1", Name: "gpu-0-mig-1g5gb-0", Type: DRATypeMIG, PCIBusID: published[1].PCIBusID}
	for _, ds := range [][]DRADevice{published, {published[1], mig}, {published[1]}} {
		if got := WithWithdrawnSiblings(ds); len(got) != len(ds) {
			t.Errorf("devices %+v: withdrawn siblings added: %+v", ds, got[len(ds):])
		}
	}
}
