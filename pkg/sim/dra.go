package sim

import (
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// draServing is what the driver's DeviceClasses serve in a cluster with DRA
// nodes: the extended resource each device type stands for. nvidia.com/gpu
// takes gpu devices, the DRA nodes' passthrough resource vfio devices, so
// that one workload runs unchanged whatever share of the nodes is DRA.
type draServing map[v1.ResourceName]string

// draGPUs is the resource a DRA node's free GPUs are counted under.
var draGPUs = gpuworkload.DRAGPUs(gpuworkload.DRADriver)

// draServingOf is nil for a cluster without DRA nodes. One vfio DeviceClass
// serves one extended resource, so the DRA nodes must share one
// passthrough device name.
func draServingOf(nodes []NodeSpec) (draServing, error) {
	var passthrough v1.ResourceName
	var first string
	for _, n := range nodes {
		if !n.DRA {
			continue
		}
		name, _, err := n.Inventory.Advertisement(gpuworkload.ModePassthrough)
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", n.Name, err)
		}
		if passthrough == "" {
			passthrough, first = name, n.Name
		} else if name != passthrough {
			return nil, fmt.Errorf("DRA nodes %s and %s pass through %s and %s: one vfio DeviceClass serves one extended resource, so give the DRA nodes one model", first, n.Name, passthrough, name)
		}
	}
	if passthrough == "" {
		return nil, nil
	}
	return draServing{gpuworkload.ResourceGPU: gpuworkload.DRATypeGPU, passthrough: gpuworkload.DRATypeVFIO}, nil
}

// publishDRA gives the scheduler what the driver publishes: its
// DeviceClasses and each DRA node's ResourceSlice.
func (r *run) publishDRA(nodes []NodeSpec) error {
	for served, deviceType := range r.dra {
		class := gpuworkload.DRAClassGPU
		if deviceType == gpuworkload.DRATypeVFIO {
			class = gpuworkload.DRAClassVFIO
		}
		if err := r.engine.tracker.UpsertDeviceClass(gpuworkload.DriverDeviceClass(class, deviceType, served)); err != nil {
			return err
		}
	}
	for _, n := range nodes {
		if n.DRA {
			r.engine.tracker.UpsertResourceSlice(gpuworkload.DriverSlice(n.Name, int(n.Inventory.GPUs)))
		}
	}
	return nil
}

// allocateDRA gives a pod placed on a DRA node its devices, as
// DynamicResources with the sibling guard would: the first GPUs of which no
// device is allocated, as gpu or vfio devices by the resource.
func (r *run) allocateDRA(p *simPod, n *simNode) error {
	deviceType := n.dra[p.spec.GPU]
	var gpus []int
	var devices []string
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
	if int64(len(devices)) < p.spec.GPUCount {
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
	r.engine.tracker.UpsertResourceClaim(draClaimObject(p.spec.Name, n.spec.Name, devices))
	return nil
}

// releaseDRA frees a departing pod's devices, as deleting its claim does.
func (r *run) releaseDRA(p *simPod, n *simNode) {
	for _, i := range p.draGPUs {
		n.draHeld[i] = false
	}
	p.draGPUs = nil
	r.engine.tracker.DeleteResourceClaim(Namespace, draClaimName(p.spec.Name))
}
