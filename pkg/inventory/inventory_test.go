package inventory

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// cluster is n GPU nodes, a third per mode, each with four GPUs, two of them
// used by running pods, and n/10 VMs waiting for passthrough A10s.
func cluster(n int) Input {
	policy := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer}
	modes := []struct {
		mode     gpuworkload.Mode
		resource v1.ResourceName
		units    string
	}{{gpuworkload.ModeContainer, gpuworkload.ResourceGPU, "4"}, {gpuworkload.ModePassthrough, "nvidia.com/GA102GL_A10", "4"}, {gpuworkload.ModeVGPU, "nvidia.com/NVIDIA_A10-12Q", "8"}}
	var in Input
	for i := range n {
		m := modes[i%3]
		list := v1.ResourceList{v1.ResourceCPU: resource.MustParse("64"), v1.ResourceMemory: resource.MustParse("256Gi"), m.resource: resource.MustParse(m.units)}
		node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("node-%05d", i), Labels: map[string]string{
			gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: string(m.mode)}}, Status: v1.NodeStatus{Capacity: list, Allocatable: list}}
		in.Nodes = append(in.Nodes, node)
		for j := range 2 {
			in.Pods = append(in.Pods, pod(fmt.Sprintf("run-%d-%d", i, j), node.Name, m.resource))
		}
	}
	for i := range n / 10 {
		in.Pods = append(in.Pods, pod(fmt.Sprintf("wait-%d", i), "", "nvidia.com/GA102GL_A10"))
	}
	states := map[string]*gpuworkload.NodeState{}
	for _, node := range in.Nodes {
		states[node.Name] = gpuworkload.NewNodeState(node, policy, nil)
	}
	in.State = func(n *v1.Node) *gpuworkload.NodeState { return states[n.Name] }
	in.Demand = func(p *v1.Pod) poddemand.PodDemand { return poddemand.NewPodDemand(p, nil) }
	in.ReasonOf = func(*v1.Pod) string { return "Insufficient" }
	return in
}

func pod(name, node string, r v1.ResourceName) *v1.Pod {
	list := v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("16Gi"), r: resource.MustParse("1")}
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(name)},
		Spec: v1.PodSpec{NodeName: node, Containers: []v1.Container{{Name: "main", Resources: v1.ResourceRequirements{Requests: list, Limits: list}}}}}
}

// Units, stranding, node states and waiting pods on a cluster whose
// numbers follow from its construction.
func TestCompute(t *testing.T) {
	r := Compute(context.Background(), cluster(30))
	want := map[v1.ResourceName][4]int64{ // allocatable, allocated, free, stranded by mode
		gpuworkload.ResourceGPU:     {40, 20, 20, 20},
		"nvidia.com/GA102GL_A10":    {40, 20, 20, 0},
		"nvidia.com/NVIDIA_A10-12Q": {80, 20, 60, 60},
	}
	for _, res := range r.Resources {
		w := want[res.Resource]
		if got := [4]int64{res.Allocatable, res.Allocated, res.Free, res.Stranded["mode"]}; got != w {
			t.Errorf("%s: allocatable, allocated, free, stranded by mode %v, want %v", res.Resource, got, w)
		}
	}
	for _, m := range r.Modes {
		ready := 10
		if m.Mode == ModeDRA {
			ready = 0
		}
		if m.Ready != ready || m.Empty != 0 {
			t.Errorf("%s: %d ready, %d empty; want %d and 0", m.Mode, m.Ready, m.Empty, ready)
		}
	}
	if len(r.Pending) != 1 || r.Pending[0] != (Pending{Mode: gpuworkload.ModePassthrough, Resource: "nvidia.com/GA102GL_A10", Reason: "Insufficient", Pods: 3, Units: 3}) {
		t.Errorf("pending %+v, want 3 passthrough VMs for Insufficient", r.Pending)
	}
}

// Waiting pods count by the resource they ask for and their node constraint:
// two pods pinned to Tesla-T4 are a row of their own.
func TestComputePendingByResourceAndConstraint(t *testing.T) {
	in := cluster(3)
	for _, name := range []string{"t4-1", "t4-2"} {
		p := pod(name, "", gpuworkload.ResourceGPU)
		p.Spec.NodeSelector = map[string]string{gpuworkload.LabelGPUProduct: "Tesla-T4"}
		in.Pods = append(in.Pods, p)
	}
	in.Pods = append(in.Pods, pod("any", "", gpuworkload.ResourceGPU))
	want := []Pending{
		{Mode: gpuworkload.ModeContainer, Resource: gpuworkload.ResourceGPU, Reason: "Insufficient", Pods: 1, Units: 1},
		{Mode: gpuworkload.ModeContainer, Resource: gpuworkload.ResourceGPU, Constraint: "nodeSelector nvidia.com/gpu.product=Tesla-T4", Reason: "Insufficient", Pods: 2, Units: 2},
	}
	if got := Compute(context.Background(), in).Pending; !slices.Equal(got, want) {
		t.Fatalf("pending %+v, want %+v", got, want)
	}
}

// Per card, the units that bound pods without a node constraint hold, and
// the pods that wait kept to nodes of the card: a pod that accepts two
// cards counts under both, an unpinned one under none. A passthrough node
// without a product label is its card's by the name it advertises.
func TestComputeCards(t *testing.T) {
	policy := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer}
	node := func(name, product string, mode gpuworkload.Mode, r v1.ResourceName) *v1.Node {
		list := v1.ResourceList{v1.ResourceCPU: resource.MustParse("64"), v1.ResourceMemory: resource.MustParse("256Gi"), r: resource.MustParse("4")}
		labels := map[string]string{gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: string(mode)}
		if product != "" {
			labels[gpuworkload.LabelGPUProduct] = product
		}
		return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Status: v1.NodeStatus{Capacity: list, Allocatable: list}}
	}
	pinnedTo := func(p *v1.Pod, products ...string) *v1.Pod {
		p.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{
			NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{{Key: gpuworkload.LabelGPUProduct, Operator: v1.NodeSelectorOpIn, Values: products}}}}}}}
		return p
	}
	in := Input{
		Nodes: []*v1.Node{
			node("t4", "Tesla-T4", gpuworkload.ModeContainer, gpuworkload.ResourceGPU),
			node("a10", "NVIDIA-A10", gpuworkload.ModeContainer, gpuworkload.ResourceGPU),
			node("a10-vm", "", gpuworkload.ModePassthrough, "nvidia.com/GA102GL_A10"),
		},
		Pods: []*v1.Pod{
			pod("on-t4", "t4", gpuworkload.ResourceGPU),
			pinnedTo(pod("on-t4-pinned", "t4", gpuworkload.ResourceGPU), "Tesla-T4"),
			pod("on-a10", "a10", gpuworkload.ResourceGPU),
			pod("on-a10-vm", "a10-vm", "nvidia.com/GA102GL_A10"),
			pinnedTo(pod("wait-t4-1", "", gpuworkload.ResourceGPU), "Tesla-T4"),
			pinnedTo(pod("wait-t4-2", "", gpuworkload.ResourceGPU), "Tesla-T4"),
			pinnedTo(pod("wait-either", "", gpuworkload.ResourceGPU), "Tesla-T4", "NVIDIA-A10"),
			pod("wait-any", "", gpuworkload.ResourceGPU),
		},
		Demand:   func(p *v1.Pod) poddemand.PodDemand { return poddemand.NewPodDemand(p, nil) },
		ReasonOf: func(*v1.Pod) string { return "" },
	}
	states := map[string]*gpuworkload.NodeState{}
	for _, n := range in.Nodes {
		states[n.Name] = gpuworkload.NewNodeState(n, policy, nil)
	}
	in.State = func(n *v1.Node) *gpuworkload.NodeState { return states[n.Name] }
	want := []Card{
		{Card: "NVIDIA-A10", Nodes: 2, Allocatable: 8, HeldByUnpinned: 2, PinnedPodsWaiting: 1, PinnedUnitsWaiting: 1},
		{Card: "Tesla-T4", Nodes: 1, Allocatable: 4, HeldByUnpinned: 1, PinnedPodsWaiting: 3, PinnedUnitsWaiting: 3},
	}
	if got := Compute(context.Background(), in).Cards; !slices.Equal(got, want) {
		t.Fatalf("cards %+v\nwant  %+v", got, want)
	}
}

// A node whose bound pods hold more than it has is counted as it is: the
// units above its allocatable are allocated and over-committed, and its free
// units are zero, not negative.
func TestComputeOverCommitted(t *testing.T) {
	in := cluster(3)
	// node-00001 is the passthrough node with 4 A10s; two pods hold two.
	for i := range 3 {
		in.Pods = append(in.Pods, pod(fmt.Sprintf("extra-%d", i), "node-00001", "nvidia.com/GA102GL_A10"))
	}
	for _, res := range Compute(context.Background(), in).Resources {
		if res.Resource != "nvidia.com/GA102GL_A10" {
			continue
		}
		if got := [4]int64{res.Allocatable, res.Allocated, res.Free, res.OverCommitted}; got != [4]int64{4, 5, 0, 1} {
			t.Fatalf("allocatable, allocated, free, over-committed %v, want [4 5 0 1]", got)
		}
		return
	}
	t.Fatal("no row for nvidia.com/GA102GL_A10")
}

// A converting or a mismatched node's units no pod holds are unavailable,
// not free, and not stranded: the scheduler places nothing there.
func TestComputeUnsettledNodes(t *testing.T) {
	in := cluster(6)
	policy := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer}
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	states := map[string]*gpuworkload.NodeState{}
	for i, node := range in.Nodes {
		if i == 0 || i == 3 {
			// The container nodes, relabelled: each advertises nvidia.com/gpu
			// as a vm-passthrough node, node-00000 for longer than a conversion takes.
			node.Labels[gpuworkload.LabelWorkloadConfig] = string(gpuworkload.ModePassthrough)
		}
		states[node.Name] = gpuworkload.NewNodeState(node, policy, nil)
		if i == 0 {
			states[node.Name].Settle(now.Add(-time.Hour), now, 20*time.Minute)
		}
	}
	in.State = func(n *v1.Node) *gpuworkload.NodeState { return states[n.Name] }
	r := Compute(context.Background(), in)
	for _, res := range r.Resources {
		if res.Resource != gpuworkload.ResourceGPU {
			continue
		}
		if got := [5]int64{res.Allocatable, res.Allocated, res.Free, res.Unavailable, res.Stranded["mode"]}; got != [5]int64{8, 4, 0, 4, 0} {
			t.Fatalf("nvidia.com/gpu: allocatable, allocated, free, unavailable, stranded by mode %v, want [8 4 0 4 0]", got)
		}
	}
	for _, m := range r.Modes {
		if m.Mode == gpuworkload.ModePassthrough && (m.Ready != 2 || m.Converting != 1 || m.Mismatched != 1) {
			t.Fatalf("vm-passthrough nodes: %+v, want 2 ready, 1 converting, 1 mismatched", m)
		}
	}
}

func draDevice(name, deviceType, busID, deviceState string) dradevices.DRADeviceState {
	class := gpuworkload.ClassContainerGPU
	if deviceType == "vfio" {
		class = gpuworkload.ClassPassthroughGPU
	}
	return dradevices.DRADeviceState{DRADevice: dradevices.DRADevice{Name: name, Type: deviceType, Class: class, PCIBusID: busID}, State: deviceState}
}

// A DRA node's devices count by DeviceClass and state under the mode each
// serves (once in each class that selects them; by type when none does),
// its physical GPUs under ModeDRA and the driver's name, the node under
// ModeDRA, and a pod waiting for a claim under its class's mode.
func TestComputeDRA(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "dra"}}
	state := &gpuworkload.NodeState{Name: "dra"}
	state.PublishedByDRA()
	vfio := gpuworkload.ClassPassthroughGPU
	devices := []dradevices.DRADeviceState{
		draDevice("gpu-0", "gpu", "0000:01:00.0", dradevices.DRADeviceAllocated), draDevice("gpu-vfio-0", "vfio", "0000:01:00.0", dradevices.DRADeviceSiblingInUse),
		draDevice("gpu-1", "gpu", "0000:02:00.0", dradevices.DRADeviceFree), draDevice("gpu-vfio-1", "vfio", "0000:02:00.0", dradevices.DRADeviceFree),
		draDevice("gpu-2", "gpu", "0000:03:00.0", dradevices.DRADeviceTainted),
	}
	waiting := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "vm", Namespace: "vms", UID: "vm"}}
	r := Compute(context.Background(), Input{
		Nodes: []*v1.Node{node},
		State: func(*v1.Node) *gpuworkload.NodeState { return state },
		Pods:  []*v1.Pod{waiting},
		Demand: func(*v1.Pod) poddemand.PodDemand {
			return poddemand.PodDemand{Claims: []dradevices.DRAClaimRequest{{Claim: "vms/vm-gpu", DeviceClass: "vfio.gpu.nvidia.com", Class: vfio, Count: 1}}}
		},
		ReasonOf: func(*v1.Pod) string { return "DRASiblingInUse" },
		// gpu-2 is in no class; gpu-1 also in a class of one product.
		DRADevices: func(string) ([]dradevices.DRADeviceState, map[string][]int) {
			return devices, map[string][]int{"gpu.nvidia.com": {0, 2}, "vfio.gpu.nvidia.com": {1, 3}, "a100.example.com": {2}}
		},
		DRADriver: "gpu.nvidia.com",
	})
	want := []Resource{
		{Mode: gpuworkload.ModeContainer, Resource: "a100.example.com", DRA: true, Allocatable: 1, Free: 1},
		{Mode: gpuworkload.ModeContainer, Resource: "gpu.nvidia.com", DRA: true, Allocatable: 2, Allocated: 1, Free: 1},
		{Mode: gpuworkload.ModeContainer, Resource: "gpu.nvidia.com/gpu", DRA: true, Allocatable: 1, Tainted: 1},
		// The VM fits the free GPU: nothing stranded.
		{Mode: ModeDRA, Resource: "gpu.nvidia.com", Allocatable: 3, Allocated: 1, Free: 1, Stranded: map[string]int64{"mode": 0, "cpu-memory": 0, "fragmentation": 0}},
		{Mode: gpuworkload.ModePassthrough, Resource: "vfio.gpu.nvidia.com", DRA: true, Allocatable: 2, Free: 1, SiblingInUse: 1},
	}
	if !equality.Semantic.DeepEqual(r.Resources, want) {
		t.Errorf("resources %+v, want %+v", r.Resources, want)
	}
	if dra := r.Modes[len(r.Modes)-1]; dra != (Mode{Mode: ModeDRA, Ready: 1}) {
		t.Errorf("DRA nodes %+v, want one ready, not empty", dra)
	}
	if len(r.Pending) != 1 || r.Pending[0] != (Pending{Mode: gpuworkload.ModePassthrough, Resource: "vfio.gpu.nvidia.com", Reason: "DRASiblingInUse", Pods: 1, Units: 1}) {
		t.Errorf("pending %+v, want the VM waiting for a passthrough device", r.Pending)
	}
}

// Units held by pods another scheduler bound count as allocated and as
// held by other schedulers: the extended resources they request, and the
// DRA devices their claims hold (one by name, one made from a template),
// once per device and once per physical GPU. Pods of any of our profiles
// hold none of them.
func TestComputeHeldByOtherSchedulers(t *testing.T) {
	in := cluster(3)
	in.OurSchedulers = []string{"gpu-workload-scheduler", "gpu-vm-scheduler"}
	for i, p := range in.Pods {
		p.Spec.SchedulerName = []string{"gpu-workload-scheduler", "default-scheduler", "gpu-vm-scheduler"}[i%3]
	}
	dra := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "dra"}}
	draState := &gpuworkload.NodeState{Name: "dra"}
	draState.PublishedByDRA()
	held := func(d dradevices.DRADeviceState, claim string) dradevices.DRADeviceState {
		d.Claim = claim
		return d
	}
	devices := []dradevices.DRADeviceState{
		held(draDevice("gpu-0", "gpu", "0000:01:00.0", dradevices.DRADeviceAllocated), "default/notebook"),
		held(draDevice("gpu-vfio-0", "vfio", "0000:01:00.0", dradevices.DRADeviceSiblingInUse), "default/notebook"),
		held(draDevice("gpu-1", "gpu", "0000:02:00.0", dradevices.DRADeviceAllocated), "default/job-gpu-abcde"),
		held(draDevice("gpu-2", "gpu", "0000:03:00.0", dradevices.DRADeviceAllocated), "default/ours"),
		draDevice("gpu-3", "gpu", "0000:04:00.0", dradevices.DRADeviceFree),
	}
	claimPod := func(name, scheduler string, claim v1.PodResourceClaim, status ...v1.PodResourceClaimStatus) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(name)},
			Spec:   v1.PodSpec{NodeName: "dra", SchedulerName: scheduler, ResourceClaims: []v1.PodResourceClaim{claim}},
			Status: v1.PodStatus{ResourceClaimStatuses: status}}
	}
	in.Pods = append(in.Pods,
		claimPod("notebook", "default-scheduler", v1.PodResourceClaim{Name: "gpu", ResourceClaimName: ptr.To("notebook")}),
		claimPod("job", "volcano", v1.PodResourceClaim{Name: "gpu", ResourceClaimTemplateName: ptr.To("one-gpu")},
			v1.PodResourceClaimStatus{Name: "gpu", ResourceClaimName: ptr.To("job-gpu-abcde")}),
		claimPod("ours", "gpu-workload-scheduler", v1.PodResourceClaim{Name: "gpu", ResourceClaimName: ptr.To("ours")}),
	)
	in.Nodes = append(in.Nodes, dra)
	state := in.State
	in.State = func(n *v1.Node) *gpuworkload.NodeState {
		if n == dra {
			return draState
		}
		return state(n)
	}
	in.DRADevices = func(string) ([]dradevices.DRADeviceState, map[string][]int) {
		return devices, map[string][]int{"gpu.nvidia.com": {0, 2, 3, 4}, "vfio.gpu.nvidia.com": {1}}
	}
	in.DRADriver = "gpu.nvidia.com"
	type row struct {
		mode     gpuworkload.Mode
		resource v1.ResourceName
	}
	got := map[row][2]int64{}
	for _, r := range Compute(context.Background(), in).Resources {
		got[row{r.Mode, r.Resource}] = [2]int64{r.Allocated, r.HeldByOtherSchedulers}
	}
	// cluster(3) binds two pods to each of its three nodes, one node per
	// mode: of the six pods, the second (container) and the fifth (vGPU)
	// are default-scheduler's.
	want := map[row][2]int64{
		{gpuworkload.ModeContainer, gpuworkload.ResourceGPU}:    {2, 1},
		{gpuworkload.ModePassthrough, "nvidia.com/GA102GL_A10"}: {2, 0},
		{gpuworkload.ModeVGPU, "nvidia.com/NVIDIA_A10-12Q"}:     {2, 1},
		{gpuworkload.ModeContainer, "gpu.nvidia.com"}:           {3, 2},
		{gpuworkload.ModePassthrough, "vfio.gpu.nvidia.com"}:    {0, 0},
		{ModeDRA, "gpu.nvidia.com"}:                             {3, 2},
	}
	for key, w := range want {
		if got[key] != w {
			t.Errorf("%s %s: allocated and held by other schedulers %v, want %v", key.mode, key.resource, got[key], w)
		}
	}
}

// With BoundPods, a count recomputes only the bound pods that changed, and
// forgets those gone; the numbers are those of a count without it.
func TestBoundPodsFollowChanges(t *testing.T) {
	in := cluster(30)
	uncached := Compute(context.Background(), in)
	in.Bound = NewBoundPods()
	for range 2 {
		if got := Compute(context.Background(), in); !equality.Semantic.DeepEqual(got, uncached) {
			t.Fatalf("with the cache %+v, without %+v", got, uncached)
		}
	}
	if len(in.Bound.pods) != 60 {
		t.Fatalf("%d bound pods kept, want 60", len(in.Bound.pods))
	}
	// A bound pod now asks for two GPUs (a new resourceVersion); another is gone.
	grown := in.Pods[0].DeepCopy()
	grown.ResourceVersion = "2"
	grown.Spec.Containers[0].Resources.Requests[gpuworkload.ResourceGPU] = resource.MustParse("2")
	in.Pods = append([]*v1.Pod{grown}, in.Pods[2:]...)
	allocated := func(r Report) int64 { return r.Resources[0].Allocated }
	if got := Compute(context.Background(), in); allocated(got) != allocated(uncached) || len(in.Bound.pods) != 59 {
		t.Errorf("container GPUs allocated %d (want %d: one pod more, one less), %d bound pods kept (want 59)", allocated(got), allocated(uncached), len(in.Bound.pods))
	}
}

// BenchmarkCompute is the cost of one /metrics scrape's inventory: the
// first (cold) and the next ones of a stable cluster (cached).
func BenchmarkCompute(b *testing.B) {
	for _, n := range []int{1_000, 5_000} {
		in := cluster(n)
		b.Run(fmt.Sprintf("nodes=%d/cold", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Compute(context.Background(), in)
			}
		})
		in.Bound = NewBoundPods()
		Compute(context.Background(), in)
		b.Run(fmt.Sprintf("nodes=%d/cached", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Compute(context.Background(), in)
			}
		})
	}
}

// A DRA node's free GPUs are stranded once, per GPU, against the pods that
// wait for the driver's devices: claims, and extended resources a
// DeviceClass of the driver serves.
func TestComputeDRAStranding(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "dra"}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
		v1.ResourceCPU: resource.MustParse("16"), v1.ResourceMemory: resource.MustParse("64Gi"),
	}}}
	state := &gpuworkload.NodeState{Name: "dra"}
	state.PublishedByDRA()
	devices := []dradevices.DRADeviceState{
		draDevice("gpu-0", "gpu", "0000:01:00.0", dradevices.DRADeviceFree), draDevice("gpu-vfio-0", "vfio", "0000:01:00.0", dradevices.DRADeviceFree),
		draDevice("gpu-1", "gpu", "0000:02:00.0", dradevices.DRADeviceFree), draDevice("gpu-vfio-1", "vfio", "0000:02:00.0", dradevices.DRADeviceFree),
	}
	claim := func(count int64) poddemand.PodDemand {
		return poddemand.PodDemand{Claims: []dradevices.DRAClaimRequest{{Claim: "ns/c", DeviceClass: "gpu.nvidia.com", Class: gpuworkload.ClassContainerGPU, Count: count}}}
	}
	request := func(name v1.ResourceName, count int64) poddemand.PodDemand {
		return poddemand.PodDemand{Requests: []poddemand.ResourceRequest{{Name: name, Count: count}}}
	}
	pinned := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "h100"}}
	pinned.Spec.Devices.Requests = []resourceapi.DeviceRequest{{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: "gpu.nvidia.com", Count: 4,
		Selectors: []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{Expression: "device.attributes['gpu.nvidia.com'].productName.contains('H100')"}}}}}}
	pinnedClaims, err := dradevices.DRAClaimRequestsOf(nil, pinned, func(string) (gpuworkload.ResourceClass, bool) { return gpuworkload.ClassContainerGPU, true })
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		demand poddemand.PodDemand
		cpu    string
		want   map[string]int64
	}{
		{"a claim that fits", claim(2), "8", map[string]int64{"mode": 0, "cpu-memory": 0, "fragmentation": 0}},
		{"a claim for more GPUs than are free", claim(4), "8", map[string]int64{"mode": 0, "cpu-memory": 0, "fragmentation": 2}},
		{"a claim for more CPU than is free", claim(1), "32", map[string]int64{"mode": 0, "cpu-memory": 2, "fragmentation": 0}},
		// Its selectors match no device of the node: its GPUs are not the pod's to strand.
		{"a claim for more GPUs than are free, pinned to a card the node lacks", poddemand.PodDemand{Claims: pinnedClaims}, "8", map[string]int64{"mode": 0, "cpu-memory": 0, "fragmentation": 0}},
		{"an extended resource a DeviceClass serves", request("nvidia.com/gpu", 4), "8", map[string]int64{"mode": 0, "cpu-memory": 0, "fragmentation": 2}},
		{"only a vGPU VM, which no DeviceClass serves", request("nvidia.com/NVIDIA_A10-12Q", 1), "8", map[string]int64{"mode": 2, "cpu-memory": 0, "fragmentation": 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "p"}, Spec: v1.PodSpec{Containers: []v1.Container{{
				Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse(tc.cpu)}},
			}}}}
			r := Compute(context.Background(), Input{
				Nodes:      []*v1.Node{node},
				State:      func(*v1.Node) *gpuworkload.NodeState { return state },
				Pods:       []*v1.Pod{pod},
				Demand:     func(*v1.Pod) poddemand.PodDemand { return tc.demand },
				ReasonOf:   func(*v1.Pod) string { return "" },
				DRADevices: func(string) ([]dradevices.DRADeviceState, map[string][]int) { return devices, nil },
				DRADriver:  "gpu.nvidia.com",
				DRAServes:  func(name v1.ResourceName) bool { return name == "nvidia.com/gpu" },
			})
			i := slices.IndexFunc(r.Resources, func(res Resource) bool { return res.Mode == ModeDRA })
			if i < 0 {
				t.Fatalf("no row for the DRA node's GPUs: %+v", r.Resources)
			}
			if got := r.Resources[i]; got.Free != 2 || !maps.Equal(got.Stranded, tc.want) {
				t.Errorf("GPUs %+v, want 2 free, stranded %v", got, tc.want)
			}
		})
	}
}

// A pod waiting for a claim is waiting GPU demand for the device-plugin
// nodes too: their free units serve no claim, so they are stranded by mode.
func TestWaitingClaimStrandsDevicePluginUnits(t *testing.T) {
	in := cluster(3)
	in.Pods = append(in.Pods, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "vm", Namespace: "vms", UID: "vm"}})
	in.Demand = func(p *v1.Pod) poddemand.PodDemand {
		if p.Name == "vm" {
			return poddemand.PodDemand{Claims: []dradevices.DRAClaimRequest{{Claim: "vms/vm-gpu", DeviceClass: "vfio.gpu.nvidia.com", Class: gpuworkload.ClassPassthroughGPU, Count: 1}}}
		}
		return poddemand.NewPodDemand(p, nil)
	}
	in.DRADriver = "gpu.nvidia.com"
	for _, res := range Compute(context.Background(), in).Resources {
		if res.Stranded["mode"] != res.Free {
			t.Errorf("%s: %d of %d free units stranded by mode, want all while only a VFIO claim waits", res.Resource, res.Stranded["mode"], res.Free)
		}
	}
}
