package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"sigs.k8s.io/yaml"
)

func TestParseHardware(t *testing.T) {
	for _, tc := range []struct {
		value string
		gpus  int64
		model string
		ok    bool
	}{
		{value: "2 x A10", gpus: 2, model: "A10", ok: true},
		{value: "1 x GA102GL_A10", gpus: 1, model: "GA102GL_A10", ok: true},
		{value: "2xA10"},
		{value: "0 x A10"},
		{value: "65537 x A10"},
		{value: "two x A10"},
		{value: "2 x "},
	} {
		gpus, model, err := parseHardware(tc.value)
		if (err == nil) != tc.ok || gpus != tc.gpus || model != tc.model {
			t.Errorf("parseHardware(%q) = %d, %q, %v; want %d, %q, ok %v", tc.value, gpus, model, err, tc.gpus, tc.model, tc.ok)
		}
	}
}

// The launcher pod carries what virt-controller renders from the VMI for the
// fields the scheduler reads.
func TestLauncherPod(t *testing.T) {
	const manifest = `
apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata: {name: vm, namespace: vms, uid: "1234", labels: {app: desktop}}
spec:
  schedulerName: gpu-workload-scheduler
  resourceClaims:
    - {name: gpu, resourceClaimName: vm-gpu}
  domain:
    resources: {requests: {cpu: "4", memory: 8Gi}}
    devices:
      gpus:
        - {name: g1, deviceName: nvidia.com/GA102GL_A10}
        - {name: g2, claimName: gpu, requestName: vfio}
      hostDevices:
        - {name: h1, deviceName: nvidia.com/GA102GL_A10}
`
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(manifest), &u.Object); err != nil {
		t.Fatal(err)
	}
	var vm vmi
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &vm); err != nil {
		t.Fatal(err)
	}
	pod := launcherPod(&vm)
	two := resource.MustParse("2")
	wantResources := v1.ResourceRequirements{
		Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("8Gi"), "nvidia.com/GA102GL_A10": two},
		Limits:   v1.ResourceList{"nvidia.com/GA102GL_A10": two},
		Claims:   []v1.ResourceClaim{{Name: "gpu", Request: "vfio"}},
	}
	if got := pod.Spec.Containers[0].Resources; !equality.Semantic.DeepEqual(got, wantResources) {
		t.Errorf("compute resources %+v, want %+v", got, wantResources)
	}
	wantLabels := map[string]string{"app": "desktop", "kubevirt.io": "virt-launcher", "kubevirt.io/created-by": "1234", "vm.kubevirt.io/name": "vm"}
	if !equality.Semantic.DeepEqual(pod.Labels, wantLabels) {
		t.Errorf("labels %v, want %v", pod.Labels, wantLabels)
	}
	owner := pod.OwnerReferences[0]
	if pod.Spec.SchedulerName != "gpu-workload-scheduler" || pod.Annotations["kubevirt.io/domain"] != "vm" || owner.Kind != "VirtualMachineInstance" || owner.UID != "1234" ||
		len(pod.Spec.ResourceClaims) != 1 || pod.Spec.ResourceClaims[0].Name != "gpu" {
		t.Errorf("pod %s: schedulerName %q, annotations %v, owner %+v, resourceClaims %+v", pod.Name, pod.Spec.SchedulerName, pod.Annotations, owner, pod.Spec.ResourceClaims)
	}
}

// The kubelet's admission, as the agent does it: a pod finds the devices
// the pods admitted before it hold taken; CPU and resources the node does
// not advertise (a DRA-backed nvidia.com/gpu) do not reject it.
func TestDeviceShortage(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "pt-01"}, Status: v1.NodeStatus{Allocatable: v1.ResourceList{
		"nvidia.com/GA102GL_A10": resource.MustParse("2"), v1.ResourceCPU: resource.MustParse("1"), v1.ResourcePods: resource.MustParse("110")}}}
	pod := func(name string, requests v1.ResourceList) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: v1.PodSpec{NodeName: "pt-01", Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: requests, Limits: requests}}}}}
	}
	vm := v1.ResourceList{"nvidia.com/GA102GL_A10": resource.MustParse("1"), v1.ResourceCPU: resource.MustParse("4")}
	for _, tc := range []struct {
		name    string
		running int
		pod     *v1.Pod
		want    string
	}{
		{name: "a free GPU", running: 1, pod: pod("vm", vm)},
		{name: "both GPUs held", running: 2, pod: pod("vm", vm), want: "nvidia.com/GA102GL_A10 requested 1, used 2, capacity 2"},
		{name: "DRA-backed resource", running: 2, pod: pod("cuda", v1.ResourceList{"nvidia.com/gpu": resource.MustParse("1")})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var running []*v1.Pod
			for i := range tc.running {
				running = append(running, pod(fmt.Sprintf("held-%d", i), vm))
			}
			nodeInfo := framework.NewNodeInfo(running...)
			nodeInfo.SetNode(node)
			r, rejected := deviceShortage(tc.pod, nodeInfo)
			got := ""
			if rejected {
				got = fmt.Sprintf("%s requested %d, used %d, capacity %d", r.ResourceName, r.Requested, r.Used, r.Capacity)
			}
			if got != tc.want {
				t.Errorf("shortage %q, want %q", got, tc.want)
			}
		})
	}
}

// A running pod fails past its active deadline with the kubelet's reason,
// message and event; before it, or without one, it runs on.
func TestEnforceActiveDeadline(t *testing.T) {
	started := metav1.NewTime(time.Now().Add(-time.Minute))
	for _, tc := range []struct {
		name       string
		deadline   *int64
		wantFailed bool
	}{
		{name: "no deadline"},
		{name: "deadline to come", deadline: new(int64(3600))},
		{name: "deadline passed", deadline: new(int64(30)), wantFailed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "job", Namespace: "default"},
				Spec:   v1.PodSpec{NodeName: "gpu-1", ActiveDeadlineSeconds: tc.deadline},
				Status: v1.PodStatus{Phase: v1.PodRunning, StartTime: &started}}
			client := fake.NewClientset(pod)
			recorder := events.NewFakeRecorder(1)
			a := &agent{client: client, recorder: recorder,
				queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[key]())}
			defer a.queue.ShutDown()
			if err := a.enforceActiveDeadline(context.Background(), pod); err != nil {
				t.Fatal(err)
			}
			got, err := client.CoreV1().Pods("default").Get(context.Background(), "job", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			failed := got.Status.Phase == v1.PodFailed
			if failed != tc.wantFailed {
				t.Fatalf("phase %s, want failed %v", got.Status.Phase, tc.wantFailed)
			}
			if failed && (got.Status.Reason != "DeadlineExceeded" || got.Status.Message != "Pod was active on the node longer than the specified deadline" ||
				len(recorder.Events) != 1 || !strings.HasPrefix(<-recorder.Events, "Normal DeadlineExceeded")) {
				t.Errorf("reason %q, message %q; want the kubelet's, with its event", got.Status.Reason, got.Status.Message)
			}
		})
	}
}
