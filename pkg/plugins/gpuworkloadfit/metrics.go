package gpuworkloadfit

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inventory"
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
)

// MetricNames lists every metric the plugin serves, for the dashboard's tests.
var MetricNames = []string{MetricUnits, MetricStrandedUnits, MetricNodes, MetricEmptyNodes, MetricPendingPods, MetricUnschedulableAttempts,
	MetricDRASiblingConflicts}

// The gauges are counted when /metrics is scraped, from the informers'
// caches, so that scheduling cycles do no work for them.
var (
	unitsDesc = metrics.NewDesc(MetricUnits,
		"GPU units of a resource on the nodes of a mode, by state: allocatable, allocated, free, over-committed (allocated above a node's allocatable); for the devices of a DRA driver (resource <driver>/<type>), also tainted and sibling-in-use; the GPUs of DRA nodes under mode dra, resource <driver>.",
		[]string{"mode", "resource", "state"}, nil, metrics.ALPHA, "")
	strandedDesc = metrics.NewDesc(MetricStrandedUnits,
		"Free GPU units of a resource that cannot serve the GPU pods that wait, by kind: mode, cpu-memory, fragmentation; DRA nodes' free GPUs under mode dra, resource <driver>.",
		[]string{"mode", "resource", "kind"}, nil, metrics.ALPHA, "")
	nodesDesc = metrics.NewDesc(MetricNodes,
		"GPU nodes by mode (dra: GPUs published by a DRA driver) and state: ready, converting, mismatched (a check finding of error severity).",
		[]string{"mode", "state"}, nil, metrics.ALPHA, "")
	emptyNodesDesc = metrics.NewDesc(MetricEmptyNodes,
		"GPU nodes of a mode with no GPU unit allocated and no conversion under way.",
		[]string{"mode"}, nil, metrics.ALPHA, "")
	pendingPodsDesc = metrics.NewDesc(MetricPendingPods,
		"GPU pods without a node, by the mode and the resource (or DeviceClass) they need and the reason code of the scheduler's latest explanation (Unexplained: none yet).",
		[]string{"mode", "resource", "reason"}, nil, metrics.ALPHA, "")

	siblingConflictsDesc = metrics.NewDesc(MetricDRASiblingConflicts,
		"Physical GPUs whose gpu and vfio devices are allocated to two claims (the second fails on the node), by node. Served where the scheduler runs DRA.",
		[]string{"node"}, nil, metrics.ALPHA, "")

	rejections = metrics.NewCounterVec(&metrics.CounterOpts{
		Name:           MetricUnschedulableAttempts,
		Help:           "Scheduling attempts of GPU pods that found no node, by the reason code of the explanation.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"reason"})
)

// inventoryCollector counts the inventory of the scheduler's latest
// GPUWorkloadFit, at most once per inventoryMaxAge: at 5,000 nodes a count
// takes about 0.1 s of CPU, and every scraper (two Prometheus replicas,
// scheduler_perf's once-a-second gathering) would pay it again.
type inventoryCollector struct {
	metrics.BaseStableCollector
	plugin atomic.Pointer[GPUWorkloadFit]
	mu     sync.Mutex
	// last is the latest count, of plugin counted, at at.
	last struct {
		plugin  *GPUWorkloadFit
		at      time.Time
		metrics []metrics.Metric
	}
}

// inventoryMaxAge is how old the inventory a scrape gets may be.
const inventoryMaxAge = 5 * time.Second

var (
	collector       = &inventoryCollector{}
	registerMetrics sync.Once
	_               metrics.StableCollector = collector
	nodeStateLabels                         = [...]string{inventory.NodeReady, inventory.NodeConverting, inventory.NodeMismatched}
)

// serveMetrics registers the metrics in the registry kube-scheduler serves,
// once, and makes this plugin the one they count until ctx ends: a stopped
// scheduler's caches are no inventory.
func (pl *GPUWorkloadFit) serveMetrics(ctx context.Context) {
	registerMetrics.Do(func() {
		legacyregistry.MustRegister(rejections)
		legacyregistry.CustomMustRegister(collector)
	})
	pl.boundPods = inventory.NewBoundPods()
	collector.plugin.Store(pl)
	go func() {
		<-ctx.Done()
		collector.plugin.CompareAndSwap(pl, nil)
	}()
}

func (c *inventoryCollector) DescribeWithStability(ch chan<- *metrics.Desc) {
	for _, d := range []*metrics.Desc{unitsDesc, strandedDesc, nodesDesc, emptyNodesDesc, pendingPodsDesc, siblingConflictsDesc} {
		ch <- d
	}
}

func (c *inventoryCollector) CollectWithStability(ch chan<- metrics.Metric) {
	pl := c.plugin.Load()
	if pl == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last.plugin != pl || time.Since(c.last.at) >= inventoryMaxAge {
		c.last.plugin, c.last.at, c.last.metrics = pl, time.Now(), pl.inventoryMetrics()
	}
	for _, m := range c.last.metrics {
		ch <- m
	}
}

// inventoryMetrics counts the plugin's inventory as gauges; what cannot be
// counted is logged and left out.
func (pl *GPUWorkloadFit) inventoryMetrics() []metrics.Metric {
	var out []metrics.Metric
	report, err := pl.Inventory(context.Background())
	if err != nil {
		klog.Background().Error(err, "Cannot count the GPU inventory for /metrics: its gpu_workload_ gauges are left out of this scrape")
		return nil
	}
	gauge := func(d *metrics.Desc, value float64, labels ...string) {
		out = append(out, metrics.NewLazyConstMetric(d, metrics.GaugeValue, value, labels...))
	}
	for _, r := range report.Resources {
		mode, name := string(r.Mode), string(r.Resource)
		gauge(unitsDesc, float64(r.Allocatable), mode, name, "allocatable")
		gauge(unitsDesc, float64(r.Allocated), mode, name, "allocated")
		gauge(unitsDesc, float64(r.Free), mode, name, "free")
		if r.DRA {
			gauge(unitsDesc, float64(r.Tainted), mode, name, gpuworkload.DRADeviceTainted)
			gauge(unitsDesc, float64(r.SiblingInUse), mode, name, gpuworkload.DRADeviceSiblingInUse)
			continue
		}
		gauge(unitsDesc, float64(r.OverCommitted), mode, name, inventory.StateOverCommitted)
		gauge(unitsDesc, float64(r.Unavailable), mode, name, inventory.StateUnavailable)
		for _, kind := range gpuworkload.StrandedKindNames {
			gauge(strandedDesc, float64(r.Stranded[kind]), mode, name, kind)
		}
	}
	for _, m := range report.Modes {
		for i, count := range [...]int{m.Ready, m.Converting, m.Mismatched} {
			gauge(nodesDesc, float64(count), string(m.Mode), nodeStateLabels[i])
		}
		gauge(emptyNodesDesc, float64(m.Empty), string(m.Mode))
	}
	// Node constraints are the pods' own: a label for them would have no bound.
	pending := map[[3]string]int{}
	for _, p := range report.Pending {
		pending[[3]string{string(p.Mode), string(p.Resource), p.Reason}] += p.Pods
	}
	for labels, pods := range pending {
		gauge(pendingPodsDesc, float64(pods), labels[0], labels[1], labels[2])
	}
	if pl.claims == nil {
		return out
	}
	conflicts, err := pl.siblingConflicts()
	if err != nil {
		klog.Background().Error(err, "Cannot count the DRA sibling conflicts for /metrics: left out of this scrape", "metric", MetricDRASiblingConflicts)
		return out
	}
	perNode := map[string]int{}
	for _, c := range conflicts {
		perNode[c.Node]++
	}
	for node, n := range perNode {
		gauge(siblingConflictsDesc, float64(n), node)
	}
	return out
}

// siblingConflicts are the physical GPUs whose two devices written claims hold.
func (pl *GPUWorkloadFit) siblingConflicts() ([]drasiblings.Conflict, error) {
	claims, err := pl.handle.SharedDRAManager().ResourceClaims().List()
	if err != nil {
		return nil, err
	}
	return drasiblings.Conflicts(drasiblings.AllocationsOf(claims, pl.tracker.DRADriver()), pl.tracker.DRASiblings), nil
}

// Inventory counts the cluster's GPU inventory from the scheduler's caches:
// what the metrics report.
func (pl *GPUWorkloadFit) Inventory(ctx context.Context) (inventory.Report, error) {
	informers := pl.handle.SharedInformerFactory().Core().V1()
	nodes, err := informers.Nodes().Lister().List(labels.Everything())
	if err != nil {
		return inventory.Report{}, err
	}
	pods, err := informers.Pods().Lister().List(labels.Everything())
	if err != nil {
		return inventory.Report{}, err
	}
	pending := map[string]bool{}
	report := pl.InventoryOf(ctx, nodes, pods, func(p *v1.Pod) string {
		pending[string(p.UID)] = true
		e, _ := pl.explained.Load(p.UID)
		s, _ := e.(explained)
		return string(s.code)
	})
	// Pods deleted while they waited leave their last explanation behind.
	pl.explained.Range(func(uid, _ any) bool {
		if !pending[string(uid.(types.UID))] {
			pl.explained.Delete(uid)
		}
		return true
	})
	return report, nil
}

// InventoryOf counts the GPU inventory of the nodes and pods as the
// tracker sees them: the node states, the DRA devices by state, and the
// pending pods' claims. reasonOf is the reason code of a waiting pod's
// latest explanation. The metrics and `kubectl gpu-workload inventory`
// both count with it.
func (pl *GPUWorkloadFit) InventoryOf(ctx context.Context, nodes []*v1.Node, pods []*v1.Pod, reasonOf func(*v1.Pod) string) inventory.Report {
	classifier := pl.tracker.Classifier()
	return inventory.Compute(ctx, inventory.Input{
		Nodes: nodes,
		State: func(n *v1.Node) *gpuworkload.NodeState { return pl.tracker.Entry(n).State },
		Pods:  pods,
		Demand: func(p *v1.Pod) gpuworkload.PodDemand {
			demand := gpuworkload.NewPodDemand(p, classifier)
			if p.Spec.NodeName == "" && len(p.Spec.ResourceClaims) > 0 && pl.claims != nil {
				if _, err := pl.addClaims(p, &demand); err != nil {
					klog.Background().Error(err, "Cannot read a pending pod's claims: the inventory counts the pod without them", "pod", klog.KObj(p))
				}
			}
			return demand
		},
		DRADevices: pl.tracker.DRADeviceStatesAndSelection,
		DRADriver:  pl.tracker.DRADriver(),
		DRAServes: func(r v1.ResourceName) bool {
			_, ok := pl.tracker.DRAServed(r)
			return ok
		},
		ReasonOf:   reasonOf,
		Bound:      pl.boundPods,
		Classifier: classifier,
	})
}
