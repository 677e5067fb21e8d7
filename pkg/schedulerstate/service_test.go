package schedulerstate

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// informersHandle is a handle with an informer factory and a profile name.
type informersHandle struct {
	fwk.Handle
	factory informers.SharedInformerFactory
	profile string
}

func (h informersHandle) SharedInformerFactory() informers.SharedInformerFactory { return h.factory }
func (h informersHandle) SharedDRAManager() fwk.SharedDRAManager                 { return nil }
func (h informersHandle) ProfileName() string                                    { return h.profile }

// The profiles of a process share one tracker; a profile whose args differ
// is an error that says so, as the process follows one cluster state.
func TestProfilesShareOneState(t *testing.T) {
	state := NewOffline()
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	args := &config.GPUWorkloadFitArgs{DRADriverName: "gpu.nvidia.com"}
	a, err := state.Join(t.Context(), args, informersHandle{factory: factory, profile: "a"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := state.Join(t.Context(), args, informersHandle{factory: factory, profile: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Tracker() == nil || a.Tracker() != b.Tracker() || state.Tracker() != a.Tracker() {
		t.Fatal("two profiles with the same args do not share the tracker")
	}
	if got := a.Tracker().DRADriver(); got != "gpu.nvidia.com" {
		t.Fatalf("tracker's DRA driver %q, want the args' gpu.nvidia.com", got)
	}
	_, err = state.Join(t.Context(), &config.GPUWorkloadFitArgs{DRADriverName: "example.com"}, informersHandle{factory: factory, profile: "c"})
	if want := "the args of GPUWorkloadFit differ between profiles"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("a profile with other args: error %v, want one that says %q", err, want)
	}
}

// activatingHandle records the pods a plugin activates.
type activatingHandle struct {
	informersHandle
	activated map[string]*v1.Pod
}

func (h *activatingHandle) Activate(_ klog.Logger, pods map[string]*v1.Pod) {
	maps.Copy(h.activated, pods)
}

// A pod explained a while ago that still has no PodScheduled condition, or
// whose explanation event was not written, lost that write: it is retried. Pods with both,
// pods of other profiles, bound pods and pods explained a moment ago are not.
func TestRestoreConditionsRetriesPodsWithoutOne(t *testing.T) {
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	pods := factory.Core().V1().Pods().Informer().GetIndexer()
	state := NewOffline()
	handle := &activatingHandle{informersHandle: informersHandle{factory: factory, profile: "gpu-workload-scheduler"}, activated: map[string]*v1.Pod{}}
	profile, err := state.Join(t.Context(), &config.GPUWorkloadFitArgs{}, handle)
	if err != nil {
		t.Fatal(err)
	}
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
			state.unwritten.Store(pod.UID, struct{}{})
		}
		state.explained.Store(pod.UID, explained{code: "Insufficient", namespace: "vms", name: p.name, at: p.explainedAt})
	}
	profile.restoreConditions(klog.Background())
	if got, want := slices.Sorted(maps.Keys(handle.activated)), []string{"vms/event-lost", "vms/lost"}; !slices.Equal(got, want) {
		t.Fatalf("retried %v, want %v", got, want)
	}
}

// A pod bound or deleted leaves every profile's waiters and its
// explanation: a later retry of the waiters finds only pods still waiting.
func TestStateForgetsPodsThatLeft(t *testing.T) {
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	state := NewOffline()
	var profiles []*Profile
	for _, name := range []string{"a", "b"} {
		p, err := state.Join(t.Context(), &config.GPUWorkloadFitArgs{}, informersHandle{factory: factory, profile: name})
		if err != nil {
			t.Fatal(err)
		}
		profiles = append(profiles, p)
	}
	pod := func(name string) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID(name)}}
	}
	left, waiting := pod("left"), pod("waiting")
	for _, p := range profiles {
		for _, w := range []*waitingPods{&p.deviceWaiters, &p.narrowedWaiters} {
			w.add(left)
			w.add(waiting)
		}
	}
	profiles[0].Explained(left, "Insufficient")
	state.forget(left)
	if _, ok := state.explained.Load(left.UID); ok {
		t.Error("the explanation of a pod that left stays")
	}
	for i, p := range profiles {
		for _, w := range []*waitingPods{&p.deviceWaiters, &p.narrowedWaiters} {
			h := &activatingHandle{activated: map[string]*v1.Pod{}}
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

// A ClusterPolicy or KubeVirt change retries the profile's pending GPU pods
// only: not pods without GPUs, bound pods or other schedulers' pods.
func TestPolicyChangeActivatesPendingGPUPods(t *testing.T) {
	factory := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	pods := factory.Core().V1().Pods().Informer().GetIndexer()
	handle := &activatingHandle{informersHandle: informersHandle{factory: factory, profile: "gpu-workload-scheduler"}, activated: map[string]*v1.Pod{}}
	profile, err := NewOffline().Join(t.Context(), &config.GPUWorkloadFitArgs{}, handle)
	if err != nil {
		t.Fatal(err)
	}
	gpu := v1.ResourceList{gpuworkload.ResourceGPU: resource.MustParse("1")}
	for _, p := range []struct {
		name, scheduler, node string
		requests              v1.ResourceList
	}{
		{name: "cuda", scheduler: "gpu-workload-scheduler", requests: gpu},
		{name: "web", scheduler: "gpu-workload-scheduler", requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}},
		{name: "bound", scheduler: "gpu-workload-scheduler", node: "n1", requests: gpu},
		{name: "other-scheduler", scheduler: "default-scheduler", requests: gpu},
	} {
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: p.name, UID: types.UID(p.name)},
			Spec: v1.PodSpec{SchedulerName: p.scheduler, NodeName: p.node, Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: p.requests, Limits: p.requests}}}}}
		if err := pods.Add(pod); err != nil {
			t.Fatal(err)
		}
	}
	profile.activatePendingGPUPods(klog.Background())
	if got := slices.Sorted(maps.Keys(handle.activated)); !slices.Equal(got, []string{"ns/cuda"}) {
		t.Fatalf("activated %v, want only the pending GPU pod", got)
	}
}
