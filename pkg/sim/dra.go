package sim

import (
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// draServing is what the driver's DeviceClasses serve in a cluster with DRA
// nodes: the extended resource each device type stands for. nvidia.com/gpu
// takes gpu devices, the DRA nodes' passthrough resource vfio devices, so
// that one workload runs unchanged whatever share of the nodes is DRA.
type draServing map[v1.ResourceName]string

// draGPUs is the resource a DRA node's free GPUs are counted under.
var draGPUs = gpuworkload.DRAGPUs(gpuworkload.DRADriver)

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
			serving = draServing{gpuworkload.ResourceGPU: gpuworkload.DRATypeGPU, name: gpuworkload.DRATypeVFIO}
			passthrough = name
		case name != passthrough:
			delete(serving, passthrough)
		}
	}
	return serving, nil
}

// publishDRA gives the scheduler what the driver publishes: its
// DeviceClasses and each DRA node's ResourceSlice.
func (r *run) publishDRA(nodes []NodeSpec) error {
	classes := map[string]*resourceapi.DeviceClass{}
	if r.claims != nil {
		classes[gpuworkload.DRAClassVFIO] = gpuworkload.DriverDeviceClass(gpuworkload.DRAClassVFIO, gpuworkload.DRATypeVFIO, "")
	}
	for served, deviceType := range r.dra {
		class := gpuworkload.DRAClassGPU
		if deviceType == gpuworkload.DRATypeVFIO {
			class = gpuworkload.DRAClassVFIO
		}
		classes[class] = gpuworkload.DriverDeviceClass(class, deviceType, served)
	}
	for _, class := range classes {
		if err := r.engine.tracker.UpsertDeviceClass(class); err != nil {
			return err
		}
	}
	for _, n := range nodes {
		if n.DRA {
			r.engine.tracker.UpsertResourceSlice(gpuworkload.DriverSliceOfCard(n.Name, int(n.Inventory.GPUs), n.Inventory.Card))
		}
	}
	return nil
}

// publishForClaims shows the allocator of claims which GPUs of the node are free.
func (r *run) publishForClaims(n *simNode) error {
	if r.claims == nil {
		return nil
	}
	return r.claims.publish(n)
}

// allocateDRA gives a pod placed on a DRA node its devices: a VM with a
// claim those DynamicResources allocates in the cycle; else, as
// GPUDynamicResources would, the first GPUs of which no
// device is allocated, as gpu or vfio devices by the resource.
func (r *run) allocateDRA(p *simPod, n *simNode, cycle fwk.CycleState) error {
	var gpus []int
	var devices []string
	var claim *resourceapi.ResourceClaim
	if p.spec.ClaimProducts != nil {
		var err error
		if claim, err = r.claims.allocate(r.ctx, cycle, p, n.spec.Name); err != nil {
			return err
		}
		for _, result := range claim.Status.Allocation.Devices.Results {
			i := -1
			for j := range n.draHeld {
				if result.Pool == n.spec.Name && result.Device == gpuworkload.DRAVFIODevice(j) {
					i = j
				}
			}
			if i < 0 || n.draHeld[i] {
				return fmt.Errorf("pod %s on DRA node %s: DynamicResources allocated device %s/%s, which is not a free vfio device of the node", p.spec.Name, n.spec.Name, result.Pool, result.Device)
			}
			gpus, devices = append(gpus, i), append(devices, result.Device)
		}
	} else {
		deviceType := n.dra[p.spec.GPU]
		for i, held := range n.draHeld {
			if int64(len(devices)) == p.spec.GPUCount {
				break
			}
			if held {
				continue
			}
			gpus = append(gpus, i)
			if deviceType == gpuworkload.DRATypeVFIO {
				devices = append(devices, gpuworkload.DRAVFIODevice(i))
			} else {
				devices = append(devices, gpuworkload.DRAGPUDevice(i))
			}
		}
		claim = draClaimObject(p.spec.Name, n.spec.Name, devices)
	}
	if int64(len(devices)) != p.spec.GPUCount {
		return fmt.Errorf("pod %s on DRA node %s: %d of its GPUs are free, the pod requests %d", p.spec.Name, n.spec.Name, len(devices), p.spec.GPUCount)
	}
	// The scheduler's view of the devices must agree, or the run measures
	// a cluster no allocator would produce.
	for _, d := range r.engine.tracker.DRADeviceStates(n.spec.Name) {
		if slices.Contains(devices, d.Name) && d.State != gpuworkload.DRADeviceFree {
			return fmt.Errorf("pod %s on DRA node %s: the simulator chose device %s, which the scheduler sees %s", p.spec.Name, n.spec.Name, d.Name, d.State)
		}
	}
	for _, i := range gpus {
		n.draHeld[i] = true
	}
	p.draGPUs = gpus
	r.engine.tracker.UpsertResourceClaim(claim)
	return r.publishForClaims(n)
}

// releaseDRA frees a departing pod's devices, as deleting its claim does.
func (r *run) releaseDRA(p *simPod, n *simNode) error {
	for _, i := range p.draGPUs {
		n.draHeld[i] = false
	}
	p.draGPUs = nil
	name := draClaimName(p.spec.Name)
	if p.spec.ClaimProducts != nil {
		name = vmClaimName(p.spec.Name)
		if err := r.claims.release(p); err != nil {
			return err
		}
	}
	r.engine.tracker.DeleteResourceClaim(Namespace, name)
	return r.publishForClaims(n)
}
