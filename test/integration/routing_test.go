package integration

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/installchart"
	"github.com/gpu-workload-scheduler/scheduler/pkg/lab"
)

// startDefaultScheduler runs kube-scheduler as it ships beside ours: our
// binary with only the default plugins, under default-scheduler.
func (e *env) startDefaultScheduler(t testing.TB) {
	t.Helper()
	e.startSchedulerWithConfig(t, controlplane.DefaultSchedulerName, e.cp.Kubeconfig, controlplane.DefaultSchedulerConfig(e.cp.Kubeconfig))
}

// applyChartRouting applies the routing policies the chart renders with
// values into the release's namespace, and waits until the API server
// applies them, to claim pods in claimNamespaces too.
func (e *env) applyChartRouting(t *testing.T, namespace string, values map[string]any, scheduler string, claimNamespaces ...string) {
	t.Helper()
	chart, err := installchart.Load(repoRoot + "/" + installchart.Dir)
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := installchart.Render(chart, namespace, values)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "routing.yaml")
	if err := os.WriteFile(file, []byte(rendered["templates/routing.yaml"]), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("kubectl", "--kubeconfig", e.cp.Kubeconfig, "apply", "--server-side", "-f", file).CombinedOutput(); err != nil {
		t.Fatalf("kubectl apply the routing policy: %v\n%s", err, out)
	}
	if err := lab.WaitForRouting(e.ctx, e.client, scheduler, pollTimeout, claimNamespaces...); err != nil {
		t.Fatal(err)
	}
}

// routedPod is a pod as a user writes it: no schedulerName unless given.
func routedPod(name, namespace, scheduler string, limits map[string]string) *v1.Pod {
	pod := gpuPod(name, "", limits)
	pod.Namespace, pod.Spec.SchedulerName = namespace, scheduler
	return pod
}

func (e *env) labelledNamespace(t *testing.T, name, routing string) {
	t.Helper()
	ns := &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"gpu-workload.io/routing": routing}}}
	if _, err := e.client.CoreV1().Namespaces().Create(e.ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func withClaim(pod *v1.Pod) *v1.Pod {
	pod.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("gpu-claim")}}
	return pod
}

// With the chart's routing policy applied, beside kube-scheduler's default
// profile: GPU pods that name no scheduler go to ours (a Deployment's pod
// made by the real Deployment and ReplicaSet controllers, a VMI's launcher pod, a claim pod
// in an opted-in namespace, a name GPUWorkloadFit's resourceClasses
// configure); pods that name another scheduler, CPU pods, claim pods of a
// namespace that did not opt in, and GPU pods of kube-system, the release's
// namespace or an opted-out namespace keep theirs. Both schedulers bind
// what they are given (the node has no kubelet: bindings are checked
// before the node-lifecycle controller's grace period ends), check
// reports the GPU pods default-scheduler bound and the inventory the units
// they hold.
func TestRoutingByAdmission(t *testing.T) {
	e := newEnv(t)
	e.startScheduler(t, "scheduler")
	e.startDefaultScheduler(t)
	if _, err := e.cp.StartProcess("kube-controllers", labBinary(t), "controllers", "--kubeconfig", e.cp.Kubeconfig); err != nil {
		t.Fatal(err)
	}
	createNode(e.ctx, t, e.client, "gpu-container", map[string]string{"nvidia.com/gpu.workload.config": "container"}, map[string]string{"nvidia.com/gpu": "8", "example.com/usb": "2"})
	e.labelledNamespace(t, "claims", "claims")
	e.labelledNamespace(t, "opted-out", "disabled")
	e.createNamespace(t, "plain")
	e.applyChartRouting(t, installchart.Namespace, nil, schedulerName, "claims")

	gpu := map[string]string{"nvidia.com/gpu": "1"}
	launcher := func(name string, limits map[string]string) *v1.Pod {
		pod := gpuPod(name, strings.TrimPrefix(name, "virt-launcher-"), limits)
		pod.Spec.SchedulerName = ""
		return pod
	}
	for _, tc := range []struct {
		pod       *v1.Pod
		scheduler string
		binds     bool
	}{
		{launcher("virt-launcher-vm-a10", map[string]string{"nvidia.com/GA102GL_A10": "1", "devices.kubevirt.io/kvm": "1"}), schedulerName, false},
		{launcher("virt-launcher-vm-usb", map[string]string{"example.com/usb": "1", "devices.kubevirt.io/kvm": "1"}), schedulerName, false},
		{withClaim(launcher("virt-launcher-vm-dra", map[string]string{"devices.kubevirt.io/kvm": "1"})), schedulerName, false},
		{launcher("virt-launcher-vm-cpu", map[string]string{"devices.kubevirt.io/kvm": "1"}), controlplane.DefaultSchedulerName, false},
		{withClaim(routedPod("claim-opted-in", "claims", "", nil)), schedulerName, false},
		{withClaim(routedPod("claim-plain", "plain", "", nil)), controlplane.DefaultSchedulerName, false},
		{routedPod("gpu-default-scheduler", "default", controlplane.DefaultSchedulerName, gpu), schedulerName, true},
		{routedPod("gpu-volcano", "default", "volcano", gpu), "volcano", false},
		{routedPod("cpu", "default", "", map[string]string{"cpu": "100m"}), controlplane.DefaultSchedulerName, true},
		{routedPod("nic", "default", "", map[string]string{"nvidia.com/rdma_shared_device_a": "1"}), controlplane.DefaultSchedulerName, false},
		{routedPod("gpu-kube-system", "kube-system", "", gpu), controlplane.DefaultSchedulerName, true},
		{routedPod("gpu-release", installchart.Namespace, "", gpu), controlplane.DefaultSchedulerName, true},
		{routedPod("gpu-opted-out", "opted-out", "", gpu), controlplane.DefaultSchedulerName, true},
	} {
		got, err := e.client.CoreV1().Pods(tc.pod.Namespace).Create(e.ctx, tc.pod, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("create pod %s/%s: %v", tc.pod.Namespace, tc.pod.Name, err)
		}
		if got.Spec.SchedulerName != tc.scheduler {
			t.Errorf("pod %s/%s: schedulerName %q, want %q", got.Namespace, got.Name, got.Spec.SchedulerName, tc.scheduler)
		}
		if tc.binds {
			e.waitBoundIn(t, got.Namespace, got.Name)
		}
	}

	// check shows what default-scheduler placed on the GPU node: the three
	// GPU pods routing left to it.
	_, out := e.kubectlPlugin(t, "check", "-o", "json")
	want := "3 GPU pod(s) bound by scheduler default-scheduler hold 3 nvidia.com/gpu: "
	if !strings.Contains(out, `"code": "OtherSchedulerGPUPods"`) || !strings.Contains(out, want) {
		t.Errorf("kubectl gpu-workload check does not report %q:\n%s", want, out)
	}
	// The inventory counts their units as allocated, held by other schedulers.
	_, out = e.kubectlPlugin(t, "inventory", "-o", "json")
	type inventoryResource struct {
		Resource              string
		Allocated             int64
		HeldByOtherSchedulers int64
	}
	var inventory struct{ Resources []inventoryResource }
	if err := json.Unmarshal([]byte(out), &inventory); err != nil {
		t.Fatalf("kubectl gpu-workload inventory -o json: %v\n%s", err, out)
	}
	gpus := slices.IndexFunc(inventory.Resources, func(r inventoryResource) bool { return r.Resource == "nvidia.com/gpu" })
	if gpus < 0 || inventory.Resources[gpus].Allocated != 4 || inventory.Resources[gpus].HeldByOtherSchedulers != 3 {
		t.Errorf("inventory: want nvidia.com/gpu allocated 4, held by other schedulers 3 (our pod and default-scheduler's three):\n%s", out)
	}

	notebook := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "notebook", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "notebook"}},
			Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "notebook"}}, Spec: routedPod("", "", "", gpu).Spec},
		},
	}
	if _, err := e.client.AppsV1().Deployments("default").Create(e.ctx, notebook, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var made []v1.Pod
	e.poll(t, "the Deployment's pod", func(ctx context.Context) (bool, error) {
		pods, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{LabelSelector: "app=notebook"})
		if err == nil {
			made = pods.Items
		}
		return len(made) == 1, err
	})
	if got := made[0].Spec.SchedulerName; got != schedulerName {
		t.Errorf("the Deployment's pod %s: schedulerName %q, want %q", made[0].Name, got, schedulerName)
	}

	// The chart's values decide: another scheduler name, a resource name
	// GPUWorkloadFit's resourceClasses make a GPU, one more namespace spared.
	values, err := installchart.NonDefaultValues(repoRoot + "/" + installchart.Dir)
	if err != nil {
		t.Fatal(err)
	}
	e.createNamespace(t, "batch")
	e.applyChartRouting(t, "gpus", values, "gpu-vm-scheduler")
	for _, tc := range []struct {
		pod       *v1.Pod
		scheduler string
	}{
		{routedPod("configured-gpu", "default", "", map[string]string{"example.com/gpu": "1"}), "gpu-vm-scheduler"},
		{routedPod("configured-not-gpu", "default", "", map[string]string{"nvidia.com/bluefield": "1"}), controlplane.DefaultSchedulerName},
		{routedPod("gpu-batch", "batch", "", gpu), controlplane.DefaultSchedulerName},
	} {
		got, err := e.client.CoreV1().Pods(tc.pod.Namespace).Create(e.ctx, tc.pod, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("create pod %s/%s: %v", tc.pod.Namespace, tc.pod.Name, err)
		}
		if got.Spec.SchedulerName != tc.scheduler {
			t.Errorf("pod %s/%s: schedulerName %q, want %q", got.Namespace, got.Name, got.Spec.SchedulerName, tc.scheduler)
		}
	}
}

// waitBoundIn waits until the pod in namespace is bound.
func (e *env) waitBoundIn(t testing.TB, namespace, name string) {
	t.Helper()
	e.poll(t, "pod "+namespace+"/"+name+" bound", func(ctx context.Context) (bool, error) {
		pod, err := e.client.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
		return err == nil && pod.Spec.NodeName != "", err
	})
}
