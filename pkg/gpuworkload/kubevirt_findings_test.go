package gpuworkload

import (
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/test/upstream"
)

func TestDidYouMean(t *testing.T) {
	advertised := []v1.ResourceName{"nvidia.com/GRID_T4-2Q", "nvidia.com/TU104GL_TESLA_T4", "nvidia.com/GA102GL_A10"}
	for _, tc := range []struct {
		typo, want v1.ResourceName
	}{
		{"nvidia.com/GRID_T4_2Q", "nvidia.com/GRID_T4-2Q"},
		{"nvidia.com/TU104GL_Tesla_T4", "nvidia.com/TU104GL_TESLA_T4"},
		{"nvidia.com/GA102GL_A1O", "nvidia.com/GA102GL_A10"},
		{"nvidia.com/AD102GL_L40S", ""},
	} {
		got, ok := didYouMean(tc.typo, advertised)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("didYouMean(%s) = %s, %v; want %s", tc.typo, got, ok, tc.want)
		}
	}
}

func TestCheckVMIDevices(t *testing.T) {
	permitted := &PermittedHostDevices{Source: "KubeVirt/kubevirt/kubevirt", PCIHostDevices: []PermittedDevice{{ResourceName: "nvidia.com/GA102GL_A10", External: true}}}
	advertised := Advertisement{"nvidia.com/GA102GL_A10": {Class: ClassPassthroughGPU, Nodes: 1}}
	codes := func(fs []Finding) []FindingCode {
		var out []FindingCode
		for _, f := range fs {
			out = append(out, f.Code)
		}
		return out
	}
	if got := CheckVMIDevices([]v1.ResourceName{"nvidia.com/GA102GL_A10"}, permitted, advertised); len(got) != 0 {
		t.Errorf("a permitted, advertised device: %v", got)
	}
	got := codes(CheckVMIDevices([]v1.ResourceName{"nvidia.com/GA102GL_A40"}, permitted, advertised))
	if !slices.Equal(got, []FindingCode{FindingVMIDeviceNotPermitted, FindingVMIDeviceNotAdvertised}) {
		t.Errorf("an unknown device: %v", got)
	}
	if got := codes(CheckVMIDevices([]v1.ResourceName{"nvidia.com/GA102GL_A40"}, nil, advertised)); !slices.Equal(got, []FindingCode{FindingVMIDeviceNotAdvertised}) {
		t.Errorf("without permittedHostDevices KubeVirt checks nothing: %v", got)
	}
}

// A device permitted without externalResourceProvider conflicts with the
// sandbox device plugin, unless the ClusterPolicy turns that plugin off:
// KubeVirt's own plugin is then the intended provider.
func TestPermittedNotExternalNeedsTheSandboxDevicePlugin(t *testing.T) {
	permitted := &PermittedHostDevices{Source: "KubeVirt/kubevirt/kubevirt", PCIHostDevices: []PermittedDevice{{ResourceName: "nvidia.com/GA102GL_A10"}}}
	advertised := Advertisement{"nvidia.com/GA102GL_A10": {Class: ClassPassthroughGPU, Nodes: 1}}
	policy := enabledPolicy(ModeContainer)
	if got := CheckPermittedHostDevices(permitted, policy, advertised); len(got) != 1 || got[0].Code != FindingPermittedNotExternal {
		t.Fatalf("with the sandbox device plugin: %+v, want %s", got, FindingPermittedNotExternal)
	}
	policy.NoSandboxDevicePlugin = true
	if got := CheckPermittedHostDevices(permitted, policy, advertised); len(got) != 0 {
		t.Fatalf("without the sandbox device plugin: %+v, want none", got)
	}
}

// NVIDIA's own example KubeVirt CR permits the T4 as nvidia.com/TU104GL_Tesla_T4,
// which the sandbox device plugin advertises as nvidia.com/TU104GL_TESLA_T4:
// the entry's selector says which name it must be, advertised or not yet.
func TestPermittedNameOfTheUpstreamExample(t *testing.T) {
	var obj map[string]any
	if err := yaml.Unmarshal(upstream.Read(t, "NVIDIA+kubevirt-gpu-device-plugin/examples/kubevirt-featuregate-cm.yaml"), &obj); err != nil {
		t.Fatal(err)
	}
	permitted, err := PermittedHostDevicesFromKubeVirt(&unstructured.Unstructured{Object: obj})
	if err != nil {
		t.Fatal(err)
	}
	got := CheckPermittedHostDevices(permitted, enabledPolicy(ModeContainer), Advertisement{})
	want := Finding{Code: FindingPermittedNameMismatch, Severity: SeverityError,
		Message: `the entry selecting "10DE:1EB8" permits nvidia.com/TU104GL_Tesla_T4, but the sandbox device plugin advertises that device as nvidia.com/TU104GL_TESLA_T4: a VMI asking for either is never scheduled`,
		Fix:     "set resourceName: nvidia.com/TU104GL_TESLA_T4 on that entry of KubeVirt/kubevirt/kubevirt"}
	// The mediated device's name is right; it is only not advertised by any node yet.
	if len(got) != 2 || got[0] != want || got[1].Code != FindingPermittedNotAdvertised || got[1].Message != "nvidia.com/GRID_T4-1Q is permitted but no node advertises it: VMIs requesting it stay Pending" {
		t.Fatalf("findings %+v, want %+v and GRID_T4-1Q not advertised", got, want)
	}
}

// Only entries the sandbox device plugin serves have a name it decides.
func TestSandboxPluginName(t *testing.T) {
	for _, tc := range []struct {
		entry PermittedDevice
		want  v1.ResourceName
	}{
		{PermittedDevice{Selector: "10DE:2236", External: true}, "nvidia.com/GA102GL_A10"},
		{PermittedDevice{Selector: "10de:25b6", External: true}, "nvidia.com/GA107GL_A2___A16"},
		{PermittedDevice{Selector: "NVIDIA A10-12Q", External: true}, "nvidia.com/NVIDIA_A10-12Q"},
		{PermittedDevice{Selector: "10DE:FFFF", External: true}, "nvidia.com/ffff"},
		{PermittedDevice{Selector: "10DE:2236"}, ""},
		{PermittedDevice{Selector: "8086:1572", External: true}, ""},
	} {
		if got, ok := sandboxPluginName(tc.entry); got != tc.want || ok != (tc.want != "") {
			t.Errorf("sandboxPluginName(%+v) = %s, %v; want %s", tc.entry, got, ok, tc.want)
		}
	}
}
