package draguard

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes/fake"
	resourcelisters "k8s.io/client-go/listers/resource/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/dynamic-resource-allocation/structured"
	"k8s.io/klog/v2/ktesting"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// claimTracker is the framework's claim tracker as the guard reads it: the
// written claims and the devices allocated, in flight included.
type claimTracker struct {
	written  []*resourceapi.ResourceClaim
	inFlight []string
	// clusterState are the written claims as the cluster state has seen
	// them when its informer handler ran before or after the tracker's;
	// nil when it has seen written.
	clusterState []*resourceapi.ResourceClaim
	// concurrentChanges fail that many listings, as claims changing
	// during a listing do.
	concurrentChanges int
}

func (c *claimTracker) List() ([]*resourceapi.ResourceClaim, error) { return c.written, nil }
func (c *claimTracker) Get(string, string) (*resourceapi.ResourceClaim, error) {
	return nil, errors.New("not used")
}
func (c *claimTracker) ListAllAllocatedDevices() (sets.Set[structured.DeviceID], error) {
	if c.concurrentChanges > 0 {
		c.concurrentChanges--
		return nil, errors.New("conflicting concurrent modification")
	}
	out := sets.New[structured.DeviceID]()
	for _, a := range AllocationsOf(c.written, gpuworkload.DRADriver) {
		out.Insert(structured.MakeDeviceID(gpuworkload.DRADriver, a.Pool, a.Device))
	}
	for _, d := range c.inFlight {
		out.Insert(structured.MakeDeviceID(gpuworkload.DRADriver, "n1", d))
	}
	return out, nil
}
func (c *claimTracker) GatherAllocatedState() (*structured.AllocatedState, error) {
	return nil, errors.New("not used")
}
func (c *claimTracker) SignalClaimPendingAllocation(types.UID, *resourceapi.ResourceClaim) error {
	return errors.New("not used")
}
func (c *claimTracker) GetPendingAllocation(types.UID) *resourceapi.AllocationResult { return nil }
func (c *claimTracker) MaybeRemoveClaimPendingAllocation(types.UID, bool) bool       { return false }
func (c *claimTracker) AssumeClaimAfterAPICall(*resourceapi.ResourceClaim) error {
	return errors.New("not used")
}
func (c *claimTracker) AssumedClaimRestore(string, string) {}

func claim(name string, devices ...string) *resourceapi.ResourceClaim {
	c := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}}
	c.Status.Allocation = &resourceapi.AllocationResult{}
	for _, d := range devices {
		c.Status.Allocation.Devices.Results = append(c.Status.Allocation.Devices.Results,
			resourceapi.DeviceRequestAllocationResult{Request: "gpu", Driver: gpuworkload.DRADriver, Pool: "n1", Device: d})
	}
	return c
}

// nodeDevices is the tracker's view of node n1 of lookupNode: a written
// claim of claims holds a device.
type nodeDevices struct{ claims *claimTracker }

func (d nodeDevices) DRANode(name string) *gpuworkload.DRANode {
	if name != "n1" {
		return nil
	}
	_, node := lookupNode()
	return node
}
func (d nodeDevices) DRAPoolNode(pool string) string {
	if pool != "n1" {
		return ""
	}
	return "n1"
}
func (d nodeDevices) DRAHeld(pool, device string) bool {
	seen := d.claims.written
	if d.claims.clusterState != nil {
		seen = d.claims.clusterState
	}
	for _, a := range AllocationsOf(seen, gpuworkload.DRADriver) {
		if a.Pool == pool && a.Device == device {
			return true
		}
	}
	return false
}
func (d nodeDevices) DRASiblings(pool, device string) (string, []gpuworkload.DRADevice) {
	return lookup()(pool, device)
}

// guard is a controller over a fake clientset whose rule lister is filled
// from the clientset's own rules, as the informer would be.
func guard(t *testing.T, claims *claimTracker, objects ...runtime.Object) (*Controller, *fake.Clientset, func()) {
	t.Helper()
	client := fake.NewClientset(objects...)
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	sync := func() {
		list, err := client.ResourceV1().DeviceTaintRules().List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range indexer.List() {
			_ = indexer.Delete(obj)
		}
		for i := range list.Items {
			_ = indexer.Add(&list.Items[i])
		}
	}
	sync()
	c := NewController(client, claims, resourcelisters.NewDeviceTaintRuleLister(indexer), nodeDevices{claims}, gpuworkload.DRADriver)
	return c, client, sync
}

func ruleDevices(t *testing.T, client *fake.Clientset) []string {
	t.Helper()
	list, err := client.ResourceV1().DeviceTaintRules().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range list.Items {
		if r.Spec.Taint.Effect != resourceapi.DeviceTaintEffectNoSchedule {
			t.Errorf("rule %s has effect %s, want NoSchedule only", r.Name, r.Spec.Taint.Effect)
		}
		out = append(out, *r.Spec.DeviceSelector.Device)
	}
	return out
}

func TestReconcileKeepsTheContract(t *testing.T) {
	logger, ctx := ktesting.NewTestContext(t)
	claims := &claimTracker{written: []*resourceapi.ResourceClaim{claim("mig", "gpu-3-mig-1g5gb-0"), claim("old-a", "gpu-0"), claim("old-b", "gpu-vfio-0"), claim("vm", "gpu-vfio-1")}}
	c, client, sync := guard(t, claims)
	if _, err := c.reconcile(ctx, logger, nil, true); err != nil {
		t.Fatal(err)
	}
	if got := ruleDevices(t, client); len(got) != 1 || got[0] != "gpu-1" {
		t.Fatalf("rules on %v, want one, on gpu-1: a MIG slice and a pair allocated before get none", got)
	}
	sync()
	claims.written = claims.written[:3]
	if _, err := c.reconcile(ctx, logger, sets.New("n1"), false); err != nil {
		t.Fatal(err)
	}
	if got := ruleDevices(t, client); len(got) != 0 {
		t.Fatalf("rules on %v after the VM's claim went, want none", got)
	}
}

// The cluster state may hear of a release before the claim tracker does:
// the rule stays while the tracker still lists the allocation, and the node
// is reconciled again until the two agree, which removes it.
func TestReconcileAgainWhileTheClaimViewsDisagree(t *testing.T) {
	logger, ctx := ktesting.NewTestContext(t)
	claims := &claimTracker{written: []*resourceapi.ResourceClaim{claim("cuda", "gpu-0")}, clusterState: []*resourceapi.ResourceClaim{}}
	c, client, sync := guard(t, claims, siblingRule(gpuworkload.DRADriver, gpuworkload.DRADevice{Pool: "n1", Name: "gpu-vfio-0"}, "gpu-0"))
	unsettled, err := c.reconcile(ctx, logger, sets.New("n1"), false)
	if err != nil {
		t.Fatal(err)
	}
	if got := ruleDevices(t, client); !slices.Equal(got, []string{"gpu-vfio-0"}) || !slices.Equal(unsettled, []string{"n1"}) {
		t.Fatalf("rules on %v, unsettled %v; want the rule on gpu-vfio-0 kept and n1 to reconcile again", got, unsettled)
	}
	sync()
	claims.written = nil
	if unsettled, err = c.reconcile(ctx, logger, sets.New("n1"), false); err != nil {
		t.Fatal(err)
	}
	if got := ruleDevices(t, client); len(got) != 0 || len(unsettled) != 0 {
		t.Fatalf("rules on %v, unsettled %v once the tracker saw the release; want none", got, unsettled)
	}
}

// A node's reconciliation changes that node's rules only; a full one
// removes rules no allocation needs, on nodes that are gone too.
func TestReconcileOneNodeLeavesTheOthers(t *testing.T) {
	logger, ctx := ktesting.NewTestContext(t)
	gone := siblingRule(gpuworkload.DRADriver, gpuworkload.DRADevice{Pool: "gone", Name: "gpu-0"}, "gpu-vfio-0")
	claims := &claimTracker{written: []*resourceapi.ResourceClaim{claim("vm", "gpu-vfio-1")}}
	c, client, sync := guard(t, claims, gone)
	if _, err := c.reconcile(ctx, logger, sets.New("n1"), false); err != nil {
		t.Fatal(err)
	}
	if got := ruleDevices(t, client); !slices.Equal(sorted(got), []string{"gpu-0", "gpu-1"}) {
		t.Fatalf("rules on %v after reconciling n1, want gpu-1 added and the other node's gpu-0 left", got)
	}
	sync()
	if _, err := c.reconcile(ctx, logger, nil, true); err != nil {
		t.Fatal(err)
	}
	if got := ruleDevices(t, client); !slices.Equal(got, []string{"gpu-1"}) {
		t.Fatalf("rules on %v after a full reconciliation, want gpu-1 only", got)
	}
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}

// A DeviceTaintRule of the guard's name that the guard did not create is
// someone else's: the guard fails with the fix and leaves it as it is.
func TestReconcileRefusesAForeignRuleOfItsName(t *testing.T) {
	logger, ctx := ktesting.NewTestContext(t)
	name := siblingRule(gpuworkload.DRADriver, gpuworkload.DRADevice{Pool: "n1", Name: "gpu-1"}, "gpu-vfio-1").Name
	foreign := &resourceapi.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: resourceapi.DeviceTaintRuleSpec{
		Taint: resourceapi.DeviceTaint{Key: "example.com/maintenance", Effect: resourceapi.DeviceTaintEffectNoExecute}}}
	c, client, _ := guard(t, &claimTracker{written: []*resourceapi.ResourceClaim{claim("vm", "gpu-vfio-1")}}, foreign)
	_, err := c.reconcile(ctx, logger, sets.New("n1"), false)
	if err == nil || !strings.Contains(err.Error(), "exists without the label app.kubernetes.io/managed-by=gpu-workload-scheduler") || !strings.Contains(err.Error(), "fix: delete or rename") {
		t.Fatalf("err %v, want the foreign rule named with the fix", err)
	}
	got, err := client.ResourceV1().DeviceTaintRules().Get(ctx, name, metav1.GetOptions{})
	if err != nil || got.Spec.Taint.Key != "example.com/maintenance" || got.Labels[ManagedByLabel] != "" {
		t.Fatalf("the foreign rule was changed: %+v, %v", got, err)
	}
}

func TestBackoffDoublesUpToItsCap(t *testing.T) {
	for failures, want := range map[int64]time.Duration{1: time.Second, 2: 2 * time.Second, 5: 16 * time.Second, 8: 2 * time.Minute, 60: 2 * time.Minute} {
		if got := backoff(failures); got != want {
			t.Errorf("backoff after %d failures: %v, want %v", failures, got, want)
		}
	}
}

// While the API refuses rules the guard counts its failures and does not
// tell the parked pods to retry; once it recovers the count is 0 and they are.
func TestRunReportsFailuresAndRecovers(t *testing.T) {
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c, client, _ := guard(t, &claimTracker{written: []*resourceapi.ResourceClaim{claim("vm", "gpu-vfio-1")}})
	var refuse atomic.Bool
	refuse.Store(true)
	client.PrependReactor("create", "devicetaintrules", func(k8stesting.Action) (bool, runtime.Object, error) {
		if refuse.Load() {
			return true, nil, apierrors.NewServiceUnavailable("etcd is away")
		}
		return false, nil, nil
	})
	retried := make(chan struct{}, 10)
	c.OnReconciled(func() { retried <- struct{}{} })
	c.Activate()
	go c.Run(ctx)
	if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return c.Failures() >= 1, nil
	}); err != nil {
		t.Fatalf("no failure counted: %v", err)
	}
	select {
	case <-retried:
		t.Fatal("parked pods were retried while the rules were not written")
	default:
	}
	refuse.Store(false)
	c.Trigger()
	select {
	case <-retried:
	case <-time.After(10 * time.Second):
		t.Fatal("parked pods were not retried after the guard recovered")
	}
	if f := c.Failures(); f != 0 {
		t.Fatalf("%d failures counted after a success, want 0", f)
	}
	if got := ruleDevices(t, client); len(got) != 1 || got[0] != "gpu-1" {
		t.Fatalf("rules on %v, want gpu-1", got)
	}
}

// Reserve's check: a pair blocks only when one half is not written yet,
// i.e. this cycle (or one still binding) completes it.
func TestConflictOnOnlyForPairsThisSchedulerCompletes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		written  []*resourceapi.ResourceClaim
		inFlight []string
		want     bool
	}{
		{name: "a pair allocated before, and a new claim on another GPU", written: []*resourceapi.ResourceClaim{claim("a", "gpu-0"), claim("b", "gpu-vfio-0")}, inFlight: []string{"gpu-1"}},
		{name: "the new claim takes the other half of a GPU in use", written: []*resourceapi.ResourceClaim{claim("a", "gpu-0")}, inFlight: []string{"gpu-vfio-0"}, want: true},
		{name: "two MIG slices of one GPU", written: []*resourceapi.ResourceClaim{claim("a", "gpu-3-mig-1g5gb-0")}, inFlight: []string{"gpu-3-mig-1g5gb-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			claims := &claimTracker{written: tc.written, inFlight: tc.inFlight}
			c, _, _ := guard(t, claims)
			conflict, err := c.ConflictOn("n1")
			if err != nil {
				t.Fatal(err)
			}
			if (conflict != nil) != tc.want {
				t.Fatalf("conflict %v, want one: %v", conflict, tc.want)
			}
		})
	}
}

// Claims that change while Reserve lists the allocations make it list
// again, as DynamicResources does, rather than fail the pod's cycle; a
// tracker that never settles is an error.
func TestConflictOnListsAgainAfterConcurrentChanges(t *testing.T) {
	claims := &claimTracker{inFlight: []string{"gpu-0", "gpu-vfio-0"}, concurrentChanges: 3}
	c, _, _ := guard(t, claims)
	conflict, err := c.ConflictOn("n1")
	if err != nil || conflict == nil {
		t.Fatalf("after 3 concurrent changes: conflict %v, error %v; want the in-flight pair", conflict, err)
	}
	claims.concurrentChanges = listAttempts
	if _, err := c.ConflictOn("n1"); err == nil {
		t.Fatal("no error from a tracker that changes at every listing")
	}
}
