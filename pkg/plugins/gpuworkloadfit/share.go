package gpuworkloadfit

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// processShare is what the profiles of one scheduler process share when
// their GPUWorkloadFit args agree: one tracker and one set of watches,
// whatever the number of profiles, the explanations the metrics count, and
// the profiles whose pods a change it sees retries.
type processShare struct {
	key       shareKey
	tracker   *clusterstate.Tracker
	explained *sync.Map
	// explanations records every profile's explanation events, from the
	// first profile's watch on, and unwritten holds the UIDs of the pods
	// whose latest one was not written (explanationSink).
	explanations events.EventBroadcaster
	unwritten    sync.Map
	mu           sync.Mutex
	profiles     []*GPUWorkloadFit
	// earlierRules deletes an earlier version's DeviceTaintRules once.
	earlierRules sync.Once
}

// shareKey tells the shares apart: a scheduler process has one informer
// factory; profiles with other args follow the cluster by themselves.
type shareKey struct {
	informers informers.SharedInformerFactory
	args      string
}

var (
	sharesMu sync.Mutex
	shares   = map[shareKey]*processShare{}
)

// joinShare adds the plugin to its process's share, creating it (first is
// then true: the caller starts the watches) with the plugin's own tracker,
// and leaves it when ctx ends.
func (pl *GPUWorkloadFit) joinShare(ctx context.Context, args *config.GPUWorkloadFitArgs) (share *processShare, first bool, err error) {
	encoded, err := json.Marshal(args)
	if err != nil {
		return nil, false, err
	}
	key := shareKey{informers: pl.handle.SharedInformerFactory(), args: string(encoded)}
	sharesMu.Lock()
	share, ok := shares[key]
	if !ok {
		share = &processShare{key: key, tracker: pl.tracker, explained: pl.explained}
		shares[key] = share
	}
	sharesMu.Unlock()
	share.mu.Lock()
	share.profiles = append(share.profiles, pl)
	share.mu.Unlock()
	pl.tracker, pl.explained = share.tracker, share.explained
	context.AfterFunc(ctx, func() { share.leave(pl) })
	return share, !ok, nil
}

// leave removes a stopped profile; the last one takes the share with it.
func (s *processShare) leave(pl *GPUWorkloadFit) {
	s.mu.Lock()
	s.profiles = slices.DeleteFunc(s.profiles, func(p *GPUWorkloadFit) bool { return p == pl })
	empty := len(s.profiles) == 0
	s.mu.Unlock()
	if empty {
		sharesMu.Lock()
		if shares[s.key] == s {
			delete(shares, s.key)
		}
		sharesMu.Unlock()
	}
}

// deleteEarlierRules returns what deletes, once for the share, the
// DeviceTaintRules an earlier version of the scheduler wrote, in the
// background: the plugin calls it when it first schedules, as the leader.
func (s *processShare) deleteEarlierRules(ctx context.Context, client kubernetes.Interface) func() {
	return func() {
		s.earlierRules.Do(func() {
			go func() {
				logger := klog.FromContext(ctx)
				deleted, err := drasiblings.DeleteEarlierRules(ctx, client)
				if err != nil {
					logger.Error(err, "Cannot delete the DeviceTaintRules an earlier version of the scheduler wrote; delete them by hand",
						"labelSelector", drasiblings.ManagedByLabel+"="+drasiblings.ManagedBy)
					return
				}
				if deleted > 0 {
					logger.Info("Deleted the DeviceTaintRules an earlier version of the scheduler wrote", "deleted", deleted)
				}
			}()
		})
	}
}

// each calls f with every profile's plugin.
func (s *processShare) each(f func(*GPUWorkloadFit)) {
	s.mu.Lock()
	profiles := slices.Clone(s.profiles)
	s.mu.Unlock()
	for _, pl := range profiles {
		f(pl)
	}
}

// watch feeds the share's tracker from the informers, and retries every
// profile's pods on the changes no queueing hint sees.
func (s *processShare) watch(ctx context.Context, handle fwk.Handle, args *config.GPUWorkloadFitArgs) error {
	logger := klog.FromContext(ctx)
	informers := handle.SharedInformerFactory()
	err := s.tracker.Watch(ctx, clusterstate.WatchOptions{
		Config:                handle.KubeConfig(),
		NodeInformer:          informers.Core().V1().Nodes().Informer(),
		ClusterPolicyName:     args.ClusterPolicyName,
		OnPolicyChange:        func() { s.each(func(pl *GPUWorkloadFit) { pl.activatePendingGPUPods(logger) }) },
		OnDRAFreed:            func() { s.each(func(pl *GPUWorkloadFit) { pl.deviceWaiters.activate(logger, pl.handle) }) },
		OnAdvertised:          func() { s.each(func(pl *GPUWorkloadFit) { pl.narrowedWaiters.activate(logger, pl.handle) }) },
		ResourceSliceInformer: informers.Resource().V1().ResourceSlices().Informer(),
		DeviceClassInformer:   informers.Resource().V1().DeviceClasses().Informer(),
		ResourceClaimInformer: informers.Resource().V1().ResourceClaims().Informer(),
	})
	if err != nil {
		return fmt.Errorf("%s: follow cluster state: %w", Name, err)
	}
	if handle.SharedDRAManager() != nil {
		clusterstate.ClaimsInFlightOf(informers).Follow(ctx, s.tracker, func() {
			s.each(func(pl *GPUWorkloadFit) { pl.deviceWaiters.activate(logger, pl.handle) })
		})
	}
	s.explanations = newExplanationBroadcaster(handle.ClientSet(), &s.unwritten)
	s.explanations.StartRecordingToSink(ctx.Done())
	context.AfterFunc(ctx, s.explanations.Shutdown)
	go wait.UntilWithContext(ctx, func(context.Context) {
		s.each(func(pl *GPUWorkloadFit) { pl.restoreConditions(logger, &s.unwritten) })
	}, conditionCheckInterval)
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
		return fmt.Errorf("%s: follow pods: %w", Name, err)
	}
	return nil
}

// forget drops what the profiles keep of a pod that is bound or gone, so
// that a scheduler that runs for months holds no pods that left: its
// explanation, scraped or not, and its place among the waiters, which a
// new advertiser may not retry for a long time.
// It runs for every update of a bound pod, so it walks the profiles under
// the share's lock instead of copying them, as each does.
func (s *processShare) forget(pod *v1.Pod) {
	s.explained.Delete(pod.UID)
	s.unwritten.Delete(pod.UID)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, pl := range s.profiles {
		pl.deviceWaiters.forget(pod)
		pl.narrowedWaiters.forget(pod)
	}
}

// explained is a waiting pod's latest explanation.
type explained struct {
	code            reasons.Code
	namespace, name string
	at              time.Time
}

// A cycle that finds no node for a pod writes its PodScheduled condition
// after PostFilter explained it, and the share's broadcaster writes the
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
// or explanation event was lost; unwritten holds the UIDs of the pods whose
// latest explanation event was not written.
func (pl *GPUWorkloadFit) restoreConditions(logger klog.Logger, unwritten *sync.Map) {
	pods := pl.handle.SharedInformerFactory().Core().V1().Pods().Lister()
	lost := map[string]*v1.Pod{}
	pl.explained.Range(func(_, value any) bool {
		e := value.(explained)
		if time.Since(e.at) < conditionWriteGrace {
			return true
		}
		pod, err := pods.Pods(e.namespace).Get(e.name)
		if err != nil || pod.Spec.NodeName != "" || pod.Spec.SchedulerName != pl.handle.ProfileName() {
			return true
		}
		if _, eventLost := unwritten.Load(pod.UID); hasUnschedulableCondition(pod) && !eventLost {
			return true
		}
		lost[e.namespace+"/"+e.name] = pod
		return true
	})
	if len(lost) > 0 {
		logger.Info("Retrying pods whose unschedulable condition or explanation event was not written", "pods", len(lost))
		pl.handle.Activate(logger, lost)
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
