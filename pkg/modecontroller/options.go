package modecontroller

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Operation is how far the controller may go.
type Operation string

const (
	// DryRun changes nothing: an event on each node it would convert and
	// each pod it would convert it for, and the would-convert metric.
	DryRun Operation = "dryRun"
	// IdleOnly converts nodes that run no GPU pod.
	IdleOnly Operation = "idleOnly"
	// Drain also empties nodes that run container GPU pods, through the
	// Eviction API, where the empty nodes do not cover what waits. It
	// never stops a VM.
	Drain Operation = "drain"
)

// Operations are the accepted values of Options.Operation.
var Operations = []Operation{DryRun, IdleOnly, Drain}

// Options are the controller's policy. Defaults() gives the shipped ones:
// moving inventory between modes is a matter of hours, not seconds.
type Options struct {
	Operation Operation
	// Namespace holds the controller's Lease and its history ConfigMap.
	Namespace string
	// Interval is how often it plans and advances conversions.
	Interval time.Duration
	// DemandWait is how long a pod must have been unschedulable to count.
	DemandWait time.Duration
	// IdleFor is how long a node must have run no GPU pod to be converted;
	// under Drain it does not apply.
	IdleFor time.Duration
	// MaxConversions is how many conversions may start within Window,
	// counted from the history, whichever nodes they were on.
	MaxConversions int
	Window         time.Duration
	// NodeCooldown is how long after a node's conversion started or ended
	// no other conversion of that node starts.
	NodeCooldown time.Duration
	// ConversionTimeout is how long the operator has to make a relabelled
	// node advertise its new resource before the node is rolled back.
	ConversionTimeout time.Duration
	// Backoff is how long a rolled-back node is left alone.
	Backoff time.Duration

	// Demand: which pending pods may drive a conversion.
	// SchedulerNames are the schedulers whose pods count.
	SchedulerNames []string
	// PriorityCutoff: pods of a lower priority do not count
	// (cluster-autoscaler's --expendable-pods-priority-cutoff).
	PriorityCutoff int32
	// NamespaceSelector keeps the pods of the namespaces it matches; nil
	// keeps every namespace.
	NamespaceSelector labels.Selector

	// Drain, as kubectl drain and cluster-autoscaler's scale-down.
	// DeleteEmptyDirData lets pods with emptyDir volumes be evicted
	// (kubectl drain --delete-emptydir-data).
	DeleteEmptyDirData bool
	// SkipNodesWithSystemPods refuses kube-system pods without a
	// PodDisruptionBudget (cluster-autoscaler --skip-nodes-with-system-pods).
	SkipNodesWithSystemPods bool

	// Cluster health, as cluster-autoscaler's: no conversion starts while
	// more than max(OkTotalUnreadyCount, MaxTotalUnreadyPercentage% of the
	// nodes) are not Ready.
	MaxTotalUnreadyPercentage float64
	OkTotalUnreadyCount       int
}

// Defaults are the shipped options (manifests/install/controller.yaml).
func Defaults() Options {
	demand := advisor.DefaultDemandRules()
	return Options{
		Operation:                 DryRun,
		Namespace:                 "gpu-workload-scheduler",
		Interval:                  30 * time.Second,
		DemandWait:                10 * time.Minute,
		IdleFor:                   30 * time.Minute,
		MaxConversions:            2,
		Window:                    time.Hour,
		NodeCooldown:              time.Hour,
		ConversionTimeout:         gpuworkload.DefaultConversionTimeout,
		Backoff:                   6 * time.Hour,
		SchedulerNames:            demand.SchedulerNames,
		PriorityCutoff:            demand.PriorityCutoff,
		SkipNodesWithSystemPods:   true,
		MaxTotalUnreadyPercentage: 45,
		OkTotalUnreadyCount:       3,
	}
}

// ParseNamespaceSelector reads --demand-namespace-selector: a label
// selector on namespaces, "" for every namespace.
func ParseNamespaceSelector(s string) (labels.Selector, error) {
	if s == "" {
		return nil, nil
	}
	selector, err := metav1.ParseToLabelSelector(s)
	var out labels.Selector
	if err == nil {
		out, err = metav1.LabelSelectorAsSelector(selector)
	}
	if err != nil {
		return nil, fmt.Errorf("invalid options: %w", field.Invalid(field.NewPath("demand-namespace-selector"), s, err.Error()))
	}
	return out, nil
}

// Validate names each bad option by its flag.
func (o Options) Validate() error {
	var errs field.ErrorList
	valid := false
	for _, op := range Operations {
		valid = valid || o.Operation == op
	}
	if !valid {
		errs = append(errs, field.NotSupported(field.NewPath("operation"), o.Operation, Operations))
	}
	// A duration under a second is a typo (a wrong unit), and would turn
	// the hysteresis, the rate limit or the timeout off.
	for _, d := range []struct {
		name  string
		value time.Duration
		zero  bool
	}{
		{"interval", o.Interval, false},
		{"demand-wait", o.DemandWait, true},
		{"idle-for", o.IdleFor, true},
		{"window", o.Window, false},
		{"node-cooldown", o.NodeCooldown, true},
		{"conversion-timeout", o.ConversionTimeout, false},
		{"backoff", o.Backoff, true},
	} {
		switch {
		case d.value == 0 && d.zero:
		case d.value < time.Second:
			errs = append(errs, field.Invalid(field.NewPath(d.name), d.value.String(), minimumDuration(d.zero)))
		}
	}
	switch {
	case o.MaxConversions < 1:
		errs = append(errs, field.Invalid(field.NewPath("max-conversions"), o.MaxConversions, "must be at least 1; to stop conversions use --operation=dryRun"))
	case o.MaxConversions > maxHistory:
		errs = append(errs, field.Invalid(field.NewPath("max-conversions"), o.MaxConversions, fmt.Sprintf("must be at most %d, the starts the history keeps", maxHistory)))
	}
	for _, msg := range validation.IsDNS1123Label(o.Namespace) {
		errs = append(errs, field.Invalid(field.NewPath("lease-namespace"), o.Namespace, msg))
	}
	if len(o.SchedulerNames) == 0 {
		errs = append(errs, field.Required(field.NewPath("scheduler-name"), "name the scheduler whose pending pods may drive conversions (gpu-workload-scheduler)"))
	}
	for i, name := range o.SchedulerNames {
		if name == "" {
			errs = append(errs, field.Invalid(field.NewPath("scheduler-name").Index(i), name, "must not be empty"))
		}
	}
	if o.MaxTotalUnreadyPercentage < 0 || o.MaxTotalUnreadyPercentage > 100 {
		errs = append(errs, field.Invalid(field.NewPath("max-total-unready-percentage"), o.MaxTotalUnreadyPercentage, "must be between 0 and 100"))
	}
	if o.OkTotalUnreadyCount < 0 {
		errs = append(errs, field.Invalid(field.NewPath("ok-total-unready-count"), o.OkTotalUnreadyCount, "must not be negative"))
	}
	if err := errs.ToAggregate(); err != nil {
		return fmt.Errorf("invalid options: %w", err)
	}
	return nil
}

func minimumDuration(zeroAllowed bool) string {
	if zeroAllowed {
		return "must be 0 or at least 1s"
	}
	return "must be at least 1s"
}
