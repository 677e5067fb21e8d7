package gpuworkloadfit

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/component-base/metrics"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// informersHandle is a handle with only an informer factory, all joinShare reads.
type informersHandle struct {
	fwk.Handle
	factory informers.SharedInformerFactory
}

func (h informersHandle) SharedInformerFactory() informers.SharedInformerFactory { return h.factory }

// Profiles of one process with the same args share one tracker and one set
// of explanations; other args or another process do not; the share goes
// with its last profile.
func TestProfilesShareClusterState(t *testing.T) {
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	join := func(ctx context.Context, handle fwk.Handle, args *config.GPUWorkloadFitArgs) (*GPUWorkloadFit, bool) {
		pl := NewOffline(args)
		pl.handle = handle
		_, first, err := pl.joinShare(ctx, args)
		if err != nil {
			t.Fatal(err)
		}
		return pl, first
	}
	ctx, stop := context.WithCancel(context.Background())
	args := &config.GPUWorkloadFitArgs{DRADriverName: "gpu.nvidia.com"}
	a, firstA := join(ctx, informersHandle{factory: factory}, args)
	b, firstB := join(ctx, informersHandle{factory: factory}, args)
	if !firstA || firstB || a.tracker != b.tracker || a.explained != b.explained {
		t.Fatalf("two profiles with the same args: first %v, %v, same tracker %v, same explanations %v; want one share", firstA, firstB, a.tracker == b.tracker, a.explained == b.explained)
	}
	other, firstOther := join(ctx, informersHandle{factory: factory}, &config.GPUWorkloadFitArgs{DRADriverName: "example.com"})
	if !firstOther || other.tracker == a.tracker {
		t.Fatal("a profile with other args joined the share")
	}
	if _, first := join(ctx, informersHandle{factory: informers.NewSharedInformerFactory(fake.NewClientset(), 0)}, args); !first {
		t.Fatal("a second scheduler in the process joined the first one's share")
	}
	stop()
	// context.AfterFunc runs leave in a goroutine of its own.
	err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		sharesMu.Lock()
		defer sharesMu.Unlock()
		for key := range shares {
			if key.informers == factory {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Fatal("the shares of stopped profiles stay")
	}
}

// activatingHandle records the pods a plugin activates.
type activatingHandle struct {
	informersHandle
	activated map[string]*v1.Pod
}

func (h *activatingHandle) ProfileName() string { return "gpu-workload-scheduler" }
func (h *activatingHandle) Activate(_ klog.Logger, pods map[string]*v1.Pod) {
	maps.Copy(h.activated, pods)
}

// A pod explained a while ago that still has no PodScheduled condition, or
// whose explanation event was not written, lost that write: it is retried. Pods with both,
// pods of other profiles, bound pods and pods explained a moment ago are not.
func TestRestoreConditionsRetriesPodsWithoutOne(t *testing.T) {
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	pods := factory.Core().V1().Pods().Informer().GetIndexer()
	pl := NewOffline(&config.GPUWorkloadFitArgs{})
	handle := &activatingHandle{informersHandle: informersHandle{factory: factory}, activated: map[string]*v1.Pod{}}
	pl.handle = handle
	var unwritten sync.Map
	long := time.Now().Add(-2 * conditionWriteGrace)
	for _, p := range []struct {
		name, scheduler, node string
		condition, event      bool
		explainedAt           time.Time
	}{
		{name: "lost", scheduler: "gpu-workload-scheduler", event: true, explainedAt: long},
		{name: "event-lost", scheduler: "gpu-workload-scheduler", condition: true, explainedAt: long},
		{name: "written", scheduler: "gpu-workload-scheduler", condition: true, event: true, explainedAt: long},
		{name: "other-profile", scheduler: "other", explainedAt: long},
		{name: "bound", scheduler: "gpu-workload-scheduler", node: "n1", explainedAt: long},
		{name: "just-explained", scheduler: "gpu-workload-scheduler", explainedAt: time.Now()},
	} {
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "vms", Name: p.name, UID: types.UID(p.name)}, Spec: v1.PodSpec{SchedulerName: p.scheduler, NodeName: p.node}}
		if p.condition {
			pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionFalse, Reason: v1.PodReasonUnschedulable}}
		}
		if err := pods.Add(pod); err != nil {
			t.Fatal(err)
		}
		if !p.event {
			unwritten.Store(pod.UID, struct{}{})
		}
		pl.explained.Store(pod.UID, explained{code: "Insufficient", namespace: "vms", name: p.name, at: p.explainedAt})
	}
	pl.restoreConditions(klog.Background(), &unwritten)
	if got, want := slices.Sorted(maps.Keys(handle.activated)), []string{"vms/event-lost", "vms/lost"}; !slices.Equal(got, want) {
		t.Fatalf("retried %v, want %v", got, want)
	}
}

// A scrape within inventoryMaxAge of the last count gets that count; an
// older one, or one for another plugin, counts again.
func TestInventoryMetricsAreCountedAtMostOncePerMaxAge(t *testing.T) {
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	nodes := factory.Core().V1().Nodes().Informer().GetIndexer()
	pl := NewOffline(&config.GPUWorkloadFitArgs{})
	pl.handle = informersHandle{factory: factory}
	c := &inventoryCollector{}
	c.plugin.Store(pl)
	scrape := func() int {
		ch := make(chan metrics.Metric, 100)
		c.CollectWithStability(ch)
		close(ch)
		return len(ch)
	}
	empty := scrape()
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "gpu-1", Labels: map[string]string{gpuworkload.LabelWorkloadConfig: "container"}},
		Status: v1.NodeStatus{Capacity: v1.ResourceList{gpuworkload.ResourceGPU: resource.MustParse("4")}, Allocatable: v1.ResourceList{gpuworkload.ResourceGPU: resource.MustParse("4")}}}
	if err := nodes.Add(node); err != nil {
		t.Fatal(err)
	}
	pl.tracker.UpsertNode(node)
	if got := scrape(); got != empty {
		t.Fatalf("a scrape within the max age counted again: %d series, want the last count's %d", got, empty)
	}
	c.last.at = time.Now().Add(-inventoryMaxAge)
	if got := scrape(); got <= empty {
		t.Fatalf("a scrape after the max age: %d series, want more than %d with the new node", got, empty)
	}
}

// A pod bound or deleted leaves every profile's waiters and its
// explanation: a later retry of the waiters finds only pods still waiting.
func TestShareForgetsPodsThatLeft(t *testing.T) {
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	ctx := t.Context()
	args := &config.GPUWorkloadFitArgs{DRADriverName: "gpu.nvidia.com"}
	var profiles []*GPUWorkloadFit
	var share *processShare
	for range 2 {
		pl := NewOffline(args)
		pl.handle = informersHandle{factory: factory}
		s, _, err := pl.joinShare(ctx, args)
		if err != nil {
			t.Fatal(err)
		}
		profiles, share = append(profiles, pl), s
	}
	left := podRequesting("left", map[v1.ResourceName]string{gpu: "1"})
	waiting := podRequesting("waiting", map[v1.ResourceName]string{gpu: "1"})
	for _, pl := range profiles {
		for _, w := range []*waitingPods{&pl.deviceWaiters, &pl.narrowedWaiters} {
			w.add(left)
			w.add(waiting)
		}
	}
	share.explained.Store(left.UID, explained{})
	share.forget(left)
	if _, ok := share.explained.Load(left.UID); ok {
		t.Error("the explanation of a pod that left stays")
	}
	for i, pl := range profiles {
		for _, w := range []*waitingPods{&pl.deviceWaiters, &pl.narrowedWaiters} {
			h := &fakeHandle{}
			w.activate(klog.Background(), h)
			if got := slices.Sorted(maps.Keys(h.activated)); !slices.Equal(got, []string{"ns/waiting"}) {
				t.Errorf("profile %d retried %v, want only the pod still waiting", i, got)
			}
		}
	}
}

// The explanation sink notes, per pod, whether the latest write of an
// explanation event failed; a later write that succeeds clears it, and
// other events count for nothing.
func TestExplanationSinkNotesUnwrittenEvents(t *testing.T) {
	var unwritten sync.Map
	inner := &failingSink{}
	sink := explanationSink{EventSink: inner, unwritten: &unwritten}
	explanation := func(uid types.UID) *eventsv1.Event {
		return &eventsv1.Event{Reason: reasons.EventReasonUnschedulable, Regarding: v1.ObjectReference{Kind: "Pod", UID: uid}}
	}
	lost := func(uid types.UID) bool { _, ok := unwritten.Load(uid); return ok }
	inner.err = errors.New("connection refused")
	if _, err := sink.Create(context.Background(), explanation("a")); err == nil {
		t.Fatal("the inner sink's error was not returned")
	}
	if _, err := sink.Patch(context.Background(), explanation("b"), nil); err == nil {
		t.Fatal("the inner sink's error was not returned")
	}
	if _, err := sink.Create(context.Background(), &eventsv1.Event{Reason: "FailedScheduling", Regarding: v1.ObjectReference{UID: "c"}}); err == nil {
		t.Fatal("the inner sink's error was not returned")
	}
	if !lost("a") || !lost("b") || lost("c") {
		t.Fatalf("unwritten a %v, b %v, c %v; want a and b, the explanations", lost("a"), lost("b"), lost("c"))
	}
	inner.err = nil
	if _, err := sink.Update(context.Background(), explanation("a")); err != nil {
		t.Fatal(err)
	}
	if lost("a") || !lost("b") {
		t.Fatalf("unwritten a %v, b %v; want only b after a's write", lost("a"), lost("b"))
	}
}

// failingSink answers every write with err.
type failingSink struct{ err error }

func (s *failingSink) Create(_ context.Context, e *eventsv1.Event) (*eventsv1.Event, error) {
	return e, s.err
}
func (s *failingSink) Update(_ context.Context, e *eventsv1.Event) (*eventsv1.Event, error) {
	return e, s.err
}
func (s *failingSink) Patch(_ context.Context, e *eventsv1.Event, _ []byte) (*eventsv1.Event, error) {
	return e, s.err
}
