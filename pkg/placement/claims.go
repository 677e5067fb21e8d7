package placement

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// claimEngine lets DynamicResources allocate the claims of VMs that accept
// several cards, as in kube-scheduler: its allocator reads the framework's
// informers, which hold the driver's vfio DeviceClass, each DRA node's
// ResourceSlice and the claims; Reserve and PreBind write the allocation
// through the framework's client into the DRA manager's assume cache.
//
// The slice the allocator sees lists only the GPUs nobody holds: the
// allocator's sibling rule and the driver's republished slices keep it off a
// GPU that an extended-resource pod's device holds, which the informers
// never see. The run waits for each of its writes to reach the DRA manager
// before the next cycle, so that a run stays deterministic.
type claimEngine struct {
	ctx context.Context
	e   *engine
	// sliceVersion numbers the slices the run writes.
	sliceVersion int
	mu           sync.Mutex
	// seen is, by object key, the resourceVersion the DRA manager holds.
	seen map[string]string
	// changed is closed, and replaced, when seen changes.
	changed chan struct{}
}

// claimWaitLimit bounds the wait for the DRA manager to see a write, which
// in memory takes microseconds: reaching it means the run is broken.
const claimWaitLimit = time.Minute

func newClaimEngine(ctx context.Context, e *engine) (*claimEngine, error) {
	if e.dynamicResources == nil || e.draClaims == nil {
		return nil, fmt.Errorf("pods with claims need DynamicResources in the profile and the DynamicResourceAllocation feature")
	}
	c := &claimEngine{ctx: ctx, e: e, seen: map[string]string{}, changed: make(chan struct{})}
	handler := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { c.record(obj, true) },
		UpdateFunc: func(_, obj any) { c.record(obj, true) },
		DeleteFunc: func(obj any) { c.record(obj, false) },
	}
	// Registered after the DRA manager's own handler, so that its
	// allocated devices are up to date when the run hears of a claim.
	e.draClaims.AddEventHandler(handler)
	if _, err := e.draSlices.AddEventHandler(handler); err != nil {
		return nil, err
	}
	if _, err := e.informers.Resource().V1().DeviceClasses().Informer().AddEventHandler(handler); err != nil {
		return nil, err
	}
	class := dradevices.DriverDeviceClass(dradevices.DRAClassVFIO, dradevices.DRATypeVFIO, "")
	class.ResourceVersion = "1"
	if _, err := e.client.ResourceV1().DeviceClasses().Create(ctx, class, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create DeviceClass %s: %w", class.Name, err)
	}
	return c, c.await(objectKey(class), "1")
}

func (c *claimEngine) record(obj any, present bool) {
	if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tombstone.Obj
	}
	o, ok := obj.(metav1.Object)
	if !ok {
		return
	}
	key := objectKey(o)
	c.mu.Lock()
	defer c.mu.Unlock()
	if present {
		c.seen[key] = o.GetResourceVersion()
	} else {
		delete(c.seen, key)
	}
	close(c.changed)
	c.changed = make(chan struct{})
}

// await waits until the DRA manager holds the object at the version, or,
// with version "", no longer holds it.
func (c *claimEngine) await(key, version string) error {
	limit := time.After(claimWaitLimit)
	for {
		c.mu.Lock()
		got, ok := c.seen[key]
		changed := c.changed
		c.mu.Unlock()
		if version == "" && !ok || ok && got == version {
			return nil
		}
		select {
		case <-changed:
		case <-limit:
			return fmt.Errorf("the scheduler's DRA manager did not see %s at version %+q within %s", key, version, claimWaitLimit)
		}
	}
}

// objectKey tells the objects the run writes apart: claims by namespace,
// slices and DeviceClasses by their kinds' names, which differ.
func objectKey(o metav1.Object) string {
	switch o.(type) {
	case *resourceapi.ResourceSlice:
		return "slice/" + o.GetName()
	case *resourceapi.DeviceClass:
		return "class/" + o.GetName()
	}
	return o.GetNamespace() + "/" + o.GetName()
}

// publish writes the node's slice as the allocator may use it: the GPUs no
// pod holds.
func (c *claimEngine) publish(n *Node) error {
	slice := dradevices.DriverSliceOfCard(n.Spec.Name, int(n.Spec.Inventory.GPUs), n.Spec.Inventory.Card)
	slice.Spec.Devices = slices.DeleteFunc(slice.Spec.Devices, func(d resourceapi.Device) bool {
		for i, held := range n.draHeld {
			if held && (d.Name == dradevices.DRAGPUDevice(i) || d.Name == dradevices.DRAVFIODevice(i)) {
				return true
			}
		}
		return false
	})
	c.sliceVersion++
	slice.ResourceVersion = strconv.Itoa(c.sliceVersion)
	slice.Spec.Pool.Generation = int64(c.sliceVersion)
	client := c.e.client.ResourceV1().ResourceSlices()
	_, err := client.Update(c.ctx, slice, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) {
		_, err = client.Create(c.ctx, slice, metav1.CreateOptions{})
	}
	if err != nil {
		return fmt.Errorf("write ResourceSlice %s: %w", slice.Name, err)
	}
	return c.await(objectKey(slice), slice.ResourceVersion)
}

// create writes the VM's claim before its first cycle.
func (c *claimEngine) create(p *Pod) error {
	claim := vmClaimObject(p.Spec)
	if _, err := c.e.client.ResourceV1().ResourceClaims(namespace).Create(c.ctx, claim, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create ResourceClaim %s of pod %s: %w", claim.Name, p.Spec.Name, err)
	}
	return c.await(objectKey(claim), claim.ResourceVersion)
}

// allocate runs DynamicResources' Reserve and PreBind for the node the
// cycle chose, which write the allocation, and returns the claim as
// allocated.
func (c *claimEngine) allocate(ctx context.Context, state fwk.CycleState, p *Pod, node string) (*resourceapi.ResourceClaim, error) {
	pl := c.e.dynamicResources
	if status := pl.Reserve(ctx, state, p.obj, node); !status.IsSuccess() {
		return nil, fmt.Errorf("DynamicResources' Reserve of pod %s on node %s: %w", p.Spec.Name, node, status.AsError())
	}
	if status := pl.PreBind(ctx, state, p.obj, node); !status.IsSuccess() {
		return nil, fmt.Errorf("DynamicResources' PreBind of pod %s on node %s: %w", p.Spec.Name, node, status.AsError())
	}
	claim, err := c.e.draManager.ResourceClaims().Get(namespace, vmClaimName(p.Spec.Name))
	if err != nil {
		return nil, err
	}
	if claim.Status.Allocation == nil {
		return nil, fmt.Errorf("pod %s on node %s: DynamicResources bound claim %s without allocating it", p.Spec.Name, node, claim.Name)
	}
	return claim, nil
}

// release deletes a departing VM's claim.
func (c *claimEngine) release(p *Pod) error {
	name := vmClaimName(p.Spec.Name)
	if err := c.e.client.ResourceV1().ResourceClaims(namespace).Delete(c.ctx, name, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete ResourceClaim %s of pod %s: %w", name, p.Spec.Name, err)
	}
	return c.await(namespace+"/"+name, "")
}
