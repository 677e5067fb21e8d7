package draguard

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/kubernetes"
	resourcelisters "k8s.io/client-go/listers/resource/v1"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Failed reconciliations are retried after retryAfter, doubling with each
// consecutive failure up to maxRetryAfter, so that an API server that
// refuses DeviceTaintRules is not called every second forever.
const (
	retryAfter    = time.Second
	maxRetryAfter = 2 * time.Minute
)

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
	// failures counts the reconciliations that failed in a row: 0 when the
	// rules cover every allocation the last time the controller looked.
	failures atomic.Int64

	mu sync.Mutex
	// reconciled run after every successful reconciliation.
	reconciled []func()
}

// NewController builds the controller; Run starts it.
func NewController(client kubernetes.Interface, claims fwk.ResourceClaimTracker, rules resourcelisters.DeviceTaintRuleLister, siblings SiblingLookup,
	driver string) *Controller {
	return &Controller{client: client, claims: claims, rules: rules, siblings: siblings, driver: driver, trigger: make(chan struct{}, 1)}
}

// process holds the controllers of this process, one per informer factory
// and driver: a scheduler with several profiles shares one informer factory,
// and two guards would write the same rules.
var process struct {
	mu          sync.Mutex
	controllers map[processKey]*Controller
}

type processKey struct {
	informers any
	driver    string
}

// ForProcess returns the one controller of the process for the informer
// factory and driver, building it with build and starting it with run on
// first use; started is false when it existed already.
func ForProcess(informers any, driver string, build func() (*Controller, error), run func(*Controller)) (c *Controller, started bool, err error) {
	process.mu.Lock()
	defer process.mu.Unlock()
	key := processKey{informers, driver}
	if c := process.controllers[key]; c != nil {
		return c, false, nil
	}
	if c, err = build(); err != nil {
		return nil, false, err
	}
	if process.controllers == nil {
		process.controllers = map[processKey]*Controller{}
	}
	process.controllers[key] = c
	run(c)
	return c, true, nil
}

// OnReconciled adds a function to run after every successful
// reconciliation: the rules then cover every allocation.
func (c *Controller) OnReconciled(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reconciled = append(c.reconciled, f)
}

// Failures is the number of reconciliations that failed in a row; 0 when
// the last one succeeded.
func (c *Controller) Failures() int64 { return c.failures.Load() }

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
			failures := c.failures.Add(1)
			delay := backoff(failures)
			logger.Error(err, "Cannot update the DeviceTaintRules that keep sibling DRA devices apart; new DRA allocations that would complete a pair are rejected at Reserve until this recovers",
				"failures", failures, "retryAfter", delay)
			time.AfterFunc(delay, c.Trigger)
			continue
		}
		if failures := c.failures.Swap(0); failures > 0 {
			logger.Info("DeviceTaintRules cover every DRA allocation again", "failuresBefore", failures)
		}
		c.mu.Lock()
		reconciled := slices.Clone(c.reconciled)
		c.mu.Unlock()
		for _, f := range reconciled {
			f()
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(minInterval):
		}
	}
}

// backoff is the wait after the given number of failures in a row.
func backoff(failures int64) time.Duration {
	if failures > 10 {
		return maxRetryAfter
	}
	return min(retryAfter<<(failures-1), maxRetryAfter)
}

// Allocations lists the driver's allocated devices. The claim tracker's
// device set includes the allocations this scheduler has made and not yet
// written; those are the ones no claim object in its cache holds yet.
func (c *Controller) Allocations() ([]Allocation, error) {
	devices, err := c.listAllocated()
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

// listAllocated lists the allocated devices, again while the claim
// tracker reports that they changed during the listing: the one error it
// returns, which DynamicResources retries the same way. Failing the cycle
// for it sends a pod to back-off whenever claims change quickly.
func (c *Controller) listAllocated() (sets.Set[structured.DeviceID], error) {
	var allocated sets.Set[structured.DeviceID]
	var err error
	for range listAttempts {
		if allocated, err = c.claims.ListAllAllocatedDevices(); err == nil {
			return allocated, nil
		}
	}
	return nil, fmt.Errorf("list allocated DRA devices, %d attempts: %w", listAttempts, err)
}

// listAttempts bounds listAllocated.
const listAttempts = 100

// ConflictOn returns a pair of allocated sibling devices of one node of
// which at least one half is not written to a claim yet: the check Reserve
// makes after DynamicResources allocated the pod's devices there. Pairs
// whose halves are both written existed before this cycle (allocated by
// another scheduler, or before the guard ran): they are reported by check
// and the metrics, and never block the node's other devices. written tells
// whether a device is held by a claim in the informer's cache.
func (c *Controller) ConflictOn(node *gpuworkload.DRANode, written func(pool, device string) bool) (*Conflict, error) {
	if node == nil {
		return nil, nil
	}
	allocated, err := c.listAllocated()
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
			if isAllocated(s) && (!written(d.Pool, d.Name) || !written(s.Pool, s.Name)) {
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
			_, err := api.Create(ctx, want, metav1.CreateOptions{})
			if apierrors.IsAlreadyExists(err) {
				err = c.checkOwned(ctx, name)
			}
			if err != nil {
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

// checkOwned is called when a rule the guard creates exists already but is
// not in its cache of the rules it owns: either the cache lags behind, or
// someone else's object has the name, which the guard must not take over.
func (c *Controller) checkOwned(ctx context.Context, name string) error {
	rule, err := c.client.ResourceV1().DeviceTaintRules().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if rule.Labels[ManagedByLabel] != ManagedBy {
		return fmt.Errorf("a DeviceTaintRule named %s exists without the label %s=%s, so it is not the guard's and the guard leaves it alone; "+
			"fix: delete or rename that DeviceTaintRule (the name prefix %s belongs to gpu-workload-scheduler)", name, ManagedByLabel, ManagedBy, rulePrefix)
	}
	return nil
}
