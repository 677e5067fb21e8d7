package gpudynamicresources

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/dynamic-resource-allocation/structured"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices/dratest"
)

// fakeClaims is a claim tracker whose allocations a case sets.
type fakeClaims struct {
	fwk.ResourceClaimTracker
	allocated []structured.DeviceID
}

func (c *fakeClaims) ListAllAllocatedDevices() (sets.Set[structured.DeviceID], error) {
	return sets.New(c.allocated...), nil
}

func (c *fakeClaims) GatherAllocatedState() (*structured.AllocatedState, error) {
	return &structured.AllocatedState{AllocatedDevices: sets.New(c.allocated...)}, nil
}

func id(pool, device string) structured.DeviceID {
	return structured.MakeDeviceID(dradevices.DRADriver, pool, device)
}

// The allocator sees the sibling of every allocated device of the driver
// as allocated: the vfio device of a GPU whose gpu device a claim holds,
// and the other way round; other drivers, MIG-like devices that consume
// counters, and a pool's older generation add nothing. A slice update is
// seen at the next cycle.
func TestSiblingsCountAsAllocated(t *testing.T) {
	twoGPUs := dradevices.DriverSlice("node-a", 2)
	counted := dradevices.DriverSlice("node-c", 1)
	for i := range counted.Spec.Devices {
		counted.Spec.Devices[i].ConsumesCounters = []resourceapi.DeviceCounterConsumption{{CounterSet: "gpu-0"}}
	}
	stale := dradevices.DriverSlice("node-d", 1)
	stale.Name, stale.Spec.Pool.Generation = "node-d-old", 1
	current := dradevices.DriverSlice("node-d", 0)
	current.Spec.Pool.Generation = 2
	client := fake.NewClientset(twoGPUs, counted, stale, current)
	factory := informers.NewSharedInformerFactory(client, 0)
	informer := factory.Resource().V1().ResourceSlices().Informer()
	index, err := newSiblingIndex(informer, dradevices.DRADriver)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())

	for _, tc := range []struct {
		name      string
		allocated []structured.DeviceID
		want      []structured.DeviceID
	}{
		{"a gpu device", []structured.DeviceID{id("node-a", "gpu-0")}, []structured.DeviceID{id("node-a", "gpu-0"), id("node-a", "gpu-vfio-0")}},
		{"a vfio device", []structured.DeviceID{id("node-a", "gpu-vfio-1")}, []structured.DeviceID{id("node-a", "gpu-1"), id("node-a", "gpu-vfio-1")}},
		{"another driver's device", []structured.DeviceID{structured.MakeDeviceID("other.example.com", "node-a", "gpu-0")}, []structured.DeviceID{structured.MakeDeviceID("other.example.com", "node-a", "gpu-0")}},
		{"devices that consume counters", []structured.DeviceID{id("node-c", "gpu-0")}, []structured.DeviceID{id("node-c", "gpu-0")}},
		{"a device of an older generation", []structured.DeviceID{id("node-d", "gpu-0")}, []structured.DeviceID{id("node-d", "gpu-0")}},
		{"a pool nobody publishes", []structured.DeviceID{id("node-x", "gpu-0")}, []structured.DeviceID{id("node-x", "gpu-0")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			claims := &fakeClaims{allocated: tc.allocated}
			wrapped := &siblingClaims{ResourceClaimTracker: claims, siblings: index}
			listed, err := wrapped.ListAllAllocatedDevices()
			if err != nil {
				t.Fatal(err)
			}
			state, err := wrapped.GatherAllocatedState()
			if err != nil {
				t.Fatal(err)
			}
			for what, got := range map[string]sets.Set[structured.DeviceID]{"ListAllAllocatedDevices": listed, "GatherAllocatedState": state.AllocatedDevices} {
				if !got.Equal(sets.New(tc.want...)) {
					t.Errorf("%s = %v, want %v", what, names(got), names(sets.New(tc.want...)))
				}
			}
		})
	}

	// The driver stops publishing gpu-vfio-0 on node-a: its gpu device
	// then excludes nothing.
	updated := twoGPUs.DeepCopy()
	updated.Spec.Devices = slices.DeleteFunc(updated.Spec.Devices, func(d resourceapi.Device) bool { return d.Name == "gpu-vfio-0" })
	if _, err := client.ResourceV1().ResourceSlices().Update(ctx, updated, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	wrapped := &siblingClaims{ResourceClaimTracker: &fakeClaims{allocated: []structured.DeviceID{id("node-a", "gpu-0")}}, siblings: index}
	if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		listed, err := wrapped.ListAllAllocatedDevices()
		return err == nil && listed.Len() == 1, err
	}); err != nil {
		t.Fatalf("after the slice update: %v", err)
	}
}

func names(s sets.Set[structured.DeviceID]) []string {
	out := make([]string, 0, s.Len())
	for d := range s {
		out = append(out, d.String())
	}
	slices.Sort(out)
	return out
}

// pendingClaims keeps in-flight allocations as the framework's tracker
// does, and returns written claims from Get.
type pendingClaims struct {
	fwk.ResourceClaimTracker
	pending map[types.UID]*resourceapi.ResourceClaim
	written map[string]*resourceapi.ResourceClaim
}

func (c *pendingClaims) SignalClaimPendingAllocation(uid types.UID, claim *resourceapi.ResourceClaim) error {
	c.pending[uid] = claim
	return nil
}

func (c *pendingClaims) GetPendingAllocation(uid types.UID) *resourceapi.AllocationResult {
	if claim := c.pending[uid]; claim != nil {
		return claim.Status.Allocation
	}
	return nil
}

func (c *pendingClaims) MaybeRemoveClaimPendingAllocation(uid types.UID, _ bool) bool {
	_, ok := c.pending[uid]
	delete(c.pending, uid)
	return ok
}

func (c *pendingClaims) Get(namespace, name string) (*resourceapi.ResourceClaim, error) {
	if claim := c.written[namespace+"/"+name]; claim != nil {
		return claim, nil
	}
	return nil, fmt.Errorf("claim %s/%s not found", namespace, name)
}

// The claim tracker tells the process's trackers of each allocation it
// holds in flight and of its end: a tracker counts the device as allocated
// from Reserve on, and frees it when the allocation is given up.
func TestSiblingClaimsRelayAllocationsInFlight(t *testing.T) {
	relay := clusterstate.NewClaimsInFlight()
	tracker := clusterstate.NewTracker(gpuworkload.SandboxPolicy{DefaultWorkload: gpuworkload.ModeContainer}, nil,
		func(*gpuworkload.NodeState, gpuworkload.Mode) string { return "" }, clusterstate.TrackerOptions{})
	tracker.UpsertResourceSlice(dradevices.DriverSlice("node-a", 1))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	relay.Follow(ctx, tracker, nil)
	claims := &pendingClaims{pending: map[types.UID]*resourceapi.ResourceClaim{}, written: map[string]*resourceapi.ResourceClaim{}}
	wrapped := &siblingClaims{ResourceClaimTracker: claims, inFlight: relay, fences: drasiblings.NewFences()}

	claim := dratest.AllocatedClaim("ns", "vm", "node-a", "gpu-vfio-0")
	claim.UID = "uid-vm"
	if err := wrapped.SignalClaimPendingAllocation(claim.UID, claim); err != nil {
		t.Fatal(err)
	}
	if !held(tracker, "node-a", "gpu-vfio-0") {
		t.Fatal("the tracker does not hold the device of the allocation in flight")
	}
	if !wrapped.MaybeRemoveClaimPendingAllocation(claim.UID, false) {
		t.Fatal("the allocation in flight was not removed")
	}
	if held(tracker, "node-a", "gpu-vfio-0") {
		t.Fatal("the tracker still holds the device of an allocation given up")
	}
}

// held reports whether a claim, or an allocation in flight, holds the
// node's device, as the tracker's device states show it.
func held(t *clusterstate.Tracker, node, device string) bool {
	i := slices.IndexFunc(t.DRADeviceStates(node), func(d dradevices.DRADeviceState) bool { return d.Name == device })
	return i >= 0 && t.DRADeviceStates(node)[i].State == dradevices.DRADeviceAllocated
}
