// Package clusterstate keeps what the scheduler plugins need to know about
// the cluster's GPU inventory: the sandbox policy (ClusterPolicy or args),
// KubeVirt's permittedHostDevices, the resulting resource classifier, and the
// GPU state of every node, all derived through pkg/gpuworkload.
package clusterstate

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/clock"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// NodeEntry is a node's GPU state as of one ResourceVersion and policy epoch.
type NodeEntry struct {
	ResourceVersion string
	Epoch           uint64
	State           *gpuworkload.NodeState
	// Converting caches State.Converting(): the tracker settles the state
	// with when it first saw the node unsettled, and computes the entry
	// again once the conversion timeout has passed since.
	Converting bool
	// Inventory is the node's GPUs apart from their mode (gpuworkload.NodeState.Inventory).
	Inventory gpuworkload.GPUInventory
	// ModeMismatch holds, per pod mode (index in gpuworkload.Modes), the
	// reason a pod of that mode cannot use this node, or "" if it can. They
	// are built with the entry so that Filter does not allocate.
	ModeMismatch [len(gpuworkload.Modes)]string
}

// Tracker is safe for concurrent use. Writers are informer handlers; readers
// are the plugins' scheduling cycles.
type Tracker struct {
	mu sync.RWMutex
	// cel keeps the DeviceClasses' and claims' compiled selectors.
	cel *dradevices.CELCache

	argsPolicy gpuworkload.SandboxPolicy
	policy     gpuworkload.SandboxPolicy
	// policyRead is false while a ClusterPolicy may exist that the tracker
	// has not read: from Watch until discovery says the CRD is not served or
	// its informer has synced. The args policy is only a guess until then.
	policyRead    bool
	configured    map[v1.ResourceName]gpuworkload.ResourceClass
	permitted     *gpuworkload.PermittedHostDevices
	classifier    *gpuworkload.Classifier
	reasonBuilder ModeMismatchReasons
	// epoch increases whenever policy or classification change, so that
	// entries computed before are recognised as stale.
	epoch uint64

	nodes map[string]*v1.Node
	// entries are computed from nodes; a nil entry is computed on first read.
	entries map[string]*NodeEntry
	// totals counts, per GPU resource a node advertises, the nodes by their
	// allocatable amount: its largest key is the largest request one node can take.
	totals map[v1.ResourceName]map[int64]int
	census census
	// onAdvertised hears when a node starts to advertise a GPU resource.
	onAdvertised func()

	dra draState

	conversionTimeout time.Duration
	clock             clock.WithDelayedExecution
	// unsettled are, per unsettled node, when its conversion started
	// (gpuworkload.UnsettledSince) and the timer that computes its entry
	// again when the conversion timeout passes, nil once it has.
	unsettled map[string]*unsettledNode
}

type unsettledNode struct {
	since time.Time
	timer clock.Timer
}

// TrackerOptions are a tracker's settings beyond the policy and classes.
type TrackerOptions struct {
	// DRADriver publishes GPUs as devices; default dradevices.DRADriver.
	DRADriver string
	// ConversionTimeout: a node unsettled for longer is mismatched; default
	// gpuworkload.DefaultConversionTimeout.
	ConversionTimeout time.Duration
	// Clock times conversions; default the real clock.
	Clock clock.WithDelayedExecution
	// OnAdvertised runs after the tracker saw a node start to advertise a
	// GPU resource: scheduling cycles narrowed to the advertisers before
	// (Advertisers) did not look at it.
	OnAdvertised func()
}

// ModeMismatchReasons builds the reason a node in one mode gives a pod that
// needs another. The plugin supplies it so that reason strings stay in one place.
type ModeMismatchReasons func(node *gpuworkload.NodeState, podMode gpuworkload.Mode) string

// NewTracker starts from the args policy and explicit classes, and reads
// GPUs from the ResourceSlices of opts.DRADriver.
func NewTracker(argsPolicy gpuworkload.SandboxPolicy, configured map[v1.ResourceName]gpuworkload.ResourceClass, reasons ModeMismatchReasons,
	opts TrackerOptions) *Tracker {
	t := &Tracker{
		cel:               dradevices.NewCELCache(),
		argsPolicy:        argsPolicy,
		policy:            argsPolicy,
		policyRead:        true,
		configured:        configured,
		reasonBuilder:     reasons,
		nodes:             map[string]*v1.Node{},
		entries:           map[string]*NodeEntry{},
		totals:            map[v1.ResourceName]map[int64]int{},
		dra:               newDRAState(cmp.Or(opts.DRADriver, dradevices.DRADriver)),
		conversionTimeout: cmp.Or(opts.ConversionTimeout, gpuworkload.DefaultConversionTimeout),
		clock:             opts.Clock,
		unsettled:         map[string]*unsettledNode{},
		onAdvertised:      opts.OnAdvertised,
	}
	if t.clock == nil {
		t.clock = clock.RealClock{}
	}
	t.rebuildLocked()
	return t
}

// Policy is the sandbox policy in force.
func (t *Tracker) Policy() gpuworkload.SandboxPolicy {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.policy
}

// Classifier is the classifier in force. It is immutable; a change replaces it.
func (t *Tracker) Classifier() *gpuworkload.Classifier {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.classifier
}

// PolicyRead reports whether the policy in force was read from the cluster,
// or whether no ClusterPolicy can exist; false while Watch has not found out.
func (t *Tracker) PolicyRead() bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.policyRead
}

// AwaitPolicy marks the policy as not read yet: Watch calls it before it
// looks for the ClusterPolicy.
func (t *Tracker) AwaitPolicy() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.policyRead = false
}

// markPolicyRead records that the policy is known; it reports whether it was not before.
func (t *Tracker) markPolicyRead() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := t.policyRead
	t.policyRead = true
	return !was
}

// SetPolicy replaces the ClusterPolicy-derived policy; nil returns to the args policy.
// It reports whether anything changed.
func (t *Tracker) SetPolicy(policy *gpuworkload.SandboxPolicy) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	next := t.argsPolicy
	if policy != nil {
		next = *policy
	}
	if next == t.policy {
		return false
	}
	t.policy = next
	t.rebuildLocked()
	return true
}

// SetPermitted replaces KubeVirt's permittedHostDevices (nil: none known).
func (t *Tracker) SetPermitted(permitted *gpuworkload.PermittedHostDevices) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if samePermitted(t.permitted, permitted) {
		return false
	}
	t.permitted = permitted
	t.rebuildLocked()
	return true
}

func samePermitted(a, b *gpuworkload.PermittedHostDevices) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Source == b.Source && slices.Equal(a.PCIHostDevices, b.PCIHostDevices) && slices.Equal(a.MediatedDevices, b.MediatedDevices)
}

// rebuildLocked recomputes the classifier and invalidates every entry.
func (t *Tracker) rebuildLocked() {
	nodes := make([]*v1.Node, 0, len(t.nodes))
	for _, n := range t.nodes {
		nodes = append(nodes, n)
	}
	t.classifier = gpuworkload.NewClassifier(gpuworkload.ClassifierConfig{Configured: t.configured, Permitted: t.permitted}, t.policy, nodes)
	t.epoch++
	t.totals = map[v1.ResourceName]map[int64]int{}
	t.entries, t.census = map[string]*NodeEntry{}, newCensus()
	for name, n := range t.nodes {
		t.setEntryLocked(name, t.computeLocked(n))
		t.countLocked(n, 1)
	}
}

// UpsertNode records a node added or updated, and tells the OnAdvertised
// listener when the node now advertises a GPU resource it did not, or the
// classification changed.
func (t *Tracker) UpsertNode(node *v1.Node) {
	t.mu.Lock()
	advertisesMore := t.upsertNodeLocked(node)
	listener := t.onAdvertised
	t.mu.Unlock()
	if advertisesMore && listener != nil {
		listener()
	}
}

func (t *Tracker) upsertNodeLocked(node *v1.Node) (advertisesMore bool) {
	old, had := t.nodes[node.Name]
	oldEvidence := ""
	if had {
		t.countLocked(old, -1)
		oldEvidence = t.classEvidenceLocked(old)
	}
	t.nodes[node.Name] = node
	if t.classEvidenceLocked(node) != oldEvidence {
		t.rebuildLocked()
		return true
	}
	advertisesMore = t.setEntryLocked(node.Name, t.computeLocked(node))
	t.countLocked(node, 1)
	return advertisesMore
}

// DeleteNode forgets a node.
func (t *Tracker) DeleteNode(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	old, ok := t.nodes[name]
	if !ok {
		return
	}
	t.countLocked(old, -1)
	delete(t.nodes, name)
	t.setEntryLocked(name, nil)
	t.settledLocked(name)
	if t.classEvidenceLocked(old) != "" {
		t.rebuildLocked()
	}
}

// classEvidenceLocked is what the node tells the classifier: its honoured
// mode and the nvidia.com/ names it advertises that the naming rules do not
// place; "" when it tells nothing, as almost every node. A change of it, in
// any order of node events, rebuilds the classifier, so that a name stays
// classified by node mode exactly while every node advertising it has one mode.
func (t *Tracker) classEvidenceLocked(node *v1.Node) string {
	var names []string
	for name, q := range node.Status.Capacity {
		if !q.IsZero() && strings.HasPrefix(string(name), hardware.ResourceDomain) && !gpuworkload.RecognisedName(name) {
			names = append(names, string(name))
		}
	}
	if len(names) == 0 {
		return ""
	}
	decision := t.policy.EffectiveMode(node.Labels)
	if decision.Reason != gpuworkload.ReasonLabelHonoured {
		return ""
	}
	slices.Sort(names)
	return string(decision.Mode) + "=" + strings.Join(names, ",")
}

func (t *Tracker) countLocked(node *v1.Node, delta int) {
	for name, q := range node.Status.Allocatable {
		units, err := gpuworkload.Units(q)
		if err == nil && units > 0 && t.classifier.Classify(name).IsGPU() {
			byTotal := t.totals[name]
			if byTotal == nil {
				byTotal = map[int64]int{}
				t.totals[name] = byTotal
			}
			byTotal[units] += delta
			if byTotal[units] <= 0 {
				delete(byTotal, units)
			}
			if len(byTotal) == 0 {
				delete(t.totals, name)
			}
		}
	}
}

// computeLocked computes the node's entry, and times the node while it is
// unsettled: from when it was first seen so, until the entry has been
// computed again at the conversion timeout.
func (t *Tracker) computeLocked(node *v1.Node) *NodeEntry {
	now := t.clock.Now()
	u := t.unsettled[node.Name]
	since := gpuworkload.UnsettledSince(node, now)
	if u != nil {
		since = u.since
	}
	e := t.newEntry(node, t.policy, t.classifier, t.epoch, t.dra.nodes[node.Name] != nil, since, now)
	switch {
	case !e.State.Unsettled():
		t.settledLocked(node.Name)
	case u == nil:
		u = &unsettledNode{since: since}
		t.unsettled[node.Name] = u
		if !e.State.Mismatched {
			name := node.Name
			// In a goroutine of its own, as the real clock runs it: a fake
			// clock runs it holding its own lock, which timedOut takes.
			u.timer = t.clock.AfterFunc(u.since.Add(t.conversionTimeout).Sub(now), func() { go t.timedOut(name) })
		}
	}
	return e
}

// timedOut computes the entry of a node whose conversion timeout passed.
func (t *Tracker) timedOut(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	u, node := t.unsettled[name], t.nodes[name]
	if u == nil || node == nil {
		return
	}
	u.timer = nil
	t.setEntryLocked(name, t.computeLocked(node))
}

// settledLocked forgets the node's conversion.
func (t *Tracker) settledLocked(name string) {
	if u := t.unsettled[name]; u != nil && u.timer != nil {
		u.timer.Stop()
	}
	delete(t.unsettled, name)
}

func (t *Tracker) newEntry(node *v1.Node, policy gpuworkload.SandboxPolicy, classifier *gpuworkload.Classifier, epoch uint64, publishedByDRA bool,
	since, now time.Time) *NodeEntry {
	state := gpuworkload.NewNodeState(node, policy, classifier)
	if publishedByDRA {
		state.PublishedByDRA()
	}
	state.Settle(since, now, t.conversionTimeout)
	e := &NodeEntry{ResourceVersion: node.ResourceVersion, Epoch: epoch, State: state, Converting: state.Converting()}
	if state.GPUNode {
		e.Inventory = state.Inventory()
	}
	for i, mode := range gpuworkload.Modes {
		e.ModeMismatch[i] = t.reasonBuilder(state, mode)
	}
	return e
}

// Entry returns the state of the node object the scheduler holds. When the
// informer and the scheduler's snapshot disagree on the node's version, the
// entry is computed for the snapshot's object without being stored.
func (t *Tracker) Entry(node *v1.Node) *NodeEntry {
	t.mu.RLock()
	if e := t.entries[node.Name]; e != nil && e.ResourceVersion == node.ResourceVersion && e.Epoch == t.epoch {
		t.mu.RUnlock()
		return e
	}
	epoch, policy, classifier, publishedByDRA := t.epoch, t.policy, t.classifier, t.dra.nodes[node.Name] != nil
	now := t.clock.Now()
	since := gpuworkload.UnsettledSince(node, now)
	if u := t.unsettled[node.Name]; u != nil {
		since = u.since
	}
	t.mu.RUnlock()
	return t.newEntry(node, policy, classifier, epoch, publishedByDRA, since, now)
}

// Largest is the largest allocatable amount of the resource on one node; 0
// when no node advertises it.
func (t *Tracker) Largest(name v1.ResourceName) int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var largest int64
	for total := range t.totals[name] {
		largest = max(largest, total)
	}
	return largest
}

// AdvertisedByClass lists the GPU resources nodes advertise, by class, each
// list sorted: what a rejection message offers instead of a missing resource,
// without a walk over the nodes.
func (t *Tracker) AdvertisedByClass() map[gpuworkload.ResourceClass][]v1.ResourceName {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := map[gpuworkload.ResourceClass][]v1.ResourceName{}
	for name := range t.totals {
		class := t.classifier.Classify(name)
		out[class] = append(out[class], name)
	}
	for _, names := range out {
		slices.Sort(names)
	}
	return out
}

// LabelledNodes counts the nodes whose mode label names the mode, honoured or
// not. It is O(nodes), for rejection messages only.
func (t *Tracker) LabelledNodes(mode gpuworkload.Mode) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	count := 0
	for _, n := range t.nodes {
		if n.Labels[gpuworkload.LabelWorkloadConfig] == string(mode) {
			count++
		}
	}
	return count
}
