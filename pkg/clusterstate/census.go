package clusterstate

import (
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// ModeCount is how many GPU nodes run one mode, how many of them are
// converting their mode or vGPU profile, and how many are mismatched: stuck
// unsettled for longer than a conversion takes.
type ModeCount struct {
	Nodes, Converting, Mismatched int
}

// census is kept with the entries: what an explanation of an unschedulable
// pod counts over the whole cluster, so that it visits only the nodes that
// advertise, or have the hardware for, what the pod requests.
type census struct {
	modes [len(gpuworkload.Modes)]ModeCount
	// ignoredLabels are the GPU nodes whose mode label the policy ignores.
	ignoredLabels int
	// draNodes are the GPU nodes whose GPUs a DRA driver publishes.
	draNodes int
	// advertisers are, per GPU resource, the nodes that advertise it.
	advertisers map[v1.ResourceName]map[string]struct{}
	// published are copies of advertisers handed to scheduling cycles and
	// never changed: a change of a resource's advertisers drops its copy.
	published map[v1.ResourceName]sets.Set[string]
	// byHardware are, per gpuworkload.HardwareKeys key, the GPU nodes
	// filed under it, with their entries.
	byHardware map[string]map[string]*NodeEntry
}

func newCensus() census {
	return census{advertisers: map[v1.ResourceName]map[string]struct{}{}, published: map[v1.ResourceName]sets.Set[string]{}, byHardware: map[string]map[string]*NodeEntry{}}
}

// counts reports whether an entry belongs in the mode counts: a GPU node
// that advertises device-plugin resources or is not published by DRA.
func counts(e *NodeEntry) bool {
	s := e.State
	return s.GPUNode && (!s.DRA || len(s.Resources) > 0)
}

// add counts the entry in (delta 1) or out (delta -1).
func (c *census) add(e *NodeEntry, delta int) {
	s := e.State
	if s.GPUNode && s.DRA {
		c.draNodes += delta
	}
	if !counts(e) {
		return
	}
	if i := slices.Index(gpuworkload.Modes[:], s.Mode.Mode); i >= 0 {
		c.modes[i].Nodes += delta
		if e.Converting {
			c.modes[i].Converting += delta
		}
		if s.Mismatched {
			c.modes[i].Mismatched += delta
		}
	}
	if s.Mode.LabelIgnored() {
		c.ignoredLabels += delta
	}
	for _, r := range s.Resources {
		if r.Allocatable > 0 {
			file(c.advertisers, r.Name, s.Name, struct{}{}, delta)
		}
	}
	for _, key := range e.Inventory.HardwareKeys() {
		file(c.byHardware, key, s.Name, e, delta)
	}
}

// file adds (delta 1) or removes the node under key.
func file[K comparable, V any](index map[K]map[string]V, key K, node string, value V, delta int) {
	if delta < 0 {
		delete(index[key], node)
		if len(index[key]) == 0 {
			delete(index, key)
		}
		return
	}
	if index[key] == nil {
		index[key] = map[string]V{}
	}
	index[key][node] = value
}

// advertised are the resources the entry counts the node among the advertisers of.
func advertised(e *NodeEntry) []v1.ResourceName {
	if e == nil || !counts(e) {
		return nil
	}
	var out []v1.ResourceName
	for _, r := range e.State.Resources {
		if r.Allocatable > 0 {
			out = append(out, r.Name)
		}
	}
	return out
}

// setEntryLocked replaces the node's entry (nil: forgets it) and keeps the
// census with it. It reports whether the node now advertises a resource it
// did not: pods narrowed to the advertisers before may fit there.
func (t *Tracker) setEntryLocked(node string, e *NodeEntry) (advertisesMore bool) {
	old := t.entries[node]
	before, after := advertised(old), advertised(e)
	for _, r := range after {
		if !slices.Contains(before, r) {
			advertisesMore = true
			delete(t.census.published, r)
		}
	}
	for _, r := range before {
		if !slices.Contains(after, r) {
			delete(t.census.published, r)
		}
	}
	if old != nil {
		t.census.add(old, -1)
	}
	if e == nil {
		delete(t.entries, node)
		return advertisesMore
	}
	t.entries[node] = e
	t.census.add(e, 1)
	return advertisesMore
}

// Advertisers are the nodes that advertise r, as the tracker last saw them.
// The set is never changed once returned, so that a scheduling cycle can
// hand it to the framework (PreFilterResult) while informers go on.
func (t *Tracker) Advertisers(r v1.ResourceName) sets.Set[string] {
	t.mu.RLock()
	s, ok := t.census.published[r]
	t.mu.RUnlock()
	if ok {
		return s
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.census.published[r]; ok {
		return s
	}
	s = sets.KeySet(t.census.advertisers[r])
	t.census.published[r] = s
	return s
}

// ModeCounts are the GPU nodes per mode (index in gpuworkload.Modes), those
// whose mode label the policy ignores, and those a DRA driver publishes.
func (t *Tracker) ModeCounts() (modes [len(gpuworkload.Modes)]ModeCount, ignoredLabels, draNodes int) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.census.modes, t.census.ignoredLabels, t.census.draNodes
}

// EachAdvertiser calls f with every node that advertises r, and its entry. f runs under
// the tracker's read lock and must not call the tracker.
func (t *Tracker) EachAdvertiser(r v1.ResourceName, f func(node string, e *NodeEntry)) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for node := range t.census.advertisers[r] {
		f(node, t.entries[node])
	}
}

// EachNodeWithHardwareFor calls f with every GPU node whose GPUs serve r in
// some mode or vGPU profile (gpuworkload.HardwareKeysFor), and with others
// filed under the same keys: f checks with the entry's Inventory. A node may
// come more than once. f runs under the tracker's read lock and must not
// call the tracker.
func (t *Tracker) EachNodeWithHardwareFor(r v1.ResourceName, f func(*NodeEntry)) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for _, key := range gpuworkload.HardwareKeysFor(r) {
		for _, e := range t.census.byHardware[key] {
			f(e)
		}
	}
}

// EachDRANode calls f with every GPU node a DRA driver publishes, its
// devices and their availability, as they were when it was called.
func (t *Tracker) EachDRANode(f func(node string, devices *dradevices.DRANode, available *dradevices.DRAAvailability)) {
	// f may evaluate a claim's CEL selectors on every device: it runs on a
	// snapshot, without the lock, so that the informers' updates never wait
	// for it. The tracker replaces a node's devices and availability rather
	// than change them, so the snapshot's stay as they were.
	type draNode struct {
		name      string
		devices   *dradevices.DRANode
		available *dradevices.DRAAvailability
	}
	t.mu.RLock()
	nodes := make([]draNode, 0, len(t.dra.nodes))
	for name, devices := range t.dra.nodes {
		if e := t.entries[name]; e != nil && e.State.GPUNode && e.State.DRA {
			nodes = append(nodes, draNode{name, devices, t.dra.availability[name]})
		}
	}
	t.mu.RUnlock()
	for _, n := range nodes {
		f(n.name, n.devices, n.available)
	}
}
