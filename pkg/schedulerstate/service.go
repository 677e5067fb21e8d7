// Package schedulerstate is the GPU cluster state a scheduler process keeps
// once for all its plugins and profiles: the tracker and its watches, each
// waiting pod's latest explanation and the events that carry it, the pods
// to retry when what they wait for happens, the pod's GPU demand of a
// scheduling cycle, and the inventory the metrics count.
//
// The binary builds one Service and hands it to the plugin factories
// (profiles.Registry), as kube-scheduler builds its SharedDRAManager once
// for every profile; plugins join it in New, which starts nothing, and the
// registry starts it once the first profile joined. The kubectl plugin and
// the simulator build their own with NewOffline: those follow no cluster,
// and their callers feed the tracker.
package schedulerstate

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inventory"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// Service is one scheduler process's GPU cluster state.
type Service struct {
	// metrics are the process's gpu_workload_ metrics; nil offline.
	metrics *inventory.Metrics
	tracker atomic.Pointer[clusterstate.Tracker]
	// inFlight relays the allocations the DRA allocator holds to the tracker.
	inFlight *clusterstate.ClaimsInFlight
	// claims reads the pods' claims; unset without DRA.
	claims atomic.Pointer[ClaimReader]

	mu sync.Mutex
	// args are the GPUWorkloadFit args the tracker was built from, encoded:
	// every profile must give the same, as the process follows one cluster;
	// clusterPolicyName is theirs.
	args              string
	clusterPolicyName string
	// handle is the first profile's: its informers, client and DRA manager
	// are the process's.
	handle   fwk.Handle
	profiles []*Profile
	// lifetime is the context Start was given, read without the lock by
	// every PreFilter: the work the state does in the background for a
	// scheduling cycle outlives the cycle, not it.
	lifetime atomic.Pointer[context.Context]

	// explained holds each waiting pod's latest explanation (types.UID to
	// explained), for the pending pods metric and to restore lost conditions.
	explained sync.Map
	// explanations records every profile's explanation events once started,
	// and unwritten holds the UIDs of the pods whose latest one was not
	// written (explanationSink).
	explanations events.EventBroadcaster
	unwritten    sync.Map
	boundPods    *inventory.BoundPods
	// fences are the DeviceTaintRules that keep the siblings of the
	// devices the allocator gave out from every other scheduler.
	fences *drasiblings.Fences
}

// New is the state of a scheduler process that follows its cluster once
// started, counted by metrics.
func New(metrics *inventory.Metrics) *Service {
	return &Service{metrics: metrics, boundPods: inventory.NewBoundPods(), inFlight: clusterstate.NewClaimsInFlight(), fences: drasiblings.NewFences()}
}

// NewOffline is a state that follows no cluster: its caller feeds the
// tracker from what it read.
func NewOffline() *Service {
	return &Service{inFlight: clusterstate.NewClaimsInFlight(), fences: drasiblings.NewFences()}
}

// ClaimReader reads ResourceClaims: the scheduler's DRA manager, or the
// claims the kubectl plugin read. A claim that does not exist is an error
// for which apierrors.IsNotFound or errors.Is(err, assumecache.ErrNotFound)
// holds.
type ClaimReader interface {
	Get(namespace, name string) (*resourceapi.ResourceClaim, error)
}

// Profile is one scheduler profile's part of the state: the handle its
// pods are retried and explained through, and the pods it retries when
// what they wait for happens.
type Profile struct {
	service *Service
	handle  fwk.Handle
	// recorder writes the explanation events through the service's
	// broadcaster once it is started; until then, and offline, the
	// framework's recorder writes them.
	recorder events.EventRecorderLogger
	// deviceWaiters are the pods Filter found too few DRA devices for: they
	// are retried once the tracker sees devices freed or published, which
	// may be after the queue retried them for the same change.
	deviceWaiters waitingPods
	// narrowedWaiters are the pods found unschedulable after PreFilter
	// narrowed them to the nodes the tracker knew to advertise their
	// resource: they are retried when it learns of another, which the
	// scheduler's cache may have shown a cycle earlier.
	narrowedWaiters waitingPods
}

// Join adds a profile, whose GPUWorkloadFit args are args, to the state; the
// first profile's args build the tracker, and every later one must give
// the same. It starts nothing. handle may be nil where no framework runs
// (the kubectl plugin).
func (s *Service) Join(ctx context.Context, args *config.GPUWorkloadFitArgs, handle fwk.Handle) (*Profile, error) {
	encoded, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tracker.Load() == nil {
		s.args, s.clusterPolicyName = string(encoded), args.ClusterPolicyName
		logger := klog.FromContext(ctx)
		s.tracker.Store(clusterstate.NewTracker(args.Policy(), args.Classes(), reasons.ModeMismatchOf, clusterstate.TrackerOptions{
			DRADriver: args.DRADriverName, ConversionTimeout: args.Timeout(),
			OnAdvertised: func() { s.each(func(p *Profile) { p.narrowedWaiters.activate(logger, p.handle) }) },
		}))
		s.handle = handle
		if handle != nil && handle.SharedDRAManager() != nil {
			s.ReadClaimsFrom(handle.SharedDRAManager().ResourceClaims())
		}
	} else if s.args != string(encoded) {
		return nil, fmt.Errorf("the args of GPUWorkloadFit differ between profiles (%s, and %s before): the scheduler follows one cluster state; give every profile the same args", encoded, s.args)
	}
	p := &Profile{service: s, handle: handle}
	if s.explanations != nil {
		p.recorder = s.explanations.NewRecorder(scheme.Scheme, handle.ProfileName())
	}
	s.profiles = append(s.profiles, p)
	return p, nil
}

// ClaimsInFlight relays the allocations the process's DRA allocator holds
// in flight to the tracker.
func (s *Service) ClaimsInFlight() *clusterstate.ClaimsInFlight { return s.inFlight }

// Tracker is the cluster state; nil before a profile joined.
func (s *Service) Tracker() *clusterstate.Tracker { return s.tracker.Load() }

// ReadClaimsFrom lets an offline state see the pods' claims.
func (s *Service) ReadClaimsFrom(claims ClaimReader) { s.claims.Store(&claims) }

// claimReader reads the pods' claims; nil without DRA.
func (s *Service) claimReader() ClaimReader {
	if claims := s.claims.Load(); claims != nil {
		return *claims
	}
	return nil
}

// Start follows the cluster through the first profile's handle: the watches
// of nodes, the ClusterPolicy, the KubeVirt CR, DRA objects and pods, the
// explanation events, the restore of lost conditions and the metrics. It
// starts once; an offline state, or one no profile joined with a cluster,
// starts nothing. Everything stops with ctx.
func (s *Service) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lifetime.Load() != nil || s.metrics == nil || s.handle == nil || s.handle.KubeConfig() == nil || s.handle.SharedInformerFactory() == nil {
		return nil
	}
	s.lifetime.Store(&ctx)
	logger := klog.FromContext(ctx).WithName("schedulerstate")
	handle, tracker := s.handle, s.tracker.Load()
	informers := handle.SharedInformerFactory()
	err := tracker.Watch(klog.NewContext(ctx, logger), clusterstate.WatchOptions{
		Config:                handle.KubeConfig(),
		NodeInformer:          informers.Core().V1().Nodes().Informer(),
		ClusterPolicyName:     s.clusterPolicyName,
		OnPolicyChange:        func() { s.each(func(p *Profile) { p.activatePendingGPUPods(logger) }) },
		OnDRAFreed:            func() { s.each(func(p *Profile) { p.deviceWaiters.activate(logger, p.handle) }) },
		ResourceSliceInformer: informers.Resource().V1().ResourceSlices().Informer(),
		DeviceClassInformer:   informers.Resource().V1().DeviceClasses().Informer(),
		ResourceClaimInformer: informers.Resource().V1().ResourceClaims().Informer(),
	})
	if err != nil {
		return fmt.Errorf("follow cluster state: %w", err)
	}
	if handle.SharedDRAManager() != nil {
		s.inFlight.Follow(ctx, tracker, func() {
			s.each(func(p *Profile) { p.deviceWaiters.activate(logger, p.handle) })
		})
	}
	// Register the pod informer now (informers must exist before the
	// scheduler starts them), and forget a pod once it is bound or gone.
	if _, err := informers.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj any) {
			if pod, ok := obj.(*v1.Pod); ok && pod.Spec.NodeName != "" {
				s.forget(pod)
			}
		},
		DeleteFunc: func(obj any) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			if pod, ok := obj.(*v1.Pod); ok {
				s.forget(pod)
			}
		},
	}); err != nil {
		return fmt.Errorf("follow pods: %w", err)
	}
	s.explanations = newExplanationBroadcaster(handle.ClientSet(), &s.unwritten)
	s.explanations.StartRecordingToSink(ctx.Done())
	context.AfterFunc(ctx, s.explanations.Shutdown)
	for _, p := range s.profiles {
		p.recorder = s.explanations.NewRecorder(scheme.Scheme, p.handle.ProfileName())
	}
	go wait.UntilWithContext(ctx, func(context.Context) {
		s.each(func(p *Profile) { p.restoreConditions(logger) })
	}, conditionCheckInterval)
	s.metrics.Serve(ctx, s)
	return nil
}

// each calls f with every profile.
func (s *Service) each(f func(*Profile)) {
	s.mu.Lock()
	profiles := slices.Clone(s.profiles)
	s.mu.Unlock()
	for _, p := range profiles {
		f(p)
	}
}

// forget drops what the profiles keep of a pod that is bound or gone, so
// that a scheduler that runs for months holds no pods that left: its
// explanation, scraped or not, and its place among the waiters, which a
// new advertiser may not retry for a long time.
// It runs for every update of a bound pod, so it walks the profiles under
// the lock instead of copying them, as each does.
func (s *Service) forget(pod *v1.Pod) {
	s.explained.Delete(pod.UID)
	s.unwritten.Delete(pod.UID)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.profiles {
		p.deviceWaiters.forget(pod)
		p.narrowedWaiters.forget(pod)
	}
}

// Tracker is the cluster state the profile's pods are judged against.
func (p *Profile) Tracker() *clusterstate.Tracker { return p.service.tracker.Load() }

// Claims reads the pods' claims; nil without DRA.
func (p *Profile) Claims() ClaimReader { return p.service.claimReader() }

// FollowsCluster reports whether the state follows a cluster, where a
// cycle may be narrowed to the nodes the tracker knows to advertise.
func (p *Profile) FollowsCluster() bool { return p.service.metrics != nil }

// Explained records a waiting pod's latest explanation, of reason code.
func (p *Profile) Explained(pod *v1.Pod, code reasons.Code) {
	p.service.explained.Store(pod.UID, explained{code: code, namespace: pod.Namespace, name: pod.Name, at: time.Now()})
	if code != "" && p.service.metrics != nil {
		p.service.metrics.Rejected(string(code))
	}
}

// Placed forgets a pod's explanation: it no longer waits.
func (p *Profile) Placed(pod *v1.Pod) { p.service.explained.Delete(pod.UID) }

// WaitForDevices retries the pod once the tracker sees DRA devices freed or published.
func (p *Profile) WaitForDevices(pod *v1.Pod) { p.deviceWaiters.add(pod) }

// WaitForAdvertiser retries the pod once the tracker sees a new advertiser.
func (p *Profile) WaitForAdvertiser(pod *v1.Pod) { p.narrowedWaiters.add(pod) }

// Recorder writes the profile's explanation events.
func (p *Profile) Recorder() events.EventRecorderLogger {
	p.service.mu.Lock()
	defer p.service.mu.Unlock()
	if p.recorder != nil {
		return p.recorder
	}
	return p.handle.EventRecorder()
}

// Fences are the DeviceTaintRules the process's allocator raises.
func (s *Service) Fences() *drasiblings.Fences { return s.fences }

// StartFences starts, once for the process, the loop that keeps the fences
// up to date, rebuilding them from the claims first; the allocator calls it
// when it schedules, which only the leader does. It reports whether the
// loop runs: not where the state follows no cluster.
func (s *Service) StartFences() bool {
	lifetime := s.lifetime.Load()
	if lifetime == nil {
		return false
	}
	return s.fences.Start(*lifetime)
}

// activatePendingGPUPods retries this profile's pending GPU pods after a
// ClusterPolicy or KubeVirt change, which no queueing hint can observe
// because those CRDs may be installed after the scheduler starts.
func (p *Profile) activatePendingGPUPods(logger klog.Logger) {
	pods, err := p.handle.SharedInformerFactory().Core().V1().Pods().Lister().List(labels.Everything())
	if err != nil {
		logger.Error(err, "Cannot list pods to retry after a policy change")
		return
	}
	classifier := p.Tracker().Classifier()
	pending := map[string]*v1.Pod{}
	for _, pod := range pods {
		if pod.Spec.NodeName != "" || pod.Spec.SchedulerName != p.handle.ProfileName() {
			continue
		}
		if d := poddemand.NewPodDemand(pod, classifier); d.IsGPU() {
			pending[pod.Namespace+"/"+pod.Name] = pod
		}
	}
	if len(pending) == 0 {
		return
	}
	logger.V(2).Info("Retrying pending GPU pods after a policy change", "pods", len(pending))
	p.handle.Activate(logger, pending)
}

// waitingPods are pods to retry when something they wait for happens.
type waitingPods struct {
	mu   sync.Mutex
	pods map[string]*v1.Pod
}

func (w *waitingPods) add(pod *v1.Pod) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pods == nil {
		w.pods = map[string]*v1.Pod{}
	}
	w.pods[pod.Namespace+"/"+pod.Name] = pod
}

// forget drops a pod that no longer waits.
func (w *waitingPods) forget(pod *v1.Pod) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.pods, pod.Namespace+"/"+pod.Name)
}

// activate retries the pods and forgets them; a pod still in its cycle is
// activated when it returns.
func (w *waitingPods) activate(logger klog.Logger, handle fwk.Handle) {
	w.mu.Lock()
	pods := w.pods
	w.pods = nil
	w.mu.Unlock()
	if len(pods) > 0 {
		handle.Activate(logger, pods)
	}
}

// explained is a waiting pod's latest explanation.
type explained struct {
	code            reasons.Code
	namespace, name string
	at              time.Time
}

// A cycle that finds no node for a pod writes its PodScheduled condition
// after PostFilter explained it, and the service's broadcaster writes the
// explanation event; when the API server (or its etcd) is away either write
// fails, the broadcaster gives up on an error the server answers, and the
// queue holds the pod until its 5-minute flush. Every
// conditionCheckInterval the pods explained at least conditionWriteGrace
// ago that still have no condition, or whose latest explanation event was
// not written, are retried.
const (
	conditionCheckInterval = 10 * time.Second
	conditionWriteGrace    = 10 * time.Second
)

// restoreConditions retries the profile's explained pods whose condition
// or explanation event was lost.
func (p *Profile) restoreConditions(logger klog.Logger) {
	pods := p.handle.SharedInformerFactory().Core().V1().Pods().Lister()
	lost := map[string]*v1.Pod{}
	p.service.explained.Range(func(_, value any) bool {
		e := value.(explained)
		if time.Since(e.at) < conditionWriteGrace {
			return true
		}
		pod, err := pods.Pods(e.namespace).Get(e.name)
		if err != nil || pod.Spec.NodeName != "" || pod.Spec.SchedulerName != p.handle.ProfileName() {
			return true
		}
		if _, eventLost := p.service.unwritten.Load(pod.UID); hasUnschedulableCondition(pod) && !eventLost {
			return true
		}
		lost[e.namespace+"/"+e.name] = pod
		return true
	})
	if len(lost) > 0 {
		logger.Info("Retrying pods whose unschedulable condition or explanation event was not written", "pods", len(lost))
		p.handle.Activate(logger, lost)
	}
}

// hasUnschedulableCondition reports whether the pod carries PodScheduled=False.
func hasUnschedulableCondition(pod *v1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
			return true
		}
	}
	return false
}

// Inventory counts the cluster's GPU inventory from the scheduler's caches:
// what the metrics report.
func (s *Service) Inventory(ctx context.Context) (inventory.Report, error) {
	informers := s.handle.SharedInformerFactory().Core().V1()
	nodes, err := informers.Nodes().Lister().List(labels.Everything())
	if err != nil {
		return inventory.Report{}, err
	}
	pods, err := informers.Pods().Lister().List(labels.Everything())
	if err != nil {
		return inventory.Report{}, err
	}
	pending := map[string]bool{}
	report := s.InventoryOf(ctx, nodes, pods, s.schedulerNames(), func(p *v1.Pod) string {
		pending[string(p.UID)] = true
		e, _ := s.explained.Load(p.UID)
		latest, _ := e.(explained)
		return string(latest.code)
	})
	// Pods deleted while they waited leave their last explanation behind.
	s.explained.Range(func(uid, _ any) bool {
		if !pending[string(uid.(types.UID))] {
			s.explained.Delete(uid)
		}
		return true
	})
	return report, nil
}

// SiblingConflicts are the physical GPUs whose two devices written claims
// hold; nil without DRA.
func (s *Service) SiblingConflicts() ([]drasiblings.Conflict, error) {
	if s.claimReader() == nil {
		return nil, nil
	}
	claims, err := s.handle.SharedDRAManager().ResourceClaims().List()
	if err != nil {
		return nil, err
	}
	tracker := s.tracker.Load()
	return drasiblings.Conflicts(drasiblings.AllocationsOf(claims, tracker.DRADriver()), tracker.DRASiblings), nil
}

// InventoryOf counts the GPU inventory of the nodes and pods as the
// tracker sees them: the node states, the DRA devices by state, and the
// pending pods' claims. ours are the scheduler names of our profiles; the
// units of pods bound by any other are shown held by other schedulers.
// reasonOf is the reason code of a waiting pod's latest explanation. The
// metrics and `kubectl gpu-workload inventory` both count with it.
func (s *Service) InventoryOf(ctx context.Context, nodes []*v1.Node, pods []*v1.Pod, ours []string, reasonOf func(*v1.Pod) string) inventory.Report {
	tracker := s.tracker.Load()
	classifier := tracker.Classifier()
	return inventory.Compute(ctx, inventory.Input{
		Nodes: nodes,
		State: func(n *v1.Node) *gpuworkload.NodeState { return tracker.Entry(n).State },
		Pods:  pods,
		Demand: func(p *v1.Pod) poddemand.PodDemand {
			demand := poddemand.NewPodDemand(p, classifier)
			if p.Spec.NodeName == "" {
				if _, err := s.addClaims(p, &demand); err != nil {
					klog.Background().Error(err, "Cannot read a pending pod's claims: the inventory counts the pod without them", "pod", klog.KObj(p))
				}
			}
			return demand
		},
		DRADevices: tracker.DRADeviceStatesAndSelection,
		DRADriver:  tracker.DRADriver(),
		DRAServes: func(r v1.ResourceName) bool {
			_, ok := tracker.DRAServed(r)
			return ok
		},
		ReasonOf:      reasonOf,
		Bound:         s.boundPods,
		Classifier:    classifier,
		OurSchedulers: ours,
	})
}

// schedulerNames are the names of the profiles that joined with a handle.
func (s *Service) schedulerNames() []string {
	var names []string
	s.each(func(p *Profile) {
		if p.handle != nil {
			names = append(names, p.handle.ProfileName())
		}
	})
	return names
}
