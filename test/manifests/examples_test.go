package manifests

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// The examples build, take their GPU names from gpu-models/ only, are all
// for our scheduler, and KubeVirt permits every GPU a VMI asks for.
func TestExamples(t *testing.T) {
	resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), "../../manifests/examples")
	if err != nil {
		t.Fatalf("kustomize build manifests/examples: %v", err)
	}
	var permitted *gpuworkload.PermittedHostDevices
	var vmis, pods []*unstructured.Unstructured
	for _, r := range resources.Resources() {
		m, err := r.Map()
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{Object: m}
		switch u.GetKind() {
		case "ConfigMap":
			t.Errorf("the local gpu-models ConfigMap leaked into the output")
		case "KubeVirt":
			if permitted, err = gpuworkload.PermittedHostDevicesFromKubeVirt(u); err != nil {
				t.Fatal(err)
			}
		case "ClusterPolicy":
			policy, err := gpuworkload.PolicyFromClusterPolicy(u)
			if err != nil || !policy.Enabled {
				t.Errorf("ClusterPolicy %+v, %v: sandbox workloads must be enabled", policy, err)
			}
		case "VirtualMachineInstance":
			vmis = append(vmis, u)
		case "Pod":
			pods = append(pods, u)
		}
	}
	if permitted == nil || len(vmis) != 2 || len(pods) != 1 {
		t.Fatalf("want a KubeVirt CR, 2 VMIs and 1 pod; got %v, %d, %d", permitted != nil, len(vmis), len(pods))
	}
	want := map[string]v1.ResourceName{"vm-passthrough": "nvidia.com/GA102GL_A10", "vm-vgpu": "nvidia.com/NVIDIA_A10-12Q"}
	for _, vmi := range append(vmis, pods...) {
		if name, _, _ := unstructured.NestedString(vmi.Object, "spec", "schedulerName"); name != "gpu-workload-scheduler" {
			t.Errorf("%s %s has schedulerName %q", vmi.GetKind(), vmi.GetName(), name)
		}
	}
	for _, vmi := range vmis {
		gpus, _, _ := unstructured.NestedSlice(vmi.Object, "spec", "domain", "devices", "gpus")
		if len(gpus) != 1 {
			t.Fatalf("VMI %s has %d gpus", vmi.GetName(), len(gpus))
		}
		device := v1.ResourceName(gpus[0].(map[string]any)["deviceName"].(string))
		if device != want[vmi.GetName()] {
			t.Errorf("VMI %s asks for %s, want %s from gpu-models", vmi.GetName(), device, want[vmi.GetName()])
		}
		if !permitted.Permits(device) {
			t.Errorf("VMI %s asks for %s, which the KubeVirt CR does not permit", vmi.GetName(), device)
		}
	}
}
