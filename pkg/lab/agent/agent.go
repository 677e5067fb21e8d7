// Package agent emulates, in the lab, the parts of a GPU cluster that need
// hardware: the GPU Operator's node side (operand deploy labels, the vGPU
// device manager's state labels), the device plugins' advertisement, the
// kubelet's device admission, pod readiness, active deadlines, node lease
// and last step of deleting a pod, and KubeVirt's virt-controller rendering
// VMIs into launcher pods and VirtualMachines into VMIs. The control
// plane, the scheduler and kubectl stay real, as KWOK keeps them real.
// docs/lab.md says what is emulated and how.
package agent

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	v1helper "k8s.io/kubernetes/pkg/apis/core/v1/helper"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Annotations a scenario sets on a node, and those the agent keeps there.
const (
	// AnnotationHardware is a node's GPUs as "COUNT x MODEL", e.g. "2 x A10"
	// or "1 x GA102GL_A10": what each mode would advertise. Nodes without it
	// are left as the scenario wrote them.
	AnnotationHardware = "lab.gpu-workload.io/hardware"
	// AnnotationConversionDelay overrides, for one node, how long a
	// conversion takes, e.g. "10s".
	AnnotationConversionDelay = "lab.gpu-workload.io/conversion-delay"
	// AnnotationVGPUFailure makes, for one node, the vGPU device manager
	// fail whatever it applies, with this message (a host driver without
	// vGPU support, say): the vGPU state turns failed.
	AnnotationVGPUFailure = "lab.gpu-workload.io/vgpu-failure"
	// annotationPrepared is what the node's operands and device plugin serve:
	// a mode, or vm-vgpu/<vgpu.config>.
	annotationPrepared = "lab.gpu-workload.io/prepared"
	// annotationConverting is the target of a conversion under way, done at
	// annotationReadyAt (RFC 3339).
	annotationConverting = "lab.gpu-workload.io/converting"
	annotationReadyAt    = "lab.gpu-workload.io/ready-at"
)

// Took says whether the agent has taken the node in hand: a node with
// hardware is marked when the agent first sees it, so that a change made
// after that is a change the agent converts.
func Took(node *v1.Node) bool {
	_, prepared := node.Annotations[annotationPrepared]
	_, converting := node.Annotations[annotationConverting]
	return prepared || converting
}

// DefaultConversionDelay is how long a conversion takes unless a node says otherwise.
const DefaultConversionDelay = 3 * time.Second

// Options configure Run.
type Options struct {
	ConversionDelay time.Duration
}

type agent struct {
	client   kubernetes.Interface
	opts     Options
	nodes    corelisters.NodeLister
	pods     corelisters.PodLister
	policies cache.GenericLister
	kubevirt cache.GenericLister
	vmis     cache.GenericLister
	vms      cache.GenericLister
	dynamic  dynamic.Interface
	recorder events.EventRecorder
	queue    workqueue.TypedRateLimitingInterface[key]
	// admitted are the pods the agent admitted whose Running phase the
	// informer may not show yet; only the queue's one worker uses it.
	admitted map[types.UID]bool
	// prepared are the devices the emulated DRA driver withdrew for each
	// running pod (namespace/name); only the queue's one worker uses it.
	prepared map[string][]withdrawnDevice
}

// key is one object to reconcile.
type key struct {
	kind            string // "node", "pod", "vmi" or "vm"
	namespace, name string
}

// withDeletes also hands the handler's add the objects deleted: a pod gone
// is one whose devices the emulated driver unprepares.
func withDeletes(h cache.ResourceEventHandlerFuncs) cache.ResourceEventHandlerFuncs {
	h.DeleteFunc = func(obj any) {
		if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tombstone.Obj
		}
		h.AddFunc(obj)
	}
	return h
}

// Run reconciles until ctx ends.
func Run(ctx context.Context, config *rest.Config, opts Options) error {
	logger := klog.FromContext(ctx)
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	dyn, err := dynamic.NewForConfig(config)
	if err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	dynFactory := dynamicinformer.NewDynamicSharedInformerFactory(dyn, 0)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	broadcaster.StartRecordingToSink(ctx.Done())
	defer broadcaster.Shutdown()
	a := &agent{
		client: client, opts: opts,
		nodes:    factory.Core().V1().Nodes().Lister(),
		pods:     factory.Core().V1().Pods().Lister(),
		policies: dynFactory.ForResource(clusterstate.ClusterPolicyGVR).Lister(),
		kubevirt: dynFactory.ForResource(clusterstate.KubeVirtGVR).Lister(),
		vmis:     dynFactory.ForResource(clusterstate.VMIGVR).Lister(),
		vms:      dynFactory.ForResource(clusterstate.VMGVR).Lister(),
		dynamic:  dyn,
		recorder: broadcaster.NewRecorder(scheme(), "gpu-workload-lab-agent"),
		queue:    workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[key]()),
		admitted: map[types.UID]bool{},
		prepared: map[string][]withdrawnDevice{},
	}
	defer a.queue.ShutDown()
	enqueue := func(kind string) cache.ResourceEventHandlerFuncs {
		add := func(obj any) {
			if o, err := meta.Accessor(obj); err == nil {
				a.queue.Add(key{kind: kind, namespace: o.GetNamespace(), name: o.GetName()})
			}
		}
		return cache.ResourceEventHandlerFuncs{AddFunc: add, UpdateFunc: func(_, obj any) { add(obj) }}
	}
	// A policy or KubeVirt change can change every node's mode and every VMI's permission.
	all := func(kind string, lister func() []key) cache.ResourceEventHandler {
		f := func(any) {
			for _, k := range lister() {
				a.queue.Add(k)
			}
		}
		return cache.ResourceEventHandlerFuncs{AddFunc: f, UpdateFunc: func(_, obj any) { f(obj) }, DeleteFunc: f}
	}
	handlers := []struct {
		informer cache.SharedIndexInformer
		handler  cache.ResourceEventHandler
	}{
		{factory.Core().V1().Nodes().Informer(), enqueue("node")},
		{factory.Core().V1().Pods().Informer(), withDeletes(enqueue("pod"))},
		{dynFactory.ForResource(clusterstate.VMIGVR).Informer(), enqueue("vmi")},
		{dynFactory.ForResource(clusterstate.VMGVR).Informer(), enqueue("vm")},
		{dynFactory.ForResource(clusterstate.ClusterPolicyGVR).Informer(), all("node", a.allNodes)},
		{dynFactory.ForResource(clusterstate.KubeVirtGVR).Informer(), all("vmi", a.allVMIs)},
	}
	for _, h := range handlers {
		if _, err := h.informer.AddEventHandler(h.handler); err != nil {
			return err
		}
	}
	factory.Start(ctx.Done())
	dynFactory.Start(ctx.Done())
	for informer, synced := range factory.WaitForCacheSync(ctx.Done()) {
		if !synced {
			return fmt.Errorf("the %v informer did not sync", informer)
		}
	}
	for gvr, synced := range dynFactory.WaitForCacheSync(ctx.Done()) {
		if !synced {
			return fmt.Errorf("the %s informer did not sync", gvr)
		}
	}
	logger.Info("Lab agent running", "conversionDelay", opts.ConversionDelay)
	go wait.UntilWithContext(ctx, a.renewLeases, leaseRenewInterval)
	go func() {
		<-ctx.Done()
		a.queue.ShutDown()
	}()
	for a.next(ctx) {
	}
	return nil
}

func (a *agent) next(ctx context.Context) bool {
	k, shutdown := a.queue.Get()
	if shutdown {
		return false
	}
	defer a.queue.Done(k)
	var err error
	switch k.kind {
	case "node":
		err = a.syncNode(ctx, k.name)
	case "pod":
		err = a.syncPod(ctx, k.namespace, k.name)
	case "vmi":
		err = a.syncVMI(ctx, k.namespace, k.name)
	case "vm":
		err = a.syncVM(ctx, k.namespace, k.name)
	}
	if err != nil {
		klog.FromContext(ctx).Error(err, "Reconcile failed; retrying", "kind", k.kind, "namespace", k.namespace, "name", k.name)
		a.queue.AddRateLimited(k)
		return true
	}
	a.queue.Forget(k)
	return true
}

func (a *agent) allNodes() []key {
	nodes, _ := a.nodes.List(labels.Everything())
	keys := make([]key, len(nodes))
	for i, n := range nodes {
		keys[i] = key{kind: "node", name: n.Name}
	}
	return keys
}

func (a *agent) allVMIs() []key {
	vmis, _ := a.vmis.List(labels.Everything())
	keys := make([]key, 0, len(vmis))
	for _, obj := range vmis {
		if o, err := meta.Accessor(obj); err == nil {
			keys = append(keys, key{kind: "vmi", namespace: o.GetNamespace(), name: o.GetName()})
		}
	}
	return keys
}

// policy is the sandbox policy of the ClusterPolicy the scheduler follows by
// default (the oldest), or the GPU Operator's defaults without one.
func (a *agent) policy() (gpuworkload.SandboxPolicy, error) {
	chosen, err := oldest(a.policies)
	if err != nil {
		return gpuworkload.SandboxPolicy{}, err
	}
	if chosen == nil {
		return gpuworkload.DefaultPolicy(), nil
	}
	return gpuworkload.PolicyFromClusterPolicy(chosen)
}

// oldest is the oldest object the lister holds, as the scheduler chooses
// among several ClusterPolicies or KubeVirt CRs; nil when it holds none.
func oldest(l cache.GenericLister) (*unstructured.Unstructured, error) {
	objs, err := l.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	candidates := make([]any, len(objs))
	for i, o := range objs {
		candidates[i] = o
	}
	return clusterstate.ChooseClusterPolicy(clusterstate.OldestFirst(candidates), ""), nil
}

// syncPod does, on the lab's nodes where no kubelet runs, what the
// kubelet does with a pod bound to its node: admit it (admit), and finish
// its graceful deletion, without which a drained pod never goes away.
func (a *agent) syncPod(ctx context.Context, namespace, name string) error {
	pod, err := a.pods.Pods(namespace).Get(name)
	if apierrors.IsNotFound(err) || err == nil && (pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed) {
		return a.unprepareDRA(ctx, namespace+"/"+name)
	}
	if err == nil && pod.Spec.NodeName == "" {
		return nil
	}
	if err != nil {
		return err
	}
	if pod.DeletionTimestamp == nil && pod.Status.Phase == v1.PodRunning {
		// The informer shows what admit wrote: it no longer needs remembering.
		delete(a.admitted, pod.UID)
		return a.enforceActiveDeadline(ctx, pod)
	}
	if pod.DeletionTimestamp == nil {
		return a.admit(ctx, pod)
	}
	delete(a.admitted, pod.UID)
	err = a.client.CoreV1().Pods(namespace).Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: new(int64), Preconditions: &metav1.Preconditions{UID: &pod.UID}})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	return err
}

// admit does the kubelet's admission of a pod bound to its node, for the
// devices the node advertises: with the scheduler's own resource fit
// (kubelet's admission calls it too) against the pods admitted before it,
// a pod whose devices are taken fails as on a real node, with phase Failed
// and reason OutOf<resource>; an admitted pod is Running. CPU, memory and
// the pod count are not checked: the lab's nodes need not declare them.
func (a *agent) admit(ctx context.Context, pod *v1.Pod) error {
	if pod.Status.Phase != v1.PodPending {
		delete(a.admitted, pod.UID)
		return nil
	}
	if a.admitted[pod.UID] {
		return nil
	}
	node, err := a.nodes.Get(pod.Spec.NodeName)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	pods, err := a.pods.List(labels.Everything())
	if err != nil {
		return err
	}
	var running []*v1.Pod
	for _, p := range pods {
		if p.Spec.NodeName == node.Name && p.UID != pod.UID && (p.Status.Phase == v1.PodRunning || a.admitted[p.UID] && p.Status.Phase == v1.PodPending) {
			running = append(running, p)
		}
	}
	nodeInfo := framework.NewNodeInfo(running...)
	nodeInfo.SetNode(node)
	rejection, rejected := deviceShortage(pod, nodeInfo)
	if !rejected {
		if err := a.prepareDRA(ctx, pod); err != nil {
			return err
		}
	}
	updated := pod.DeepCopy()
	updated.Status.Phase = v1.PodRunning
	now := metav1.Now()
	updated.Status.StartTime = &now
	if rejected {
		updated.Status.Phase, updated.Status.Reason = v1.PodFailed, "OutOf"+string(rejection.ResourceName)
		updated.Status.Message = fmt.Sprintf("Pod was rejected: Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d",
			rejection.ResourceName, rejection.Requested, rejection.Used, rejection.Capacity)
	} else {
		// No container runs and none has a readiness probe: the kubelet
		// reports such a pod ready at once, and the disruption controller
		// counts it healthy.
		for _, condition := range []v1.PodConditionType{v1.PodInitialized, v1.ContainersReady, v1.PodReady} {
			podutil.UpdatePodCondition(&updated.Status, &v1.PodCondition{Type: condition, Status: v1.ConditionTrue, LastTransitionTime: now})
		}
	}
	if _, err := a.client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	if rejected {
		a.recorder.Eventf(pod, nil, v1.EventTypeWarning, updated.Status.Reason, "Admit", "%s", updated.Status.Message)
		klog.FromContext(ctx).Info("Rejected a pod as the kubelet would", "pod", klog.KObj(pod), "node", node.Name, "reason", updated.Status.Reason)
		return nil
	}
	a.admitted[pod.UID] = true
	return nil
}

// The kubelet's reason and message for a pod that outlived its
// spec.activeDeadlineSeconds (pkg/kubelet/active_deadline.go).
const (
	reasonDeadlineExceeded  = "DeadlineExceeded"
	messageDeadlineExceeded = "Pod was active on the node longer than the specified deadline"
)

// enforceActiveDeadline does what the kubelet's active deadline handler
// does: a running pod whose spec.activeDeadlineSeconds have passed since its
// start fails, with the kubelet's reason, message and event, and frees its
// devices; a scenario makes a GPU pod or VM finish with it.
func (a *agent) enforceActiveDeadline(ctx context.Context, pod *v1.Pod) error {
	if pod.Spec.ActiveDeadlineSeconds == nil || pod.Status.StartTime == nil {
		return nil
	}
	if left := time.Until(pod.Status.StartTime.Add(time.Duration(*pod.Spec.ActiveDeadlineSeconds) * time.Second)); left > 0 {
		a.queue.AddAfter(key{kind: "pod", namespace: pod.Namespace, name: pod.Name}, left)
		return nil
	}
	updated := pod.DeepCopy()
	updated.Status.Phase, updated.Status.Reason, updated.Status.Message = v1.PodFailed, reasonDeadlineExceeded, messageDeadlineExceeded
	if _, err := a.client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	a.recorder.Eventf(pod, nil, v1.EventTypeNormal, reasonDeadlineExceeded, "Kill", "%s", messageDeadlineExceeded)
	klog.FromContext(ctx).Info("Failed a pod past its active deadline as the kubelet would", "pod", klog.KObj(pod), "node", pod.Spec.NodeName)
	return nil
}

// deviceShortage is the first extended resource the node advertises of
// which the pod asks more than is left; the kubelet leaves out extended
// resources the node does not advertise (a DRA-backed nvidia.com/gpu, say).
func deviceShortage(pod *v1.Pod, nodeInfo *framework.NodeInfo) (noderesources.InsufficientResource, bool) {
	for _, r := range noderesources.Fits(pod, nodeInfo, nil, noderesources.ResourceRequestsOptions{}) {
		if v1helper.IsExtendedResourceName(r.ResourceName) && r.Capacity > 0 {
			return r, true
		}
	}
	return noderesources.InsufficientResource{}, false
}

func scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	_ = v1.AddToScheme(s)
	return s
}

// parseHardware reads AnnotationHardware.
func parseHardware(value string) (gpus int64, model string, err error) {
	count, model, ok := strings.Cut(value, " x ")
	if ok {
		gpus, err = strconv.ParseInt(strings.TrimSpace(count), 10, 64)
	}
	model = strings.TrimSpace(model)
	if !ok || err != nil || gpus < 1 || gpus > gpuworkload.MaxUnits || model == "" {
		return 0, "", fmt.Errorf("want COUNT x MODEL with COUNT from 1 to %d and MODEL a vGPU family (A10), a PCI device name (GA102GL_A10) or a product (NVIDIA-A10), e.g. \"2 x A10\"", gpuworkload.MaxUnits)
	}
	return gpus, model, nil
}

// conversionDelay is the node's AnnotationConversionDelay, else the default.
func (a *agent) conversionDelay(node *v1.Node) (time.Duration, error) {
	value, ok := node.Annotations[AnnotationConversionDelay]
	if !ok {
		return a.opts.ConversionDelay, nil
	}
	d, err := time.ParseDuration(value)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want a duration of 0s or more, e.g. 10s")
	}
	return d, nil
}
