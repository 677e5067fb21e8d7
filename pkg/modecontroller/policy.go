package modecontroller

import (
	"time"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
)

// The controller's decisions that need no cluster: the simulator replays
// them with these functions (pkg/sim), so that what it measures is what the
// controller does.

// DemandCounts says whether a pod unschedulable for waited counts as demand.
func (o Options) DemandCounts(waited time.Duration) bool { return waited >= o.DemandWait }

// IdleEnough says whether a node may be converted by how long it has been
// seen idle; seen is false for a node not seen idle at a pass. Under Drain
// idleness does not matter.
func (o Options) IdleEnough(idle time.Duration, seen bool) bool {
	return o.Operation == Drain || seen && idle >= o.IdleFor
}

// Cooling says whether a node whose last conversion ended sinceEnded ago
// is still in its cool-down: no conversion reverses one that just
// finished.
func (o Options) Cooling(sinceEnded time.Duration) bool { return sinceEnded < o.NodeCooldown }

// Budget is how many conversions may start, given how many started within
// the window.
func (o Options) Budget(startedInWindow int) int { return max(o.MaxConversions-startedInWindow, 0) }

// Starts are the relabels of the plan a budget lets start: the first ones,
// in the advisor's order.
func Starts(plan advisor.Plan, budget int) []advisor.Relabel {
	return plan.Relabels[:min(budget, len(plan.Relabels))]
}

// IdleSince remembers, pass by pass, since when each node has been seen
// running no GPU pod or VM. A node busy at a pass starts again from zero.
type IdleSince map[string]time.Time

// Observe records what one pass saw of the node.
func (s IdleSince) Observe(node string, idle bool, now time.Time) {
	if !idle {
		delete(s, node)
		return
	}
	if _, ok := s[node]; !ok {
		s[node] = now
	}
}

// For is how long the node has been seen idle; false when it was busy or
// not seen at the last pass.
func (s IdleSince) For(node string, now time.Time) (time.Duration, bool) {
	since, ok := s[node]
	return now.Sub(since), ok
}
