package agent

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
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
