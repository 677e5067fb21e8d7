package poddemand

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
// resource, CPU and memory, on a node its constraint accepts.
type WaitingShape struct {
	Units, MilliCPU, Memory int64
	// constraint is the key of the pod's NodeConstraint.
	constraint string
}

// WaitingGPUPods counts the GPU pods that wait, by resource and shape: the
// demand free units are stranded against. The simulator and the live
// inventory share it, so that both count stranding the same way. It is not
// safe for concurrent use.
type WaitingGPUPods struct {
	byResource  map[v1.ResourceName]map[WaitingShape]int
	constraints map[string]NodeConstraint
	total       int
	// verdicts remember each constraint's verdict on a node, for the node
	// object it was made on: node-affinity matching allocates, and the
	// simulator asks about every node at every event, which made matching
	// most of a run of the openb gpuspec lists. Node objects are replaced,
	// never changed in place (informers and the simulator treat them so),
	// so a verdict holds while the node's object is the same.
	verdicts map[verdictKey]verdict
}

type verdictKey struct{ constraint, node string }

type verdict struct {
	node     *v1.Node
	accepted bool
}

// NewWaitingGPUPods returns an empty count.
func NewWaitingGPUPods() *WaitingGPUPods {
	return &WaitingGPUPods{byResource: map[v1.ResourceName]map[WaitingShape]int{}, constraints: map[string]NodeConstraint{}, verdicts: map[verdictKey]verdict{}}
}

// accepts says whether a pod of the shape could run on the node.
func (w *WaitingGPUPods) accepts(s WaitingShape, node *v1.Node) bool {
	if s.constraint == "" {
		return true
	}
	if node == nil {
		return w.constraints[s.constraint].Accepts(nil)
	}
	key := verdictKey{s.constraint, node.Name}
	if v, ok := w.verdicts[key]; ok && v.node == node {
		return v.accepted
	}
	accepted := w.constraints[s.constraint].Accepts(node)
	w.verdicts[key] = verdict{node, accepted}
	return accepted
}

// Add counts a waiting pod with its node constraint.
func (w *WaitingGPUPods) Add(resource v1.ResourceName, shape WaitingShape, constraint NodeConstraint) {
	w.total++
	shape.constraint = constraint.Key
	if constraint.Constrains() {
		w.constraints[constraint.Key] = constraint
	}
	shapes := w.byResource[resource]
	if shapes == nil {
		shapes = map[WaitingShape]int{}
		w.byResource[resource] = shapes
	}
	shapes[shape]++
}

// Remove uncounts a pod Add counted.
func (w *WaitingGPUPods) Remove(resource v1.ResourceName, shape WaitingShape, constraint NodeConstraint) {
	w.total--
	shape.constraint = constraint.Key
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
	// Node is matched against the waiting pods' constraints.
	Node                    *v1.Node
	Resource                v1.ResourceName
	Units, MilliCPU, Memory int64
}

// Stranded says whether the node's free units are stranded while these pods
// wait, and of which kind. Only a pod whose constraint accepts the node
// counts: free units are stranded when such a pod waits and none of those
// that want the node's resource fits its free units, CPU and memory. A pod
// pinned elsewhere strands nothing here; one pinned by a label the node
// would have only in another mode is not counted for it either.
func (w *WaitingGPUPods) Stranded(n FreeOnNode) (StrandedKind, bool) {
	if w.total == 0 || n.Resource == "" || n.Units <= 0 {
		return 0, false
	}
	wanted, unitsWould := false, false
	for s := range w.byResource[n.Resource] {
		if !w.accepts(s, n.Node) {
			continue
		}
		wanted = true
		if s.Units > n.Units {
			continue
		}
		if s.MilliCPU <= n.MilliCPU && s.Memory <= n.Memory {
			return 0, false
		}
		unitsWould = true
	}
	switch {
	case unitsWould:
		return StrandedCPUMemory, true
	case wanted:
		return StrandedFragmentation, true
	}
	for resource, shapes := range w.byResource {
		if resource == n.Resource {
			continue
		}
		for s := range shapes {
			if w.accepts(s, n.Node) {
				return StrandedMode, true
			}
		}
	}
	return 0, false
}
