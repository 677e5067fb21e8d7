package dradevices

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/dynamic-resource-allocation/resourceclaim"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// DRADriver is the NVIDIA DRA driver's default name: the driver of its
// ResourceSlices and the domain of its device attributes.
const DRADriver = "gpu.nvidia.com"

// The driver's device types (attribute "type"), as its kubelet plugin publishes them.
const (
	DRATypeGPU  = "gpu"
	DRATypeMIG  = "mig"
	DRATypeVFIO = "vfio"
)

// draTypeAttribute and pciBusIDAttribute are the device attributes read here.
const (
	draTypeAttribute  resourceapi.QualifiedName = "type"
	pciBusIDAttribute resourceapi.QualifiedName = "resource.kubernetes.io/pciBusID"
	productAttribute  resourceapi.QualifiedName = "productName"
)

// DRATypeClass is the class of a device of the driver's type: container
// GPUs (gpu, mig) or passthrough GPUs for VMs (vfio). vGPU is not offered
// through DRA.
func DRATypeClass(deviceType string) gpuworkload.ResourceClass {
	switch deviceType {
	case DRATypeGPU, DRATypeMIG:
		return gpuworkload.ClassContainerGPU
	case DRATypeVFIO:
		return gpuworkload.ClassPassthroughGPU
	}
	return gpuworkload.ClassNotGPU
}

// DRADevice is one GPU device a DRA driver publishes for a node.
type DRADevice struct {
	Pool, Name string
	Type       string
	Class      gpuworkload.ResourceClass
	// PCIBusID names the physical GPU: the gpu-N and gpu-vfio-N devices of
	// one GPU share it. Empty when the driver does not publish it.
	PCIBusID string
	// Counted is set when the device consumes shared counters: the
	// allocator itself then keeps devices of one GPU from two claims.
	Counted bool
	// Tainted is set when the slice taints the device NoSchedule or
	// NoExecute: the allocator hands it only to a request that tolerates
	// every such taint (ToleratedBy).
	Tainted bool
	// Taints are the slice's own, never changed.
	Taints []resourceapi.DeviceTaint
	// Driver, Attributes and Capacity are what a DeviceClass's CEL
	// selectors see; the maps are the slice's own, never changed.
	Driver     string
	Attributes map[resourceapi.QualifiedName]resourceapi.DeviceAttribute
	Capacity   map[resourceapi.QualifiedName]resourceapi.DeviceCapacity
	// Withdrawn is a GPU's container device the driver took out of its
	// slice when it prepared the GPU's vfio device for a VM
	// (WithWithdrawnSiblings): in no slice, never free, part of its GPU.
	Withdrawn bool
}

// ExclusiveDRADevices reports whether two devices of the driver are one
// physical GPU that only one claim can hold: the gpu and the vfio device of
// one GPU (same PCI bus ID) when neither consumes shared counters. The
// driver drops the other half of such a pair only when it prepares one on
// the node, so the allocator does not know they exclude each other. MIG
// devices carry their parent GPU's PCI bus ID and are independent of each
// other, and devices that consume shared counters are kept apart by the
// allocator itself. This is the one place the rule is decided.
func ExclusiveDRADevices(a, b DRADevice) bool {
	if a.PCIBusID == "" || a.PCIBusID != b.PCIBusID || a.Counted || b.Counted {
		return false
	}
	return a.Type == DRATypeGPU && b.Type == DRATypeVFIO || a.Type == DRATypeVFIO && b.Type == DRATypeGPU
}

// Siblings are the devices of the node that exclude the device
// (ExclusiveDRADevices): allocating one while another is allocated fails on
// the node, and the allocator does not know it.
func (n *DRANode) Siblings(pool, device string) []DRADevice {
	if n == nil {
		return nil
	}
	i := slices.IndexFunc(n.Devices, func(d DRADevice) bool { return d.Pool == pool && d.Name == device })
	if i < 0 {
		return nil
	}
	var out []DRADevice
	for _, d := range n.Devices {
		if ExclusiveDRADevices(n.Devices[i], d) {
			out = append(out, d)
		}
	}
	return out
}

// DRANode is what the NVIDIA DRA driver publishes for one node: a DRA node
// has no workload mode, each device is a container or a VM GPU by itself.
type DRANode struct {
	Devices []DRADevice
	// ByClass counts the devices per class.
	ByClass [gpuworkload.ResourceClasses]int
	// GPUs counts the physical GPUs: devices with one PCI bus ID are one
	// GPU; devices without one are taken as one class's view of the GPUs.
	GPUs int
	// Selected lists, per DeviceClass that selects any of the devices, the
	// indexes in Devices of those it selects (SelectedBy).
	Selected map[string][]int
}

// Has reports whether the node publishes devices of the class.
func (n *DRANode) Has(class gpuworkload.ResourceClass) bool {
	return n != nil && int(class) < len(n.ByClass) && n.ByClass[class] > 0
}

// DRAGPUs is the resource the physical GPUs of a DRA driver's nodes are
// counted under, as one pool whatever device each will become: the
// driver's name. Stranding counts a free DRA GPU once, against the pods
// that wait for any device of the driver.
func DRAGPUs(driver string) v1.ResourceName { return v1.ResourceName(driver) }

// DriverSlice is the ResourceSlice the NVIDIA driver publishes for a node's
// GPUs with PassthroughSupport: gpu-i and gpu-vfio-i, one PCI bus ID each,
// in a pool named after the node; every device carries the taints.
func DriverSlice(node string, gpus int, taints ...resourceapi.DeviceTaint) *resourceapi.ResourceSlice {
	slice := &resourceapi.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: node + "-slice"}, Spec: resourceapi.ResourceSliceSpec{
		Driver: DRADriver, NodeName: ptr.To(node), Pool: resourceapi.ResourcePool{Name: node, ResourceSliceCount: 1}}}
	for i := range gpus {
		busID := fmt.Sprintf("0000:%02x:00.0", i+1)
		for _, d := range []struct{ name, deviceType string }{{DRAGPUDevice(i), DRATypeGPU}, {DRAVFIODevice(i), DRATypeVFIO}} {
			slice.Spec.Devices = append(slice.Spec.Devices, resourceapi.Device{Name: d.name, Taints: taints, Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				draTypeAttribute: {StringValue: ptr.To(d.deviceType)}, pciBusIDAttribute: {StringValue: ptr.To(busID)}}})
		}
	}
	return slice
}

// DriverSliceOfCard is DriverSlice with the productName the driver gives
// every device of the card (DRAProductName); without one, DriverSlice.
func DriverSliceOfCard(node string, gpus int, card hardware.Card) *resourceapi.ResourceSlice {
	slice := DriverSlice(node, gpus)
	if name := card.DRAProductName(); name != "" {
		for _, d := range slice.Spec.Devices {
			d.Attributes[productAttribute] = resourceapi.DeviceAttribute{StringValue: ptr.To(name)}
		}
	}
	return slice
}

// ProductNameSelector selects the driver's devices of one card, as a claim
// request pins its model: by the productName DriverSliceOfCard publishes.
func ProductNameSelector(productName string) resourceapi.DeviceSelector {
	return resourceapi.DeviceSelector{CEL: &resourceapi.CELDeviceSelector{
		Expression: fmt.Sprintf("device.attributes['%s'].%s == %+q", DRADriver, productAttribute, productName)}}
}

// DRAGPUDevice and DRAVFIODevice name the two devices of a node's i-th GPU
// in DriverSlice.
func DRAGPUDevice(i int) string  { return fmt.Sprintf("gpu-%d", i) }
func DRAVFIODevice(i int) string { return fmt.Sprintf("gpu-vfio-%d", i) }

// DRADevicesOf reads the GPU devices of a node-local ResourceSlice of the
// driver; node is "" for slices of another driver or not bound to one node.
func DRADevicesOf(slice *resourceapi.ResourceSlice, driver string) (node string, devices []DRADevice) {
	if slice.Spec.Driver != driver || slice.Spec.NodeName == nil {
		return "", nil
	}
	for _, d := range slice.Spec.Devices {
		deviceType := stringAttribute(d.Attributes, draTypeAttribute, driver)
		class := DRATypeClass(deviceType)
		if !class.IsGPU() {
			continue
		}
		devices = append(devices, DRADevice{
			Pool: slice.Spec.Pool.Name, Name: d.Name, Type: deviceType, Class: class,
			PCIBusID: stringAttribute(d.Attributes, pciBusIDAttribute, driver),
			Counted:  len(d.ConsumesCounters) > 0,
			Tainted:  slices.ContainsFunc(d.Taints, keepsAllocatorAway), Taints: d.Taints,
			Driver: driver, Attributes: d.Attributes, Capacity: d.Capacity,
		})
	}
	return *slice.Spec.NodeName, devices
}

// keepsAllocatorAway reports whether the allocator refuses the tainted
// device to a request that does not tolerate the taint: only the known
// effects NoSchedule and NoExecute do.
func keepsAllocatorAway(t resourceapi.DeviceTaint) bool {
	return t.Effect == resourceapi.DeviceTaintEffectNoSchedule || t.Effect == resourceapi.DeviceTaintEffectNoExecute
}

// ToleratedBy reports whether the tolerations tolerate every taint that
// keeps the allocator away from the device, by the allocator's own rule
// (resourceclaim.ToleratesTaint).
func (d *DRADevice) ToleratedBy(tolerations []resourceapi.DeviceToleration) bool {
	for _, taint := range d.Taints {
		if keepsAllocatorAway(taint) && !slices.ContainsFunc(tolerations, func(t resourceapi.DeviceToleration) bool { return resourceclaim.ToleratesTaint(t, taint) }) {
			return false
		}
	}
	return true
}

// DRAPoolSlice is what one of the driver's node-local ResourceSlices
// holds of its pool: the pool's generation and slice count as the slice
// declares them, and its GPU devices.
type DRAPoolSlice struct {
	Pool              string
	Generation, Count int64
	Devices           []DRADevice
}

// DRAPoolSliceOf reads a ResourceSlice of the driver; ok is false for
// slices of another driver or not bound to one node.
func DRAPoolSliceOf(slice *resourceapi.ResourceSlice, driver string) (node string, pool DRAPoolSlice, ok bool) {
	node, devices := DRADevicesOf(slice, driver)
	if node == "" {
		return "", DRAPoolSlice{}, false
	}
	return node, DRAPoolSlice{Pool: slice.Spec.Pool.Name, Generation: slice.Spec.Pool.Generation, Count: slice.Spec.Pool.ResourceSliceCount, Devices: devices}, true
}

// DRAUsableDevices are the devices of the slices the allocator allocates
// from, as the DRA library gathers pools: of each pool only the slices of
// its newest generation, and no device of a pool while fewer or more of
// those slices are present than the pool declares (the allocator skips
// such an incomplete pool). The library's gathering is internal to it, so
// its rule is restated here, once.
func DRAUsableDevices(slices []DRAPoolSlice) []DRADevice {
	type poolState struct {
		generation int64
		slices     []DRAPoolSlice
	}
	pools := map[string]*poolState{}
	var order []string
	for _, s := range slices {
		p := pools[s.Pool]
		switch {
		case p == nil:
			pools[s.Pool] = &poolState{generation: s.Generation, slices: []DRAPoolSlice{s}}
			order = append(order, s.Pool)
		case s.Generation > p.generation:
			p.generation, p.slices = s.Generation, []DRAPoolSlice{s}
		case s.Generation == p.generation:
			p.slices = append(p.slices, s)
		}
	}
	var devices []DRADevice
	for _, name := range order {
		p := pools[name]
		if int64(len(p.slices)) != p.slices[0].Count {
			continue
		}
		for _, s := range p.slices {
			devices = append(devices, s.Devices...)
		}
	}
	return devices
}

// WithWithdrawnSiblings adds to a node's devices the container device of
// each GPU whose vfio device the driver prepared for a VM: the driver
// withdraws gpu-N from its slice then, and publishes it again at
// unprepare. In a pool where the driver publishes container devices (one
// of type gpu at least, as with PassthroughSupport it publishes gpu-N and
// gpu-vfio-N for every GPU), a vfio device alone on its PCI bus ID is such
// a GPU's; a pool of vfio devices only says nothing of the kind. The added
// device is gpu-N with the vfio device's attributes and type gpu, so that
// the DeviceClasses that select the GPU's container device select it, and
// the GPU counts whole: sibling-in-use, never missing or free
// (DeviceStates).
func WithWithdrawnSiblings(devices []DRADevice) []DRADevice {
	out := devices
	for _, d := range devices {
		gpu, named := strings.CutPrefix(d.Name, "gpu-vfio-")
		if d.Type != DRATypeVFIO || d.PCIBusID == "" || d.Counted || !named ||
			!slices.ContainsFunc(devices, func(o DRADevice) bool { return o.Pool == d.Pool && o.Type == DRATypeGPU }) ||
			slices.ContainsFunc(devices, func(o DRADevice) bool { return o.PCIBusID == d.PCIBusID && o.Name != d.Name }) {
			continue
		}
		withdrawn := d
		withdrawn.Name, withdrawn.Type, withdrawn.Class, withdrawn.Withdrawn = "gpu-"+gpu, DRATypeGPU, DRATypeClass(DRATypeGPU), true
		withdrawn.Tainted, withdrawn.Taints = false, nil
		withdrawn.Attributes = maps.Clone(d.Attributes)
		for _, key := range []resourceapi.QualifiedName{draTypeAttribute, resourceapi.QualifiedName(d.Driver + "/" + string(draTypeAttribute))} {
			if _, ok := withdrawn.Attributes[key]; ok {
				withdrawn.Attributes[key] = resourceapi.DeviceAttribute{StringValue: ptr.To(DRATypeGPU)}
			}
		}
		if len(out) == len(devices) {
			out = slices.Clone(devices)
		}
		out = append(out, withdrawn)
	}
	return out
}

// NewDRANode sums a node's devices.
func NewDRANode(devices []DRADevice) *DRANode {
	n := &DRANode{Devices: devices}
	var busIDs []string
	var withoutBusID [gpuworkload.ResourceClasses]int
	for _, d := range devices {
		n.ByClass[d.Class]++
		switch {
		case d.PCIBusID == "":
			withoutBusID[d.Class]++
		case !slices.Contains(busIDs, d.PCIBusID):
			busIDs = append(busIDs, d.PCIBusID)
		}
	}
	n.GPUs = len(busIDs) + slices.Max(withoutBusID[:])
	return n
}

// DRAHolder returns the claim (namespace/name) that holds a device, or "".
type DRAHolder func(pool, device string) string

// DRAAvailability is what a DRA node's devices can still serve, per class
// (the mode their type gives them) and per DeviceClass (what a claim can
// take). A device is counted once in each: allocated before tainted,
// tainted before blocked by a sibling.
type DRAAvailability struct {
	// GPUs is the node's physical GPUs (DRANode.GPUs).
	GPUs    int
	ByClass [gpuworkload.ResourceClasses]DRAClassAvailability
	// ByDeviceClass counts the devices each DeviceClass selects
	// (DRANode.Selected); a class that selects none is not in it.
	ByDeviceClass map[string]DRAClassAvailability
	// states and selected are the node's devices and those each
	// DeviceClass selects, for Matching.
	states   []DRADeviceState
	selected map[string][]int
}

// DRAHeldDevice is a device and the claim that holds it.
type DRAHeldDevice struct {
	Device, Claim string
}

// The states of a DRA device for a new claim, as explain shows them.
const (
	DRADeviceFree         = "free"
	DRADeviceAllocated    = "allocated"
	DRADeviceTainted      = "tainted"
	DRADeviceSiblingInUse = "sibling-in-use"
)

// DRADeviceState is a device of a DRA node and what keeps it from a new claim.
type DRADeviceState struct {
	DRADevice
	State string
	// Claim holds the device (allocated) or its sibling (sibling-in-use),
	// Sibling names that sibling.
	Claim, Sibling string
}

// DeviceStates classifies the node's devices: held by a claim, tainted,
// blocked because another device of the same GPU is held, or free. A device
// has one state: allocated before tainted, tainted before sibling-in-use.
func (n *DRANode) DeviceStates(holder DRAHolder) []DRADeviceState {
	if n == nil {
		return nil
	}
	out := make([]DRADeviceState, len(n.Devices))
	// A node has few GPUs: a slice of the held devices beats a map.
	var held []int
	for i, d := range n.Devices {
		out[i].DRADevice = d
		if claim := holder(d.Pool, d.Name); claim != "" {
			out[i].State, out[i].Claim = DRADeviceAllocated, claim
			held = append(held, i)
		}
	}
	for i := range out {
		d := &out[i]
		switch {
		case d.State != "":
		case d.Tainted:
			d.State = DRADeviceTainted
		case d.Withdrawn:
			// Its vfio device is prepared: held, or about to be released.
			d.State = DRADeviceSiblingInUse
			for _, h := range held {
				if ExclusiveDRADevices(d.DRADevice, n.Devices[h]) {
					d.Claim, d.Sibling = out[h].Claim, n.Devices[h].Name
					break
				}
			}
		default:
			d.State = DRADeviceFree
			for _, h := range held {
				if ExclusiveDRADevices(d.DRADevice, n.Devices[h]) {
					d.State, d.Claim, d.Sibling = DRADeviceSiblingInUse, out[h].Claim, n.Devices[h].Name
					break
				}
			}
		}
	}
	return out
}

// Availability counts the node's devices per class and per DeviceClass by
// state (DeviceStates).
func (n *DRANode) Availability(holder DRAHolder) DRAAvailability {
	var a DRAAvailability
	if n == nil {
		return a
	}
	a.GPUs = n.GPUs
	states := n.DeviceStates(holder)
	a.states, a.selected = states, n.Selected
	for i := range states {
		a.ByClass[states[i].Class].count(&states[i])
	}
	if len(n.Selected) > 0 {
		a.ByDeviceClass = make(map[string]DRAClassAvailability, len(n.Selected))
		for deviceClass, selected := range n.Selected {
			var c DRAClassAvailability
			for _, i := range selected {
				c.count(&states[i])
			}
			a.ByDeviceClass[deviceClass] = c
		}
	}
	return a
}

// DRAClaimRequest is a request of a pod's ResourceClaim for devices of a
// GPU DeviceClass of the driver.
type DRAClaimRequest struct {
	// Claim is namespace/name.
	Claim string
	// Request is the request's name, request/subrequest for an alternative.
	Request     string
	DeviceClass string
	Class       gpuworkload.ResourceClass
	// Selector is the request's own CEL selectors, nil when it has none:
	// it takes only the devices of its class they match too.
	Selector *DRADeviceSelector
	// Tolerations are the request's device tolerations: it may take a
	// tainted device whose taints they all tolerate.
	Tolerations []resourceapi.DeviceToleration
	// Count is the devices the request needs; 1 for a request of all
	// devices of the class, which needs at least one.
	Count int64
	// Or are the request's further alternatives (firstAvailable), in the
	// claim's order: the allocator takes the first that it can serve.
	Or []DRAClaimRequest
}

// Alternatives are the request and its further alternatives, in order.
func (r DRAClaimRequest) Alternatives() []DRAClaimRequest {
	first := r
	first.Or = nil
	return append([]DRAClaimRequest{first}, r.Or...)
}

// DRAClaimRequestsOf lists a claim's requests for GPU DeviceClasses;
// gpuClass tells those classes. A request with alternatives (firstAvailable)
// is one of them only when every alternative is of a GPU class: one of
// other devices may serve it, which is the allocator's to judge. The error
// names the claim's selector that does not compile.
func DRAClaimRequestsOf(cache *CELCache, claim *resourceapi.ResourceClaim, gpuClass func(deviceClass string) (gpuworkload.ResourceClass, bool)) ([]DRAClaimRequest, error) {
	name := claim.Namespace + "/" + claim.Name
	var out []DRAClaimRequest
	for i, r := range claim.Spec.Devices.Requests {
		at := fmt.Sprintf("ResourceClaim %s: spec.devices.requests[%d]", name, i)
		if r.Exactly != nil && ptr.Deref(r.Exactly.AdminAccess, false) {
			// Admin access takes devices whatever holds them: it needs none free.
			continue
		}
		if r.Exactly != nil {
			e := r.Exactly
			req, ok, err := draClaimRequest(cache, name, r.Name, e.DeviceClassName, e.AllocationMode, e.Count, e.Selectors, e.Tolerations, at+".exactly.selectors", gpuClass)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, req)
			}
			continue
		}
		var alternatives []DRAClaimRequest
		for j, sub := range r.FirstAvailable {
			req, ok, err := draClaimRequest(cache, name, r.Name+"/"+sub.Name, sub.DeviceClassName, sub.AllocationMode, sub.Count, sub.Selectors, sub.Tolerations, fmt.Sprintf("%s.firstAvailable[%d].selectors", at, j), gpuClass)
			if err != nil {
				return nil, err
			}
			if !ok {
				alternatives = nil
				break
			}
			alternatives = append(alternatives, req)
		}
		if len(alternatives) > 0 {
			first := alternatives[0]
			first.Or = alternatives[1:]
			out = append(out, first)
		}
	}
	return out, nil
}

func draClaimRequest(cache *CELCache, claim, request, deviceClass string, mode resourceapi.DeviceAllocationMode, count int64, selectors []resourceapi.DeviceSelector, tolerations []resourceapi.DeviceToleration, at string,
	gpuClass func(string) (gpuworkload.ResourceClass, bool)) (DRAClaimRequest, bool, error) {
	class, ok := gpuClass(deviceClass)
	if !ok {
		return DRAClaimRequest{}, false, nil
	}
	if mode == resourceapi.DeviceAllocationModeAll || count <= 0 {
		count = 1
	}
	req := DRAClaimRequest{Claim: claim, Request: request, DeviceClass: deviceClass, Class: class, Count: count, Tolerations: tolerations}
	if len(selectors) > 0 {
		selector, err := compileDRASelectors(cache, selectors, at)
		if err != nil {
			return DRAClaimRequest{}, false, err
		}
		req.Selector = &selector
	}
	return req, true, nil
}

// Devices names the devices the request can take: its DeviceClass, and its
// own selectors where it has them.
func (r DRAClaimRequest) Devices() string {
	if r.Selector == nil {
		return r.DeviceClass
	}
	return fmt.Sprintf("%s matching the selectors of request %s of claim %s", r.DeviceClass, r.Request, r.Claim)
}

// stringAttribute reads a string attribute, qualified or in the driver's
// own domain (an unqualified name belongs to the driver).
func stringAttribute(attrs map[resourceapi.QualifiedName]resourceapi.DeviceAttribute, name resourceapi.QualifiedName, driver string) string {
	a, ok := attrs[name]
	if !ok && !strings.Contains(string(name), "/") {
		a, ok = attrs[resourceapi.QualifiedName(driver+"/"+string(name))]
	}
	if !ok || a.StringValue == nil {
		return ""
	}
	return *a.StringValue
}

// The driver's DeviceClasses for container GPUs and passthrough GPUs.
const (
	DRAClassGPU  = "gpu.nvidia.com"
	DRAClassVFIO = "vfio.gpu.nvidia.com"
)

// DriverDeviceClass is a DeviceClass as the driver's chart writes them: one
// CEL selector on the driver and the device type; served is the extended
// resource it serves, or "".
func DriverDeviceClass(name, deviceType string, served v1.ResourceName) *resourceapi.DeviceClass {
	class := &resourceapi.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: resourceapi.DeviceClassSpec{
		Selectors: []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{
			Expression: fmt.Sprintf("device.driver == '%s' && device.attributes['%s'].type == '%s'", DRADriver, DRADriver, deviceType)}}},
	}}
	if served != "" {
		class.Spec.ExtendedResourceName = ptr.To(string(served))
	}
	return class
}

// The driver's DeviceClasses, by name, with the device type each selects.
var draClassTypes = map[string]string{
	DRAClassGPU:      DRATypeGPU,
	"mig.nvidia.com": DRATypeMIG,
	DRAClassVFIO:     DRATypeVFIO,
}

// typeSelector matches a CEL selector on the driver's type attribute, as the
// driver's classes write it: device.attributes['gpu.nvidia.com'].type == 'vfio'.
var typeSelector = regexp.MustCompile(`device\.attributes\[["']([^"']+)["']\]\.type\s*==\s*["']([a-z]+)["']`)

// DRAClassType is the device type a DeviceClass selects from the driver:
// one of the driver's own classes, or any class whose CEL selector compares
// the driver's type attribute. "" when it selects no GPU type of the driver.
func DRAClassType(class *resourceapi.DeviceClass, driver string) string {
	if t, ok := draClassTypes[class.Name]; ok && driver == DRADriver {
		return t
	}
	for _, s := range class.Spec.Selectors {
		if s.CEL == nil {
			continue
		}
		if m := typeSelector.FindStringSubmatch(s.CEL.Expression); m != nil && m[1] == driver && DRATypeClass(m[2]).IsGPU() {
			return m[2]
		}
	}
	return ""
}

// DRAExtendedResource is an extended resource a DeviceClass serves through
// DRA (KEP-5004): pods that request it on nodes that do not advertise it
// get devices of the class instead.
type DRAExtendedResource struct {
	Name        v1.ResourceName
	DeviceClass string
	// Type is the driver's device type the class selects, Class its class.
	Type  string
	Class gpuworkload.ResourceClass
}

// DRAExtendedResourceOf reads the extended resource a GPU DeviceClass of the
// driver serves; ok is false for classes without one or of other devices.
func DRAExtendedResourceOf(class *resourceapi.DeviceClass, driver string) (DRAExtendedResource, bool) {
	if class.Spec.ExtendedResourceName == nil {
		return DRAExtendedResource{}, false
	}
	deviceType := DRAClassType(class, driver)
	if deviceType == "" {
		return DRAExtendedResource{}, false
	}
	return DRAExtendedResource{Name: v1.ResourceName(*class.Spec.ExtendedResourceName), DeviceClass: class.Name, Type: deviceType, Class: DRATypeClass(deviceType)}, true
}

// DRANodeFindings are what is wrong with a DRA node: a resource it serves
// both from a device plugin and through a DeviceClass, which Kubernetes does
// not allow, and VFIO devices without the PCI bus ID that ties them to their
// GPU's container device.
func DRANodeFindings(node *v1.Node, dra *DRANode, served []DRAExtendedResource) []gpuworkload.Finding {
	var out []gpuworkload.Finding
	for _, s := range served {
		if q, ok := node.Status.Allocatable[s.Name]; ok && !q.IsZero() && dra.Has(s.Class) {
			out = append(out, gpuworkload.NewFinding(gpuworkload.FindingDRADualServed,
				fmt.Sprintf("stop one of them on the node: the device plugin that advertises %s, or the DRA driver's %s devices", s.Name, s.Class.Describe()),
				"the node advertises %s from a device plugin and publishes devices that DeviceClass %s serves it with; a node may serve an extended resource one way only", s.Name, s.DeviceClass))
		}
	}
	var unbound, tainted []string
	for _, d := range dra.Devices {
		if d.Type == DRATypeVFIO && d.PCIBusID == "" {
			unbound = append(unbound, d.Pool+"/"+d.Name)
		}
		if d.Tainted {
			tainted = append(tainted, d.Pool+"/"+d.Name)
		}
	}
	if len(tainted) > 0 {
		out = append(out, gpuworkload.NewFinding(gpuworkload.FindingDRADevicesTainted,
			"remove the taints from the ResourceSlice when the devices are usable again, or tolerate them in the claims that may use them",
			"GPU devices tainted NoSchedule or NoExecute in their ResourceSlice: %s; the allocator gives them only to claims that tolerate the taint", gpuworkload.JoinBounded(tainted, ", ")))
	}
	if len(unbound) > 0 {
		out = append(out, gpuworkload.NewFinding(gpuworkload.FindingDRAVFIONoPCIBusID,
			"upgrade the DRA driver to a version that publishes resource.kubernetes.io/pciBusID for VFIO devices",
			"VFIO devices without resource.kubernetes.io/pciBusID: %s; the scheduler cannot tell which GPU they share with a container device, so it cannot keep the two out of two claims", gpuworkload.JoinBounded(unbound, ", ")))
	}
	return out
}

// DRAClassFindings reports a DeviceClass that serves an extended resource
// with devices no node publishes: pods asking for the resource find none.
func DRAClassFindings(served DRAExtendedResource, nodes map[string]*DRANode) []gpuworkload.Finding {
	for _, n := range nodes {
		for _, d := range n.Devices {
			if d.Type == served.Type {
				return nil
			}
		}
	}
	return []gpuworkload.Finding{gpuworkload.NewFinding(gpuworkload.FindingDRAClassMatchesNothing,
		fmt.Sprintf("publish devices of type %s with the DRA driver, or remove extendedResourceName from DeviceClass %s", served.Type, served.DeviceClass),
		"DeviceClass %s serves %s with devices of type %s, and no node publishes one", served.DeviceClass, served.Name, served.Type)}
}
