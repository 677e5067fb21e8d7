package sim

import (
	"bytes"
	"cmp"
	"context"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
)

func shippedOptions(t *testing.T) Options {
	t.Helper()
	opts, err := ShippedOptions()
	if err != nil {
		t.Fatal(err)
	}
	return opts
}

func quietContext(t *testing.T) context.Context {
	return klog.NewContext(t.Context(), logr.Discard())
}

func a10Node(t *testing.T, name string, mode gpuworkload.Mode, cpu string) placement.NodeSpec {
	t.Helper()
	inv, err := gpuworkload.NewGPUInventory(4, "A10", "")
	if err != nil {
		t.Fatal(err)
	}
	n := placement.NodeSpec{Name: name, MilliCPU: 64000, Memory: 256 << 30, Mode: mode, Inventory: inv}
	if cpu != "" {
		n.MilliCPU = mustMilli(cpu)
	}
	return n
}

func mustMilli(cpu string) int64 {
	var n int64
	for _, c := range cpu {
		n = n*10 + int64(c-'0')
	}
	return n * 1000
}

const (
	a10    = "nvidia.com/GA102GL_A10"
	a10Q12 = "nvidia.com/NVIDIA_A10-12Q"
)

// draNode is a node whose four A10s the DRA driver publishes.
func draNode(t *testing.T, name string) placement.NodeSpec {
	n := a10Node(t, name, "", "")
	n.DRA = true
	return n
}

func gpuPod(name string, arrival, departure time.Duration, gpu string, count, cpu int64) placement.PodSpec {
	return placement.PodSpec{Name: name, Arrival: arrival, Duration: departure - arrival, GPU: v1.ResourceName(gpu), GPUCount: count, MilliCPU: cpu * 1000, VM: gpu != "nvidia.com/gpu"}
}

func runOne(t *testing.T, s *Scenario, policy string, opts Options) *Result {
	t.Helper()
	policies, err := ScoringPoliciesByName(policy)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(quietContext(t), s, policies[0], opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func enabled() gpuworkload.SandboxPolicy {
	return gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer}
}

// csvScenario is the nodes and pods of CSV texts, read as their files
// are, with sandbox workloads enabled.
func csvScenario(t *testing.T, name, nodesCSV, podsCSV string) *Scenario {
	t.Helper()
	nodes, err := LoadNodes(writeFile(t, "nodes.csv", nodesCSV), inputlimit.Default)
	if err != nil {
		t.Fatal(err)
	}
	pods, err := LoadPods(writeFile(t, "pods.csv", podsCSV), inputlimit.Default)
	if err != nil {
		t.Fatal(err)
	}
	return &Scenario{Name: name, Nodes: nodes, Pods: pods, Policy: enabled()}
}

// TestStrandedKinds builds each kind of stranding on purpose and checks the
// time average: a second pod waits from 10 s to 100 s, the run ends at 200 s.
func TestStrandedKinds(t *testing.T) {
	opts := shippedOptions(t)
	for _, tc := range []struct {
		name  string
		nodes []placement.NodeSpec
		pods  []placement.PodSpec
		kind  poddemand.StrandedKind
		units int64
	}{
		{
			name:  "mode: container GPUs free while a VM waits",
			nodes: []placement.NodeSpec{a10Node(t, "pt", gpuworkload.ModePassthrough, ""), a10Node(t, "c", gpuworkload.ModeContainer, "")},
			pods:  []placement.PodSpec{gpuPod("vm-1", 0, 100*time.Second, a10, 4, 1), gpuPod("vm-2", 10*time.Second, 110*time.Second, a10, 4, 1)},
			kind:  poddemand.StrandedMode, units: 4,
		},
		{
			name:  "fragmentation: one GPU free, two wanted",
			nodes: []placement.NodeSpec{a10Node(t, "c", gpuworkload.ModeContainer, "")},
			pods:  []placement.PodSpec{gpuPod("big", 0, 100*time.Second, "nvidia.com/gpu", 3, 1), gpuPod("pair", 10*time.Second, 110*time.Second, "nvidia.com/gpu", 2, 1)},
			kind:  poddemand.StrandedFragmentation, units: 1,
		},
		{
			name:  "mode: a DRA node's GPUs free while a vGPU VM waits",
			nodes: []placement.NodeSpec{a10Node(t, "vgpu", gpuworkload.ModeVGPU, ""), draNode(t, "dra")},
			pods:  []placement.PodSpec{gpuPod("vgpu-1", 0, 100*time.Second, a10Q12, 8, 1), gpuPod("vgpu-2", 10*time.Second, 110*time.Second, a10Q12, 8, 1)},
			kind:  poddemand.StrandedMode, units: 4,
		},
		{
			name:  "fragmentation: a DRA node's one free GPU, two wanted by a VM",
			nodes: []placement.NodeSpec{draNode(t, "dra")},
			pods:  []placement.PodSpec{gpuPod("big", 0, 100*time.Second, "nvidia.com/gpu", 3, 1), gpuPod("vm-pair", 10*time.Second, 110*time.Second, a10, 2, 1)},
			kind:  poddemand.StrandedFragmentation, units: 1,
		},
		{
			name:  "cpu-memory: three GPUs free, no CPU left",
			nodes: []placement.NodeSpec{a10Node(t, "c", gpuworkload.ModeContainer, "16")},
			pods:  []placement.PodSpec{gpuPod("hog", 0, 100*time.Second, "nvidia.com/gpu", 1, 16), gpuPod("small", 10*time.Second, 110*time.Second, "nvidia.com/gpu", 1, 1)},
			kind:  poddemand.StrandedCPUMemory, units: 3,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runOne(t, &Scenario{Name: "t", Nodes: tc.nodes, Pods: tc.pods, Policy: enabled()}, GPUStrandingPolicy, opts)
			s := res.Summary
			want := float64(tc.units) * 90 / 200
			for k, name := range poddemand.StrandedKindNames {
				got := s.StrandedAverage[name]
				if poddemand.StrandedKind(k) == tc.kind && got != want || poddemand.StrandedKind(k) != tc.kind && got != 0 {
					t.Errorf("%s stranded average %v; want %v of kind %s only", name, got, want, poddemand.StrandedKindNames[tc.kind])
				}
			}
			if s.SimulatedSeconds != 200 || s.UnplacedGPUPods != 0 || s.WaitMaxSeconds != 90 {
				t.Errorf("summary %+v: want a 200 s run, every pod placed, the longest wait 90 s", s)
			}
			if s.AllocationAtFirstFailure == nil || *s.AllocationAtFirstFailure == 0 {
				t.Errorf("allocation at first failure %v, want the share in use at 10 s", s.AllocationAtFirstFailure)
			}
		})
	}
}

func TestDRANodeServesContainersAndVMs(t *testing.T) {
	s := &Scenario{Name: "t", Policy: enabled(),
		Nodes: []placement.NodeSpec{draNode(t, "dra")},
		Pods: []placement.PodSpec{
			gpuPod("container", 0, 100*time.Second, "nvidia.com/gpu", 2, 1),
			gpuPod("vm", 10*time.Second, 110*time.Second, a10, 2, 1),
			gpuPod("late", 20*time.Second, 120*time.Second, "nvidia.com/gpu", 1, 1),
		},
	}
	for _, policy := range []string{"default", GPUStrandingPolicy} {
		got := runOne(t, s, policy, shippedOptions(t)).Summary
		if got.UnplacedGPUPods != 0 || got.GPUUnitsPlaced != 5 || got.WaitMaxSeconds != 80 {
			t.Errorf("%s: summary %+v: want the container and the VM to share the node's GPUs, and the late pod to wait 80 s for the container's", policy, got)
		}
	}
}

// DRA nodes of two cards: the vfio DeviceClass serves no extended
// resource, as the driver's own does, so a VM that names its device waits
// beside free passthrough GPUs, and a VM whose claim accepts the card lands.
func TestDRANodesOfSeveralCardsServeVMsByClaim(t *testing.T) {
	l40s, err := gpuworkload.NewGPUInventory(4, "L40S", "")
	if err != nil {
		t.Fatal(err)
	}
	other := placement.NodeSpec{Name: "dra-l40s", MilliCPU: 64000, Memory: 256 << 30, Inventory: l40s, DRA: true}
	byDevice := gpuPod("by-device", 0, time.Hour, "nvidia.com/AD102GL_L40S", 1, 1)
	byClaim := gpuPod("by-claim", 0, time.Hour, "gpu.nvidia.com", 1, 1)
	byClaim.ClaimProducts = []string{"NVIDIA H100", "NVIDIA L40S"}
	s := &Scenario{Name: "t", Policy: enabled(), Nodes: []placement.NodeSpec{draNode(t, "dra-a10"), other}, Pods: []placement.PodSpec{byDevice, byClaim}}
	got := runOne(t, s, GPUStrandingPolicy, shippedOptions(t)).Summary
	if got.GPUUnitsPlaced != 1 || got.UnplacedGPUPods != 1 {
		t.Fatalf("summary %+v: want the VM by claim placed and the VM by device waiting", got)
	}
}

// A VM that accepts several cards gets a claim with an alternative for
// each, which DynamicResources allocates: on DRA nodes of a T4 and an A10
// where a container holds one T4, a VM of two GPUs takes the A10s (its
// second alternative), a VM of one takes the T4 the container leaves (not
// the passthrough half of the container's GPU, which the run would reject),
// and a third waits 70 s for the container to leave.
func TestVMsOfSeveralCardsGetClaims(t *testing.T) {
	scenario := csvScenario(t, "claims", "name,gpus,model,mode\ndra-t4,2,T4,dra\ndra-a10,2,A10,dra\n", `name,arrival,departure,gpus,mode,models
container,0,100,1,container,T4
vm-of-two,10,1000,2,vm-passthrough,T4|A10
vm-of-one,20,1000,1,vm-passthrough,T4|A10
waits,30,1000,1,vm-passthrough,T4|A10
`)
	opts := shippedOptions(t)
	results, err := Compare(quietContext(t), scenario, ScoringPolicies, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if got := r.Summary; got.GPUUnitsPlaced != 5 || got.UnplacedGPUPods != 0 || got.WaitMaxSeconds != 70 {
			t.Errorf("%s: summary %+v: want 5 units placed, the last VM after 70 s", r.Policy, got)
		}
	}
	// With claims, DynamicResources' Score decides: it ranks the node of a
	// VM's first alternative first, so the A10 goes to the VM that
	// prefers it and the T4s stay for the VM that needs both. The other
	// plugins the simulator leaves out still decide nothing. No
	// container: NodeResourcesFit's Filter would reject a DRA node for
	// nvidia.com/gpu (docs/simulation.md).
	if scenario.Pods, err = LoadPods(writeFile(t, "vms.csv", `name,arrival,gpus,mode,models
prefers-a10,0,1,vm-passthrough,A10|T4
needs-two-t4,10,2,vm-passthrough,T4|L40S
`), inputlimit.Default); err != nil {
		t.Fatal(err)
	}
	results, err = Compare(quietContext(t), scenario, ScoringPolicies, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if got := r.Summary; got.GPUUnitsPlaced != 3 {
			t.Errorf("%s: summary %+v: want both VMs placed", r.Policy, got)
		}
	}
	opts.KeepIdlePlugins = true
	requireSameRuns(t, scenario, opts, results, "the whole profile")
}

// requireSameRuns fails for each policy whose run with opts differs from
// want, the runs without what opts adds.
func requireSameRuns(t *testing.T, scenario *Scenario, opts Options, want []*Result, what string) {
	t.Helper()
	got, err := Compare(quietContext(t), scenario, ScoringPolicies, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if !equality.Semantic.DeepEqual(want[i], got[i]) {
			t.Errorf("policy %s: %s changed the run: summary %+v, with it %+v", got[i].Policy, what, want[i].Summary, got[i].Summary)
		}
	}
}

func TestWithDRANodesSpreadsTheShare(t *testing.T) {
	s := &Scenario{Name: "t", Nodes: []placement.NodeSpec{
		a10Node(t, "c1", gpuworkload.ModeContainer, ""), a10Node(t, "c2", gpuworkload.ModeContainer, ""),
		a10Node(t, "c3", gpuworkload.ModeContainer, ""), a10Node(t, "c4", gpuworkload.ModeContainer, ""),
		a10Node(t, "v1", gpuworkload.ModeVGPU, ""),
		a10Node(t, "p1", gpuworkload.ModePassthrough, ""), a10Node(t, "p2", gpuworkload.ModePassthrough, ""),
		a10Node(t, "p3", gpuworkload.ModePassthrough, ""), a10Node(t, "p4", gpuworkload.ModePassthrough, ""),
		{Name: "cpu", MilliCPU: 64000, Memory: 256 << 30},
	}}
	for _, tc := range []struct {
		share float64
		want  []string
	}{
		{0, nil},
		{0.25, []string{"c4", "p4"}},
		{0.5, []string{"c2", "c4", "p2", "p4"}},
		{1, []string{"c1", "c2", "c3", "c4", "p1", "p2", "p3", "p4"}},
	} {
		moved, dra, servable := s.WithDRANodes(tc.share)
		var got []string
		for _, n := range moved.Nodes {
			if n.DRA {
				got = append(got, n.Name)
			}
		}
		if !slices.Equal(got, tc.want) || dra != len(tc.want) || servable != 8 || s.Nodes[0].DRA {
			t.Errorf("share %v: DRA nodes %v (%d of %d servable), want %v of 8, the scenario itself unchanged", tc.share, got, dra, servable, tc.want)
		}
	}
}

func TestPendingPodGivesUpAtDeparture(t *testing.T) {
	s := &Scenario{Name: "t", Policy: enabled(),
		Nodes: []placement.NodeSpec{a10Node(t, "c", gpuworkload.ModeContainer, "")},
		Pods:  []placement.PodSpec{gpuPod("long", 0, 1000*time.Second, "nvidia.com/gpu", 4, 1), gpuPod("short", 10*time.Second, 60*time.Second, "nvidia.com/gpu", 1, 1)},
	}
	res := runOne(t, s, "default", shippedOptions(t))
	if got := res.Summary; got.UnplacedGPUPods != 1 || got.GPUUnitsPlaced != 4 || got.GPUUnitsRequested != 5 || got.WaitMaxSeconds != 50 {
		t.Fatalf("summary %+v: want the short pod to give up after waiting 50 s, 4 of 5 units placed", got)
	}
}

func TestAdvisorRelabelsAnEmptyNodeForWaitingVMs(t *testing.T) {
	s := &Scenario{Name: "t", Policy: enabled(),
		Nodes: []placement.NodeSpec{a10Node(t, "pt", gpuworkload.ModePassthrough, ""), a10Node(t, "c", gpuworkload.ModeContainer, "")},
		Pods:  []placement.PodSpec{gpuPod("vm-1", 0, 10000*time.Second, a10, 4, 1), gpuPod("vm-2", 10*time.Second, 10000*time.Second, a10, 2, 1)},
	}
	opts := shippedOptions(t)
	opts.Advisor = &AdvisorOptions{Interval: 60 * time.Second, Conversion: 120 * time.Second}
	res := runOne(t, s, GPUStrandingPolicy, opts)
	if len(res.Relabels) != 1 || res.Relabels[0].Node != "c" || res.Relabels[0].To != gpuworkload.ModePassthrough || res.Relabels[0].At != 10*time.Second {
		t.Fatalf("relabels %+v: want node c to vm-passthrough when vm-2 starts waiting at 10 s", res.Relabels)
	}
	// Placed when the conversion is done, 120 s later.
	if res.Summary.UnplacedGPUPods != 0 || res.Summary.WaitMaxSeconds != 120 {
		t.Fatalf("summary %+v: want vm-2 placed after waiting 120 s", res.Summary)
	}
	without := runOne(t, s, GPUStrandingPolicy, shippedOptions(t))
	if without.Summary.UnplacedGPUPods != 1 {
		t.Fatalf("without the advisor %d GPU pods unplaced, want 1", without.Summary.UnplacedGPUPods)
	}
}

// The controller's replay converts once the demand has waited and the node
// has been seen idle long enough, and no more conversions per window than
// its rate limit.
func TestControllerReplayHoldsItsHysteresisAndRateLimit(t *testing.T) {
	controller := func(demandWait, idleFor time.Duration, maxConversions int) *AdvisorOptions {
		c := modecontroller.Defaults()
		c.Operation, c.Interval, c.DemandWait, c.IdleFor, c.MaxConversions = modecontroller.IdleOnly, 60*time.Second, demandWait, idleFor, maxConversions
		return &AdvisorOptions{Interval: 60 * time.Second, Conversion: 120 * time.Second, Controller: &c}
	}
	s := &Scenario{Name: "t", Policy: enabled(),
		Nodes: []placement.NodeSpec{a10Node(t, "pt", gpuworkload.ModePassthrough, ""), a10Node(t, "c", gpuworkload.ModeContainer, "")},
		Pods:  []placement.PodSpec{gpuPod("vm-1", 0, 10000*time.Second, a10, 4, 1), gpuPod("vm-2", 10*time.Second, 10000*time.Second, a10, 2, 1)},
	}
	opts := shippedOptions(t)
	opts.Advisor = controller(5*time.Minute, 2*time.Minute, 2)
	res := runOne(t, s, GPUStrandingPolicy, opts)
	// Passes every 60 s from 0: vm-2 has waited 5 minutes at the pass of 360 s.
	if res.Policy != GPUStrandingPolicy+"+controller" || len(res.Relabels) != 1 || res.Relabels[0].Node != "c" || res.Relabels[0].At != 360*time.Second {
		t.Fatalf("%s relabels %+v: want node c relabelled at 360 s, the first pass after vm-2 waited 5 minutes", res.Policy, res.Relabels)
	}
	if res.Summary.UnplacedGPUPods != 0 || res.Summary.WaitMaxSeconds != 470 {
		t.Fatalf("summary %+v: want vm-2 placed after waiting 350 + 120 s", res.Summary)
	}

	s.Nodes = append(s.Nodes, a10Node(t, "c2", gpuworkload.ModeContainer, ""))
	s.Pods = append(s.Pods, gpuPod("vm-3", 10*time.Second, 10000*time.Second, a10, 4, 1))
	s.Pods[1].GPUCount = 4
	opts.Advisor = controller(0, 0, 1)
	res = runOne(t, s, GPUStrandingPolicy, opts)
	if len(res.Relabels) != 2 || res.Relabels[0].At != 60*time.Second || res.Relabels[1].At != 3660*time.Second {
		t.Fatalf("relabels %+v: want one at the pass of 60 s and the next an hour later, one conversion per window", res.Relabels)
	}

	dryRun := controller(0, 0, 1)
	dryRun.Controller.Operation = modecontroller.DryRun
	if err := dryRun.Validate("interval", "conversion"); err == nil || !strings.Contains(err.Error(), "replays idleOnly only") {
		t.Errorf("a dry-run controller: %v, want refused", err)
	}
}

// The advisor sees the pending pods' node constraints, as advise and the
// mode controller do: a container pod pinned to T4 waits beside free A10
// container GPUs, which do not serve it, so the idle T4 passthrough node is
// converted for it, not the A10 one that sorts first.
func TestAdvisorServesPinnedPodsWithTheirCards(t *testing.T) {
	s := csvScenario(t, "t", "name,gpus,model,mode\na10,4,A10,container\na10-pt,4,A10,vm-passthrough\nt4-pt,1,T4,vm-passthrough\n", "name,gpus,mode,models\npinned,1,container,T4\n")
	opts := shippedOptions(t)
	opts.Advisor = &AdvisorOptions{Interval: 60 * time.Second, Conversion: 120 * time.Second}
	res := runOne(t, s, GPUStrandingPolicy, opts)
	if len(res.Relabels) != 1 || !strings.HasPrefix(res.Relabels[0].Node, "t4-pt") || res.Relabels[0].To != gpuworkload.ModeContainer {
		t.Fatalf("relabels %+v: want the T4 passthrough node relabelled to container", res.Relabels)
	}
	if res.Summary.UnplacedGPUPods != 0 {
		t.Fatalf("summary %+v: want the pinned pod placed once the T4 node is converted", res.Summary)
	}
}

func TestAdvisorChangesTheVGPUProfile(t *testing.T) {
	const desktop = "nvidia.com/NVIDIA_A10-4Q"
	s := &Scenario{Name: "t", Policy: enabled(),
		Nodes: []placement.NodeSpec{a10Node(t, "v12", gpuworkload.ModeVGPU, "")}, // the A10 default profile, A10-12Q
		Pods:  []placement.PodSpec{gpuPod("vdi", 0, 10000*time.Second, desktop, 1, 1)},
	}
	opts := shippedOptions(t)
	opts.Advisor = &AdvisorOptions{Interval: 60 * time.Second, Conversion: 120 * time.Second}
	res := runOne(t, s, GPUStrandingPolicy, opts)
	if len(res.Relabels) != 1 || res.Relabels[0].Profile != "A10-4Q" || string(res.Relabels[0].Resource) != desktop {
		t.Fatalf("relabels %+v: want node v12 given vgpu.config A10-4Q", res.Relabels)
	}
	if res.Summary.UnplacedGPUPods != 0 || res.Summary.WaitMaxSeconds != 120 {
		t.Fatalf("summary %+v: want the desktop placed once the profile change is done, after 120 s", res.Summary)
	}
}

func TestPoliciesPlaceDifferently(t *testing.T) {
	// A 1-GPU pod on a node with 1 free or one with 4 free: packing policies
	// take the first, the default spreads to the second.
	used := gpuPod("used", 0, 1000*time.Second, "nvidia.com/gpu", 3, 1)
	used.Node = "busy"
	s := &Scenario{Name: "t", Policy: enabled(),
		Nodes: []placement.NodeSpec{a10Node(t, "busy", gpuworkload.ModeContainer, ""), a10Node(t, "idle", gpuworkload.ModeContainer, "")},
		Pods:  []placement.PodSpec{used, gpuPod("one", 10*time.Second, 1000*time.Second, "nvidia.com/gpu", 1, 1), gpuPod("four", 20*time.Second, 1000*time.Second, "nvidia.com/gpu", 4, 1)},
	}
	opts := shippedOptions(t)
	for policy, unplaced := range map[string]int{"default": 1, "most-allocated": 0, "fgd": 0, GPUStrandingPolicy: 0} {
		if got := runOne(t, s, policy, opts).Summary.UnplacedGPUPods; got != unplaced {
			t.Errorf("%s: %d GPU pods unplaced, want %d", policy, got, unplaced)
		}
	}
}

func TestFragmentation(t *testing.T) {
	pl := &fragmentationGradient{classes: []taskClass{
		{taskKey: taskKey{gpu: "nvidia.com/gpu", count: 2, milliCPU: 8000}, popularity: 0.5},
		{taskKey: taskKey{gpu: "nvidia.com/gpu", count: 1, milliCPU: 1000}, popularity: 0.25},
		{popularity: 0.25}, // a pod without GPUs
	}}
	for _, tc := range []struct {
		node nodeFree
		want float64
	}{
		{nodeFree{gpu: "nvidia.com/gpu", units: 4, milliCPU: 64000}, 1},         // only the non-GPU class leaves the 4 units
		{nodeFree{gpu: "nvidia.com/gpu", units: 1, milliCPU: 64000}, 0.75},      // the 2-unit class cannot fit
		{nodeFree{gpu: "nvidia.com/gpu", units: 4, milliCPU: 4000}, 3},          // CPU too low for the 2-unit class
		{nodeFree{gpu: "nvidia.com/GA102GL_A10", units: 2, milliCPU: 64000}, 2}, // no class wants this resource
		{nodeFree{gpu: "nvidia.com/gpu", units: 0, milliCPU: 64000}, 0},         // nothing free, nothing fragmented
	} {
		if got := pl.fragmentation(tc.node); got != tc.want {
			t.Errorf("fragmentation(%+v) = %v, want %v", tc.node, got, tc.want)
		}
	}
}

// A VM whose claim accepts a T4 or an A10 cannot use an L40S DRA node's
// free GPUs: FGD counts them fragmented for it.
func TestFragmentationOfClaimTasks(t *testing.T) {
	l40s, err := gpuworkload.NewGPUInventory(4, "L40S", "")
	if err != nil {
		t.Fatal(err)
	}
	vm := gpuPod("vm", 0, 0, "gpu.nvidia.com", 1, 1)
	vm.ClaimProducts = []string{"Tesla T4", "NVIDIA A10"}
	nodes := []placement.NodeSpec{draNode(t, "dra-a10"), {Name: "dra-l40s", Inventory: l40s, DRA: true}}
	pl, err := targetWorkload([]placement.PodSpec{vm}, nodes)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"dra-a10": 0, "dra-l40s": 2} {
		node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if got := pl.fragmentation(nodeFree{accepted: pl.acceptedBy(node), gpu: draGPUs, units: 2, milliCPU: 64000}); got != want {
			t.Errorf("2 free GPUs on %s: fragmentation %v for the VM's class, want %v", name, got, want)
		}
	}
}

// A class pinned to a GPU product cannot use another product's free
// units: FGD counts them fragmented for it, as its simulator does.
func TestFragmentationOfPinnedTasks(t *testing.T) {
	pinned := placement.PodSpec{GPU: "nvidia.com/gpu", GPUCount: 1, NodeSelector: map[string]string{gpuworkload.LabelGPUProduct: "T4"}}
	pl, err := targetWorkload([]placement.PodSpec{pinned}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for product, want := range map[string]float64{"T4": 0, "G2": 2} {
		node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{gpuworkload.LabelGPUProduct: product}}}
		if got := pl.fragmentation(nodeFree{accepted: pl.acceptedBy(node), gpu: "nvidia.com/gpu", units: 2, milliCPU: 64000}); got != want {
			t.Errorf("2 free units on a %s node: fragmentation %v for T4 tasks, want %v", product, got, want)
		}
	}
}

func TestReports(t *testing.T) {
	s := &Scenario{Name: "tiny", Policy: enabled(),
		Nodes: []placement.NodeSpec{a10Node(t, "pt", gpuworkload.ModePassthrough, ""), a10Node(t, "c", gpuworkload.ModeContainer, "")},
		Pods:  []placement.PodSpec{gpuPod("vm-1", 0, 100*time.Second, a10, 4, 1), gpuPod("vm-2", 10*time.Second, 110*time.Second, a10, 4, 1)},
	}
	results, err := Compare(quietContext(t), s, ScoringPolicies, shippedOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	var table, svg bytes.Buffer
	if err := WriteTable(&table, s, results); err != nil {
		t.Fatal(err)
	}
	if err := WriteSVG(&svg, s, results); err != nil {
		t.Fatal(err)
	}
	for _, p := range ScoringPolicies {
		if !strings.Contains(table.String(), "\n"+p.Name+" ") || !strings.Contains(svg.String(), ">"+p.Name+" (avg 1.8)<") {
			t.Errorf("policy %s missing from the table or the plot legend:\n%s\n%s", p.Name, table.String(), svg.String())
		}
	}
	if err := xml.Unmarshal(svg.Bytes(), new(struct{})); err != nil {
		t.Errorf("the plot is not well-formed XML: %v", err)
	}
	if got := strings.Count(svg.String(), "<polyline"); got != len(ScoringPolicies) {
		t.Errorf("%d lines in the plot, want one per policy", got)
	}
}

// Every text of a plot lies inside its width, however long the scenario's
// name, the policies' names and their averages, by the width textWidth
// bounds each text to.
func TestPlotTextFitsItsWidth(t *testing.T) {
	names := []string{"gpu-stranding+advisor", "most-allocated+advisor", "a-policy-with-a-much-longer-name+advisor"}
	var results []*Result
	var curves []Curve
	for i, name := range names {
		results = append(results, &Result{Policy: name, Summary: Summary{StrandedAverageTotal: 12345.6 * float64(i+1)},
			Series: []Sample{{Time: time.Hour, Stranded: [poddemand.NumStrandedKinds]int64{987}}}})
		curves = append(curves, Curve{Legend: name + " (end 99.95%)", X: []float64{0, 65, 130}, Y: []float64{0, 60.5, 99.95}})
	}
	var stranded, curve bytes.Buffer
	if err := WriteSVG(&stranded, &Scenario{Name: "a-scenario-whose-name-is-long-too"}, results); err != nil {
		t.Fatal(err)
	}
	if err := WriteCurveSVG(&curve, "a-scenario-whose-name-is-long-too: GPUs allocated as the workload arrives (mean of 10 draws)",
		"GPUs requested by arrived pods (% of the cluster's GPUs)", "GPUs allocated (%)", curves); err != nil {
		t.Fatal(err)
	}
	for name, svg := range map[string][]byte{"stranded units": stranded.Bytes(), "allocation curve": curve.Bytes()} {
		t.Run(name, func(t *testing.T) { textsFitWidth(t, svg) })
	}
}

func textsFitWidth(t *testing.T, svg []byte) {
	var plot struct {
		Width float64 `xml:"width,attr"`
		Texts []struct {
			X         float64 `xml:"x,attr"`
			Anchor    string  `xml:"text-anchor,attr"`
			FontSize  float64 `xml:"font-size,attr"`
			Transform string  `xml:"transform,attr"`
			Text      string  `xml:",chardata"`
		} `xml:"text"`
	}
	if err := xml.Unmarshal(svg, &plot); err != nil {
		t.Fatal(err)
	}
	for _, text := range plot.Texts {
		if text.Transform != "" {
			continue // the y axis' title, rotated along the left edge
		}
		size := cmp.Or(text.FontSize, plotFontSize)
		w := textWidth(text.Text, size)
		from := text.X
		switch text.Anchor {
		case "middle":
			from -= w / 2
		case "end":
			from -= w
		}
		if from < 0 || from+w > plot.Width {
			t.Errorf("text %q spans %.0f to %.0f, outside the plot's width %.0f", text.Text, from, from+w, plot.Width)
		}
	}
}

func TestRoundTicks(t *testing.T) {
	for _, tc := range []struct {
		peak float64
		want []float64
	}{
		{0, []float64{0, 1}},
		{3, []float64{0, 1, 2, 3}},
		{6, []float64{0, 2, 4, 6}},
		{230, []float64{0, 50, 100, 150, 200, 250}},
		{250, []float64{0, 50, 100, 150, 200, 250}},
		{251, []float64{0, 100, 200, 300}},
		{987, []float64{0, 200, 400, 600, 800, 1000}},
	} {
		if got := roundTicks(tc.peak); !slices.Equal(got, tc.want) {
			t.Errorf("roundTicks(%v) = %v, want %v", tc.peak, got, tc.want)
		}
	}
}

func TestPoliciesByName(t *testing.T) {
	if _, err := ScoringPoliciesByName("default,best"); err == nil || !strings.Contains(err.Error(), `unknown policy "best"; valid policies are default, most-allocated, fgd, gpu-stranding, fgd-online (by name only)`) {
		t.Fatalf("error %v", err)
	}
	if all, _ := ScoringPoliciesByName(""); IndexOfPolicy(resultsNamed(all), "fgd-online") >= 0 {
		t.Error("fgd-online runs in every comparison; it is for analysis, by name only")
	}
}

func resultsNamed(policies []ScoringPolicy) []*Result {
	out := make([]*Result, len(policies))
	for i, p := range policies {
		out[i] = &Result{Policy: p.Name}
	}
	return out
}

// FGD without advance knowledge learns the classes from the attempts:
// having seen a 4-unit pod, it puts the second 2-unit pod beside the first
// and keeps a node whole for the next 4-unit pod, where spreading would
// split it.
func TestOnlineFGDLearnsTheClasses(t *testing.T) {
	online, err := ScoringPoliciesByName("fgd-online")
	if err != nil {
		t.Fatal(err)
	}
	s := &Scenario{Name: "learned", Policy: enabled(),
		Nodes: []placement.NodeSpec{a10Node(t, "c1", gpuworkload.ModeContainer, ""), a10Node(t, "c2", gpuworkload.ModeContainer, ""), a10Node(t, "c3", gpuworkload.ModeContainer, "")},
		Pods: []placement.PodSpec{
			gpuPod("four-1", 0, 0, "nvidia.com/gpu", 4, 1),
			gpuPod("two-1", time.Second, time.Second, "nvidia.com/gpu", 2, 1),
			gpuPod("two-2", 2*time.Second, 2*time.Second, "nvidia.com/gpu", 2, 1),
			gpuPod("four-2", 3*time.Second, 3*time.Second, "nvidia.com/gpu", 4, 1),
		},
	}
	results, err := Compare(quietContext(t), s, online, shippedOptions(t))
	if err != nil {
		t.Fatal(err)
	}
	if placed := results[0].Summary.GPUUnitsPlaced; placed != 12 {
		t.Errorf("fgd-online placed %d of 12 units: the 2-unit pods split two nodes, leaving none for the second 4-unit pod", placed)
	}
}

func TestSandboxDisabledNodesRunContainers(t *testing.T) {
	s := &Scenario{Name: "t", Policy: gpuworkload.DefaultPolicy(),
		Nodes: []placement.NodeSpec{a10Node(t, "pt", gpuworkload.ModePassthrough, ""), a10Node(t, "c", gpuworkload.ModeContainer, "")},
		Pods:  []placement.PodSpec{gpuPod("vm", 0, 100*time.Second, a10, 1, 1), gpuPod("train-1", 0, 100*time.Second, "nvidia.com/gpu", 4, 1), gpuPod("train-2", 0, 100*time.Second, "nvidia.com/gpu", 4, 1)},
	}
	opts := shippedOptions(t)
	opts.Advisor = &AdvisorOptions{Interval: time.Second, Conversion: time.Second}
	res := runOne(t, s, GPUStrandingPolicy, opts)
	// The operator ignores the passthrough label: both nodes advertise
	// nvidia.com/gpu and take a 4-GPU pod each; the VM fits nowhere, and
	// relabelling would not help.
	if got := res.Summary; got.GPUUnitsPlaced != 8 || got.UnplacedGPUPods != 1 || len(res.Relabels) != 0 {
		t.Fatalf("summary %+v, relabels %v: want both training pods placed, the VM not, no relabel", got, res.Relabels)
	}
}

// Run stops what its engine started: make sim-traces runs hundreds of them
// in one process.
func TestRunLeavesNoGoroutines(t *testing.T) {
	ctx := klog.NewContext(context.Background(), logr.Discard())
	vm := gpuPod("vm", 0, 60*time.Second, "gpu.nvidia.com", 1, 1)
	vm.ClaimProducts = []string{"NVIDIA A10"}
	// The VM's claim starts the claim engine's informers too.
	s := &Scenario{Name: "t", Policy: enabled(),
		Nodes: []placement.NodeSpec{a10Node(t, "c", gpuworkload.ModeContainer, ""), draNode(t, "dra")},
		Pods:  []placement.PodSpec{gpuPod("p", 0, 60*time.Second, "nvidia.com/gpu", 1, 1), vm},
	}
	policies, err := ScoringPoliciesByName("default")
	if err != nil {
		t.Fatal(err)
	}
	opts := shippedOptions(t)
	run := func() {
		if _, err := Run(ctx, s, policies[0], opts); err != nil {
			t.Fatal(err)
		}
	}
	run() // starts what lives for the process (metrics, klog), once
	baseline := runtime.NumGoroutine()
	for range 5 {
		run()
	}
	err = wait.PollUntilContextTimeout(t.Context(), 20*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return runtime.NumGoroutine() <= baseline, nil
	})
	if err != nil {
		t.Fatalf("%d goroutines after 5 more runs, %d before", runtime.NumGoroutine(), baseline)
	}
}

// A pod pinned to a node that cannot hold it stops the run with the reason:
// a snapshot that overcommits a node would make every figure wrong.
func TestPinnedPodMustFitItsNode(t *testing.T) {
	for _, tc := range []struct {
		name string
		pod  placement.PodSpec
		want string
		// podsBefore are pinned to the node ahead of pod, requesting nothing.
		podsBefore int
	}{
		{"more GPUs than the node has", placement.PodSpec{Name: "big", GPU: a10, GPUCount: 5, VM: true, Node: "pt"}, "pod big is pinned to node pt, which has 4 x nvidia.com/GA102GL_A10 free, the pod requests 5", 0},
		{"another mode's resource", placement.PodSpec{Name: "ctr", GPU: "nvidia.com/gpu", GPUCount: 1, Node: "pt"}, `pod ctr is pinned to node pt, which advertises "nvidia.com/GA102GL_A10" in mode vm-passthrough, the pod requests nvidia.com/gpu`, 0},
		{"more CPU than the node has", placement.PodSpec{Name: "cpu", MilliCPU: 65000, Node: "pt"}, "pod cpu is pinned to node pt, which has 64000m CPU free, the pod requests 65000m", 0},
		{"more pods than a node takes", placement.PodSpec{Name: "extra", Node: "pt"}, "pod extra is pinned to node pt, which holds 1000 pods, the most a simulated node takes", 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pods []placement.PodSpec
			for i := range tc.podsBefore {
				pods = append(pods, placement.PodSpec{Name: fmt.Sprintf("before-%d", i), Node: "pt"})
			}
			s := &Scenario{Name: "t", Policy: enabled(), Nodes: []placement.NodeSpec{a10Node(t, "pt", gpuworkload.ModePassthrough, "")}, Pods: append(pods, tc.pod)}
			_, err := Run(quietContext(t), s, ScoringPolicies[0], shippedOptions(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestIdlePluginsDecideNothing runs the shipped scenarios with every policy,
// with the profile whole and without idlePlugins: every run's series of
// samples, summary and relabels are the same.
func TestIdlePluginsDecideNothing(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "test", "sim", "scenarios", "*", "scenario.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no shipped scenarios: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(filepath.Dir(path)), func(t *testing.T) {
			scenario, advisor, err := LoadScenario(path, inputlimit.Default)
			if err != nil {
				t.Fatal(err)
			}
			opts := shippedOptions(t)
			opts.Advisor = advisor
			trimmed, err := Compare(quietContext(t), scenario, ScoringPolicies, opts)
			if err != nil {
				t.Fatal(err)
			}
			opts.KeepIdlePlugins = true
			requireSameRuns(t, scenario, opts, trimmed, "the whole profile")
		})
	}
}

// Pods the models column pins land only on their cards, even with another
// card's GPUs free; a pinned VM takes its card's device.
func TestModelsKeepPodsToTheirCards(t *testing.T) {
	s := csvScenario(t, "models", "name,gpus,model,mode\na10,4,A10,container\nt4,2,T4,container\nt4-pt,1,T4,vm-passthrough\n", "name,count,gpus,mode,models\ncontainer,3,1,container,T4\nvm,1,1,vm-passthrough,T4\n")
	s.Policy = EnabledSandboxPolicy()
	shipped, err := ShippedOptions()
	if err != nil {
		t.Fatal(err)
	}
	results, err := Compare(context.Background(), s, ScoringPolicies, shipped)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		// Two container T4 GPUs and the passthrough T4: the third T4 container pod waits beside the free A10s.
		if r.Summary.GPUUnitsPlaced != 3 || r.Summary.UnplacedGPUPods != 1 {
			t.Errorf("%s placed %d units and left %d GPU pods, want 3 placed and the third T4 container pod waiting", r.Policy, r.Summary.GPUUnitsPlaced, r.Summary.UnplacedGPUPods)
		}
	}
}

// The engine looks only at the nodes that serve a GPU pod's resource, in
// the order and with the next start the framework's walk over every node
// gives, and remembers Filter's verdicts: on 600 nodes, where the framework
// stops at 276 feasible ones and the advisor relabels nodes, a run that
// filters every node it looks at, and one that looks at every node for
// every pod, place every pod the same.
func TestServingNodesKeepTheSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 0))
	// Mostly container nodes, so that container pods find more feasible
	// nodes than the sample takes.
	modes := []gpuworkload.Mode{gpuworkload.ModeContainer, gpuworkload.ModeContainer, gpuworkload.ModeContainer, gpuworkload.ModePassthrough, gpuworkload.ModeVGPU}
	s := &Scenario{Name: "sampled", Policy: enabled()}
	for i := range 600 {
		s.Nodes = append(s.Nodes, a10Node(t, fmt.Sprintf("n%03d", i), modes[rng.IntN(len(modes))], strconv.Itoa(8+rng.IntN(56))))
	}
	s, _, _ = s.WithDRANodes(0.25)
	resources := []string{"nvidia.com/gpu", a10, a10Q12}
	for i := range 3000 {
		arrival := time.Duration(i) * 500 * time.Millisecond
		s.Pods = append(s.Pods, gpuPod(fmt.Sprintf("p%04d", i), arrival, arrival+time.Duration(200+rng.IntN(2000))*time.Second,
			resources[rng.IntN(len(resources))], int64(1+rng.IntN(2)), int64(1+rng.IntN(8))))
	}
	opts := shippedOptions(t)
	// The advisor's relabels change which nodes serve each resource.
	opts.Advisor = &AdvisorOptions{Interval: 60 * time.Second, Conversion: 120 * time.Second}
	indexed := runOne(t, s, "gpu-stranding", opts)
	opts.FilterEveryTime = true
	filtered := runOne(t, s, "gpu-stranding", opts)
	if !equality.Semantic.DeepEqual(indexed, filtered) {
		t.Fatalf("remembering Filter verdicts changed the run: summary %+v, filtering every time %+v", indexed.Summary, filtered.Summary)
	}
	opts.FilterEveryNode = true
	walked := runOne(t, s, "gpu-stranding", opts)
	if !equality.Semantic.DeepEqual(indexed, walked) {
		t.Fatalf("looking only at the serving nodes changed the run: summary %+v, walking every node %+v", indexed.Summary, walked.Summary)
	}
	if indexed.Summary.PendingPodsAverage == 0 || len(indexed.Relabels) == 0 {
		t.Fatalf("no pod ever waited or no node was relabelled (%+v, %d relabels): the run tests less than it should", indexed.Summary, len(indexed.Relabels))
	}
}

// VMs with claims beside containers, device-plugin VMs and vGPU VMs, on
// DRA nodes of two cards and device-plugin nodes the advisor relabels:
// every policy runs it through and places VMs with claims, and
// remembering Filter verdicts changes no placement.
func TestClaimsInAMixedCluster(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 0))
	modes := []gpuworkload.Mode{gpuworkload.ModeContainer, gpuworkload.ModePassthrough, gpuworkload.ModeVGPU}
	s := &Scenario{Name: "mixed-claims", Policy: enabled()}
	for i := range 90 {
		s.Nodes = append(s.Nodes, a10Node(t, fmt.Sprintf("n%02d", i), modes[rng.IntN(len(modes))], strconv.Itoa(16+rng.IntN(48))))
	}
	s, _, _ = s.WithDRANodes(0.3)
	t4, err := gpuworkload.NewGPUInventory(4, "T4", "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		s.Nodes = append(s.Nodes, placement.NodeSpec{Name: fmt.Sprintf("t4-%02d", i), MilliCPU: 64000, Memory: 256 << 30, Inventory: t4, DRA: true})
	}
	resources := []string{"nvidia.com/gpu", a10, a10Q12, "gpu.nvidia.com"}
	for i := range 600 {
		arrival := time.Duration(i) * 2 * time.Second
		p := gpuPod(fmt.Sprintf("p%03d", i), arrival, arrival+time.Duration(300+rng.IntN(900))*time.Second,
			resources[rng.IntN(len(resources))], int64(1+rng.IntN(2)), int64(1+rng.IntN(8)))
		if p.GPU == "gpu.nvidia.com" {
			p.ClaimProducts = []string{"Tesla T4", "NVIDIA A10"}
		}
		s.Pods = append(s.Pods, p)
	}
	opts := shippedOptions(t)
	opts.Advisor = &AdvisorOptions{Interval: 60 * time.Second, Conversion: 120 * time.Second}
	var mu sync.Mutex
	claimsPlaced := 0
	opts.Arrived = func(p placement.PodSpec, placed bool) {
		mu.Lock()
		defer mu.Unlock()
		if placed && p.ClaimProducts != nil {
			claimsPlaced++
		}
	}
	remembered, err := Compare(quietContext(t), s, ScoringPolicies, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.FilterEveryTime = true
	requireSameRuns(t, s, opts, remembered, "filtering every node every time")
	for _, r := range remembered {
		if r.Summary.GPUUnitsPlaced == 0 || len(r.Relabels) == 0 {
			t.Errorf("%s: summary %+v, %d relabels: the run tests less than it should", r.Policy, r.Summary, len(r.Relabels))
		}
	}
	if claimsPlaced < 2*len(ScoringPolicies) {
		t.Errorf("%d VMs with claims placed on arrival over %d policies and both ways: the run tests less than it should", claimsPlaced, len(ScoringPolicies))
	}
}
