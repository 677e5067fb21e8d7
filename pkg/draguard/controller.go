package draguard

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	resourcelisters "k8s.io/client-go/listers/resource/v1"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// retryAfter is how long the controller waits after a failed API call.
const retryAfter = time.Second

// minInterval spaces reconciliations: each lists every allocation, and the
// scheduler triggers one per DRA pod it reserves. Triggers in between coalesce.
const minInterval = 100 * time.Millisecond

// Controller keeps the guard's DeviceTaintRules equal to what the claims'
// allocations need, in-flight allocations of this scheduler included.
//
// It acts only once Activate is called, which the plugin does when it
// schedules: only the leader schedules, so a passive replica, whose claim
// tracker knows no in-flight allocation, never removes the leader's rules.
// Rules have fixed names, so a new leader adopts the old one's.
type Controller struct {
	client   kubernetes.Interface
	claims   fwk.ResourceClaimTracker
	rules    resourcelisters.DeviceTaintRuleLister
	siblings SiblingLookup
	driver   string
	active   atomic.Bool
	trigger  chan struct{}
	// reconciled runs after every successful reconciliation.
	reconciled func()
}

// NewController builds the controller; Run starts it. reconciled runs after
// every successful reconciliation: the rules then cover every allocation.
func NewController(client kubernetes.Interface, claims fwk.ResourceClaimTracker, rules resourcelisters.DeviceTaintRuleLister, siblings SiblingLookup,
	driver string, reconciled func()) *Controller {
	return &Controller{client: client, claims: claims, rules: rules, siblings: siblings, driver: driver, trigger: make(chan struct{}, 1), reconciled: reconciled}
}

// Activate makes the controller act from now on.
func (c *Controller) Activate() {
	if !c.active.Swap(true) {
		c.Trigger()
	}
}

// Trigger asks for a reconciliation; triggers coalesce.
func (c *Controller) Trigger() {
	select {
	case c.trigger <- struct{}{}:
	default:
	}
}

// Run reconciles on every trigger until ctx ends.
func (c *Controller) Run(ctx context.Context) {
	logger := klog.FromContext(ctx).WithName("draguard")
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.trigger:
		}
		if !c.active.Load() {
			continue
		}
		if err := c.reconcile(ctx, logger); err != nil {
			logger.Error(err, "Cannot update the DeviceTaintRules that keep sibling DRA devices apart; retrying", "retryAfter", retryAfter)
			time.AfterFunc(retryAfter, c.Trigger)
			continue
		}
		c.reconciled()
		select {
		case <-ctx.Done():
			return
		case <-time.After(minInterval):
		}
	}
}

// Allocations lists the driver's allocated devices. The claim tracker's
// device set includes the allocations this scheduler has made and not yet
// written; those are the ones no claim object in its cache holds yet.
func (c *Controller) Allocations() ([]Allocation, error) {
	devices, err := c.claims.ListAllAllocatedDevices()
	if err != nil {
		return nil, err
	}
	claims, err := c.claims.List()
	if err != nil {
		return nil, err
	}
	written := map[[2]string]string{}
	for _, a := range AllocationsOf(claims, c.driver) {
		written[[2]string{a.Pool, a.Device}] = a.Claim
	}
	var out []Allocation
	for id := range devices {
		if id.Driver.String() != c.driver {
			continue
		}
		a := Allocation{Pool: id.Pool.String(), Device: id.Device.String()}
		a.Claim, a.Written = written[[2]string{a.Pool, a.Device}]
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Allocation) int { return cmp.Or(cmp.Compare(a.Pool, b.Pool), cmp.Compare(a.Device, b.Device)) })
	return out, nil
}

// ConflictOn returns a conflict among the allocated devices of one node,
// in-flight allocations included: the check Reserve makes after
// DynamicResources allocated the pod's devices there. It looks at that
// node's devices only, so that its cost does not grow with the cluster
// beyond building the allocated set.
func (c *Controller) ConflictOn(node *gpuworkload.DRANode) (*Conflict, error) {
	if node == nil {
		return nil, nil
	}
	allocated, err := c.claims.ListAllAllocatedDevices()
	if err != nil {
		return nil, err
	}
	isAllocated := func(d gpuworkload.DRADevice) bool {
		return allocated.Has(structured.MakeDeviceID(c.driver, d.Pool, d.Name))
	}
	for _, d := range node.Devices {
		if !isAllocated(d) {
			continue
		}
		for _, s := range node.Siblings(d.Pool, d.Name) {
			if isAllocated(s) {
				return &Conflict{A: Allocation{Pool: d.Pool, Device: d.Name}, B: Allocation{Pool: s.Pool, Device: s.Name}, PCIBusID: d.PCIBusID}, nil
			}
		}
	}
	return nil, nil
}

func (c *Controller) reconcile(ctx context.Context, logger klog.Logger) error {
	allocs, err := c.Allocations()
	if err != nil {
		return err
	}
	desired := DesiredRules(allocs, c.siblings, c.driver)
	owned, err := c.rules.List(labels.SelectorFromSet(labels.Set{ManagedByLabel: ManagedBy}))
	if err != nil {
		return err
	}
	existing := make(map[string]*resourceapi.DeviceTaintRule, len(owned))
	for _, r := range owned {
		existing[r.Name] = r
	}
	api := c.client.ResourceV1().DeviceTaintRules()
	for _, name := range sortedNames(desired) {
		want, have := desired[name], existing[name]
		switch {
		case have == nil:
			if _, err := api.Create(ctx, want, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
				return fmt.Errorf("create DeviceTaintRule %s: %w", name, err)
			}
			logger.V(2).Info("Tainted a DRA device whose physical GPU is in use", "rule", name, "device", want.Annotations["gpu.workload.scheduling.nvidia.io/device"])
		case !sameRule(have, want):
			updated := have.DeepCopy()
			updated.Spec = want.Spec
			updated.Annotations = want.Annotations
			if _, err := api.Update(ctx, updated, metav1.UpdateOptions{}); err != nil {
				return fmt.Errorf("update DeviceTaintRule %s: %w", name, err)
			}
		}
	}
	for _, name := range sortedNames(existing) {
		if desired[name] != nil {
			continue
		}
		if err := api.Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete DeviceTaintRule %s: %w", name, err)
		}
		logger.V(2).Info("Untainted a DRA device: its physical GPU is free", "rule", name)
	}
	return nil
}
