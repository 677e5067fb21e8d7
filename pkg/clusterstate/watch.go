package clusterstate

import (
	"cmp"
	"context"
	"slices"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Resources the tracker follows when their CRDs are installed.
var (
	ClusterPolicyGVR = schema.GroupVersionResource{Group: gpuworkload.ClusterPolicyGroup, Version: gpuworkload.ClusterPolicyVersion, Resource: gpuworkload.ClusterPolicyResource}
	KubeVirtGVR      = schema.GroupVersionResource{Group: gpuworkload.KubeVirtGroup, Version: gpuworkload.KubeVirtVersion, Resource: gpuworkload.KubeVirtResource}
	VMIGVR           = schema.GroupVersionResource{Group: gpuworkload.KubeVirtGroup, Version: gpuworkload.KubeVirtVersion, Resource: gpuworkload.VMIResource}
	VMGVR            = schema.GroupVersionResource{Group: gpuworkload.KubeVirtGroup, Version: gpuworkload.KubeVirtVersion, Resource: gpuworkload.VMResource}
	VMIMigrationGVR  = schema.GroupVersionResource{Group: gpuworkload.KubeVirtGroup, Version: gpuworkload.KubeVirtVersion, Resource: gpuworkload.VMIMigrationResource}
)

// DefaultDiscoveryInterval is how often the tracker checks whether a
// missing CRD has been installed, unless WatchOptions says otherwise.
const DefaultDiscoveryInterval = 5 * time.Second

// WatchOptions configure Watch.
type WatchOptions struct {
	Config       *rest.Config
	NodeInformer cache.SharedIndexInformer
	// ClusterPolicyName selects one ClusterPolicy; empty means the oldest.
	ClusterPolicyName string
	// OnPolicyChange runs after the policy or KubeVirt's permitted devices change.
	OnPolicyChange func()
	// OnDRAFreed runs after the tracker saw a DRA change that can serve
	// more pods: a claim that released devices, a slice or a class added
	// or updated.
	OnDRAFreed func()
	// ResourceSliceInformer and DeviceClassInformer follow what the DRA
	// driver publishes, ResourceClaimInformer which devices claims hold; nil
	// when the scheduler runs without DRA.
	ResourceSliceInformer, DeviceClassInformer, ResourceClaimInformer cache.SharedIndexInformer
	// DiscoveryInterval is how often a CRD not installed is looked for;
	// zero is DefaultDiscoveryInterval.
	DiscoveryInterval time.Duration
}

// Watch feeds the tracker from the node informer and from ClusterPolicy and
// KubeVirt objects. A CRD that is not installed is looked for every
// opts.DiscoveryInterval and followed once it appears; until then the args policy
// applies. It returns at once; the watches stop with ctx.
func (t *Tracker) Watch(ctx context.Context, opts WatchOptions) error {
	logger := klog.FromContext(ctx).WithName("clusterstate")
	if _, err := opts.NodeInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { t.upsertFromInformer(obj) },
		UpdateFunc: func(_, obj any) { t.upsertFromInformer(obj) },
		DeleteFunc: func(obj any) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			if node, ok := obj.(*v1.Node); ok {
				t.DeleteNode(node.Name)
			}
		},
	}); err != nil {
		return err
	}
	if err := t.followDRA(logger, opts); err != nil {
		return err
	}
	client, err := dynamic.NewForConfig(opts.Config)
	if err != nil {
		return err
	}
	disco, err := discovery.NewDiscoveryClientForConfig(opts.Config)
	if err != nil {
		return err
	}
	notify := func(changed bool) {
		if changed && opts.OnPolicyChange != nil {
			opts.OnPolicyChange()
		}
	}
	t.AwaitPolicy()
	policyRead := func() {
		if t.markPolicyRead() && opts.OnPolicyChange != nil {
			opts.OnPolicyChange()
		}
	}
	interval := cmp.Or(opts.DiscoveryInterval, DefaultDiscoveryInterval)
	go t.followWhenServed(ctx, logger, disco, client, interval, ClusterPolicyGVR, func(store cache.Store) {
		notify(t.selectClusterPolicy(logger, store, opts.ClusterPolicyName))
	}, policyRead)
	go t.followWhenServed(ctx, logger, disco, client, interval, KubeVirtGVR, func(store cache.Store) {
		notify(t.selectKubeVirt(logger, store))
	}, func() {})
	return nil
}

// followDRA feeds the tracker's DRA state from the scheduler's informers.
// The queue hears of the same changes from its own handlers, which may run
// before these, so a pod retried for a change can be judged without it:
// OnDRAFreed tells when the tracker has seen what can serve more pods.
func (t *Tracker) followDRA(logger klog.Logger, opts WatchOptions) error {
	if opts.ResourceSliceInformer == nil || opts.DeviceClassInformer == nil || opts.ResourceClaimInformer == nil {
		return nil
	}
	freed := func(released bool) {
		if released && opts.OnDRAFreed != nil {
			opts.OnDRAFreed()
		}
	}
	always := func() { freed(true) }
	if _, err := opts.ResourceClaimInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { withObject(obj, func(c *resourceapi.ResourceClaim) { freed(t.UpsertResourceClaim(c)) }) },
		UpdateFunc: func(_, obj any) {
			withObject(obj, func(c *resourceapi.ResourceClaim) { freed(t.UpsertResourceClaim(c)) })
		},
		DeleteFunc: func(obj any) {
			withObject(obj, func(c *resourceapi.ResourceClaim) { freed(t.DeleteResourceClaim(c.Namespace, c.Name)) })
		},
	}); err != nil {
		return err
	}
	if _, err := opts.ResourceSliceInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { withObject(obj, t.UpsertResourceSlice); always() },
		UpdateFunc: func(_, obj any) { withObject(obj, t.UpsertResourceSlice); always() },
		DeleteFunc: func(obj any) {
			withObject(obj, func(s *resourceapi.ResourceSlice) { t.DeleteResourceSlice(s.Name) })
		},
	}); err != nil {
		return err
	}
	upsertClass := func(c *resourceapi.DeviceClass) {
		if err := t.UpsertDeviceClass(c); err != nil {
			logger.Error(err, "DeviceClass selects no device", "deviceClass", klog.KObj(c))
		}
		always()
	}
	_, err := opts.DeviceClassInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { withObject(obj, upsertClass) },
		UpdateFunc: func(_, obj any) { withObject(obj, upsertClass) },
		DeleteFunc: func(obj any) {
			withObject(obj, func(c *resourceapi.DeviceClass) { t.DeleteDeviceClass(c.Name) })
		},
	})
	return err
}

// withObject calls f with an informer's object, unwrapping a deletion tombstone.
func withObject[T any](obj any, f func(T)) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	if typed, ok := obj.(T); ok {
		f(typed)
	}
}

func (t *Tracker) upsertFromInformer(obj any) {
	if node, ok := obj.(*v1.Node); ok {
		t.UpsertNode(node)
	}
}

// followWhenServed waits until the API serves gvr, asking every interval, then runs an informer on
// it and calls resync with its store after every change. settled runs once
// the resource's state is known: not installed, or its informer synced.
// Other discovery errors (forbidden, unreachable) settle nothing: they are
// logged as errors, and the resource is looked for again.
func (t *Tracker) followWhenServed(ctx context.Context, logger klog.Logger, disco discovery.DiscoveryInterface, client dynamic.Interface,
	interval time.Duration, gvr schema.GroupVersionResource, resync func(cache.Store), settled func()) {
	logger = logger.WithValues("resource", gvr.String())
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	lastErr := ""
	for {
		ok, err := served(disco, gvr)
		if ok {
			break
		}
		switch {
		case err != nil && err.Error() != lastErr:
			logger.Error(err, "Cannot tell whether the API serves the resource; until it can, pods that depend on it wait. "+
				"Check that the scheduler reaches the API server and that its RBAC allows discovery (manifests/install/rbac.yaml)", "interval", interval)
			lastErr = err.Error()
		case err == nil:
			logger.V(4).Info("Resource not served yet; looking again later", "interval", interval)
			settled()
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
	logger.Info("Following resource")
	informer := dynamicinformer.NewFilteredDynamicInformer(client, gvr, "", 0, cache.Indexers{}, nil).Informer()
	store := informer.GetStore()
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { resync(store) },
		UpdateFunc: func(_, _ any) { resync(store) },
		DeleteFunc: func(any) { resync(store) },
	}); err != nil {
		logger.Error(err, "Cannot follow resource")
		return
	}
	go func() {
		if cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
			resync(store)
			settled()
		}
	}()
	informer.Run(ctx.Done())
}

// served reports whether the API serves gvr. A group version the API does
// not know is "not served", without error; any other failure is an error.
func served(disco discovery.DiscoveryInterface, gvr schema.GroupVersionResource) (bool, error) {
	list, err := disco.ServerResourcesForGroupVersion(gvr.GroupVersion().String())
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool { return r.Name == gvr.Resource }), nil
}

// OldestFirst orders objects by creation time, then namespace and name, so
// that the choice among several ClusterPolicies or KubeVirt CRs is stable.
// The kubectl plugin chooses as the scheduler does.
func OldestFirst(objs []any) []*unstructured.Unstructured {
	out := make([]*unstructured.Unstructured, 0, len(objs))
	for _, o := range objs {
		if u, ok := o.(*unstructured.Unstructured); ok {
			out = append(out, u)
		}
	}
	slices.SortFunc(out, func(a, b *unstructured.Unstructured) int {
		if c := a.GetCreationTimestamp().Compare(b.GetCreationTimestamp().Time); c != 0 {
			return c
		}
		if c := cmp.Compare(a.GetNamespace(), b.GetNamespace()); c != 0 {
			return c
		}
		return cmp.Compare(a.GetName(), b.GetName())
	})
	return out
}

// ChooseClusterPolicy returns the ClusterPolicy named wanted, or the oldest
// when wanted is empty; nil when there is none to choose.
func ChooseClusterPolicy(candidates []*unstructured.Unstructured, wanted string) *unstructured.Unstructured {
	for _, u := range candidates {
		if wanted == "" || u.GetName() == wanted {
			return u
		}
	}
	return nil
}

func (t *Tracker) selectClusterPolicy(logger klog.Logger, store cache.Store, wanted string) bool {
	candidates := OldestFirst(store.List())
	chosen := ChooseClusterPolicy(candidates, wanted)
	if chosen == nil {
		if len(candidates) > 0 {
			logger.Error(nil, "ClusterPolicy named in args not found; using the args policy", "clusterPolicyName", wanted, "found", len(candidates))
		}
		return t.SetPolicy(nil)
	}
	policy, err := gpuworkload.PolicyFromClusterPolicy(chosen)
	if err != nil {
		logger.Error(err, "ClusterPolicy is invalid; following the GPU Operator's interpretation of it")
	}
	changed := t.SetPolicy(&policy)
	if changed {
		logger.Info("Sandbox policy changed", "clusterPolicy", chosen.GetName(), "candidates", len(candidates),
			"sandboxEnabled", policy.Enabled, "defaultWorkload", policy.DefaultWorkload, "mode", policy.Runtime)
	}
	return changed
}

func (t *Tracker) selectKubeVirt(logger klog.Logger, store cache.Store) bool {
	candidates := OldestFirst(store.List())
	if len(candidates) == 0 {
		return t.SetPermitted(nil)
	}
	permitted, err := gpuworkload.PermittedHostDevicesFromKubeVirt(candidates[0])
	if err != nil {
		logger.Error(err, "KubeVirt permittedHostDevices is invalid; keeping the previous classification evidence")
		return false
	}
	changed := t.SetPermitted(permitted)
	if changed {
		logger.Info("KubeVirt permittedHostDevices changed", "kubevirt", klog.KObj(candidates[0]), "candidates", len(candidates))
	}
	return changed
}
