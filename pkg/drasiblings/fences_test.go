package drasiblings

import (
	"context"
	"slices"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices/dratest"
)

// devices is lookupNode's node as a DeviceLookup, without the devices in
// withdrawn, as the driver leaves a slice once it prepared a vfio claim.
func devices(withdrawn ...string) DeviceLookup {
	_, node := lookupNode()
	node = dradevices.NewDRANode(slices.DeleteFunc(slices.Clone(node.Devices), func(d dradevices.DRADevice) bool { return slices.Contains(withdrawn, d.Name) }))
	return func(pool, device string) (bool, []dradevices.DRADevice) {
		published := slices.ContainsFunc(node.Devices, func(d dradevices.DRADevice) bool { return d.Pool == pool && d.Name == device })
		return published, node.Siblings(pool, device)
	}
}

func TestFencesFor(t *testing.T) {
	for _, tc := range []struct {
		name, device string
		withdrawn    []string
		want         []string
	}{
		{name: "a vfio device: its GPU's container device", device: "gpu-vfio-0", want: []string{"gpu-0"}},
		{name: "the container device withdrawn by the driver", device: "gpu-vfio-0", withdrawn: []string{"gpu-0"}},
		{name: "a container device: the driver never withdraws the vfio one, no fence", device: "gpu-0"},
		{name: "a MIG device: independent", device: "gpu-3-mig-1g5gb-0"},
		{name: "counted devices: the allocator's business", device: "gpu-vfio-2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range FencesFor(dratest.AllocatedClaim("ns", "vm", "n1", tc.device), dradevices.DRADriver, devices(tc.withdrawn...)) {
				if f.Driver != dradevices.DRADriver || f.Pool != "n1" || f.Claim != "ns/vm" {
					t.Errorf("fence %+v: want driver %s, pool n1, claim ns/vm", f, dradevices.DRADriver)
				}
				got = append(got, f.Device)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("fences %v, want %v", got, tc.want)
			}
		})
	}
	other := dratest.AllocatedClaim("ns", "vm", "n1", "gpu-vfio-0")
	other.Status.Allocation.Devices.Results[0].Driver = "gpu.example.com"
	if got := FencesFor(other, dradevices.DRADriver, devices()); len(got) != 0 {
		t.Fatalf("another driver's device fenced: %v", got)
	}
}

// A rule selects exactly the fenced device, under the label the admission
// policy lets the scheduler write, with a name of its own per device.
func TestFenceRule(t *testing.T) {
	f := Fence{Driver: "gpu.nvidia.com", Pool: "n1", Device: "gpu-0", Claim: "ns/vm"}
	r := f.Rule()
	sel := r.Spec.DeviceSelector
	if r.Name != f.RuleName() || r.Labels[ManagedByLabel] != ManagedBy || r.Annotations[FenceClaimAnnotation] != "ns/vm" ||
		*sel.Driver != "gpu.nvidia.com" || *sel.Pool != "n1" || *sel.Device != "gpu-0" ||
		r.Spec.Taint != (resourceapi.DeviceTaint{Key: FenceTaintKey, Effect: resourceapi.DeviceTaintEffectNoSchedule}) {
		t.Fatalf("rule %+v", r)
	}
	if other := (Fence{Driver: "gpu.nvidia.com", Pool: "n1", Device: "gpu-1"}); other.RuleName() == f.RuleName() {
		t.Fatalf("gpu-0 and gpu-1 share rule %s", f.RuleName())
	}
}

// configured is a Fences over a fake API holding objs, its informers
// started and synced; the loop is not started: reconcile is called directly.
func configured(t *testing.T, lookup DeviceLookup, objs ...runtime.Object) (*Fences, *fake.Clientset) {
	t.Helper()
	client := fake.NewClientset(objs...)
	factory := informers.NewSharedInformerFactory(client, 0)
	f := NewFences()
	if err := f.Configure("gpu-workload-scheduler", dradevices.DRADriver, client, factory, lookup); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	factory.Start(ctx.Done())
	for typ, synced := range factory.WaitForCacheSync(ctx.Done()) {
		if !synced {
			t.Fatalf("informer of %v not synced", typ)
		}
	}
	return f, client
}

// reconcileSeen reconciles, then waits until the rule informer shows what
// the API holds, as the next pass would see it.
func reconcileSeen(t *testing.T, f *Fences, client *fake.Clientset) {
	t.Helper()
	if err := f.reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := ruleNames(t, client)
	err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		listed, err := f.rules.List(labels.Everything())
		return err == nil && len(listed) == len(want), err
	})
	if err != nil {
		t.Fatalf("the informer does not show rules %v: %v", want, err)
	}
}

func ruleNames(t *testing.T, client *fake.Clientset) []string {
	t.Helper()
	list, err := client.ResourceV1().DeviceTaintRules().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range list.Items {
		names = append(names, r.Name)
	}
	slices.Sort(names)
	return names
}

// reserved is the claim of a VM pod of the scheduler, holding gpu-vfio-0.
func reserved(scheduler string) (*resourceapi.ResourceClaim, *v1.Pod) {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "vm", UID: "pod-uid"}, Spec: v1.PodSpec{SchedulerName: scheduler}}
	claim := dratest.AllocatedClaim("ns", "vm", "n1", "gpu-vfio-0")
	claim.UID = "claim-uid"
	claim.Status.ReservedFor = []resourceapi.ResourceClaimConsumerReference{{Resource: "pods", Name: "vm", UID: "pod-uid"}}
	return claim, pod
}

// The loop rebuilds the fences of the claims held by the scheduler's pods
// and deletes every other rule labelled as its own; it leaves alone the
// claims of another scheduler's pods and rules not labelled as its own.
func TestReconcile(t *testing.T) {
	gpu0 := Fence{Driver: dradevices.DRADriver, Pool: "n1", Device: "gpu-0"}.RuleName()
	orphan := Fence{Driver: dradevices.DRADriver, Pool: "n1", Device: "gpu-1"}.Rule()
	foreign := &resourceapi.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: "maintenance"}}
	for _, tc := range []struct {
		name      string
		scheduler string
		withdrawn []string
		want      []string
	}{
		{name: "our VM's GPU fenced, the orphan deleted", scheduler: "gpu-workload-scheduler", want: []string{gpu0, "maintenance"}},
		{name: "another scheduler's VM: not ours to fence", scheduler: "default-scheduler", want: []string{"maintenance"}},
		{name: "the driver withdrew the container device", scheduler: "gpu-workload-scheduler", withdrawn: []string{"gpu-0"}, want: []string{"maintenance"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			claim, pod := reserved(tc.scheduler)
			f, client := configured(t, devices(tc.withdrawn...), claim, pod, orphan, foreign)
			reconcileSeen(t, f, client)
			if got := ruleNames(t, client); !slices.Equal(got, tc.want) {
				t.Fatalf("rules %v, want %v", got, tc.want)
			}
		})
	}
}

// A fence raised for an allocation not yet written is kept until the claim
// shows the allocation, and dropped when the allocation is given up or the
// claim is deleted before the loop saw the allocation.
func TestRaisedUntilWrittenOrLowered(t *testing.T) {
	claim, _ := reserved("gpu-workload-scheduler")
	unwritten := claim.DeepCopy()
	unwritten.Status = resourceapi.ResourceClaimStatus{}
	f, client := configured(t, devices(), unwritten)
	gpu0 := Fence{Driver: dradevices.DRADriver, Pool: "n1", Device: "gpu-0"}.RuleName()
	f.mu.Lock()
	f.raised[types.UID("claim-uid")] = FencesFor(claim, dradevices.DRADriver, devices())
	f.mu.Unlock()
	reconcileSeen(t, f, client)
	if got := ruleNames(t, client); !slices.Equal(got, []string{gpu0}) {
		t.Fatalf("rules while the allocation is in flight: %v, want %v", got, []string{gpu0})
	}
	f.Lowered("claim-uid")
	reconcileSeen(t, f, client)
	if got := ruleNames(t, client); len(got) != 0 {
		t.Fatalf("rules once the allocation was given up: %v, want none", got)
	}

	// Raised again; the claim, written and released since, is deleted
	// before any pass saw it allocated.
	f.mu.Lock()
	f.raised[types.UID("claim-uid")] = FencesFor(claim, dradevices.DRADriver, devices())
	f.mu.Unlock()
	reconcileSeen(t, f, client)
	if err := client.ResourceV1().ResourceClaims("ns").Delete(context.Background(), "vm", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		listed, err := f.claims.List(labels.Everything())
		return err == nil && len(listed) == 0, err
	})
	if err != nil {
		t.Fatalf("the claim informer still lists the deleted claim: %v", err)
	}
	reconcileSeen(t, f, client)
	if got := ruleNames(t, client); len(got) != 0 {
		t.Fatalf("rules once the claim was deleted: %v, want none", got)
	}
}
