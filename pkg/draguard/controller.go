package draguard

import (
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

// settleAfter is when a node is reconciled again while the framework's
// claim tracker and the cluster state disagree about its allocations. They
// hear of a claim from separate informer handlers, in no fixed order: a
// reconciliation triggered by the cluster state may read a claim tracker
// that has not seen the release (or the allocation) yet, and nothing else
// would trigger the node again. In-flight allocations disagree too, until
// they are written.
const settleAfter = time.Second

// minInterval spaces reconciliations: each lists every allocation, and the
// scheduler triggers one per DRA pod it reserves. Triggers in between coalesce.
const minInterval = 100 * time.Millisecond

// Controller keeps the guard's DeviceTaintRules equal to what the claims'
// allocations need, in-flight allocations of this scheduler included.
//
// It reconciles the nodes whose allocations changed, as Devices reports
// them and Reserve and Unreserve name them; all nodes when it starts, when
// slices change which devices exist, and after a failure.
//
// It acts only once Activate is called, which the plugin does when it
// schedules: only the leader schedules, so a passive replica, whose claim
// tracker knows no in-flight allocation, never removes the leader's rules.
// Rules have fixed names, so a new leader adopts the old one's.
type Controller struct {
	client  kubernetes.Interface
	claims  fwk.ResourceClaimTracker
	rules   resourcelisters.DeviceTaintRuleLister
	devices Devices
	driver  string
	active  atomic.Bool
	trigger chan struct{}
	// failures counts the reconciliations that failed in a row: 0 when the
	// rules cover every allocation the last time the controller looked.
	failures atomic.Int64

	mu sync.Mutex
	// dirty are the nodes to reconcile; all, every node.
	dirty sets.Set[string]
	all   bool
	// reconciled run after every successful reconciliation.
	reconciled []func()
}

// Devices is what the guard reads of the driver's devices, from informers:
// clusterstate.Tracker.
type Devices interface {
	// DRANode is the node's devices; nil for none.
	DRANode(node string) *gpuworkload.DRANode
	// DRAPoolNode is the node of a pool; "" for a pool no slice publishes.
	DRAPoolNode(pool string) string
	// DRAHeld reports whether a written claim holds the device.
	DRAHeld(pool, device string) bool
	// DRASiblings is a device's node and the devices of its GPU it excludes.
	DRASiblings(pool, device string) (node string, siblings []gpuworkload.DRADevice)
}

// NewController builds the controller; Run starts it.
func NewController(client kubernetes.Interface, claims fwk.ResourceClaimTracker, rules resourcelisters.DeviceTaintRuleLister, devices Devices,
	driver string) *Controller {
	return &Controller{client: client, claims: claims, rules: rules, devices: devices, driver: driver, trigger: make(chan struct{}, 1), dirty: sets.New[string]()}
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

// Trigger asks for a reconciliation of every node; triggers coalesce.
func (c *Controller) Trigger() {
	c.mu.Lock()
	c.all = true
	c.mu.Unlock()
	c.signal()
}

// TriggerNodes asks for a reconciliation of the nodes.
func (c *Controller) TriggerNodes(nodes ...string) {
	c.mu.Lock()
	c.dirty.Insert(nodes...)
	c.mu.Unlock()
	c.signal()
}

// HoldersChanged and DevicesChanged make the controller a
// clusterstate.DRAListener: it reconciles after the tracker saw a change.
func (c *Controller) HoldersChanged(nodes []string) { c.TriggerNodes(nodes...) }
func (c *Controller) DevicesChanged()               { c.Trigger() }

// RuleChanged asks for a reconciliation of the node of one of the guard's
// rules that changed: someone else may have changed or deleted it.
func (c *Controller) RuleChanged(rule *resourceapi.DeviceTaintRule) {
	if sel := rule.Spec.DeviceSelector; sel != nil && sel.Pool != nil {
		if node := c.devices.DRAPoolNode(*sel.Pool); node != "" {
			c.TriggerNodes(node)
			return
		}
	}
	c.Trigger()
}

func (c *Controller) signal() {
	select {
	case c.trigger <- struct{}{}:
	default:
	}
}

// work takes the nodes to reconcile; nil with all true for every node.
func (c *Controller) work() (nodes sets.Set[string], all bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	nodes, all = c.dirty, c.all
	c.dirty, c.all = sets.New[string](), false
	if all {
		nodes = nil
	}
	return nodes, all
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
		nodes, all := c.work()
		unsettled, err := c.reconcile(ctx, logger, nodes, all)
		if err != nil {
			failures := c.failures.Add(1)
			delay := backoff(failures)
			logger.Error(err, "Cannot update the DeviceTaintRules that keep sibling DRA devices apart; new DRA allocations that would complete a pair are rejected at Reserve until this recovers",
				"failures", failures, "retryAfter", delay)
			// Triggers during the back-off coalesce into the retry.
			c.Trigger()
			select {
			case <-ctx.Done():
				return
			case <-time.After(delay):
			}
			continue
		}
		if failures := c.failures.Swap(0); failures > 0 {
			logger.Info("DeviceTaintRules cover every DRA allocation again", "failuresBefore", failures)
		}
		if len(unsettled) > 0 {
			logger.V(4).Info("Claim views disagree; reconciling these nodes again", "nodes", unsettled, "after", settleAfter)
			time.AfterFunc(settleAfter, func() { c.TriggerNodes(unsettled...) })
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

// ConflictOn returns a pair of allocated sibling devices of the node of
// which at least one half is not written to a claim yet: the check Reserve
// makes after DynamicResources allocated the pod's devices there. Pairs
// whose halves are both written existed before this cycle (allocated by
// another scheduler, or before the guard ran): they are reported by check
// and the metrics, and never block the node's other devices.
func (c *Controller) ConflictOn(nodeName string) (*Conflict, error) {
	node := c.devices.DRANode(nodeName)
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
			if isAllocated(s) && (!c.devices.DRAHeld(d.Pool, d.Name) || !c.devices.DRAHeld(s.Pool, s.Name)) {
				return &Conflict{Node: nodeName, A: Allocation{Pool: d.Pool, Device: d.Name}, B: Allocation{Pool: s.Pool, Device: s.Name}, PCIBusID: d.PCIBusID}, nil
			}
		}
	}
	return nil, nil
}

// reconcile makes the rules of the nodes (of every node, for all) what
// their allocations need. It returns the nodes on which the claim tracker
// and the cluster state disagree, to reconcile again once they settle.
func (c *Controller) reconcile(ctx context.Context, logger klog.Logger, nodes sets.Set[string], all bool) (unsettled []string, err error) {
	allocated, err := c.listAllocated()
	if err != nil {
		return nil, err
	}
	if all {
		nodes = sets.New[string]()
		for id := range allocated {
			if id.Driver.String() == c.driver {
				nodes.Insert(c.devices.DRAPoolNode(id.Pool.String()))
			}
		}
	}
	var allocs []Allocation
	existing := map[string]*resourceapi.DeviceTaintRule{}
	for name := range nodes {
		node := c.devices.DRANode(name)
		if node == nil {
			continue
		}
		settled := true
		for _, d := range node.Devices {
			isAllocated, held := allocated.Has(structured.MakeDeviceID(c.driver, d.Pool, d.Name)), c.devices.DRAHeld(d.Pool, d.Name)
			if isAllocated {
				allocs = append(allocs, Allocation{Pool: d.Pool, Device: d.Name, Written: held})
			}
			settled = settled && isAllocated == held
			if all {
				continue
			}
			// A rule on one of the node's devices has that device's name.
			switch rule, err := c.rules.Get(ruleName(c.driver, d)); {
			case err == nil && rule.Labels[ManagedByLabel] == ManagedBy:
				existing[rule.Name] = rule
			case err != nil && !apierrors.IsNotFound(err):
				return nil, err
			}
		}
		if !settled {
			unsettled = append(unsettled, name)
		}
	}
	if all {
		owned, err := c.rules.List(labels.SelectorFromSet(labels.Set{ManagedByLabel: ManagedBy}))
		if err != nil {
			return nil, err
		}
		for _, r := range owned {
			existing[r.Name] = r
		}
	}
	if err := c.apply(ctx, logger, DesiredRules(allocs, c.devices.DRASiblings, c.driver), existing); err != nil {
		return nil, err
	}
	return unsettled, nil
}

// apply creates, updates and deletes rules until existing is desired.
func (c *Controller) apply(ctx context.Context, logger klog.Logger, desired, existing map[string]*resourceapi.DeviceTaintRule) error {
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
