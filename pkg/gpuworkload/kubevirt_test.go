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
	if d := p.PCIHostDevices[0]; d != (PermittedDevice{ResourceName: "nvidia.com/GA102GL_A10", Selector: "10DE:2236", External: true}) {
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

// Each DRA gate is on where the CR enables it or, unless disabled, from
// KubeVirt v1.9, where both are beta. A VMI that takes devices from claims
// while its gate is off gets a finding with the fix.
func TestVMIClaimsNeedKubeVirtDRAGates(t *testing.T) {
	kubeVirt := func(gates, disabled []any, version string) *unstructured.Unstructured {
		obj := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"namespace": "kubevirt", "name": "kubevirt"},
			"spec": map[string]any{"configuration": map[string]any{"developerConfiguration": map[string]any{"featureGates": gates, "disabledFeatureGates": disabled}}}}}
		if version != "" {
			obj.Object["status"] = map[string]any{"observedKubeVirtVersion": version}
		}
		return obj
	}
	on, off := KubeVirtGate{On: true, Known: true}, KubeVirtGate{Known: true}
	for _, tc := range []struct {
		name              string
		cr                *unstructured.Unstructured
		gpus, hostDevices bool
		wantGates         KubeVirtDRAGates
		wantFindings      int
	}{
		{name: "v1.9 default", cr: kubeVirt(nil, nil, "v1.9.0"), gpus: true, hostDevices: true, wantGates: KubeVirtDRAGates{GPUs: on, HostDevices: on}},
		{name: "v1.8 without the gates", cr: kubeVirt(nil, nil, "v1.8.2"), gpus: true, hostDevices: true, wantGates: KubeVirtDRAGates{GPUs: off, HostDevices: off}, wantFindings: 2},
		{name: "v1.8 with the gate", cr: kubeVirt([]any{"GPUsWithDRA"}, nil, "v1.8.2"), gpus: true, wantGates: KubeVirtDRAGates{GPUs: on, HostDevices: off}},
		{name: "disabled on v1.9", cr: kubeVirt(nil, []any{"GPUsWithDRA", "HostDevicesWithDRA"}, "v1.9.0"), gpus: true, hostDevices: true,
			wantGates: KubeVirtDRAGates{GPUs: off, HostDevices: off}, wantFindings: 2},
		{name: "version unknown: no finding", cr: kubeVirt(nil, nil, ""), gpus: true, hostDevices: true},
		{name: "host devices gate on before v1.9", cr: kubeVirt([]any{"HostDevicesWithDRA"}, nil, "v1.8.0"), hostDevices: true,
			wantGates: KubeVirtDRAGates{GPUs: off, HostDevices: on}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gates, err := KubeVirtDRAGatesOf(tc.cr)
			if err != nil {
				t.Fatal(err)
			}
			if gates != tc.wantGates {
				t.Fatalf("gates %+v, want %+v", gates, tc.wantGates)
			}
			findings := CheckVMIClaims(tc.gpus, tc.hostDevices, gates, "KubeVirt/kubevirt/kubevirt")
			if len(findings) != tc.wantFindings {
				t.Fatalf("findings %+v, want %d", findings, tc.wantFindings)
			}
			for _, f := range findings {
				if f.Code != FindingVMIClaimsGateOff || !strings.Contains(f.Fix, "featureGates") {
					t.Errorf("finding %+v: want %s with a fix naming featureGates", f, FindingVMIClaimsGateOff)
				}
			}
		})
	}
	if _, err := KubeVirtDRAGatesOf(kubeVirt([]any{int64(1)}, nil, "")); err == nil || !strings.Contains(err.Error(), "spec.configuration.developerConfiguration.featureGates") {
		t.Fatalf("a malformed gate list: %v, want an error naming the field", err)
	}
}
