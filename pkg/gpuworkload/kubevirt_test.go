package gpuworkload

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func kubeVirtCR(permitted interface{}) *unstructured.Unstructured {
	config := map[string]interface{}{}
	if permitted != nil {
		config["permittedHostDevices"] = permitted
	}
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt",
		"metadata": map[string]interface{}{"name": "kubevirt", "namespace": "kubevirt"},
		"spec":     map[string]interface{}{"configuration": config},
	}}
}

func TestPermittedHostDevicesFromKubeVirt(t *testing.T) {
	p, err := PermittedHostDevicesFromKubeVirt(kubeVirtCR(map[string]interface{}{
		"pciHostDevices": []interface{}{map[string]interface{}{
			"pciVendorSelector": "10DE:2236", "resourceName": "nvidia.com/GA102GL_A10", "externalResourceProvider": true,
		}},
		"mediatedDevices": []interface{}{map[string]interface{}{
			"mdevNameSelector": "NVIDIA A10-12Q", "resourceName": "nvidia.com/NVIDIA_A10-12Q", "externalResourceProvider": true,
		}},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if p.Source != "KubeVirt/kubevirt/kubevirt" || len(p.PCIHostDevices) != 1 || len(p.MediatedDevices) != 1 {
		t.Fatalf("got %+v", p)
	}
	if d := p.PCIHostDevices[0]; d != (PermittedDevice{ResourceName: "nvidia.com/GA102GL_A10", External: true}) {
		t.Fatalf("pci entry %+v", d)
	}
	if !p.Permits("nvidia.com/NVIDIA_A10-12Q") || p.Permits("nvidia.com/GRID_T4-2Q") {
		t.Fatal("Permits disagrees with the lists")
	}

	none, err := PermittedHostDevicesFromKubeVirt(kubeVirtCR(nil))
	if err != nil || none != nil {
		t.Fatalf("no list: got %+v, %v", none, err)
	}
	if !none.Permits("nvidia.com/anything") {
		t.Fatal("with no list KubeVirt checks nothing")
	}

	for _, tc := range []struct {
		name      string
		permitted interface{}
		wantErr   string
	}{
		{"not an object", "all", "spec.configuration.permittedHostDevices"},
		{"entry not an object", map[string]interface{}{"pciHostDevices": []interface{}{"x"}}, "pciHostDevices[0] is string"},
		{"no resourceName", map[string]interface{}{"mediatedDevices": []interface{}{map[string]interface{}{"mdevNameSelector": "x"}}}, "mediatedDevices[0].resourceName is missing"},
		{"external not bool", map[string]interface{}{"pciHostDevices": []interface{}{map[string]interface{}{"resourceName": "nvidia.com/X", "externalResourceProvider": "yes"}}}, "externalResourceProvider"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PermittedHostDevicesFromKubeVirt(kubeVirtCR(tc.permitted))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.HasPrefix(err.Error(), "KubeVirt/kubevirt/kubevirt: ") {
				t.Fatalf("error %v, want it to name the object and contain %q", err, tc.wantErr)
			}
		})
	}
}
