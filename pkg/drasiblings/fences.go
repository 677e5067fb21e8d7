package drasiblings

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	resourcelisters "k8s.io/client-go/listers/resource/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// The DeviceTaintRules this scheduler writes: labelled ManagedByLabel:
// ManagedBy, each selecting one device, with this taint key and effect
// NoSchedule; the claim it fences for is in the annotation. The admission
// policy in manifests/install/rbac.yaml lets the scheduler write no other.
const (
	FenceTaintKey        = "gpu-workload.io/sibling-allocated"
	FenceClaimAnnotation = "gpu-workload.io/claim"
	fenceNamePrefix      = "gpu-workload-sibling-"
)

// Fence keeps one device from every scheduler's allocator: the published
// sibling of a device a claim holds.
type Fence struct {
	Driver, Pool, Device string
	// Claim is namespace/name of the claim that holds the device's sibling.
	Claim string
}

// RuleName is the DeviceTaintRule of the fenced device: one per device.
func (f Fence) RuleName() string {
	sum := sha256.Sum256([]byte(f.Driver + "/" + f.Pool + "/" + f.Device))
	return fenceNamePrefix + hex.EncodeToString(sum[:8])
}

// Rule is the DeviceTaintRule that fences the device.
func (f Fence) Rule() *resourceapi.DeviceTaintRule {
	return &resourceapi.DeviceTaintRule{
		ObjectMeta: metav1.ObjectMeta{Name: f.RuleName(), Labels: map[string]string{ManagedByLabel: ManagedBy},
			Annotations: map[string]string{FenceClaimAnnotation: f.Claim}},
		Spec: resourceapi.DeviceTaintRuleSpec{
			DeviceSelector: &resourceapi.DeviceTaintSelector{Driver: ptr.To(f.Driver), Pool: ptr.To(f.Pool), Device: ptr.To(f.Device)},
			Taint:          resourceapi.DeviceTaint{Key: FenceTaintKey, Effect: resourceapi.DeviceTaintEffectNoSchedule},
		},
	}
}

// DeviceLookup says whether the allocator allocates from a device of the
// driver (its pool's newest complete generation publishes it), and which
// devices of that pool exclude it (dradevices.ExclusiveDRADevices).
type DeviceLookup func(pool, device string) (published bool, siblings []dradevices.DRADevice)

// FencesFor are the fences a claim's allocation needs: for each vfio device
// of the driver it holds, the GPU's container device while the driver still
// publishes it. The driver withdraws that device once it has prepared the
// vfio claim on the node; until then every other scheduler would hand it
// out. The other direction needs none while the claim lasts: the driver
// never withdraws a vfio device, and VM pods are routed to this scheduler,
// whose allocator never offers the sibling of a device in use (docs/dra.md).
func FencesFor(claim *resourceapi.ResourceClaim, driver string, devices DeviceLookup) []Fence {
	if claim.Status.Allocation == nil {
		return nil
	}
	var out []Fence
	for _, r := range claim.Status.Allocation.Devices.Results {
		if r.Driver != driver {
			continue
		}
		_, siblings := devices(r.Pool, r.Device)
		for _, s := range siblings {
			if s.Type == dradevices.DRATypeGPU {
				out = append(out, Fence{Driver: driver, Pool: s.Pool, Device: s.Name, Claim: claim.Namespace + "/" + claim.Name})
			}
		}
	}
	return out
}

// Fences writes and deletes the process's fences. The allocator plugin
// raises a claim's fences before the claim's allocation is written, so that
// no other scheduler sees the allocation without its fences; one loop, on
// the leader, deletes each once its device is withdrawn or its claim no
// longer holds the sibling, and rebuilds them from the claims when it
// starts, deleting any other rule labelled as this scheduler's.
type Fences struct {
	mu sync.Mutex
	// driver, client, the listers and devices are the first profile's
	// (Configure); schedulers are every profile's name.
	driver string
	client kubernetes.Interface
	claims resourcelisters.ResourceClaimLister
	// holders indexes the claims by the devices their allocations hold.
	holders    cache.Indexer
	rules      resourcelisters.DeviceTaintRuleLister
	pods       corelisters.PodLister
	devices    DeviceLookup
	schedulers []string
	// raised are the fences written for claims whose allocation the loop
	// has not yet seen written, by claim UID: it keeps them meanwhile, and
	// forgets them once the claim shows the allocation, is deleted, or the
	// allocation is given up (Lowered).
	raised map[types.UID][]Fence
	queue  workqueue.TypedRateLimitingInterface[string]
	start  sync.Once
	// running is set once the loop runs: Start is called for every pod.
	running atomic.Bool
}

// NewFences is the fences of one scheduler process; its state builds it.
func NewFences() *Fences { return &Fences{raised: map[types.UID][]Fence{}} }

// Configure joins a profile whose allocator takes the driver's devices. The
// informers it registers are started with the scheduler's; nothing starts
// here. Every profile must name the same driver.
func (f *Fences) Configure(profile, driver string, client kubernetes.Interface, factory informers.SharedInformerFactory, devices DeviceLookup) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.client != nil && f.driver != driver {
		return fmt.Errorf("draDriverName %q differs from another profile's %q: the scheduler fences one driver's devices; give every profile the same", driver, f.driver)
	}
	f.schedulers = append(f.schedulers, profile)
	if f.client != nil {
		return nil
	}
	f.driver, f.client, f.devices = driver, client, devices
	claimInformer := factory.Resource().V1().ResourceClaims().Informer()
	if _, ok := claimInformer.GetIndexer().GetIndexers()[deviceIndex]; !ok {
		if err := claimInformer.AddIndexers(cache.Indexers{deviceIndex: allocatedDevices}); err != nil {
			return fmt.Errorf("index ResourceClaims by allocated device: %w", err)
		}
	}
	f.holders = claimInformer.GetIndexer()
	f.claims = factory.Resource().V1().ResourceClaims().Lister()
	f.rules = factory.Resource().V1().DeviceTaintRules().Lister()
	f.pods = factory.Core().V1().Pods().Lister()
	f.queue = workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.NewTypedItemExponentialFailureRateLimiter[string](100*time.Millisecond, time.Minute),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "gpu-workload-fences"})
	// Changes are gathered for a second: every claim change is an event,
	// and each pass reads every claim.
	later := func() { f.queue.AddAfter(reconcileKey, reconcileDelay) }
	enqueue := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { later() },
		UpdateFunc: func(any, any) { later() },
		DeleteFunc: func(any) { later() },
	}
	for _, informer := range []cache.SharedIndexInformer{factory.Resource().V1().ResourceClaims().Informer(),
		factory.Resource().V1().ResourceSlices().Informer(), factory.Resource().V1().DeviceTaintRules().Informer()} {
		if _, err := informer.AddEventHandler(enqueue); err != nil {
			return fmt.Errorf("watch for fences: %w", err)
		}
	}
	return nil
}

// deviceIndex indexes ResourceClaims by the devices they hold.
const deviceIndex = "gpu-workload-scheduler/allocated-device"

func deviceKey(driver, pool, device string) string { return driver + "/" + pool + "/" + device }

func allocatedDevices(obj any) ([]string, error) {
	claim, ok := obj.(*resourceapi.ResourceClaim)
	if !ok || claim.Status.Allocation == nil {
		return nil, nil
	}
	keys := make([]string, 0, len(claim.Status.Allocation.Devices.Results))
	for _, r := range claim.Status.Allocation.Devices.Results {
		keys = append(keys, deviceKey(r.Driver, r.Pool, r.Device))
	}
	return keys, nil
}

// reconcileKey is the loop's one work item: every change recomputes all.
const reconcileKey = "fences"

// reconcileDelay is how long changes gather before a pass: how late a
// fence is deleted at most, beyond the pass itself.
const reconcileDelay = time.Second

// Start runs the loop until ctx ends, once for the process, and reports
// whether it runs: not before a profile configured the fences.
func (f *Fences) Start(ctx context.Context) bool {
	if f.running.Load() {
		return true
	}
	f.mu.Lock()
	configured := f.client != nil
	f.mu.Unlock()
	if !configured {
		return false
	}
	f.start.Do(func() {
		f.queue.Add(reconcileKey)
		context.AfterFunc(ctx, f.queue.ShutDown)
		go wait.UntilWithContext(ctx, f.work, time.Second)
		f.running.Store(true)
	})
	return true
}

func (f *Fences) work(ctx context.Context) {
	for {
		key, shutdown := f.queue.Get()
		if shutdown {
			return
		}
		if err := f.reconcile(ctx); err != nil {
			klog.FromContext(ctx).Error(err, "Cannot bring the DeviceTaintRules that fence GPU siblings up to date; retrying")
			f.queue.AddRateLimited(key)
		} else {
			f.queue.Forget(key)
		}
		f.queue.Done(key)
	}
}

// Raise writes the fences of the claims' allocations, which the caller is
// about to write, so that every rule exists before the claims show the
// allocation to any other scheduler. Another scheduler may have handed out
// a fenced device before it saw the rule: Raise waits until the rule is in
// its own informer (other schedulers' watches get it then too), then
// after FenceGrace refuses the allocation if a claim holds the device. An error
// leaves the allocation unwritten; the pod is tried again.
func (f *Fences) Raise(ctx context.Context, claims []*resourceapi.ResourceClaim) error {
	f.mu.Lock()
	driver, devices := f.driver, f.devices
	f.mu.Unlock()
	if devices == nil {
		return nil
	}
	for _, claim := range claims {
		fences := FencesFor(claim, driver, devices)
		if len(fences) == 0 {
			continue
		}
		f.mu.Lock()
		f.raised[claim.UID] = fences
		f.mu.Unlock()
		for _, fence := range fences {
			if err := f.create(ctx, fence); err != nil {
				f.Lowered(claim.UID)
				return err
			}
		}
		if err := f.heldElsewhere(ctx, fences); err != nil {
			f.Lowered(claim.UID)
			return err
		}
	}
	return nil
}

// fenceVisibleTimeout bounds the wait for a new rule to reach the informer.
const fenceVisibleTimeout = 10 * time.Second

// FenceGrace is how long after its fences are seen an allocation waits
// before the holders of the fenced devices are read: the time another
// scheduler, which chose a fenced device before it saw the rule, takes to
// write its claim. Measured beside the default profile, 40 VMs and 40
// container pods created in pairs for one GPU: without the wait 6 GPUs
// were given twice, with 200 ms none (docs/dra.md); 500 ms leaves room for a
// slower API server. It delays the binding of VMs only.
const FenceGrace = 500 * time.Millisecond

// heldElsewhere waits until the fences are in the informer and reports a
// claim that holds a fenced device.
func (f *Fences) heldElsewhere(ctx context.Context, fences []Fence) error {
	err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, fenceVisibleTimeout, true, func(context.Context) (bool, error) {
		for _, fence := range fences {
			if _, err := f.rules.Get(fence.RuleName()); err != nil {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("fence the sibling of a device claim %s holds: DeviceTaintRule %s not seen in %s: %w", fences[0].Claim, fences[0].RuleName(), fenceVisibleTimeout, err)
	}
	// Another scheduler's cycle that chose a fenced device before its
	// informer had the rule writes its claim within its binding: the holders
	// are read once that may have happened.
	select {
	case <-time.After(FenceGrace):
	case <-ctx.Done():
		return ctx.Err()
	}
	for _, fence := range fences {
		holders, err := f.holders.ByIndex(deviceIndex, deviceKey(fence.Driver, fence.Pool, fence.Device))
		if err != nil {
			return err
		}
		if len(holders) > 0 {
			holder := holders[0].(*resourceapi.ResourceClaim)
			return fmt.Errorf("DRA device %s/%s is the sibling of a device claim %s was given, and claim %s/%s holds it already (another scheduler allocated it before it saw the fence): the allocation is not written",
				fence.Pool, fence.Device, fence.Claim, holder.Namespace, holder.Name)
		}
	}
	return nil
}

// Lowered forgets the fences raised for a claim whose allocation was given
// up before it was written: the loop deletes them.
func (f *Fences) Lowered(uid types.UID) {
	f.mu.Lock()
	_, ok := f.raised[uid]
	delete(f.raised, uid)
	f.mu.Unlock()
	if ok && f.queue != nil {
		f.queue.Add(reconcileKey)
	}
}

func (f *Fences) create(ctx context.Context, fence Fence) error {
	_, err := f.client.ResourceV1().DeviceTaintRules().Create(ctx, fence.Rule(), metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("fence DRA device %s/%s of driver %s, the sibling of a device claim %s holds: create DeviceTaintRule %s: %w",
			fence.Pool, fence.Device, fence.Driver, fence.Claim, fence.RuleName(), err)
	}
	if err == nil {
		klog.FromContext(ctx).V(2).Info("Fenced the sibling of an allocated DRA device", "device", fence.Pool+"/"+fence.Device, "claim", fence.Claim, "deviceTaintRule", fence.RuleName())
	}
	return nil
}

// wanted are the fences the cluster needs now: those of every written
// allocation of a claim reserved for a pod of this scheduler, and those
// raised for allocations not yet seen written.
func (f *Fences) wanted() (map[string]Fence, error) {
	claims, err := f.claims.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	want := map[string]Fence{}
	listed := make(map[types.UID]bool, len(claims))
	for _, claim := range claims {
		listed[claim.UID] = true
		if claim.Status.Allocation != nil {
			// Written: from now on the claim itself says what it needs.
			delete(f.raised, claim.UID)
		}
		fences := FencesFor(claim, f.driver, f.devices)
		if len(fences) == 0 || !f.reservedForOurs(claim) {
			continue
		}
		for _, fence := range fences {
			want[fence.RuleName()] = fence
		}
	}
	for uid, fences := range f.raised {
		if !listed[uid] {
			// Deleted before a pass saw its allocation written: a raised
			// claim was in the informer, so it is gone, and needs no fence.
			delete(f.raised, uid)
			continue
		}
		for _, fence := range fences {
			if published, _ := f.devices(fence.Pool, fence.Device); published {
				want[fence.RuleName()] = fence
			}
		}
	}
	return want, nil
}

// reservedForOurs says whether a pod of this scheduler holds the claim.
func (f *Fences) reservedForOurs(claim *resourceapi.ResourceClaim) bool {
	for _, consumer := range claim.Status.ReservedFor {
		if consumer.Resource != "pods" || consumer.APIGroup != "" {
			continue
		}
		pod, err := f.pods.Pods(claim.Namespace).Get(consumer.Name)
		if err == nil && pod.UID == consumer.UID && slices.Contains(f.schedulers, pod.Spec.SchedulerName) {
			return true
		}
	}
	return false
}

// reconcile creates the wanted rules that are missing and deletes every
// other rule labelled as this scheduler's, each only while it is the rule
// listed (UID precondition).
func (f *Fences) reconcile(ctx context.Context) error {
	want, err := f.wanted()
	if err != nil {
		return err
	}
	existing, err := f.rules.List(labels.SelectorFromSet(labels.Set{ManagedByLabel: ManagedBy}))
	if err != nil {
		return err
	}
	logger := klog.FromContext(ctx)
	for _, rule := range existing {
		if _, ok := want[rule.Name]; ok {
			delete(want, rule.Name)
			continue
		}
		err := f.client.ResourceV1().DeviceTaintRules().Delete(ctx, rule.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: ptr.To(rule.UID)}})
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			return fmt.Errorf("delete DeviceTaintRule %s: %w", rule.Name, err)
		}
		logger.V(2).Info("Deleted a DeviceTaintRule no allocation needs", "deviceTaintRule", klog.KObj(rule), "claim", rule.Annotations[FenceClaimAnnotation])
	}
	for _, fence := range want {
		if err := f.create(ctx, fence); err != nil {
			return err
		}
	}
	return nil
}
