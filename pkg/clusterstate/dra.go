package clusterstate

import (
	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// draState is what the DRA driver publishes: GPU devices per node, from its
// ResourceSlices, and the extended resources its DeviceClasses serve.
type draState struct {
	driver string
	// slices holds each ResourceSlice's node and devices, by slice name.
	slices map[string]sliceDevices
	nodes  map[string]*gpuworkload.DRANode
	// poolNodes maps the driver's pools to their nodes: its pools are node-local.
	poolNodes map[string]string
	// byClass counts the cluster's devices per class.
	byClass [4]int
	// classes are the GPU DeviceClasses with an extended resource, by name;
	// served indexes them by extended resource.
	classes map[string]gpuworkload.DRAExtendedResource
	served  map[v1.ResourceName]gpuworkload.DRAExtendedResource
}

type sliceDevices struct {
	node    string
	devices []gpuworkload.DRADevice
}

func newDRAState(driver string) draState {
	return draState{
		driver: driver, slices: map[string]sliceDevices{}, nodes: map[string]*gpuworkload.DRANode{}, poolNodes: map[string]string{},
		classes: map[string]gpuworkload.DRAExtendedResource{}, served: map[v1.ResourceName]gpuworkload.DRAExtendedResource{},
	}
}

// UpsertResourceSlice records a ResourceSlice added or updated.
func (t *Tracker) UpsertResourceSlice(slice *resourceapi.ResourceSlice) {
	t.mu.Lock()
	defer t.mu.Unlock()
	node, devices := gpuworkload.DRADevicesOf(slice, t.dra.driver)
	old, had := t.dra.slices[slice.Name]
	if len(devices) == 0 {
		delete(t.dra.slices, slice.Name)
	} else {
		t.dra.slices[slice.Name] = sliceDevices{node: node, devices: devices}
		t.dra.poolNodes[slice.Spec.Pool.Name] = node
	}
	if had {
		t.recountDRANodeLocked(old.node)
	}
	if node != "" && node != old.node {
		t.recountDRANodeLocked(node)
	}
}

// DeleteResourceSlice forgets a ResourceSlice.
func (t *Tracker) DeleteResourceSlice(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if old, ok := t.dra.slices[name]; ok {
		delete(t.dra.slices, name)
		t.recountDRANodeLocked(old.node)
	}
}

// recountDRANodeLocked rebuilds one node's devices from its slices. A node
// has few slices and slices change rarely, so a scan is cheap enough.
func (t *Tracker) recountDRANodeLocked(node string) {
	old := t.dra.nodes[node]
	defer func() {
		// Whether the node is a DRA node is part of its state.
		if (old == nil) != (t.dra.nodes[node] == nil) && t.nodes[node] != nil {
			t.entries[node] = t.computeLocked(t.nodes[node])
		}
	}()
	if old != nil {
		for class, n := range old.ByClass {
			t.dra.byClass[class] -= n
		}
	}
	var devices []gpuworkload.DRADevice
	for _, s := range t.dra.slices {
		if s.node == node {
			devices = append(devices, s.devices...)
		}
	}
	if len(devices) == 0 {
		delete(t.dra.nodes, node)
		return
	}
	n := gpuworkload.NewDRANode(devices)
	t.dra.nodes[node] = n
	for class, count := range n.ByClass {
		t.dra.byClass[class] += count
	}
}

// UpsertDeviceClass records a DeviceClass added or updated.
func (t *Tracker) UpsertDeviceClass(class *resourceapi.DeviceClass) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.deleteDeviceClassLocked(class.Name)
	if served, ok := gpuworkload.DRAExtendedResourceOf(class, t.dra.driver); ok {
		t.dra.classes[class.Name] = served
		t.dra.served[served.Name] = served
	}
}

// DeleteDeviceClass forgets a DeviceClass.
func (t *Tracker) DeleteDeviceClass(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.deleteDeviceClassLocked(name)
}

func (t *Tracker) deleteDeviceClassLocked(name string) {
	if old, ok := t.dra.classes[name]; ok {
		delete(t.dra.classes, name)
		if t.dra.served[old.Name].DeviceClass == name {
			delete(t.dra.served, old.Name)
		}
	}
}

// DRANode is what the DRA driver publishes for the node; nil for none.
// The value is replaced, never changed, when the node's slices change.
func (t *Tracker) DRANode(name string) *gpuworkload.DRANode {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.dra.nodes[name]
}

// DRAServed returns the DeviceClass that serves an extended resource through DRA.
func (t *Tracker) DRAServed(name v1.ResourceName) (gpuworkload.DRAExtendedResource, bool) {
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
// devices of its physical GPU (gpuworkload.DRANode.Siblings).
func (t *Tracker) DRASiblings(pool, device string) (node string, siblings []gpuworkload.DRADevice) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	node = t.dra.poolNodes[pool]
	return node, t.dra.nodes[node].Siblings(pool, device)
}
