package gpuworkload

import (
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
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
