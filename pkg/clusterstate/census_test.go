package clusterstate

import (
	"maps"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// The census follows every change of the entries: after each step it equals
// a census counted afresh from them, and the mode counts are what the nodes
// run.
func TestCensusFollowsTheEntries(t *testing.T) {
	tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	enabled := argsPolicy()
	enabled.Enabled = true
	a10 := map[string]string{"nvidia.com/GA102GL_A10": "2"}
	for _, step := range []struct {
		name   string
		change func()
		// modes are the GPU nodes per mode (container, vm-passthrough, vm-vgpu).
		modes                   [3]int
		ignoredLabels, draNodes int
	}{
		{name: "a container node", change: func() { tr.UpsertNode(node("c", "1", "container", map[string]string{"nvidia.com/gpu": "4"})) }, modes: [3]int{1, 0, 0}},
		{name: "a passthrough node while sandbox workloads are disabled", change: func() { tr.UpsertNode(node("pt", "1", "vm-passthrough", a10)) },
			modes: [3]int{2, 0, 0}, ignoredLabels: 1},
		{name: "sandbox workloads enabled", change: func() { tr.SetPolicy(&enabled) }, modes: [3]int{1, 1, 0}},
		{name: "the container node relabelled", change: func() {
			tr.UpsertNode(node("c", "2", "vm-passthrough", map[string]string{"nvidia.com/gpu": "0", "nvidia.com/GA102GL_A10": "4"}))
		}, modes: [3]int{0, 2, 0}},
		{name: "a DRA node", change: func() {
			tr.UpsertNode(node("dra", "1", "", nil))
			tr.UpsertResourceSlice(dradevices.DriverSlice("dra", 2))
		}, modes: [3]int{0, 2, 0}, draNodes: 1},
		{name: "the passthrough node deleted", change: func() { tr.DeleteNode("pt") }, modes: [3]int{0, 1, 0}, draNodes: 1},
	} {
		step.change()
		tr.mu.RLock()
		fresh := newCensus()
		for _, e := range tr.entries {
			fresh.add(e, 1)
		}
		kept := tr.census
		tr.mu.RUnlock()
		if fresh.modes != kept.modes || fresh.ignoredLabels != kept.ignoredLabels || fresh.draNodes != kept.draNodes ||
			!maps.EqualFunc(fresh.advertisers, kept.advertisers, func(a, b map[string]struct{}) bool { return maps.Equal(a, b) }) ||
			!maps.EqualFunc(fresh.byHardware, kept.byHardware, func(a, b map[string]*NodeEntry) bool { return maps.Equal(a, b) }) {
			t.Fatalf("%s: kept census %+v, counted afresh %+v", step.name, kept, fresh)
		}
		modes, ignored, dra := tr.ModeCounts()
		got := [3]int{modes[0].Nodes, modes[1].Nodes, modes[2].Nodes}
		if got != step.modes || ignored != step.ignoredLabels || dra != step.draNodes {
			t.Errorf("%s: nodes per mode %v, ignored labels %d, DRA nodes %d; want %v, %d, %d", step.name, got, ignored, dra, step.modes, step.ignoredLabels, step.draNodes)
		}
	}
	var advertisers, withHardware []string
	tr.EachAdvertiser("nvidia.com/GA102GL_A10", func(node string, _ *NodeEntry) { advertisers = append(advertisers, node) })
	tr.EachNodeWithHardwareFor(gpuworkload.ResourceGPU, func(e *NodeEntry) { withHardware = append(withHardware, e.State.Name) })
	if !slices.Equal(advertisers, []string{"c"}) || !slices.Equal(withHardware, []string{"c"}) {
		t.Errorf("A10 advertisers %v, nodes with GPUs for nvidia.com/gpu %v; want [c] and [c]", advertisers, withHardware)
	}
}

// The tracker tells its listener when a node starts to advertise a GPU
// resource, not when a node changes and advertises what it did; the set a
// reader got stays as it was while later ones follow the change.
func TestAdvertisersAndTheirListener(t *testing.T) {
	tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	heard := 0
	tr.onAdvertised = func() { heard++ }
	gpu := map[string]string{"nvidia.com/gpu": "4"}
	tr.UpsertNode(node("c1", "1", "container", gpu))
	first := tr.Advertisers("nvidia.com/gpu")
	tr.UpsertNode(node("c1", "2", "container", map[string]string{"nvidia.com/gpu": "2"}))
	if heard != 1 {
		t.Errorf("heard %d times after a node started to advertise and changed its count, want once", heard)
	}
	tr.UpsertNode(node("c2", "1", "container", gpu))
	if heard != 2 {
		t.Errorf("heard %d times after a second advertiser, want twice", heard)
	}
	if !slices.Equal(sets.List(first), []string{"c1"}) {
		t.Errorf("the set read first changed to %v", sets.List(first))
	}
	if got := sets.List(tr.Advertisers("nvidia.com/gpu")); !slices.Equal(got, []string{"c1", "c2"}) {
		t.Errorf("advertisers %v, want c1 and c2", got)
	}
	tr.DeleteNode("c1")
	if got := sets.List(tr.Advertisers("nvidia.com/gpu")); !slices.Equal(got, []string{"c2"}) {
		t.Errorf("advertisers after c1 left %v, want c2", got)
	}
}
