package modecontroller

import (
	"k8s.io/component-base/metrics"
)

// Metrics are the controller's metrics on its /metrics (docs/metrics.md).
// The binary makes one set and registers it; each test makes its own.
type Metrics struct {
	conversionsStarted, conversionsSucceeded, conversionsRolledBack, conversionsAborted *metrics.Counter
	conversionEvictions, conversionMigrations, wouldConvert                             *metrics.Counter
	podsServedByConversions, conversionsInProgress                                      *metrics.Gauge
	conversionSeconds                                                                   *metrics.Histogram
}

// NewMetrics makes the controller's metrics, registered nowhere.
func NewMetrics() *Metrics {
	return &Metrics{
		conversionsStarted: metrics.NewCounter(&metrics.CounterOpts{
			Name: "gpu_workload_conversions_started_total", StabilityLevel: metrics.ALPHA,
			Help: "Node conversions the mode controller started (taint and record written).",
		}),
		conversionsSucceeded: metrics.NewCounter(&metrics.CounterOpts{
			Name: "gpu_workload_conversions_succeeded_total", StabilityLevel: metrics.ALPHA,
			Help: "Node conversions that ended with the node advertising the planned resource.",
		}),
		conversionsRolledBack: metrics.NewCounter(&metrics.CounterOpts{
			Name: "gpu_workload_conversions_rolled_back_total", StabilityLevel: metrics.ALPHA,
			Help: "Node conversions rolled back (old labels restored, taint removed): at the timeout, when a GPU pod reached the node after the relabel, or when the vGPU configuration failed.",
		}),
		conversionsAborted: metrics.NewCounter(&metrics.CounterOpts{
			Name: "gpu_workload_conversions_aborted_total", StabilityLevel: metrics.ALPHA,
			Help: "Node conversions abandoned before the relabel: GPU pods landed on the node, or under drain a check or an eviction refused a pod, or a VM there cannot live-migrate.",
		}),
		conversionEvictions: metrics.NewCounter(&metrics.CounterOpts{
			Name: "gpu_workload_conversion_evictions_total", StabilityLevel: metrics.ALPHA,
			Help: "Container GPU pods evicted through the Eviction API to convert their node (drain).",
		}),
		conversionMigrations: metrics.NewCounter(&metrics.CounterOpts{
			Name: "gpu_workload_conversion_migrations_total", StabilityLevel: metrics.ALPHA,
			Help: "Live migrations of VMs requested (VirtualMachineInstanceMigration) to convert their node (drain).",
		}),
		podsServedByConversions: metrics.NewGauge(&metrics.GaugeOpts{
			Name: "gpu_workload_pods_served_by_conversions", StabilityLevel: metrics.ALPHA,
			Help: "Running pods that use the resource their node was converted for (gpu-workload.io/converted-for).",
		}),
		conversionsInProgress: metrics.NewGauge(&metrics.GaugeOpts{
			Name: "gpu_workload_conversions_in_progress", StabilityLevel: metrics.ALPHA,
			Help: "Nodes with a conversion under way.",
		}),
		conversionSeconds: metrics.NewHistogram(&metrics.HistogramOpts{
			Name: "gpu_workload_conversion_duration_seconds", StabilityLevel: metrics.ALPHA,
			Help:    "Time from a conversion's start to the node advertising the planned resource.",
			Buckets: metrics.ExponentialBuckets(5, 2, 12),
		}),
		wouldConvert: metrics.NewCounter(&metrics.CounterOpts{
			Name: "gpu_workload_conversions_proposed_total", StabilityLevel: metrics.ALPHA,
			Help: "Conversions a dry run announced (once per node and proposal).",
		}),
	}
}

// Register adds the metrics with register: the binary gives its legacy
// registry's.
func (m *Metrics) Register(register func(...metrics.Registerable)) {
	register(m.conversionsStarted, m.conversionsSucceeded, m.conversionsRolledBack, m.conversionsAborted,
		m.conversionEvictions, m.conversionMigrations, m.conversionsInProgress, m.conversionSeconds, m.podsServedByConversions, m.wouldConvert)
}
