package inventory

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/component-base/metrics"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// The GPU inventory's metrics on the scheduler's /metrics (docs/metrics.md).
const (
	MetricUnits                 = "gpu_workload_units"
	MetricStrandedUnits         = "gpu_workload_stranded_units"
	MetricNodes                 = "gpu_workload_nodes"
	MetricEmptyNodes            = "gpu_workload_empty_nodes"
	MetricPendingPods           = "gpu_workload_pending_pods"
	MetricUnschedulableAttempts = "gpu_workload_unschedulable_attempts_total"
	MetricDRASiblingConflicts   = "gpu_workload_dra_sibling_conflicts"
	MetricCardUnits             = "gpu_workload_card_units"
	MetricPinnedWaitingUnits    = "gpu_workload_pinned_waiting_units"
)

// The states of gpu_workload_card_units.
const (
	CardAllocatable    = "allocatable"
	CardHeldByUnpinned = "held-by-unpinned"
)

// gauge describes one of the gauges counted at each scrape.
type gauge struct {
	name, help string
	labels     []string
}

var (
	unitsGauge = gauge{MetricUnits,
		"GPU units of a resource on the nodes of a mode, by state: allocatable, allocated, free, over-committed (allocated above a node's allocatable); for the devices of a DRA driver (resource <driver>/<type>), also tainted and sibling-in-use; the GPUs of DRA nodes under mode dra, resource <driver>.",
		[]string{"mode", "resource", "state"}}
	strandedGauge = gauge{MetricStrandedUnits,
		"Free GPU units of a resource that cannot serve the GPU pods that wait, by kind: mode, cpu-memory, fragmentation; DRA nodes' free GPUs under mode dra, resource <driver>.",
		[]string{"mode", "resource", "kind"}}
	nodesGauge = gauge{MetricNodes,
		"GPU nodes by mode (dra: GPUs published by a DRA driver) and state: ready, converting, mismatched (a check finding of error severity).",
		[]string{"mode", "state"}}
	emptyNodesGauge = gauge{MetricEmptyNodes,
		"GPU nodes of a mode with no GPU unit allocated and no conversion under way.",
		[]string{"mode"}}
	pendingPodsGauge = gauge{MetricPendingPods,
		"GPU pods without a node, by the mode and the resource (or DeviceClass) they need and the reason code of the scheduler's latest explanation (Unexplained: none yet).",
		[]string{"mode", "resource", "reason"}}
	siblingConflictsGauge = gauge{MetricDRASiblingConflicts,
		"Physical GPUs whose gpu and vfio devices are allocated to two claims (the second fails on the node), by node. Served where the scheduler runs DRA.",
		[]string{"node"}}
	cardUnitsGauge = gauge{MetricCardUnits,
		"GPU units of the device-plugin nodes of a card (its product), by state: allocatable, held-by-unpinned (held by pods with neither nodeSelector nor required node affinity).",
		[]string{"card", "state"}}
	pinnedWaitingGauge = gauge{MetricPinnedWaitingUnits,
		"GPU units of the pods without a node whose node constraint accepts a node of the card (a pod accepting several cards counts under each).",
		[]string{"card"}}
	gauges = []gauge{unitsGauge, strandedGauge, nodesGauge, emptyNodesGauge, pendingPodsGauge, siblingConflictsGauge, cardUnitsGauge, pinnedWaitingGauge}

	descs = func() map[string]*metrics.Desc {
		out := map[string]*metrics.Desc{}
		for _, g := range gauges {
			out[g.name] = metrics.NewDesc(g.name, g.help, g.labels, nil, metrics.ALPHA, "")
		}
		return out
	}()
	nodeStateLabels = [...]string{NodeReady, NodeConverting, NodeMismatched}
)

// Source is what the metrics count: a scheduler's GPU cluster state.
type Source interface {
	Inventory(ctx context.Context) (Report, error)
	// SiblingConflicts is nil without DRA.
	SiblingConflicts() ([]drasiblings.Conflict, error)
}

// Metrics are the GPU metrics of a scheduler process: the binary builds
// them once and registers Collectors in the registry kube-scheduler serves;
// the scheduler's state counts through them while it runs (Serve).
type Metrics struct {
	rejections *metrics.CounterVec
	collector  *collector
}

// NewMetrics builds the metrics; nothing counts them until Serve.
func NewMetrics() *Metrics {
	return &Metrics{
		rejections: metrics.NewCounterVec(&metrics.CounterOpts{
			Name:           MetricUnschedulableAttempts,
			Help:           "Scheduling attempts of GPU pods that found no node, by the reason code of the explanation.",
			StabilityLevel: metrics.ALPHA,
		}, []string{"reason"}),
		collector: &collector{},
	}
}

// Register registers the metrics with registry (legacyregistry's).
func (m *Metrics) Register(register func(...metrics.Registerable), customRegister func(...metrics.StableCollector)) {
	register(m.rejections)
	customRegister(m.collector)
}

// Rejected counts an attempt of a GPU pod that found no node, by the
// reason code of its explanation.
func (m *Metrics) Rejected(code string) { m.rejections.WithLabelValues(code).Inc() }

// Serve makes source the one the gauges count until ctx ends: a stopped
// scheduler's caches are no inventory.
func (m *Metrics) Serve(ctx context.Context, source Source) {
	m.collector.source.Store(&source)
	context.AfterFunc(ctx, func() { m.collector.source.CompareAndSwap(&source, nil) })
}

// collector counts the inventory of the source served, at most once per
// maxAge: at 5,000 nodes a count takes about 0.1 s of CPU, and every
// scraper (two Prometheus replicas, scheduler_perf's once-a-second
// gathering) would pay it again.
type collector struct {
	metrics.BaseStableCollector
	source atomic.Pointer[Source]
	mu     sync.Mutex
	// last is the latest count, of source counted, at at.
	last struct {
		source  *Source
		at      time.Time
		metrics []metrics.Metric
	}
}

// maxAge is how old the inventory a scrape gets may be.
const maxAge = 5 * time.Second

var _ metrics.StableCollector = &collector{}

func (c *collector) DescribeWithStability(ch chan<- *metrics.Desc) {
	for _, g := range gauges {
		ch <- descs[g.name]
	}
}

func (c *collector) CollectWithStability(ch chan<- metrics.Metric) {
	source := c.source.Load()
	if source == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last.source != source || time.Since(c.last.at) >= maxAge {
		c.last.source, c.last.at, c.last.metrics = source, time.Now(), countGauges(*source)
	}
	for _, m := range c.last.metrics {
		ch <- m
	}
}

// countGauges counts the source's inventory; what cannot be counted is
// logged and left out.
func countGauges(source Source) []metrics.Metric {
	var out []metrics.Metric
	report, err := source.Inventory(context.Background())
	if err != nil {
		klog.Background().Error(err, "Cannot count the GPU inventory for /metrics: its gpu_workload_ gauges are left out of this scrape")
		return nil
	}
	emit := func(g gauge, value float64, labels ...string) {
		out = append(out, metrics.NewLazyConstMetric(descs[g.name], metrics.GaugeValue, value, labels...))
	}
	for _, r := range report.Resources {
		mode, name := string(r.Mode), string(r.Resource)
		emit(unitsGauge, float64(r.Allocatable), mode, name, "allocatable")
		emit(unitsGauge, float64(r.Allocated), mode, name, "allocated")
		emit(unitsGauge, float64(r.Free), mode, name, "free")
		emit(unitsGauge, float64(r.HeldByOtherSchedulers), mode, name, StateHeldByOtherSchedulers)
		if r.DRA {
			emit(unitsGauge, float64(r.Tainted), mode, name, dradevices.DRADeviceTainted)
			emit(unitsGauge, float64(r.SiblingInUse), mode, name, dradevices.DRADeviceSiblingInUse)
			continue
		}
		emit(unitsGauge, float64(r.OverCommitted), mode, name, StateOverCommitted)
		emit(unitsGauge, float64(r.Unavailable), mode, name, StateUnavailable)
		for _, kind := range poddemand.StrandedKindNames {
			emit(strandedGauge, float64(r.Stranded[kind]), mode, name, kind)
		}
	}
	for _, m := range report.Modes {
		for i, count := range [...]int{m.Ready, m.Converting, m.Mismatched} {
			emit(nodesGauge, float64(count), string(m.Mode), nodeStateLabels[i])
		}
		emit(emptyNodesGauge, float64(m.Empty), string(m.Mode))
	}
	for _, c := range report.Cards {
		emit(cardUnitsGauge, float64(c.Allocatable), c.Card, CardAllocatable)
		emit(cardUnitsGauge, float64(c.HeldByUnpinned), c.Card, CardHeldByUnpinned)
		emit(pinnedWaitingGauge, float64(c.PinnedUnitsWaiting), c.Card)
	}
	// Node constraints are the pods' own: a label for them would have no bound.
	pending := map[[3]string]int{}
	for _, p := range report.Pending {
		pending[[3]string{string(p.Mode), string(p.Resource), p.Reason}] += p.Pods
	}
	for labels, pods := range pending {
		emit(pendingPodsGauge, float64(pods), labels[0], labels[1], labels[2])
	}
	conflicts, err := source.SiblingConflicts()
	if err != nil {
		klog.Background().Error(err, "Cannot count the DRA sibling conflicts for /metrics: left out of this scrape", "metric", MetricDRASiblingConflicts)
		return out
	}
	perNode := map[string]int{}
	for _, c := range conflicts {
		perNode[c.Node]++
	}
	for node, n := range perNode {
		emit(siblingConflictsGauge, float64(n), node)
	}
	return out
}
