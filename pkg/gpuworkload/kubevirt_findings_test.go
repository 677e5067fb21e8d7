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
	advertised := []v1.ResourceName{"nvidia.com/GRID_T4-2Q", "nvidia.com/TU104GL_TESLA_T4", "nvidia.com/GA102GL_A10", "nvidia.com/NVIDIA_A10-12Q"}
	for _, tc := range []struct {
		typo, want v1.ResourceName
	}{
		{"nvidia.com/GRID_T4_2Q", "nvidia.com/GRID_T4-2Q"},
		{"nvidia.com/TU104GL_Tesla_T4", "nvidia.com/TU104GL_TESLA_T4"},
		{"nvidia.com/GA102GL_A1O", "nvidia.com/GA102GL_A10"},
		{"nvidia.com/AD102GL_L40S", ""},
		{"nvidia.com/NVIDIA_A10-12O", "nvidia.com/NVIDIA_A10-12Q"},
		// Another card's names, an edit or two away, are not typos.
		{"nvidia.com/GA102GL_A40", ""},
		{"nvidia.com/NVIDIA_A40-12Q", ""},
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
	if got := CheckVMIDevices([]v1.ResourceName{"nvidia.com/GA102GL_A10"}, permitted, advertised, nil); len(got) != 0 {
		t.Errorf("a permitted, advertised device: %v", got)
	}
	got := codes(CheckVMIDevices([]v1.ResourceName{"nvidia.com/GA102GL_A40"}, permitted, advertised, nil))
	if !slices.Equal(got, []FindingCode{FindingVMIDeviceNotPermitted, FindingVMIDeviceNotAdvertised}) {
		t.Errorf("an unknown device: %v", got)
	}
	if got := codes(CheckVMIDevices([]v1.ResourceName{"nvidia.com/GA102GL_A40"}, nil, advertised, nil)); !slices.Equal(got, []FindingCode{FindingVMIDeviceNotAdvertised}) {
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
	if got := CheckPermittedHostDevices(permitted, policy, advertised, nil); len(got) != 1 || got[0].Code != FindingPermittedNotExternal {
		t.Fatalf("with the sandbox device plugin: %+v, want %s", got, FindingPermittedNotExternal)
	}
	policy.NoSandboxDevicePlugin = true
	if got := CheckPermittedHostDevices(permitted, policy, advertised, nil); len(got) != 0 {
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
	got := CheckPermittedHostDevices(permitted, enabledPolicy(ModeContainer), Advertisement{}, nil)
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

// A permitted name no node advertises, of a card a node has in another
// mode, is fixed by converting that node, not by renaming the entry to
// another card's name.
func TestPermittedNameOfACardInAnotherMode(t *testing.T) {
	a40 := testNode("a40", merge(deployLabels(ModeContainer), map[string]string{LabelWorkloadConfig: "container", LabelGPUProduct: "NVIDIA-A40", LabelGPUCount: "1"}),
		map[string]string{"nvidia.com/gpu": "1"})
	a10 := testNode("a10", merge(deployLabels(ModePassthrough), map[string]string{LabelWorkloadConfig: "vm-passthrough"}),
		map[string]string{"nvidia.com/GA102GL_A10": "1"})
	policy := enabledPolicy(ModeContainer)
	states := []*NodeState{NewNodeState(a40, policy, nil), NewNodeState(a10, policy, nil)}
	gpus := GPUsOf([]*v1.Node{a10, a40}, states)
	permitted := &PermittedHostDevices{Source: "KubeVirt/kubevirt/kubevirt", PCIHostDevices: []PermittedDevice{
		{ResourceName: "nvidia.com/GA102GL_A10", Selector: "10DE:2236", External: true},
		{ResourceName: "nvidia.com/GA102GL_A40", Selector: "10DE:2235", External: true},
	}}
	want := []Finding{{Code: FindingPermittedNotAdvertised, Severity: SeverityWarning,
		Message: "nvidia.com/GA102GL_A40 is permitted but not advertised now: node a40 has that card in container mode; VMIs requesting it stay Pending",
		Fix:     "to serve it, convert the node: kubectl label node a40 nvidia.com/gpu.workload.config=vm-passthrough --overwrite"}}
	if got := CheckPermittedHostDevices(permitted, policy, AdvertisementOf(states), gpus); !slices.Equal(got, want) {
		t.Errorf("permitted:\n got %+v\nwant %+v", got, want)
	}
	wantVMI := []Finding{{Code: FindingVMIDeviceNotAdvertised, Severity: SeverityError,
		Message: "requests nvidia.com/GA102GL_A40, which no node advertises now: node a40 has that card in container mode; its launcher pod cannot be scheduled",
		Fix:     "to serve it, convert the node: kubectl label node a40 nvidia.com/gpu.workload.config=vm-passthrough --overwrite"}}
	if got := CheckVMIDevices([]v1.ResourceName{"nvidia.com/GA102GL_A40"}, permitted, AdvertisementOf(states), gpus); !slices.Equal(got, wantVMI) {
		t.Errorf("VMI:\n got %+v\nwant %+v", got, wantVMI)
	}
}

// A node advertising a device by its ID is a sandbox device plugin whose
// pci.ids predates the card: the entry permitting that name works, whatever
// our copy of pci.ids calls the device.
func TestPermittedDeviceIDNameIsEvidence(t *testing.T) {
	permitted := &PermittedHostDevices{Source: "KubeVirt/kubevirt/kubevirt", PCIHostDevices: []PermittedDevice{{ResourceName: "nvidia.com/26b5", Selector: "10DE:26B5", External: true}}}
	advertised := Advertisement{"nvidia.com/26b5": {Class: ClassPassthroughGPU, Nodes: 1}}
	if got := CheckPermittedHostDevices(permitted, enabledPolicy(ModeContainer), advertised, nil); len(got) != 0 {
		t.Errorf("advertised as permitted: %+v, want none", got)
	}
	got := CheckPermittedHostDevices(permitted, enabledPolicy(ModeContainer), Advertisement{}, nil)
	if len(got) != 1 || got[0].Code != FindingPermittedNotAdvertised {
		t.Errorf("advertised by no node: %+v, want only %s", got, FindingPermittedNotAdvertised)
	}
	permitted.PCIHostDevices[0].ResourceName = "nvidia.com/AD102GL_L40S"
	got = CheckPermittedHostDevices(permitted, enabledPolicy(ModeContainer), advertised, nil)
	if len(got) != 2 || got[0].Code != FindingResourceNotPermitted || got[1].Code != FindingPermittedNameMismatch ||
		got[1].Fix != "set resourceName: nvidia.com/26b5 on that entry of KubeVirt/kubevirt/kubevirt" {
		t.Errorf("another name for the device a node advertises by its ID: %+v, want %s and %s naming nvidia.com/26b5", got, FindingResourceNotPermitted, FindingPermittedNameMismatch)
	}
}
