package clusterstate

import (
	"context"
	"slices"
	"testing"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices/dratest"
)

// An allocation in flight holds its device, and blocks its sibling, from
// the moment the allocator holds it; an informer event of the claim, still
// unallocated, does not drop it; once released with its status written the
// device stays held, with no moment free; released unwritten, it is free
// and the tracker says so. A tracker that follows later gets what is held.
func TestClaimsInFlight(t *testing.T) {
	relay := NewClaimsInFlight()
	tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	tr.UpsertResourceSlice(dradevices.DriverSlice("n1", 2))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	freed := 0
	relay.Follow(ctx, tr, func() { freed++ })

	state := func(device string) string {
		for _, d := range tr.DRADeviceStates("n1") {
			if d.Name == device {
				return d.State + " " + d.Claim
			}
		}
		return "missing"
	}
	expect := func(when string, want map[string]string) {
		t.Helper()
		for device, w := range want {
			if got := state(device); got != w {
				t.Errorf("%s: %s is %q, want %q", when, device, got, w)
			}
		}
	}

	vm := dratest.AllocatedClaim("ns", "vm", "n1", "gpu-vfio-0")
	vm.UID = "uid-vm"
	unallocated := vm.DeepCopy()
	unallocated.Status.Allocation = nil
	tr.UpsertResourceClaim(unallocated)
	relay.Held(vm.UID, vm)
	expect("held in flight", map[string]string{"gpu-vfio-0": "allocated ns/vm", "gpu-0": "sibling-in-use ns/vm", "gpu-1": "free "})
	tr.UpsertResourceClaim(unallocated)
	expect("after an informer event of the unallocated claim", map[string]string{"gpu-vfio-0": "allocated ns/vm"})

	later := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	later.UpsertResourceSlice(dradevices.DriverSlice("n1", 2))
	relay.Follow(ctx, later, nil)
	if !held(later, "n1", "gpu-vfio-0") {
		t.Error("a tracker that follows later does not hold the allocation in flight")
	}

	if dropped := relay.Released(vm.UID, func(namespace, name string) *resourceapi.ResourceClaim {
		if namespace != "ns" || name != "vm" {
			t.Errorf("current(%s, %s), want ns/vm", namespace, name)
		}
		return vm
	}); dropped {
		t.Error("an allocation its claim's status holds is reported dropped")
	}
	expect("released with its status written", map[string]string{"gpu-vfio-0": "allocated ns/vm"})
	if freed != 0 {
		t.Errorf("freed called %d times for an allocation that was written", freed)
	}

	cuda := dratest.AllocatedClaim("ns", "cuda", "n1", "gpu-1")
	cuda.UID = "uid-cuda"
	relay.Held(cuda.UID, cuda)
	expect("second claim held", map[string]string{"gpu-1": "allocated ns/cuda"})
	if dropped := relay.Released(cuda.UID, func(string, string) *resourceapi.ResourceClaim { return nil }); !dropped {
		t.Error("an allocation given up is not reported dropped")
	}
	expect("released unwritten", map[string]string{"gpu-1": "free ", "gpu-vfio-1": "free "})
	if freed != 1 {
		t.Errorf("freed called %d times, want once, for the allocation given up", freed)
	}
	if relay.Released(types.UID("uid-unknown"), func(string, string) *resourceapi.ResourceClaim {
		t.Error("current read for a claim never held")
		return nil
	}) {
		t.Error("a claim never held is reported dropped")
	}
}

// What EachDRANode calls runs without the tracker's lock: an explanation
// that evaluates an expensive claim selector on every device never holds
// up the informers' updates.
func TestEachDRANodeDoesNotBlockUpdates(t *testing.T) {
	tr := NewTracker(argsPolicy(), nil, reasonOf, TrackerOptions{})
	tr.UpsertResourceSlice(dradevices.DriverSlice("n1", 1))
	tr.UpsertNode(node("n1", "1", "", nil))
	inside, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tr.EachDRANode(func(string, *dradevices.DRANode, *dradevices.DRAAvailability) {
			close(inside)
			<-release
		})
	}()
	select {
	case <-inside:
	case <-time.After(wait.ForeverTestTimeout):
		t.Fatal("EachDRANode did not call back for the DRA node")
	}
	updated := make(chan struct{})
	go func() {
		tr.UpsertResourceClaim(dratest.AllocatedClaim("ns", "vm", "n1", "gpu-vfio-0"))
		close(updated)
	}()
	select {
	case <-updated:
	case <-time.After(wait.ForeverTestTimeout):
		t.Fatal("a claim update waited for EachDRANode's callback")
	}
	close(release)
	<-done
}

// held reports whether a claim, or an allocation in flight, holds the
// node's device, as the tracker's device states show it.
func held(t *Tracker, node, device string) bool {
	i := slices.IndexFunc(t.DRADeviceStates(node), func(d dradevices.DRADeviceState) bool { return d.Name == device })
	return i >= 0 && t.DRADeviceStates(node)[i].State == dradevices.DRADeviceAllocated
}
