package gpustranding

import (
	"cmp"
	"maps"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// DemandClass is one request size of a GPU resource, with one node
// constraint (and, for requests of one unit, one CPU band), as the
// scheduler has recently seen it: how often, and with how much CPU and
// memory.
type DemandClass struct {
	Units int64
	// Constraint keeps the class's pods to some nodes (a nodeSelector or
	// required node affinity on the GPU product); the zero value accepts any.
	Constraint poddemand.NodeConstraint
	// CPUBand is cpuBand of the class's requests: 0 for requests of more
	// than one unit.
	CPUBand int
	// Share is the class's part of the resource's recent requests; shares sum to 1.
	Share    float64
	MilliCPU float64
	Memory   float64
}

// Demand is the recent demand for each GPU resource.
type Demand map[v1.ResourceName]ResourceDemand

// ResourceDemand is the recent demand for one GPU resource, with what
// scoring derives from it computed once per request rather than per node.
type ResourceDemand struct {
	// Classes are the request classes, smallest first (compareClasses).
	Classes []DemandClass
	// Share is the resource's part of all recent GPU requests.
	Share float64
	// MilliCPUPerUnit and MemoryPerUnit average the classes by share.
	MilliCPUPerUnit, MemoryPerUnit float64
}

// newResourceDemand derives the averages of classes whose shares sum to 1.
func newResourceDemand(classes []DemandClass, share float64) ResourceDemand {
	d := ResourceDemand{Classes: classes, Share: share}
	for _, c := range classes {
		d.MilliCPUPerUnit += c.Share * c.MilliCPU / float64(c.Units)
		d.MemoryPerUnit += c.Share * c.Memory / float64(c.Units)
	}
	return d
}

// cpuBand is the power of two a request of one unit's CPU falls in
// (bits.Len64 of its millicores), 0 for larger requests. A node's free CPU
// decides, unit by unit, how many one-unit requests it holds, and their
// CPU varies most (1 to 32 CPUs on openb), so the class mean misjudges
// which units it leaves usable. A larger request is held by a node or not
// by its CPU and memory together: banded by CPU, a class mixes shapes whose
// memory differs, and its mean fits nodes most of its pods do not, or none
// most of its pods do (docs/scoring.md).
func cpuBand(units, milliCPU int64) int {
	if units != 1 {
		return 0
	}
	return bits.Len64(uint64(max(milliCPU, 0)))
}

// sameClass says whether o is of c's class: its size, constraint and band.
func (c DemandClass) sameClass(o DemandClass) bool {
	return c.Units == o.Units && c.Constraint.Key == o.Constraint.Key && c.CPUBand == o.CPUBand
}

// compareClasses orders classes smallest first, a size's classes by
// constraint and then band, so that classes of one size and constraint are
// neighbours.
func compareClasses(a, b DemandClass) int {
	return cmp.Or(cmp.Compare(a.Units, b.Units), cmp.Compare(a.Constraint.Key, b.Constraint.Key), cmp.Compare(a.CPUBand, b.CPUBand))
}

// DemandDecay is how much an observation weighs less with each later one of
// the same resource: the model remembers about the last 200 requests.
const DemandDecay = 0.995

// DemandModel learns the GPU requests scheduling attempts carry. A pod that
// waits is seen at each attempt, so demand that waits weighs more.
type DemandModel struct {
	mu      sync.Mutex
	weights map[v1.ResourceName][]DemandClass // Share holds the decayed count
	// resources holds each resource's decayed count over all requests.
	resources map[v1.ResourceName]float64
	current   atomic.Pointer[Demand]
	// stale says current misses observations. The copy is made when it is
	// read, once per scoring cycle, rather than at every observation: a pod
	// that fails Filter, as waiting pods do at each attempt, is observed but
	// never scored.
	stale atomic.Bool
}

// NewDemandModel starts with no demand known.
func NewDemandModel() *DemandModel {
	m := &DemandModel{weights: map[v1.ResourceName][]DemandClass{}, resources: map[v1.ResourceName]float64{}}
	m.current.Store(&Demand{})
	return m
}

// Observe records one request of units of a resource with the pod's CPU,
// memory and node constraint.
func (m *DemandModel) Observe(name v1.ResourceName, units, milliCPU, memory int64, constraint poddemand.NodeConstraint) {
	if units <= 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	classes := m.weights[name]
	key := DemandClass{Units: units, Constraint: constraint, CPUBand: cpuBand(units, milliCPU)}
	i := slices.IndexFunc(classes, key.sameClass)
	if i < 0 {
		classes = append(classes, key)
		slices.SortFunc(classes, compareClasses)
		i = slices.IndexFunc(classes, key.sameClass)
	}
	for j := range classes {
		classes[j].Share *= DemandDecay
	}
	c := &classes[i]
	c.MilliCPU = towards(c.MilliCPU, float64(milliCPU), 1/(c.Share+1))
	c.Memory = towards(c.Memory, float64(memory), 1/(c.Share+1))
	c.Share++
	m.weights[name] = classes
	for r := range m.resources {
		m.resources[r] *= DemandDecay
	}
	m.resources[name]++
	m.stale.Store(true)
}

// towards moves a running mean the part of the way to a new value its weight
// is. Moved by the difference, a mean of equal values stays exact: summed
// and divided again, it drifts by rounding above them, and a node whose
// free CPU equals a class's requests would no longer hold one.
func towards(mean, value, part float64) float64 {
	return mean + (value-mean)*part
}

// publishLocked replaces the readers' copy, so that scoring reads without locks.
func (m *DemandModel) publishLocked() {
	next := make(Demand, len(m.weights))
	// Summed in name order: float addition in map order would make scores,
	// and so placements, differ between runs.
	all := 0.0
	for _, name := range slices.Sorted(maps.Keys(m.resources)) {
		all += m.resources[name]
	}
	for name, classes := range m.weights {
		total := 0.0
		for _, c := range classes {
			total += c.Share
		}
		out := slices.Clone(classes)
		for i := range out {
			out[i].Share /= total
		}
		next[name] = newResourceDemand(out, m.resources[name]/all)
	}
	m.current.Store(&next)
}

// Pooled is the demand for a pool of GPUs that serves several resources,
// as a DRA node's free GPUs serve every resource a DeviceClass of the driver
// serves: their classes merged by size, constraint and band, each weighed by its
// resource's share. Resources are taken in name order, so that sums, and
// placements, are the same in every run.
func (d Demand) Pooled(serves func(v1.ResourceName) bool) ResourceDemand {
	var classes []DemandClass
	share := 0.0
	for _, name := range slices.Sorted(maps.Keys(d)) {
		r := d[name]
		if !serves(name) {
			continue
		}
		share += r.Share
		for _, c := range r.Classes {
			weight := c.Share * r.Share
			if weight <= 0 {
				continue
			}
			key := DemandClass{Units: c.Units, Constraint: c.Constraint, CPUBand: c.CPUBand}
			i := slices.IndexFunc(classes, key.sameClass)
			if i < 0 {
				classes = append(classes, key)
				i = len(classes) - 1
			}
			p := &classes[i]
			p.MilliCPU = towards(p.MilliCPU, c.MilliCPU, weight/(p.Share+weight))
			p.Memory = towards(p.Memory, c.Memory, weight/(p.Share+weight))
			p.Share += weight
		}
	}
	if share == 0 {
		return ResourceDemand{}
	}
	for i := range classes {
		classes[i].Share /= share
	}
	slices.SortFunc(classes, compareClasses)
	return newResourceDemand(classes, share)
}

// Current is the latest demand; callers must not modify it.
func (m *DemandModel) Current() Demand {
	if m.stale.Load() {
		m.mu.Lock()
		if m.stale.Load() {
			m.publishLocked()
			m.stale.Store(false)
		}
		m.mu.Unlock()
	}
	return *m.current.Load()
}
