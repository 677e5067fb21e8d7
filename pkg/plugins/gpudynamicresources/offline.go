package gpudynamicresources

import (
	"context"

	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/sets"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	draapi "k8s.io/dynamic-resource-allocation/api"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// NewOfflineAllocator is the allocator GPUDynamicResources runs, over
// objects read from a dump instead of the informers: the scheduler's
// feature gates, the claims' allocations as allocated, and the siblings of
// the driver's devices they hold as allocated too, as the plugin's DRA
// manager counts them. `kubectl gpu-workload explain` asks it for the
// allocator's verdict on the nodes GPUWorkloadFit lets through.
func NewOfflineAllocator(ctx context.Context, driver string, slices []*resourceapi.ResourceSlice, classes []*resourceapi.DeviceClass, claims []*resourceapi.ResourceClaim) (structured.Allocator, error) {
	fts := plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	features := dynamicresources.AllocatorFeatures(fts)
	state := structured.AllocatedState{
		AllocatedDevices:         sets.New[structured.DeviceID](),
		AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
		AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
	}
	for _, claim := range claims {
		if claim.Status.Allocation == nil {
			continue
		}
		for _, r := range claim.Status.Allocation.Devices.Results {
			id := structured.MakeDeviceID(r.Driver, r.Pool, r.Device)
			if r.ShareID == nil || !features.ConsumableCapacity {
				state.AllocatedDevices.Insert(id)
				continue
			}
			state.AllocatedSharedDeviceIDs.Insert(structured.MakeSharedDeviceID(id, r.ShareID))
			if r.ConsumedCapacity != nil {
				state.AggregatedCapacity.Insert(structured.NewDeviceConsumedCapacity(id, r.ConsumedCapacity))
			}
		}
	}
	pools := map[string][]gpuworkload.DRAPoolSlice{}
	for _, slice := range slices {
		if _, s, ok := gpuworkload.DRAPoolSliceOf(slice, driver); ok {
			pools[s.Pool] = append(pools[s.Pool], s)
		}
	}
	nodes := make(map[string]*gpuworkload.DRANode, len(pools))
	addSiblings(state.AllocatedDevices, draapi.MakeUniqueString(driver), func(pool string) *gpuworkload.DRANode {
		if _, ok := nodes[pool]; !ok {
			nodes[pool] = gpuworkload.NewDRANode(gpuworkload.DRAUsableDevices(pools[pool]))
		}
		return nodes[pool]
	})
	celCache := cel.NewCache(10, cel.Features{EnableConsumableCapacity: fts.EnableDRAConsumableCapacity, EnableListTypeAttributes: fts.EnableDRAListTypeAttributes})
	return structured.NewAllocator(ctx, features, state, deviceClassList(classes), slices, celCache)
}

// deviceClassList lists the DeviceClasses given.
type deviceClassList []*resourceapi.DeviceClass

func (l deviceClassList) List() ([]*resourceapi.DeviceClass, error) { return l, nil }

func (l deviceClassList) Get(name string) (*resourceapi.DeviceClass, error) {
	for _, class := range l {
		if class.Name == name {
			return class, nil
		}
	}
	return nil, apierrors.NewNotFound(resourceapi.Resource("deviceclasses"), name)
}
