package sim

import (
	"slices"
	"time"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
)

// draGPUs is the resource a DRA node's free GPUs are counted under.
var draGPUs = dradevices.DRAGPUs(dradevices.DRADriver)

// Sample is the cluster after the events at Time.
type Sample struct {
	Time          time.Duration
	Stranded      [poddemand.NumStrandedKinds]int64
	EmptyGPUNodes int
	PendingPods   int
	// PendingUnits are the GPU units waiting pods request; PendingPinnedUnits
	// those of pods a node constraint keeps to some nodes.
	PendingUnits, PendingPinnedUnits int64
	UsedUnits                        int64
	// AllocatedGPUs counts GPUs in use, a vGPU instance as its share of
	// its GPU: what FGD's figures call GPUs allocated.
	AllocatedGPUs float64
}

// StrandedTotal sums the kinds.
func (s Sample) StrandedTotal() int64 {
	var sum int64
	for _, v := range s.Stranded {
		sum += v
	}
	return sum
}

// Summary is a run's metrics. Units are units of the advertised resources:
// a GPU, or a vGPU instance.
type Summary struct {
	GPUUnitsRequested int64   `json:"gpuUnitsRequested"`
	GPUUnitsPlaced    int64   `json:"gpuUnitsPlaced"`
	PlacedShare       float64 `json:"placedShare"`
	// StrandedAverage is the time average of stranded units by kind, and in total.
	StrandedAverage      map[string]float64 `json:"strandedAverage"`
	StrandedAverageTotal float64            `json:"strandedAverageTotal"`
	EmptyGPUNodesAverage float64            `json:"emptyGPUNodesAverage"`
	PendingPodsAverage   float64            `json:"pendingPodsAverage"`
	WaitMeanSeconds      float64            `json:"waitMeanSeconds"`
	WaitP95Seconds       float64            `json:"waitP95Seconds"`
	WaitMaxSeconds       float64            `json:"waitMaxSeconds"`
	UnplacedPods         int                `json:"unplacedPods"`
	UnplacedGPUPods      int                `json:"unplacedGPUPods"`
	// AllocationAtFirstFailure is the share of GPU units in use when a GPU
	// pod first could not be placed; absent when every GPU pod was placed at once.
	AllocationAtFirstFailure *float64 `json:"allocationAtFirstFailure,omitempty"`
	SimulatedSeconds         float64  `json:"simulatedSeconds"`
	// Reversals counts the advisor's relabels that took a node away from the
	// resource its previous relabel was for while pods requesting that
	// resource still waited: a conversion undone before its demand was served.
	Reversals int `json:"reversals"`
}

// Result is one policy's run.
type Result struct {
	Policy   string            `json:"policy"`
	Summary  Summary           `json:"summary"`
	Relabels []advisor.Relabel `json:"relabels,omitempty"`
	Series   []Sample          `json:"-"`
}

// metricsRecorder follows pending demand and samples the cluster after each event time.
type metricsRecorder struct {
	waiting *poddemand.WaitingGPUPods
	// cluster says which pods DRA GPUs serve: their free GPUs are stranded
	// against those, once per GPU, as the scheduler's metrics count them.
	cluster           *placement.Cluster
	pendingPods       int
	pendingUnits      int64
	pendingPinned     int64
	samples           []Sample
	firstFailureShare *float64
}

func newMetricsRecorder(cluster *placement.Cluster) *metricsRecorder {
	return &metricsRecorder{waiting: poddemand.NewWaitingGPUPods(), cluster: cluster}
}

func waitingShape(p placement.PodSpec) poddemand.WaitingShape {
	return poddemand.WaitingShape{Units: p.GPUCount, MilliCPU: p.MilliCPU, Memory: p.Memory}
}

func (m *metricsRecorder) addPending(p *simPod) {
	m.pendingPods++
	m.countPendingUnits(p, 1)
	if p.Spec.GPU != "" {
		m.waiting.Add(p.Spec.GPU, waitingShape(p.Spec), p.Constraint)
		if m.cluster.ServedByDRA(p.Spec.GPU) {
			m.waiting.Add(draGPUs, waitingShape(p.Spec), p.Constraint)
		}
	}
}

func (m *metricsRecorder) removePending(p *simPod) {
	m.pendingPods--
	m.countPendingUnits(p, -1)
	if p.Spec.GPU != "" {
		m.waiting.Remove(p.Spec.GPU, waitingShape(p.Spec), p.Constraint)
		if m.cluster.ServedByDRA(p.Spec.GPU) {
			m.waiting.Remove(draGPUs, waitingShape(p.Spec), p.Constraint)
		}
	}
}

func (m *metricsRecorder) countPendingUnits(p *simPod, sign int64) {
	m.pendingUnits += sign * p.Spec.GPUCount
	if p.Constraint.Constrains() {
		m.pendingPinned += sign * p.Spec.GPUCount
	}
}

func (m *metricsRecorder) firstFailure() {
	if m.firstFailureShare != nil {
		return
	}
	var used, total int64
	for _, n := range m.cluster.Nodes() {
		used += n.UsedUnits
		total += n.Units
	}
	share := 0.0
	if total > 0 {
		share = float64(used) / float64(total)
	}
	m.firstFailureShare = &share
}

func (m *metricsRecorder) sample(now time.Duration) {
	s := Sample{Time: now, PendingPods: m.pendingPods, PendingUnits: m.pendingUnits, PendingPinnedUnits: m.pendingPinned}
	for _, n := range m.cluster.Nodes() {
		if n.Spec.Inventory.GPUs > 0 && n.UsedUnits == 0 && !n.Converting {
			s.EmptyGPUNodes++
		}
		s.UsedUnits += n.UsedUnits
		if n.Units > 0 {
			s.AllocatedGPUs += float64(n.UsedUnits*n.Spec.Inventory.GPUs) / float64(n.Units)
		}
		free := poddemand.FreeOnNode{Node: n.Object, Resource: n.Resource, Units: n.Free(), MilliCPU: n.Spec.MilliCPU - n.UsedCPU, Memory: n.Spec.Memory - n.UsedMemory}
		if kind, ok := m.waiting.Stranded(free); ok {
			s.Stranded[kind] += n.Free()
		}
	}
	if last := len(m.samples) - 1; last >= 0 && m.samples[last].Time == now {
		m.samples[last] = s
		return
	}
	m.samples = append(m.samples, s)
}

func (m *metricsRecorder) result(pods []*simPod) *Result {
	var sum Summary
	end := time.Duration(0)
	if len(m.samples) > 0 {
		end = m.samples[len(m.samples)-1].Time
	}
	sum.SimulatedSeconds = end.Seconds()
	var waits []float64
	for _, p := range pods {
		if p.Spec.GPU != "" {
			sum.GPUUnitsRequested += p.Spec.GPUCount
		}
		if p.Node == nil {
			sum.UnplacedPods++
			if p.Spec.GPU != "" {
				sum.UnplacedGPUPods++
			}
			left := end
			if p.gaveUp {
				left = p.departure
			}
			waits = append(waits, (left - p.Spec.Arrival).Seconds())
			continue
		}
		if p.Spec.GPU != "" {
			sum.GPUUnitsPlaced += p.Spec.GPUCount
		}
		waits = append(waits, (p.placedAt - p.Spec.Arrival).Seconds())
	}
	if sum.GPUUnitsRequested > 0 {
		sum.PlacedShare = float64(sum.GPUUnitsPlaced) / float64(sum.GPUUnitsRequested)
	}
	if len(waits) > 0 {
		slices.Sort(waits)
		total := 0.0
		for _, w := range waits {
			total += w
		}
		sum.WaitMeanSeconds = total / float64(len(waits))
		sum.WaitP95Seconds = waits[(len(waits)*95-1)/100]
		sum.WaitMaxSeconds = waits[len(waits)-1]
	}
	var stranded [poddemand.NumStrandedKinds]float64
	var empty, pending float64
	average := func(value func(Sample) float64) float64 {
		if len(m.samples) == 1 || end == 0 {
			return value(m.samples[len(m.samples)-1])
		}
		area := 0.0
		for i := 0; i+1 < len(m.samples); i++ {
			area += value(m.samples[i]) * (m.samples[i+1].Time - m.samples[i].Time).Seconds()
		}
		return area / end.Seconds()
	}
	if len(m.samples) > 0 {
		for k := range stranded {
			stranded[k] = average(func(s Sample) float64 { return float64(s.Stranded[k]) })
		}
		empty = average(func(s Sample) float64 { return float64(s.EmptyGPUNodes) })
		pending = average(func(s Sample) float64 { return float64(s.PendingPods) })
	}
	sum.StrandedAverage = map[string]float64{}
	for k, v := range stranded {
		sum.StrandedAverage[poddemand.StrandedKindNames[k]] = v
		sum.StrandedAverageTotal += v
	}
	sum.EmptyGPUNodesAverage = empty
	sum.PendingPodsAverage = pending
	sum.AllocationAtFirstFailure = m.firstFailureShare
	return &Result{Summary: sum, Series: m.samples}
}
