package advisor

import (
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// DemandRules say which pending pods may drive a conversion. A pod that
// any user can create must not be able to steer which node converts, or,
// under the mode controller's drain, evict other tenants' pods: so only
// pods this scheduler schedules count, not gated or being deleted (they
// are not waiting for a node), above cluster-autoscaler's expendable
// priority cut-off, in the namespaces the operator chose.
type DemandRules struct {
	// SchedulerNames are the schedulers whose pods count.
	SchedulerNames []string
	// PriorityCutoff: pods of a lower priority do not count
	// (cluster-autoscaler's --expendable-pods-priority-cutoff).
	PriorityCutoff int32
	// Namespace says whether a namespace's pods count; nil counts every
	// namespace.
	Namespace func(string) bool
}

// DefaultDemandRules count the pods of gpu-workload-scheduler at
// cluster-autoscaler's default cut-off, -10, in every namespace.
func DefaultDemandRules() DemandRules {
	return DemandRules{SchedulerNames: []string{"gpu-workload-scheduler"}, PriorityCutoff: -10}
}

// Excludes says why a pending pod does not count as demand; "" when it does.
func (r DemandRules) Excludes(p *v1.Pod) string {
	var priority int32
	if p.Spec.Priority != nil {
		priority = *p.Spec.Priority
	}
	switch {
	case p.DeletionTimestamp != nil:
		return "it is being deleted"
	case len(p.Spec.SchedulingGates) > 0:
		gates := make([]string, len(p.Spec.SchedulingGates))
		for i, g := range p.Spec.SchedulingGates {
			gates[i] = g.Name
		}
		return fmt.Sprintf("it is held by scheduling gates (%s), not waiting for a node", strings.Join(gates, ", "))
	case !slices.Contains(r.SchedulerNames, p.Spec.SchedulerName):
		return fmt.Sprintf("its schedulerName %+q is not one planned for (%s)", p.Spec.SchedulerName, strings.Join(r.SchedulerNames, ", "))
	case priority < r.PriorityCutoff:
		return fmt.Sprintf("its priority %d is below the cut-off %d", priority, r.PriorityCutoff)
	case r.Namespace != nil && !r.Namespace(p.Namespace):
		return fmt.Sprintf("its namespace %s is not selected", p.Namespace)
	}
	return ""
}
