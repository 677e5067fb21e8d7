package gpudynamicresources

import (
	"context"
	"fmt"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/dynamic-resource-allocation/cel"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
)

// NewOfflineAllocator is the allocator GPUDynamicResources runs, over
// objects read from a dump instead of the API: kube-scheduler's own DRA
// manager, fed by informers over the objects, with the plugin's sibling
// rule, gives the allocated state, the DeviceClasses and the slices, and
// the allocator runs with the scheduler's feature gates. `kubectl
// gpu-workload explain` asks it for the allocator's verdict on the nodes
// GPUWorkloadFit lets through. Its informers stop with ctx.
func NewOfflineAllocator(ctx context.Context, driver string, slices []*resourceapi.ResourceSlice, classes []*resourceapi.DeviceClass, claims []*resourceapi.ResourceClaim) (structured.Allocator, error) {
	client := fake.NewSimpleClientset()
	add := func(kind string, obj metav1.Object) error {
		if err := client.Tracker().Add(obj.(runtime.Object)); err != nil {
			return fmt.Errorf("%s %s: %w", kind, cache.NewObjectName(obj.GetNamespace(), obj.GetName()), err)
		}
		return nil
	}
	for _, s := range slices {
		if err := add("ResourceSlice", s); err != nil {
			return nil, err
		}
	}
	for _, c := range classes {
		if err := add("DeviceClass", c); err != nil {
			return nil, err
		}
	}
	for _, c := range claims {
		if err := add("ResourceClaim", c); err != nil {
			return nil, err
		}
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	claimsCache := assumecache.NewAssumeCache(klog.FromContext(ctx), factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	sliceTracker, err := resourceslicetracker.StartTracker(ctx, resourceslicetracker.Options{
		EnableDeviceTaintRules:   utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
		EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
		SliceInformer:            factory.Resource().V1().ResourceSlices(),
		TaintInformer:            factory.Resource().V1().DeviceTaintRules(),
		KubeClient:               client,
	})
	if err != nil {
		return nil, fmt.Errorf("start the resource slice tracker: %w", err)
	}
	siblings, err := newSiblingIndex(factory.Resource().V1().ResourceSlices().Informer(), driver)
	if err != nil {
		return nil, err
	}
	manager := dynamicresources.NewDRAManager(ctx, claimsCache, sliceTracker, factory)
	// The assume cache calls its handlers in the order they were added: once
	// this one has every claim, the manager's allocated devices do too.
	claimsSeen := claimsCache.AddEventHandler(cache.ResourceEventHandlerFuncs{})
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), factory.Resource().V1().ResourceClaims().Informer().HasSynced,
		factory.Resource().V1().ResourceSlices().Informer().HasSynced, factory.Resource().V1().DeviceClasses().Informer().HasSynced,
		claimsSeen.HasSynced, sliceTracker.HasSynced) {
		return nil, fmt.Errorf("read the DRA objects: %w", context.Cause(ctx))
	}
	claimTracker := &siblingClaims{ResourceClaimTracker: manager.ResourceClaims(), siblings: siblings, inFlight: clusterstate.NewClaimsInFlight()}
	state, err := claimTracker.GatherAllocatedState()
	if err != nil {
		return nil, err
	}
	allSlices, err := manager.ResourceSlices().ListWithDeviceTaintRules()
	if err != nil {
		return nil, err
	}
	fts := plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	celCache := cel.NewCache(10, cel.Features{EnableConsumableCapacity: fts.EnableDRAConsumableCapacity, EnableListTypeAttributes: fts.EnableDRAListTypeAttributes})
	return structured.NewAllocator(ctx, dynamicresources.AllocatorFeatures(fts), *state, manager.DeviceClasses(), allSlices, celCache)
}
