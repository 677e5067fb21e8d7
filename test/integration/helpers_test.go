package integration

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
	"github.com/gpu-workload-scheduler/scheduler/pkg/lab"
)

const (
	repoRoot      = "../.."
	schedulerName = "gpu-workload-scheduler"
	// pollTimeout bounds every wait for the scheduler; it is a safety net,
	// not a timing goal.
	pollTimeout = 60 * time.Second
)

// env is one test's control plane, clients and scheduler.
type env struct {
	ctx     context.Context
	cp      *controlplane.ControlPlane
	client  kubernetes.Interface
	dynamic dynamic.Interface
}

func newEnv(t testing.TB, extraAPIServerFlags ...string) *env {
	t.Helper()
	cp := startControlPlane(t, extraAPIServerFlags...)
	e := &env{ctx: context.Background(), cp: cp, client: kubernetes.NewForConfigOrDie(cp.AdminConfig), dynamic: dynamic.NewForConfigOrDie(cp.AdminConfig)}
	e.createNamespace(t, schedulerName)
	return e
}

// newClusterWithPolicy is the usual start: the lab's CRDs, a ClusterPolicy
// named cluster-policy with sandbox workloads enabled or not, and our scheduler.
func newClusterWithPolicy(t testing.TB, sandboxEnabled bool) *env {
	t.Helper()
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", sandboxEnabled)
	e.startScheduler(t, "scheduler")
	return e
}

func (e *env) createNamespace(t testing.TB, name string) {
	t.Helper()
	if _, err := e.client.CoreV1().Namespaces().Create(e.ctx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create namespace %s: %v", name, err)
	}
}

// startScheduler runs bin/gpu-workload-scheduler with the shipped configuration, as the admin.
func (e *env) startScheduler(t testing.TB, name string) *controlplane.Scheduler {
	t.Helper()
	return e.startSchedulerAs(t, name, e.cp.Kubeconfig)
}

// startSchedulerAs runs the scheduler with the shipped configuration and the given identity.
func (e *env) startSchedulerAs(t testing.TB, name, kubeconfig string) *controlplane.Scheduler {
	t.Helper()
	config, err := controlplane.SchedulerConfig(repoRoot+"/"+controlplane.InstallConfigMap, kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	s := e.startSchedulerWithConfig(t, name, kubeconfig, config)
	t.Cleanup(func() { e.wantNoFencesOnceReleased(t) })
	return s
}

// wantNoFencesOnceReleased runs as a test that passed ends, while its
// schedulers still run: it deletes every pod, frees and deletes every
// claim, and waits until none of our DeviceTaintRules remains. No fence
// outlives the claims it was raised for.
func (e *env) wantNoFencesOnceReleased(t testing.TB) {
	if t.Failed() {
		return
	}
	pods, err := e.client.CoreV1().Pods("").List(e.ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pod := range pods.Items {
		err := e.client.CoreV1().Pods(pod.Namespace).Delete(e.ctx, pod.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("delete pod %s/%s: %v", pod.Namespace, pod.Name, err)
		}
	}
	claims, err := e.client.ResourceV1().ResourceClaims("").List(e.ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, claim := range claims.Items {
		e.releaseClaimIn(t, claim.Namespace, claim.Name)
	}
	var left []string
	e.poll(t, "no DeviceTaintRule of ours once every claim is released", func(ctx context.Context) (bool, error) {
		rules, err := e.client.ResourceV1().DeviceTaintRules().List(ctx, metav1.ListOptions{LabelSelector: drasiblings.ManagedByLabel + "=" + drasiblings.ManagedBy})
		if err != nil {
			return false, err
		}
		left = left[:0]
		for _, r := range rules.Items {
			left = append(left, r.Name)
		}
		return len(left) == 0, nil
	})
}

// startSchedulerWithConfig runs the scheduler with a configuration and the given identity.
func (e *env) startSchedulerWithConfig(t testing.TB, name, kubeconfig string, config []byte) *controlplane.Scheduler {
	t.Helper()
	binary, err := exec.LookPath("gpu-workload-scheduler")
	if err != nil {
		t.Fatalf("gpu-workload-scheduler is not on PATH (fix: make build, then put bin/ on PATH): %v", err)
	}
	s, err := e.cp.StartScheduler(e.ctx, controlplane.SchedulerOptions{Binary: binary, Config: config, Name: name, Kubeconfig: kubeconfig})
	if err != nil {
		t.Fatalf("start scheduler: %v (log: %s)", err, name+".log")
	}
	return s
}

// installCRDs creates the lab's CRDs (manifests/lab/crds).
func (e *env) installCRDs(t testing.TB) {
	t.Helper()
	if err := e.cp.InstallCRDs(e.ctx, repoRoot+"/manifests/lab/crds"); err != nil {
		t.Fatal(err)
	}
}

// applyClusterPolicy creates or replaces the ClusterPolicy's sandboxWorkloads.
func (e *env) applyClusterPolicy(t testing.TB, name string, enabled bool) {
	t.Helper()
	resource := e.dynamic.Resource(clusterstate.ClusterPolicyGVR)
	sandbox := map[string]any{"enabled": enabled, "defaultWorkload": "container"}
	existing, err := resource.Get(e.ctx, name, metav1.GetOptions{})
	if err == nil {
		if err := unstructured.SetNestedMap(existing.Object, sandbox, "spec", "sandboxWorkloads"); err != nil {
			t.Fatal(err)
		}
		if _, err := resource.Update(e.ctx, existing, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("update ClusterPolicy %s: %v", name, err)
		}
		return
	}
	if _, err := resource.Create(e.ctx, lab.ClusterPolicy(name, sandbox), metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ClusterPolicy %s: %v", name, err)
	}
}

// createNode creates a node and sets its capacity and allocatable through the
// status subresource, as the seed's lab does in place of a device plugin.
func createNode(ctx context.Context, t testing.TB, client kubernetes.Interface, name string, labels map[string]string, quantities map[string]string) {
	t.Helper()
	if _, err := client.CoreV1().Nodes().Create(ctx, &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create node %s: %v", name, err)
	}
	patchNodeStatus(ctx, t, client, name, quantities)
}

// patchNodeStatus replaces the node's advertised resources, keeping CPU,
// memory and pods; a zero quantity is how a device plugin leaves a resource behind.
func patchNodeStatus(ctx context.Context, t testing.TB, client kubernetes.Interface, name string, quantities map[string]string) {
	t.Helper()
	list := map[string]string{"cpu": "32", "memory": "128Gi", "pods": "110"}
	for k, v := range quantities {
		list[k] = v
	}
	patch, err := json.Marshal(map[string]any{"status": map[string]any{"capacity": list, "allocatable": list}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CoreV1().Nodes().Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}, "status"); err != nil {
		t.Fatalf("patch status of node %s: %v", name, err)
	}
}

// gpuPod is a pod for our scheduler. With vmi set it is shaped like a
// virt-launcher pod: labels, domain annotation and the compute container.
func gpuPod(name, vmi string, requests map[string]string) *v1.Pod {
	list := v1.ResourceList{}
	for k, v := range requests {
		list[v1.ResourceName(k)] = resource.MustParse(v)
	}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: v1.PodSpec{
			SchedulerName: schedulerName,
			Containers:    []v1.Container{{Name: "main", Image: "registry.invalid/pause", Resources: v1.ResourceRequirements{Requests: list, Limits: list}}},
		},
	}
	if vmi != "" {
		pod.Labels = map[string]string{"kubevirt.io": "virt-launcher", "kubevirt.io/created-by": "uid-" + vmi, "vm.kubevirt.io/name": vmi}
		pod.Annotations = map[string]string{"kubevirt.io/domain": vmi}
		pod.Spec.Containers[0].Name = "compute"
	}
	return pod
}

func (e *env) createPod(t testing.TB, pod *v1.Pod) {
	t.Helper()
	if _, err := e.client.CoreV1().Pods(pod.Namespace).Create(e.ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create pod %s: %v", pod.Name, err)
	}
}

func (e *env) poll(t testing.TB, what string, cond wait.ConditionWithContextFunc) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(e.ctx, 100*time.Millisecond, pollTimeout, true, cond); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// waitBound waits until the pod is bound and returns its node.
func (e *env) waitBound(t testing.TB, name string) string {
	t.Helper()
	var node string
	e.poll(t, "pod "+name+" bound", func(ctx context.Context) (bool, error) {
		pod, err := e.client.CoreV1().Pods("default").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		node = pod.Spec.NodeName
		return node != "", nil
	})
	return node
}

// waitEvent waits until the pod has an event of the reason with exactly
// the message; on timeout it reports the messages seen.
func (e *env) waitEvent(t testing.TB, podName, reason, want string) {
	t.Helper()
	e.waitEventMatching(t, podName, reason, want, func(message string) bool { return message == want })
}

// waitEventMatching waits for an event of the pod with the reason whose
// message matches; want describes the match for the failure message.
func (e *env) waitEventMatching(t testing.TB, podName, reason, want string, matches func(string) bool) {
	t.Helper()
	var seen []string
	err := wait.PollUntilContextTimeout(e.ctx, 100*time.Millisecond, pollTimeout, true, func(ctx context.Context) (bool, error) {
		list, err := e.client.CoreV1().Events("default").List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + podName})
		if err != nil {
			return false, err
		}
		seen = seen[:0]
		for _, ev := range list.Items {
			if ev.Reason == reason {
				if matches(ev.Message) {
					return true, nil
				}
				seen = append(seen, ev.Message)
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("pod %s: no %s event\n%s\nseen: %q", podName, reason, want, seen)
	}
}

// withoutPreemption cuts the "preemption: ..." part the framework appends,
// which is DefaultPreemption's wording, not ours.
func withoutPreemption(message string) string {
	if i := strings.Index(message, " preemption: "); i >= 0 {
		return message[:i]
	}
	return message
}

// labelNode sets (or, with value "", removes) one label, as kubectl label does.
func (e *env) labelNode(t testing.TB, node, key, value string) {
	t.Helper()
	var v any = value
	if value == "" {
		v = nil
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"labels": map[string]any{key: v}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.CoreV1().Nodes().Patch(e.ctx, node, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatalf("label node %s %s=%s: %v", node, key, value, err)
	}
}

// podMessage is the pod's PodScheduled=False message, or "" while it has none.
func (e *env) podMessage(ctx context.Context, name string) (string, error) {
	pod, err := e.client.CoreV1().Pods("default").Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	return unschedulableMessage(pod), nil
}

// unschedulableMessage is the pod's PodScheduled=False message, or "".
func unschedulableMessage(pod *v1.Pod) string {
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse && c.Reason == v1.PodReasonUnschedulable {
			return c.Message
		}
	}
	return ""
}

// waitMessage waits until the pod's unschedulable message, without the
// preemption part, is exactly want. Messages change as the cluster does, so
// the last one seen is reported on timeout.
func (e *env) waitMessage(t testing.TB, name, want string) {
	t.Helper()
	var last string
	err := wait.PollUntilContextTimeout(e.ctx, 100*time.Millisecond, pollTimeout, true, func(ctx context.Context) (bool, error) {
		msg, err := e.podMessage(ctx, name)
		if err != nil {
			return false, err
		}
		last = withoutPreemption(msg)
		return last == want, nil
	})
	if err != nil {
		t.Fatalf("pod %s: unschedulable message\n%s\nwant\n%s", name, last, want)
	}
}

// dynamicAs is a dynamic client with another identity's kubeconfig.
func (e *env) dynamicAs(t testing.TB, kubeconfig string) dynamic.Interface {
	t.Helper()
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	return dynamic.NewForConfigOrDie(config)
}
