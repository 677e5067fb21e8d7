package clusterstate

import (
	"context"
	"slices"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// draState is what the DRA driver publishes: GPU devices per node, from its
// ResourceSlices, and the extended resources its DeviceClasses serve.
type draState struct {
	driver string
	// slices holds each ResourceSlice's node and devices, by slice name.
	slices map[string]sliceDevices
	nodes  map[string]*dradevices.DRANode
	// poolNodes maps the driver's pools to their nodes: its pools are node-local.
	poolNodes map[string]string
	// byClass counts the cluster's devices per class.
	byClass [classCount]int
	// classes are the GPU DeviceClasses with an extended resource, by name;
	// served indexes them by extended resource.
	classes map[string]dradevices.DRAExtendedResource
	served  map[v1.ResourceName]dradevices.DRAExtendedResource
	// deviceClasses are all DeviceClasses, compiled; byDeviceClass counts
	// the cluster's devices each selects, per class of device.
	deviceClasses map[string]*dradevices.DRADeviceClass
	byDeviceClass map[string]*[classCount]int
	// namedTypes are the DeviceClasses whose name or selector names a
	// device type of the driver: a claim for one is a GPU claim even
	// while no device of the class is published.
	namedTypes map[string]gpuworkload.ResourceClass
	// allocated maps each allocated device of the driver to its claim, from
	// the claims' status, by claim namespace/name.
	allocated claimHolders
	// inFlight is the same for the allocations the scheduler's allocator
	// holds while it binds their pods (ClaimsInFlight), by claim UID: they
	// are in the allocator's view before the claims' status says so, and
	// an informer event of the claim must not drop them.
	inFlight claimHolders
	// availability is each DRA node's devices by state, recomputed when its
	// slices or the claims holding its devices change.
	availability map[string]*dradevices.DRAAvailability
}

type draDevice struct{ pool, name string }

const classCount = len(dradevices.DRAAvailability{}.ByClass)

type sliceDevices struct {
	node string
	dradevices.DRAPoolSlice
}

func newDRAState(driver string) draState {
	return draState{
		driver: driver, slices: map[string]sliceDevices{}, nodes: map[string]*dradevices.DRANode{}, poolNodes: map[string]string{},
		classes: map[string]dradevices.DRAExtendedResource{}, served: map[v1.ResourceName]dradevices.DRAExtendedResource{},
		deviceClasses: map[string]*dradevices.DRADeviceClass{}, byDeviceClass: map[string]*[classCount]int{},
		namedTypes: map[string]gpuworkload.ResourceClass{}, allocated: newClaimHolders(), inFlight: newClaimHolders(),
		availability: map[string]*dradevices.DRAAvailability{},
	}
}

// UpsertResourceSlice records a ResourceSlice added or updated.
func (t *Tracker) UpsertResourceSlice(slice *resourceapi.ResourceSlice) {
	node, pool, ok := dradevices.DRAPoolSliceOf(slice, t.dra.driver)
	t.mu.Lock()
	old, had := t.dra.slices[slice.Name]
	// A slice without GPU devices is kept all the same: it counts toward
	// its pool being complete.
	if !ok {
		delete(t.dra.slices, slice.Name)
	} else {
		t.dra.slices[slice.Name] = sliceDevices{node: node, DRAPoolSlice: pool}
		t.dra.poolNodes[pool.Pool] = node
	}
	if had {
		t.recountDRANodeLocked(old.node)
	}
	if node != "" && node != old.node {
		t.recountDRANodeLocked(node)
	}
	t.mu.Unlock()
}

// DeleteResourceSlice forgets a ResourceSlice.
func (t *Tracker) DeleteResourceSlice(name string) {
	t.mu.Lock()
	old, ok := t.dra.slices[name]
	if ok {
		delete(t.dra.slices, name)
		t.recountDRANodeLocked(old.node)
	}
	t.mu.Unlock()
}

// recountDRANodeLocked rebuilds one node's devices from its slices. A node
// has few slices and slices change rarely, so a scan is cheap enough.
func (t *Tracker) recountDRANodeLocked(node string) {
	old := t.dra.nodes[node]
	defer func() {
		// Whether the node is a DRA node is part of its state.
		if (old == nil) != (t.dra.nodes[node] == nil) && t.nodes[node] != nil {
			t.setEntryLocked(node, t.computeLocked(t.nodes[node]))
		}
	}()
	t.countDRANodeLocked(old, -1)
	var slices []dradevices.DRAPoolSlice
	for _, s := range t.dra.slices {
		if s.node == node {
			slices = append(slices, s.DRAPoolSlice)
		}
	}
	devices := dradevices.WithWithdrawnSiblings(dradevices.DRAUsableDevices(slices))
	if len(devices) == 0 {
		delete(t.dra.nodes, node)
		delete(t.dra.availability, node)
		return
	}
	n := dradevices.NewDRANode(devices).SelectedBy(context.Background(), t.dra.deviceClasses)
	t.dra.nodes[node] = n
	t.countDRANodeLocked(n, 1)
	t.recountAvailabilityLocked(node)
}

// countDRANodeLocked adds (sign 1) or removes (-1) a node's devices from
// the cluster's counts.
func (t *Tracker) countDRANodeLocked(n *dradevices.DRANode, sign int) {
	if n == nil {
		return
	}
	for class, count := range n.ByClass {
		t.dra.byClass[class] += sign * count
	}
	t.countSelectedLocked(n, sign)
}

func (t *Tracker) countSelectedLocked(n *dradevices.DRANode, sign int) {
	for deviceClass, selected := range n.Selected {
		counts := t.dra.byDeviceClass[deviceClass]
		if counts == nil {
			counts = new([classCount]int)
			t.dra.byDeviceClass[deviceClass] = counts
		}
		for _, i := range selected {
			counts[n.Devices[i].Class] += sign
		}
		if *counts == ([classCount]int{}) {
			delete(t.dra.byDeviceClass, deviceClass)
		}
	}
}

// reselectLocked matches every node's devices again after a DeviceClass
// changed: a class event is rare, a node has few devices.
func (t *Tracker) reselectLocked() {
	t.dra.byDeviceClass = map[string]*[classCount]int{}
	for name, n := range t.dra.nodes {
		n = n.SelectedBy(context.Background(), t.dra.deviceClasses)
		t.dra.nodes[name] = n
		t.countSelectedLocked(n, 1)
		t.recountAvailabilityLocked(name)
	}
}

func (t *Tracker) recountAvailabilityLocked(node string) {
	n := t.dra.nodes[node]
	if n == nil {
		return
	}
	a := n.Availability(t.holderLocked)
	t.dra.availability[node] = &a
}

func (t *Tracker) holderLocked(pool, device string) string {
	d := draDevice{pool, device}
	if claim, ok := t.dra.allocated.holders[d]; ok {
		return claim
	}
	return t.dra.inFlight.holders[d]
}

// DRADeviceStates is each DRA device of the node with its state; nil for a
// node without DRA devices.
func (t *Tracker) DRADeviceStates(node string) []dradevices.DRADeviceState {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.dra.nodes[node].DeviceStates(t.holderLocked)
}

// DRADeviceStatesAndSelection is DRADeviceStates with the devices each
// DeviceClass selects, by index into them, read together: a slice update
// between two reads would give indices of other devices.
func (t *Tracker) DRADeviceStatesAndSelection(node string) ([]dradevices.DRADeviceState, map[string][]int) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	n := t.dra.nodes[node]
	if n == nil {
		return nil, nil
	}
	return n.DeviceStates(t.holderLocked), n.Selected
}

// DRADriver is the name of the DRA driver whose GPUs the tracker reads.
func (t *Tracker) DRADriver() string { return t.dra.driver }

// UpsertResourceClaim records the driver's devices a claim holds and
// reports whether it released any.
func (t *Tracker) UpsertResourceClaim(claim *resourceapi.ResourceClaim) (released bool) {
	return t.setClaimDevices(claim.Namespace+"/"+claim.Name, t.allocatedDevices(claim))
}

func (t *Tracker) allocatedDevices(claim *resourceapi.ResourceClaim) []draDevice {
	var devices []draDevice
	if claim.Status.Allocation != nil {
		for _, r := range claim.Status.Allocation.Devices.Results {
			if r.Driver == t.dra.driver {
				devices = append(devices, draDevice{r.Pool, r.Device})
			}
		}
	}
	return devices
}

// claimHolders maps devices to the claims that hold them, and claims,
// by key, to their devices.
type claimHolders struct {
	holders map[draDevice]string
	devices map[string][]draDevice
}

func newClaimHolders() claimHolders {
	return claimHolders{holders: map[draDevice]string{}, devices: map[string][]draDevice{}}
}

// SetClaimInFlight records the devices of an allocation the scheduler's
// allocator holds in flight for the claim with the UID (allocated is the
// claim with that allocation), or forgets them (allocated nil), and reports
// whether that released any.
func (t *Tracker) SetClaimInFlight(uid string, allocated *resourceapi.ResourceClaim) (released bool) {
	if allocated == nil {
		return t.setHolders(&t.dra.inFlight, uid, "", nil)
	}
	return t.setHolders(&t.dra.inFlight, uid, allocated.Namespace+"/"+allocated.Name, t.allocatedDevices(allocated))
}

// DeleteResourceClaim forgets a claim's devices and reports whether it held any.
func (t *Tracker) DeleteResourceClaim(namespace, name string) (released bool) {
	return t.setClaimDevices(namespace+"/"+name, nil)
}

// setClaimDevices records the devices a claim holds.
func (t *Tracker) setClaimDevices(claim string, devices []draDevice) (released bool) {
	return t.setHolders(&t.dra.allocated, claim, claim, devices)
}

// setHolders replaces the devices held under key by devices, held by the
// claim named holder and recounts the nodes whose holders changed;
// released reports whether a device it let go is now free.
func (t *Tracker) setHolders(c *claimHolders, key, holder string, devices []draDevice) (released bool) {
	t.mu.Lock()
	old := c.devices[key]
	if slices.Equal(old, devices) {
		t.mu.Unlock()
		return false
	}
	for _, d := range old {
		delete(c.holders, d)
	}
	for _, d := range devices {
		c.holders[d] = holder
	}
	if len(devices) == 0 {
		delete(c.devices, key)
	} else {
		c.devices[key] = devices
	}
	t.recountHoldersLocked(slices.Concat(old, devices))
	released = slices.ContainsFunc(old, func(d draDevice) bool { return t.holderLocked(d.pool, d.name) == "" })
	t.mu.Unlock()
	return released
}

// recountHoldersLocked recounts the availability of the nodes of the devices.
func (t *Tracker) recountHoldersLocked(devices []draDevice) {
	var nodes []string
	for _, d := range devices {
		node := t.dra.poolNodes[d.pool]
		if !slices.Contains(nodes, node) {
			nodes = append(nodes, node)
			t.recountAvailabilityLocked(node)
		}
	}
}

// UpsertDeviceClass records a DeviceClass added or updated. A class whose
// selectors do not compile is an error and selects nothing here, as for the
// allocator, which cannot allocate from it either.
func (t *Tracker) UpsertDeviceClass(class *resourceapi.DeviceClass) error {
	compiled, err := dradevices.CompileDRADeviceClass(t.cel, class)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.deleteDeviceClassLocked(class.Name)
	if err == nil {
		t.dra.deviceClasses[class.Name] = compiled
	}
	if deviceType := dradevices.DRAClassType(class, t.dra.driver); deviceType != "" {
		t.dra.namedTypes[class.Name] = dradevices.DRATypeClass(deviceType)
	}
	if served, ok := dradevices.DRAExtendedResourceOf(class, t.dra.driver); ok {
		t.dra.classes[class.Name] = served
		t.dra.served[served.Name] = served
	}
	t.reselectLocked()
	return err
}

// DeleteDeviceClass forgets a DeviceClass.
func (t *Tracker) DeleteDeviceClass(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.deleteDeviceClassLocked(name)
	t.reselectLocked()
}

func (t *Tracker) deleteDeviceClassLocked(name string) {
	delete(t.dra.deviceClasses, name)
	delete(t.dra.namedTypes, name)
	if old, ok := t.dra.classes[name]; ok {
		delete(t.dra.classes, name)
		if t.dra.served[old.Name].DeviceClass == name {
			delete(t.dra.served, old.Name)
		}
	}
}

// DRANode is what the DRA driver publishes for the node; nil for none.
// The value is replaced, never changed, when the node's slices change.
func (t *Tracker) DRANode(name string) *dradevices.DRANode {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.dra.nodes[name]
}

// DRAAvailability is the node's DRA devices by state; nil for a node
// without them. The value is replaced, never changed.
func (t *Tracker) DRAAvailability(name string) *dradevices.DRAAvailability {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.dra.availability[name]
}

// DRAClaimRequestsOf lists the claim's requests for GPU DeviceClasses
// (dradevices.DRAClaimRequestsOf), their selectors compiled through the
// tracker's cache.
func (t *Tracker) DRAClaimRequestsOf(claim *resourceapi.ResourceClaim) ([]dradevices.DRAClaimRequest, error) {
	return dradevices.DRAClaimRequestsOf(t.cel, claim, t.DRAGPUClass)
}

// DRAGPUClass is the class of the GPU devices a DeviceClass selects (the
// most of them, cluster-wide), or, while it selects none, of the device
// type its name or selector names; ok is false for classes of other devices.
func (t *Tracker) DRAGPUClass(deviceClass string) (class gpuworkload.ResourceClass, ok bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if counts := t.dra.byDeviceClass[deviceClass]; counts != nil {
		best := 0
		for c := range counts {
			if counts[c] > counts[best] {
				best = c
			}
		}
		return gpuworkload.ResourceClass(best), true
	}
	class, ok = t.dra.namedTypes[deviceClass]
	return class, ok
}

// DRAClassDevices counts the cluster's GPU devices the DeviceClass selects.
func (t *Tracker) DRAClassDevices(deviceClass string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var n int
	if counts := t.dra.byDeviceClass[deviceClass]; counts != nil {
		for _, c := range counts {
			n += c
		}
	}
	return n
}

// DRAServed returns the DeviceClass that serves an extended resource through DRA.
func (t *Tracker) DRAServed(name v1.ResourceName) (dradevices.DRAExtendedResource, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	served, ok := t.dra.served[name]
	return served, ok
}

// DRADevices counts the cluster's DRA GPU devices of the class.
func (t *Tracker) DRADevices(class gpuworkload.ResourceClass) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.dra.byClass[class]
}

// DRASiblings returns the node of a device of the driver and the other
// devices of its physical GPU (dradevices.DRANode.Siblings).
func (t *Tracker) DRASiblings(pool, device string) (node string, siblings []dradevices.DRADevice) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	node = t.dra.poolNodes[pool]
	return node, t.dra.nodes[node].Siblings(pool, device)
}
