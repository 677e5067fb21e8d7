package gpudynamicresources

import (
	"fmt"
	"slices"
	"sync"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/tools/cache"
	draapi "k8s.io/dynamic-resource-allocation/api"
	"k8s.io/dynamic-resource-allocation/structured"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// siblingClaims is the framework's claim tracker, whose allocated devices
// include the siblings of the driver's allocated and in-flight devices, and
// which tells the process's trackers of the allocations it holds in flight.
type siblingClaims struct {
	fwk.ResourceClaimTracker
	siblings *siblingIndex
	inFlight *clusterstate.ClaimsInFlight
	fences   *drasiblings.Fences
}

func (c *siblingClaims) SignalClaimPendingAllocation(uid types.UID, allocated *resourceapi.ResourceClaim) error {
	if err := c.ResourceClaimTracker.SignalClaimPendingAllocation(uid, allocated); err != nil {
		return err
	}
	// The tracker records nothing for a claim it finds allocated already.
	if c.ResourceClaimTracker.GetPendingAllocation(uid) != nil {
		c.inFlight.Held(uid, allocated)
	}
	return nil
}

func (c *siblingClaims) MaybeRemoveClaimPendingAllocation(uid types.UID, forceRemove bool) (deleted bool) {
	held := c.ResourceClaimTracker.GetPendingAllocation(uid) != nil
	deleted = c.ResourceClaimTracker.MaybeRemoveClaimPendingAllocation(uid, forceRemove)
	// An allocation given up rather than written needs no fence.
	if deleted && held && c.inFlight.Released(uid, c.current) {
		c.fences.Lowered(uid)
	}
	return deleted
}

// current is the claim as the allocator now knows it, nil when it cannot say.
func (c *siblingClaims) current(namespace, name string) *resourceapi.ResourceClaim {
	claim, err := c.ResourceClaimTracker.Get(namespace, name)
	if err != nil {
		return nil
	}
	return claim
}

func (c *siblingClaims) ListAllAllocatedDevices() (sets.Set[structured.DeviceID], error) {
	allocated, err := c.ResourceClaimTracker.ListAllAllocatedDevices()
	if err != nil {
		return nil, err
	}
	c.siblings.addTo(allocated)
	return allocated, nil
}

func (c *siblingClaims) GatherAllocatedState() (*structured.AllocatedState, error) {
	state, err := c.ResourceClaimTracker.GatherAllocatedState()
	if err != nil {
		return nil, err
	}
	c.siblings.addTo(state.AllocatedDevices)
	return state, nil
}

// poolIndex indexes ResourceSlices by driver and pool.
const poolIndex = "gpu-workload-scheduler/driver-pool"

func poolKey(driver, pool string) string { return driver + "/" + pool }

// siblingIndex finds a device's siblings from the ResourceSlices of its
// pool, remembering each pool's answer until one of its slices changes.
type siblingIndex struct {
	driver   string
	driverID draapi.UniqueString
	slices   cache.Indexer

	mu sync.Mutex
	// pools are the GPU devices of each pool read so far, by pool name.
	pools map[string]*dradevices.DRANode
}

// newSiblingIndex adds the pool index to the slice informer (before it
// starts, as DynamicResources adds its pod index) and forgets a pool's
// devices when one of its slices changes.
func newSiblingIndex(informer cache.SharedIndexInformer, driver string) (*siblingIndex, error) {
	if _, ok := informer.GetIndexer().GetIndexers()[poolIndex]; !ok {
		if err := informer.AddIndexers(cache.Indexers{poolIndex: func(obj any) ([]string, error) {
			slice, ok := obj.(*resourceapi.ResourceSlice)
			if !ok {
				return nil, nil
			}
			return []string{poolKey(slice.Spec.Driver, slice.Spec.Pool.Name)}, nil
		}}); err != nil {
			return nil, fmt.Errorf("index ResourceSlices by pool: %w", err)
		}
	}
	x := &siblingIndex{driver: driver, driverID: draapi.MakeUniqueString(driver), slices: informer.GetIndexer(), pools: map[string]*dradevices.DRANode{}}
	forget := func(obj any) {
		if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tombstone.Obj
		}
		if slice, ok := obj.(*resourceapi.ResourceSlice); ok && slice.Spec.Driver == driver {
			x.mu.Lock()
			delete(x.pools, slice.Spec.Pool.Name)
			x.mu.Unlock()
		}
	}
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    forget,
		UpdateFunc: func(_, obj any) { forget(obj) },
		DeleteFunc: forget,
	}); err != nil {
		return nil, fmt.Errorf("watch ResourceSlices: %w", err)
	}
	return x, nil
}

// addTo adds to allocated the siblings of the driver's devices in it.
func (x *siblingIndex) addTo(allocated sets.Set[structured.DeviceID]) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var siblings []structured.DeviceID
	for id := range allocated {
		if id.Driver != x.driverID {
			continue
		}
		name := id.Pool.String()
		for _, d := range x.pool(name).Siblings(name, id.Device.String()) {
			siblings = append(siblings, structured.DeviceID{Driver: id.Driver, Pool: id.Pool, Device: draapi.MakeUniqueString(d.Name)})
		}
	}
	allocated.Insert(siblings...)
}

// lookup says whether the allocator allocates from the device, and which
// devices of its pool exclude it (drasiblings.DeviceLookup).
func (x *siblingIndex) lookup(pool, device string) (published bool, siblings []dradevices.DRADevice) {
	x.mu.Lock()
	defer x.mu.Unlock()
	node := x.pool(pool)
	published = slices.ContainsFunc(node.Devices, func(d dradevices.DRADevice) bool { return d.Name == device })
	return published, node.Siblings(pool, device)
}

// pool reads the GPU devices the allocator takes from the pool
// (dradevices.DRAUsableDevices); x.mu is held.
func (x *siblingIndex) pool(name string) *dradevices.DRANode {
	if node, ok := x.pools[name]; ok {
		return node
	}
	objs, _ := x.slices.ByIndex(poolIndex, poolKey(x.driver, name))
	slices := make([]dradevices.DRAPoolSlice, 0, len(objs))
	for _, obj := range objs {
		if _, slice, ok := dradevices.DRAPoolSliceOf(obj.(*resourceapi.ResourceSlice), x.driver); ok {
			slices = append(slices, slice)
		}
	}
	node := dradevices.NewDRANode(dradevices.DRAUsableDevices(slices))
	x.pools[name] = node
	return node
}
