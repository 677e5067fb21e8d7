package gpuworkloadfit

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2/ktesting"
	fwk "k8s.io/kube-scheduler/framework"
	st "k8s.io/kubernetes/pkg/scheduler/testing"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices/dratest"
)

func TestEventsToRegister(t *testing.T) {
	pl := newPlugin(t, enabled(), nil)
	events, err := pl.EventsToRegister(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[fwk.ClusterEvent]bool{
		{Resource: fwk.Node, ActionType: fwk.Add | fwk.UpdateNodeLabel | fwk.UpdateNodeAllocatable}: true,
		{Resource: fwk.AssignedPod, ActionType: fwk.Delete}:                                         true,
		{Resource: fwk.ResourceSlice, ActionType: fwk.Add | fwk.Update}:                             true,
		{Resource: fwk.DeviceClass, ActionType: fwk.Add | fwk.Update}:                               true,
		{Resource: fwk.ResourceClaim, ActionType: fwk.Add | fwk.Update | fwk.Delete}:                true,
	}
	if len(events) != len(want) {
		t.Fatalf("registered %d events, want %d", len(events), len(want))
	}
	for _, e := range events {
		if !want[e.Event] || e.QueueingHintFn == nil {
			t.Fatalf("unexpected registration %+v", e.Event)
		}
	}
}

func TestNodeChangeHint(t *testing.T) {
	passthroughVM := launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"})
	containerNode := gpuNode("n", "container", map[v1.ResourceName]string{gpu: "1"})
	relabelled := containerNode.DeepCopy()
	relabelled.Labels[labelKey] = "vm-passthrough"
	relabelled.ResourceVersion = "2"
	advertising := relabelled.DeepCopy()
	advertising.Status.Capacity = st.MakeNode().Capacity(map[v1.ResourceName]string{a10: "1", gpu: "0"}).Obj().Status.Capacity
	advertising.Status.Allocatable = advertising.Status.Capacity
	advertising.ResourceVersion = "3"
	more := advertising.DeepCopy()
	more.Status.Capacity = st.MakeNode().Capacity(map[v1.ResourceName]string{a10: "2"}).Obj().Status.Capacity
	more.Status.Allocatable = more.Status.Capacity
	more.ResourceVersion = "4"
	otherLabel := advertising.DeepCopy()
	otherLabel.Labels["team"] = "a"
	otherLabel.ResourceVersion = "5"

	for _, tc := range []struct {
		name     string
		pod      *v1.Pod
		old, new *v1.Node
		want     fwk.QueueingHint
	}{
		{name: "new node of another mode", pod: passthroughVM, new: containerNode, want: fwk.QueueSkip},
		{name: "new passthrough node", pod: passthroughVM, new: advertising, want: fwk.Queue},
		{name: "relabelled, still advertising the old mode", pod: passthroughVM, old: containerNode, new: relabelled, want: fwk.QueueSkip},
		{name: "status patched to the new mode", pod: passthroughVM, old: relabelled, new: advertising, want: fwk.Queue},
		{name: "more units advertised", pod: passthroughVM, old: advertising, new: more, want: fwk.Queue},
		{name: "unrelated label", pod: passthroughVM, old: advertising, new: otherLabel, want: fwk.QueueSkip},
		{name: "pod of two modes never fits", pod: podRequesting("both", map[v1.ResourceName]string{gpu: "1", a10: "1"}), new: advertising, want: fwk.QueueSkip},
		{name: "non-GPU pod", pod: podRequesting("web", map[v1.ResourceName]string{v1.ResourceCPU: "1"}), new: advertising, want: fwk.QueueSkip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logger, _ := ktesting.NewTestContext(t)
			pl := newPlugin(t, enabled(), nil)
			var old any
			if tc.old != nil {
				old = tc.old
			}
			got, err := pl.isSchedulableAfterNodeChange(logger, tc.pod, old, tc.new)
			if err != nil || got != tc.want {
				t.Fatalf("hint %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}

func TestAssignedPodDeleteHint(t *testing.T) {
	pod := launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"})
	for _, tc := range []struct {
		name    string
		deleted *v1.Pod
		want    fwk.QueueingHint
	}{
		{name: "freed the requested model", deleted: podRequesting("old-vm", map[v1.ResourceName]string{a10: "1"}), want: fwk.Queue},
		{name: "freed another resource", deleted: podRequesting("c", map[v1.ResourceName]string{gpu: "1"}), want: fwk.QueueSkip},
		{name: "freed CPU only", deleted: podRequesting("web", map[v1.ResourceName]string{v1.ResourceCPU: "4"}), want: fwk.QueueSkip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logger, _ := ktesting.NewTestContext(t)
			pl := newPlugin(t, enabled(), nil)
			got, err := pl.isSchedulableAfterAssignedPodDelete(logger, pod, tc.deleted, nil)
			if err != nil || got != tc.want {
				t.Fatalf("hint %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}

// DRA events of other drivers, of classes that select no GPU, and of other
// pods' claims that hold no GPU device do not requeue a GPU pod.
func TestDRAEventHints(t *testing.T) {
	vm := launcherPod("vm-dra", nil)
	vm.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("vm-dra-gpu")}}
	gpuSlice := dradevices.DriverSlice("dra-1", 1)
	nicSlice := gpuSlice.DeepCopy()
	nicSlice.Spec.Driver = "sriov.example.com"
	gpuClass := &resourceapi.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "vfio.gpu.nvidia.com"}}
	nicClass := &resourceapi.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: "nic.example.com"}, Spec: resourceapi.DeviceClassSpec{Selectors: []resourceapi.DeviceSelector{
		{CEL: &resourceapi.CELDeviceSelector{Expression: "device.driver == 'sriov.example.com'"}}}}}
	own := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: vm.Namespace, Name: "vm-dra-gpu"}}
	otherNIC := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: vm.Namespace, Name: "nic"}, Status: resourceapi.ResourceClaimStatus{
		Allocation: &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{
			{Request: "nic", Driver: "sriov.example.com", Pool: "dra-1", Device: "vf-0"}}}}}}
	otherGPU := dratest.AllocatedClaim(vm.Namespace, "cuda", "dra-1", "gpu-0")
	for _, tc := range []struct {
		name     string
		hint     func(*GPUWorkloadFit) fwk.QueueingHintFn
		old, new any
		want     fwk.QueueingHint
	}{
		{name: "the GPU driver's slice", hint: sliceHint, new: gpuSlice, want: fwk.Queue},
		{name: "another driver's slice", hint: sliceHint, new: nicSlice, want: fwk.QueueSkip},
		{name: "a GPU DeviceClass", hint: classHint, new: gpuClass, want: fwk.Queue},
		{name: "a DeviceClass of NICs", hint: classHint, new: nicClass, want: fwk.QueueSkip},
		{name: "the pod's own claim", hint: claimHint, new: own, want: fwk.Queue},
		{name: "another pod's claim of a NIC", hint: claimHint, new: otherNIC, want: fwk.QueueSkip},
		{name: "another pod's GPU claim deleted", hint: claimHint, old: otherGPU, want: fwk.Queue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logger, _ := ktesting.NewTestContext(t)
			pl := newPlugin(t, enabled(), nil)
			got, err := tc.hint(pl)(logger, vm, tc.old, tc.new)
			if err != nil || got != tc.want {
				t.Fatalf("hint %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}

func sliceHint(pl *GPUWorkloadFit) fwk.QueueingHintFn { return pl.isSchedulableAfterSliceChange }
func classHint(pl *GPUWorkloadFit) fwk.QueueingHintFn { return pl.isSchedulableAfterDeviceClassChange }
func claimHint(pl *GPUWorkloadFit) fwk.QueueingHintFn { return pl.isSchedulableAfterClaimChange }

// The queue replays events recorded during a cycle later, with their old
// objects: a hint that ran on a stale claim changes nothing the next cycle
// reads, so a device freed since stays free.
func TestClaimHintChangesNoState(t *testing.T) {
	logger, _ := ktesting.NewTestContext(t)
	pl := newPlugin(t, enabled(), nil)
	mustUpsertClass(t, pl.profile.Tracker(), gpuDeviceClass())
	pl.profile.Tracker().UpsertResourceSlice(dradevices.DriverSlice("dra", 1))
	stale := claim("train", "gpu.nvidia.com", "dra", "gpu-0")
	pl.profile.Tracker().UpsertResourceClaim(stale)
	pl.profile.Tracker().DeleteResourceClaim(stale.Namespace, stale.Name)
	if _, err := claimHint(pl)(logger, vmWithClaim("vm", "vm-gpu"), nil, stale); err != nil {
		t.Fatal(err)
	}
	if got := pl.profile.Tracker().DRAAvailability("dra").ByDeviceClass[dradevices.DRAClassGPU]; got.Free != 1 {
		t.Fatalf("after a replayed event of a deleted claim, gpu.nvidia.com on the node: %+v, want 1 free", got)
	}
}
