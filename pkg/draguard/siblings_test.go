package draguard

import (
	"slices"
	"testing"

	resourceapi "k8s.io/api/resource/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// One node, two GPUs, each published as gpu-N and gpu-vfio-N; gpu-2 consumes
// shared counters, so the allocator already keeps it apart; a GPU in MIG
// mode has two MIG devices with its PCI bus ID, independent of each other.
func lookup() SiblingLookup {
	lookup, _ := lookupNode()
	return lookup
}

func lookupNode() (SiblingLookup, *gpuworkload.DRANode) {
	node := gpuworkload.NewDRANode([]gpuworkload.DRADevice{
		{Pool: "n1", Name: "gpu-3-mig-1g5gb-0", Type: "mig", Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3e:00.0"},
		{Pool: "n1", Name: "gpu-3-mig-1g5gb-1", Type: "mig", Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3e:00.0"},
		{Pool: "n1", Name: "gpu-0", Type: "gpu", Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3b:00.0"},
		{Pool: "n1", Name: "gpu-vfio-0", Type: "vfio", Class: gpuworkload.ClassPassthroughGPU, PCIBusID: "0000:3b:00.0"},
		{Pool: "n1", Name: "gpu-1", Type: "gpu", Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3c:00.0"},
		{Pool: "n1", Name: "gpu-vfio-1", Type: "vfio", Class: gpuworkload.ClassPassthroughGPU, PCIBusID: "0000:3c:00.0"},
		{Pool: "n1", Name: "gpu-2", Type: "gpu", Class: gpuworkload.ClassContainerGPU, PCIBusID: "0000:3d:00.0", Counted: true},
		{Pool: "n1", Name: "gpu-vfio-2", Type: "vfio", Class: gpuworkload.ClassPassthroughGPU, PCIBusID: "0000:3d:00.0", Counted: true},
	})
	return func(pool, device string) (string, []gpuworkload.DRADevice) { return "n1", node.Siblings(pool, device) }, node
}

func TestConflicts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		allocs []Allocation
		want   int
	}{
		{name: "two GPUs, one half each", allocs: []Allocation{{Claim: "a", Pool: "n1", Device: "gpu-0"}, {Claim: "b", Pool: "n1", Device: "gpu-vfio-1"}}},
		{name: "both halves of one GPU", allocs: []Allocation{{Claim: "a", Written: true, Pool: "n1", Device: "gpu-0"}, {Pool: "n1", Device: "gpu-vfio-0"}}, want: 1},
		{name: "MIG devices of one GPU are independent", allocs: []Allocation{{Claim: "a", Written: true, Pool: "n1", Device: "gpu-3-mig-1g5gb-0"}, {Pool: "n1", Device: "gpu-3-mig-1g5gb-1"}}},
		{name: "counted devices are the allocator's business", allocs: []Allocation{{Claim: "a", Pool: "n1", Device: "gpu-2"}, {Claim: "b", Pool: "n1", Device: "gpu-vfio-2"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Conflicts(tc.allocs, lookup()); len(got) != tc.want {
				t.Fatalf("conflicts %v, want %d", got, tc.want)
			}
		})
	}
}

func TestDesiredRules(t *testing.T) {
	rules := DesiredRules([]Allocation{{Claim: "a", Pool: "n1", Device: "gpu-0"}, {Claim: "b", Pool: "n1", Device: "gpu-2"}}, lookup(), gpuworkload.DRADriver)
	if len(rules) != 1 {
		t.Fatalf("%d rules, want one: for gpu-vfio-0, and none for the counted gpu-2", len(rules))
	}
	for _, r := range rules {
		sel := r.Spec.DeviceSelector
		if *sel.Driver != gpuworkload.DRADriver || *sel.Pool != "n1" || *sel.Device != "gpu-vfio-0" || r.Spec.Taint.Effect != resourceapi.DeviceTaintEffectNoSchedule ||
			r.Labels[ManagedByLabel] != ManagedBy || r.Spec.Taint.Value != "gpu-0" {
			t.Fatalf("rule %+v: want gpu-vfio-0 tainted NoSchedule for gpu-0, labelled as ours", r)
		}
		again := DesiredRules([]Allocation{{Claim: "a", Pool: "n1", Device: "gpu-0"}}, lookup(), gpuworkload.DRADriver)[r.Name]
		if again == nil || !sameRule(again, r) {
			t.Fatal("rule names and contents are deterministic, so that a new leader adopts them")
		}
	}
}

// Two allocations of one GPU not yet written: one is about to be rejected,
// and neither may leave a rule that would block the whole GPU after it.
func TestDesiredRulesSkipConflictingAllocationsInFlight(t *testing.T) {
	if rules := DesiredRules([]Allocation{{Pool: "n1", Device: "gpu-1"}, {Pool: "n1", Device: "gpu-vfio-1"}}, lookup(), gpuworkload.DRADriver); len(rules) != 0 {
		t.Fatalf("%d rules for a conflict in flight, want none", len(rules))
	}
	rules := DesiredRules([]Allocation{{Claim: "a", Written: true, Pool: "n1", Device: "gpu-1"}, {Pool: "n1", Device: "gpu-vfio-1"}}, lookup(), gpuworkload.DRADriver)
	if len(rules) != 1 {
		t.Fatalf("%d rules, want the written allocation's sibling tainted", len(rules))
	}
	for _, r := range rules {
		if *r.Spec.DeviceSelector.Device != "gpu-vfio-1" {
			t.Fatalf("tainted %s, want gpu-vfio-1", *r.Spec.DeviceSelector.Device)
		}
	}
}

// Rules go only on the free other half of an allocated gpu or vfio device:
// never on a MIG slice, and never on a device that is allocated itself, so a
// pair allocated before the guard ran keeps working and blocks nothing else.
func TestDesiredRulesOnlyOnTheFreeOtherHalf(t *testing.T) {
	for _, tc := range []struct {
		name   string
		allocs []Allocation
		want   []string
	}{
		{name: "a MIG slice taints nothing", allocs: []Allocation{{Claim: "a", Written: true, Pool: "n1", Device: "gpu-3-mig-1g5gb-0"}}},
		{name: "a pair that exists already", allocs: []Allocation{{Claim: "a", Written: true, Pool: "n1", Device: "gpu-0"}, {Claim: "b", Written: true, Pool: "n1", Device: "gpu-vfio-0"}}},
		{name: "a vfio device taints its gpu device", allocs: []Allocation{{Claim: "a", Written: true, Pool: "n1", Device: "gpu-vfio-1"}}, want: []string{"gpu-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range DesiredRules(tc.allocs, lookup(), gpuworkload.DRADriver) {
				got = append(got, *r.Spec.DeviceSelector.Device)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("rules on %v, want %v", got, tc.want)
			}
		})
	}
}
