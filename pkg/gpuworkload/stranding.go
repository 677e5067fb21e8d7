package gpuworkload

import v1 "k8s.io/api/core/v1"

// StrandedKind is why free GPU units cannot serve the GPU pods that wait.
type StrandedKind int

const (
	// StrandedMode: no waiting pod asks for the node's resource while GPU pods of another resource wait.
	StrandedMode StrandedKind = iota
	// StrandedCPUMemory: a waiting pod wants the resource and the units would do, but the node's CPU or memory would not.
	StrandedCPUMemory
	// StrandedFragmentation: waiting pods want the resource, but each wants more units than the node has free.
	StrandedFragmentation
	// NumStrandedKinds counts the kinds.
	NumStrandedKinds
)

// StrandedKindNames names the kinds in order, as reports and metric labels give them.
var StrandedKindNames = [NumStrandedKinds]string{"mode", "cpu-memory", "fragmentation"}

// WaitingShape is what a waiting GPU pod needs of one node: units of its
// resource, CPU and memory.
type WaitingShape struct {
	Units, MilliCPU, Memory int64
}

// WaitingGPUPods counts the GPU pods that wait, by resource and shape: the
// demand free units are stranded against. The simulator and the live
// inventory share it, so that both count stranding the same way.
type WaitingGPUPods struct {
	byResource map[v1.ResourceName]map[WaitingShape]int
	total      int
}

// NewWaitingGPUPods returns an empty count.
func NewWaitingGPUPods() *WaitingGPUPods {
	return &WaitingGPUPods{byResource: map[v1.ResourceName]map[WaitingShape]int{}}
}

// Add counts a waiting pod.
func (w *WaitingGPUPods) Add(resource v1.ResourceName, shape WaitingShape) {
	w.total++
	shapes := w.byResource[resource]
	if shapes == nil {
		shapes = map[WaitingShape]int{}
		w.byResource[resource] = shapes
	}
	shapes[shape]++
}

// Remove uncounts a pod Add counted.
func (w *WaitingGPUPods) Remove(resource v1.ResourceName, shape WaitingShape) {
	w.total--
	shapes := w.byResource[resource]
	if shapes[shape]--; shapes[shape] == 0 {
		delete(shapes, shape)
	}
	if len(shapes) == 0 {
		delete(w.byResource, resource)
	}
}

// Total is the number of waiting GPU pods.
func (w *WaitingGPUPods) Total() int { return w.total }

// FreeOnNode is what a node has free: units of the resource it advertises,
// CPU and memory.
type FreeOnNode struct {
	Resource                v1.ResourceName
	Units, MilliCPU, Memory int64
}

// Stranded says whether the node's free units are stranded while these pods
// wait, and of which kind. Free units are stranded when some GPU pod waits
// and none of the pods that want the node's resource fits its free units,
// CPU and memory.
func (w *WaitingGPUPods) Stranded(n FreeOnNode) (StrandedKind, bool) {
	if w.total == 0 || n.Resource == "" || n.Units <= 0 {
		return 0, false
	}
	shapes := w.byResource[n.Resource]
	if len(shapes) == 0 {
		return StrandedMode, true
	}
	unitsWould := false
	for s := range shapes {
		if s.Units > n.Units {
			continue
		}
		if s.MilliCPU <= n.MilliCPU && s.Memory <= n.Memory {
			return 0, false
		}
		unitsWould = true
	}
	if unitsWould {
		return StrandedCPUMemory, true
	}
	return StrandedFragmentation, true
}
