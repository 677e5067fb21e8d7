package gpuworkload

import (
	"testing"

	v1 "k8s.io/api/core/v1"
)

func TestClassifyByName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want ResourceClass
	}{
		{"nvidia.com/gpu", ClassContainerGPU},
		{"nvidia.com/gpu.shared", ClassContainerGPU},
		{"nvidia.com/mig-1g.5gb", ClassContainerGPU},
		{"nvidia.com/mig-3g.40gb.shared", ClassContainerGPU},
		{"nvidia.com/mig-1c.3g.20gb", ClassContainerGPU},
		{"nvidia.com/GA102GL_A10", ClassPassthroughGPU},
		{"nvidia.com/GA107GL_A2___A16", ClassPassthroughGPU},
		{"nvidia.com/GA100_A100_PCIE_80GB", ClassPassthroughGPU},
		{"nvidia.com/GH100_H100_SXM5_80GB", ClassPassthroughGPU},
		{"nvidia.com/TU104GL_TESLA_T4", ClassPassthroughGPU},
		{"nvidia.com/26b5", ClassPassthroughGPU},
		{"nvidia.com/NVIDIA_A10-12Q", ClassVGPUProfile},
		{"nvidia.com/NVIDIA_A10-4Q", ClassVGPUProfile},
		{"nvidia.com/GRID_T4-2Q", ClassVGPUProfile},
		{"nvidia.com/NVIDIA_A100-1-5C", ClassVGPUProfile},
		{"nvidia.com/NVIDIA_H100XM-7-80C", ClassVGPUProfile},
		{"nvidia.com/NVIDIA_RTX6000-Ada-4Q", ClassVGPUProfile},
		{"nvidia.com/hostdev", ClassNotGPU},
		{"nvidia.com/rdma_shared_device_a", ClassNotGPU},
		{"nvidia.com/sriov_net", ClassNotGPU},
		{"nvidia.com/26B5x", ClassNotGPU},
		{"nvidia.com/mig-1g", ClassNotGPU},
		{"nvidia.com/TU104GL_Tesla_T4", ClassNotGPU},
		{"nvidia.com/", ClassNotGPU},
		{"cpu", ClassNotGPU},
		{"amd.com/gpu", ClassNotGPU},
		{"example.com/GA102GL_A10", ClassNotGPU},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := (*Classifier)(nil).Classify(v1.ResourceName(tc.name))
			if got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestClassifierPrecedence(t *testing.T) {
	policy := enabledPolicy(ModeContainer)
	nodes := []*v1.Node{
		testNode("pt", map[string]string{LabelWorkloadConfig: "vm-passthrough"}, map[string]string{
			"nvidia.com/gpu": "0", "nvidia.com/pgpu_model": "2", "nvidia.com/shared_name": "1", "nvidia.com/gpu.shared": "1",
		}),
		testNode("ctr", map[string]string{LabelWorkloadConfig: "container"}, map[string]string{"nvidia.com/shared_name": "1"}),
		// A node whose label is not honoured tells nothing about its resources.
		testNode("default", nil, map[string]string{"nvidia.com/other_name": "1"}),
	}
	permitted := &PermittedHostDevices{
		PCIHostDevices:  []PermittedDevice{{ResourceName: "nvidia.com/pgpu_model"}, {ResourceName: "nvidia.com/configured_name"}},
		MediatedDevices: []PermittedDevice{{ResourceName: "nvidia.com/custom_vgpu"}},
	}
	c := NewClassifier(ClassifierConfig{
		Configured: map[v1.ResourceName]ResourceClass{"nvidia.com/configured_name": ClassNotGPU},
		Permitted:  permitted,
	}, policy, nodes)

	for _, tc := range []struct {
		name  v1.ResourceName
		class ResourceClass
	}{
		{"nvidia.com/configured_name", ClassNotGPU},
		{"nvidia.com/pgpu_model", ClassPassthroughGPU},
		{"nvidia.com/custom_vgpu", ClassVGPUProfile},
		// Seen on nodes of two modes: no node evidence.
		{"nvidia.com/shared_name", ClassNotGPU},
		{"nvidia.com/other_name", ClassNotGPU},
		// A recognisable name on a node of another mode stays what its name says.
		{"nvidia.com/gpu.shared", ClassContainerGPU},
	} {
		got := c.Classify(tc.name)
		if got != tc.class {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.class)
		}
	}

	// Not GPUs, whatever node advertises them; pgpu is one under Kata.
	observed := NewClassifier(ClassifierConfig{}, policy, []*v1.Node{testNode("pt", map[string]string{LabelWorkloadConfig: "vm-passthrough"},
		map[string]string{"nvidia.com/mlnxnics": "8", "nvidia.com/nvswitch": "4", "nvidia.com/pgpu": "2"})})
	for _, name := range []v1.ResourceName{"nvidia.com/mlnxnics", "nvidia.com/nvswitch"} {
		if got := observed.Classify(name); got != ClassNotGPU {
			t.Errorf("%s: got %s, want not-gpu", name, got)
		}
	}
	kata := policy
	kata.Runtime = RuntimeKata
	if got := NewClassifier(ClassifierConfig{}, kata, nil).Classify(ResourceKataPassthroughGPU); got != ClassPassthroughGPU {
		t.Errorf("%s under Kata: got %s, want passthrough-gpu", ResourceKataPassthroughGPU, got)
	}
	if got := NewClassifier(ClassifierConfig{}, policy, nil).Classify(ResourceKataPassthroughGPU); got != ClassNotGPU {
		t.Errorf("%s under KubeVirt: got %s, want not-gpu", ResourceKataPassthroughGPU, got)
	}

	single := NewClassifier(ClassifierConfig{}, policy, nodes[:1])
	if got := single.Classify("nvidia.com/shared_name"); got != ClassPassthroughGPU {
		t.Errorf("name seen only on a passthrough node: got %s", got)
	}
}

func TestParseResourceClassRoundTrips(t *testing.T) {
	for _, c := range []ResourceClass{ClassNotGPU, ClassContainerGPU, ClassPassthroughGPU, ClassVGPUProfile} {
		back, err := ParseResourceClass(c.String())
		if err != nil || back != c {
			t.Errorf("%s: got %s, %v", c, back, err)
		}
	}
	if _, err := ParseResourceClass("gpu"); err == nil {
		t.Error("ParseResourceClass(gpu) succeeded")
	}
}
