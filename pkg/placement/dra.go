package placement

import (
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// draServing is what the driver's DeviceClasses serve in a cluster with DRA
// nodes: the extended resource each device type stands for. nvidia.com/gpu
// takes gpu devices, the DRA nodes' passthrough resource vfio devices, so
// that one workload runs unchanged whatever share of the nodes is DRA.
type draServing map[v1.ResourceName]string

// draGPUs is the resource a DRA node's free GPUs are counted under.
var draGPUs = dradevices.DRAGPUs(dradevices.DRADriver)

// draServingOf is nil for a cluster without DRA nodes. When the DRA nodes
// share one passthrough device name, the vfio DeviceClass serves it, so
// that one workload runs unchanged whatever share of the nodes is DRA
// (one class serves one extended resource; the driver's own vfio class
// serves none). DRA nodes of several cards serve VMs through claims only.
func draServingOf(nodes []NodeSpec) (draServing, error) {
	var serving draServing
	var passthrough v1.ResourceName
	for _, n := range nodes {
		if !n.DRA {
			continue
		}
		name, _, err := n.Inventory.Advertisement(gpuworkload.ModePassthrough)
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", n.Name, err)
		}
		switch {
		case serving == nil:
			serving = draServing{gpuworkload.ResourceGPU: dradevices.DRATypeGPU, name: dradevices.DRATypeVFIO}
			passthrough = name
		case name != passthrough:
			delete(serving, passthrough)
		}
	}
	return serving, nil
}

// publishDRA gives the scheduler what the driver publishes: its
// DeviceClasses and each DRA node's ResourceSlice.
func (c *Cluster) publishDRA(nodes []NodeSpec) error {
	classes := map[string]*resourceapi.DeviceClass{}
	if c.claims != nil {
		classes[dradevices.DRAClassVFIO] = dradevices.DriverDeviceClass(dradevices.DRAClassVFIO, dradevices.DRATypeVFIO, "")
	}
	for served, deviceType := range c.dra {
		class := dradevices.DRAClassGPU
		if deviceType == dradevices.DRATypeVFIO {
			class = dradevices.DRAClassVFIO
		}
		classes[class] = dradevices.DriverDeviceClass(class, deviceType, served)
	}
	for _, class := range classes {
		if err := c.engine.tracker.UpsertDeviceClass(class); err != nil {
			return err
		}
	}
	for _, n := range nodes {
		if n.DRA {
			c.engine.tracker.UpsertResourceSlice(dradevices.DriverSliceOfCard(n.Name, int(n.Inventory.GPUs), n.Inventory.Card))
		}
	}
	return nil
}

// publishForClaims shows the allocator of claims which GPUs of the node are free.
func (c *Cluster) publishForClaims(n *Node) error {
	if c.claims == nil {
		return nil
	}
	return c.claims.publish(n)
}

// allocateDRA gives a pod placed on a DRA node its devices: a VM with a
// claim those DynamicResources allocates in the cycle; else, as
// GPUDynamicResources would, the first GPUs of which no
// device is allocated, as gpu or vfio devices by the resource.
func (c *Cluster) allocateDRA(p *Pod, n *Node, cycle fwk.CycleState) error {
	var gpus []int
	var devices []string
	var claim *resourceapi.ResourceClaim
	if p.Spec.ClaimProducts != nil {
		var err error
		if claim, err = c.claims.allocate(c.ctx, cycle, p, n.Spec.Name); err != nil {
			return err
		}
		for _, result := range claim.Status.Allocation.Devices.Results {
			i := -1
			for j := range n.draHeld {
				if result.Pool == n.Spec.Name && result.Device == dradevices.DRAVFIODevice(j) {
					i = j
				}
			}
			if i < 0 || n.draHeld[i] {
				return fmt.Errorf("pod %s on DRA node %s: DynamicResources allocated device %s/%s, which is not a free vfio device of the node", p.Spec.Name, n.Spec.Name, result.Pool, result.Device)
			}
			gpus, devices = append(gpus, i), append(devices, result.Device)
		}
	} else {
		deviceType := n.dra[p.Spec.GPU]
		for i, held := range n.draHeld {
			if int64(len(devices)) == p.Spec.GPUCount {
				break
			}
			if held {
				continue
			}
			gpus = append(gpus, i)
			if deviceType == dradevices.DRATypeVFIO {
				devices = append(devices, dradevices.DRAVFIODevice(i))
			} else {
				devices = append(devices, dradevices.DRAGPUDevice(i))
			}
		}
		claim = draClaimObject(p.Spec.Name, n.Spec.Name, devices)
	}
	if int64(len(devices)) != p.Spec.GPUCount {
		return fmt.Errorf("pod %s on DRA node %s: %d of its GPUs are free, the pod requests %d", p.Spec.Name, n.Spec.Name, len(devices), p.Spec.GPUCount)
	}
	// The scheduler's view of the devices must agree, or the run measures
	// a cluster no allocator would produce.
	for _, d := range c.engine.tracker.DRADeviceStates(n.Spec.Name) {
		if slices.Contains(devices, d.Name) && d.State != dradevices.DRADeviceFree {
			return fmt.Errorf("pod %s on DRA node %s: the simulator chose device %s, which the scheduler sees %s", p.Spec.Name, n.Spec.Name, d.Name, d.State)
		}
	}
	for _, i := range gpus {
		n.draHeld[i] = true
	}
	p.draGPUs = gpus
	c.engine.tracker.UpsertResourceClaim(claim)
	return c.publishForClaims(n)
}

// releaseDRA frees a departing pod's devices, as deleting its claim does.
func (c *Cluster) releaseDRA(p *Pod, n *Node) error {
	for _, i := range p.draGPUs {
		n.draHeld[i] = false
	}
	p.draGPUs = nil
	name := draClaimName(p.Spec.Name)
	if p.Spec.ClaimProducts != nil {
		name = vmClaimName(p.Spec.Name)
		if err := c.claims.release(p); err != nil {
			return err
		}
	}
	c.engine.tracker.DeleteResourceClaim(namespace, name)
	return c.publishForClaims(n)
}
