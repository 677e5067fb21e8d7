package gpuworkload

import (
	"maps"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestGPUInventoryAdvertisement(t *testing.T) {
	for _, tc := range []struct {
		model, profile string
		mode           Mode
		want           v1.ResourceName
		count          int64
		err            string
	}{
		{model: "A10", mode: ModeContainer, want: "nvidia.com/gpu", count: 2},
		{model: "A10", mode: ModePassthrough, want: "nvidia.com/GA102GL_A10", count: 2},
		{model: "GA102GL_A10", mode: ModePassthrough, want: "nvidia.com/GA102GL_A10", count: 2},
		{model: "GH100_H100_PCIE", mode: ModePassthrough, want: "nvidia.com/GH100_H100_PCIE", count: 2},
		// The card's default profile: two half-framebuffer Q instances per GPU.
		{model: "A10", mode: ModeVGPU, want: "nvidia.com/NVIDIA_A10-12Q", count: 4},
		{model: "A10", profile: "A10-4Q", mode: ModeVGPU, want: "nvidia.com/NVIDIA_A10-4Q", count: 12},
		{model: "T4", profile: "GRID_T4-2Q", mode: ModeVGPU, want: "nvidia.com/GRID_T4-2Q", count: 16},
		{profile: "L40S-24Q", mode: ModeVGPU, want: "nvidia.com/NVIDIA_L40S-24Q", count: 4},
		// A card alone: the GRID_ prefix of a Turing family, the family of a product.
		{model: "T4", mode: ModeVGPU, want: "nvidia.com/GRID_T4-8Q", count: 4},
		{model: "NVIDIA-A100-SXM4-80GB", mode: ModeVGPU, want: "nvidia.com/NVIDIA_A100DX-40C", count: 4},
		{model: "NVIDIA-A100-SXM4-80GB", mode: ModePassthrough, want: "nvidia.com/GA100_A100_SXM4_80GB", count: 2},
		{model: "GH100_H100_PCIE", mode: ModeVGPU, want: "nvidia.com/NVIDIA_H100-40C", count: 4},
		{model: "B200", mode: ModePassthrough, want: "nvidia.com/GB100_B200", count: 2},
		// A100D is sold as A100 PCIe 80GB and A100X: two device names.
		{model: "A100D", mode: ModePassthrough, err: "the passthrough device name of GPU A100D is unknown"},
		// One device ID, two boards of two families.
		{model: "GA107GL_A2___A16", mode: ModeVGPU, err: "the vGPU profile of GPU GA107GL_A2___A16 is unknown"},
		{model: "H42", mode: ModeContainer, err: `GPU model "H42" is neither a vGPU family`},
		{model: "A10", profile: "A10-5Q", mode: ModeVGPU, err: "the profile table does not know how many fit one GPU"},
	} {
		t.Run(tc.model+"/"+tc.profile+"/"+string(tc.mode), func(t *testing.T) {
			inv, err := NewGPUInventory(2, tc.model, tc.profile)
			var name v1.ResourceName
			var count int64
			if err == nil {
				name, count, err = inv.Advertisement(tc.mode)
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || name != tc.want || count != tc.count {
				t.Fatalf("got %d %s (%v), want %d %s", count, name, err, tc.count, tc.want)
			}
		})
	}
}

func TestGPUInventoryServing(t *testing.T) {
	for _, tc := range []struct {
		model, profile string
		resource       v1.ResourceName
		mode           Mode
		// advertises is what the node advertises in mode, with the profile changed as served.
		advertises v1.ResourceName
		count      int64
		ok         bool
	}{
		{model: "A10", resource: "nvidia.com/gpu", mode: ModeContainer, advertises: "nvidia.com/gpu", count: 2, ok: true},
		{model: "A10", resource: "nvidia.com/GA102GL_A10", mode: ModePassthrough, advertises: "nvidia.com/GA102GL_A10", count: 2, ok: true},
		{model: "A10", profile: "A10-12Q", resource: "nvidia.com/NVIDIA_A10-12Q", mode: ModeVGPU, advertises: "nvidia.com/NVIDIA_A10-12Q", count: 4, ok: true},
		// Another profile of the card: vgpu.config changes with the mode.
		{model: "A10", profile: "A10-12Q", resource: "nvidia.com/NVIDIA_A10-4Q", mode: ModeVGPU, advertises: "nvidia.com/NVIDIA_A10-4Q", count: 12, ok: true},
		{model: "L40S", resource: "nvidia.com/NVIDIA_L40S-12Q", mode: ModeVGPU, advertises: "nvidia.com/NVIDIA_L40S-12Q", count: 8, ok: true},
		{model: "A10", resource: "nvidia.com/NVIDIA_L40S-12Q"},
		{model: "A10", resource: "nvidia.com/NVIDIA_A10-5Q"},
		{model: "A10", resource: "nvidia.com/AD102GL_L40S"},
		{model: "GH100_H100_PCIE", resource: "nvidia.com/NVIDIA_H100-10C", mode: ModeVGPU, advertises: "nvidia.com/NVIDIA_H100-10C", count: 16, ok: true},
		{model: "GA107GL_A2___A16", resource: "nvidia.com/NVIDIA_A16-4Q"},
	} {
		t.Run(tc.model+"/"+tc.profile+"/"+string(tc.resource), func(t *testing.T) {
			inv, err := NewGPUInventory(2, tc.model, tc.profile)
			if err != nil {
				t.Fatal(err)
			}
			mode, served, ok := inv.Serving(tc.resource)
			if ok != tc.ok || mode != tc.mode {
				t.Fatalf("Serving(%s) = %q, %v; want %q, %v", tc.resource, mode, ok, tc.mode, tc.ok)
			}
			if !ok {
				return
			}
			if !slices.ContainsFunc(HardwareKeysFor(tc.resource), func(key string) bool { return slices.Contains(inv.HardwareKeys(), key) }) {
				t.Errorf("HardwareKeysFor(%s) = %v shares no key with the inventory's %v", tc.resource, HardwareKeysFor(tc.resource), inv.HardwareKeys())
			}
			name, count, err := served.Advertisement(mode)
			if err != nil || name != tc.advertises || count != tc.count {
				t.Errorf("served inventory advertises %d %s (%v), want %d %s", count, name, err, tc.count, tc.advertises)
			}
		})
	}
}

func TestInventoryOfLiveNodes(t *testing.T) {
	node := func(labels map[string]string, name v1.ResourceName, count int64) *v1.Node {
		q := v1.ResourceList{name: *resource.NewQuantity(count, resource.DecimalSI)}
		return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: labels}, Status: v1.NodeStatus{Capacity: q, Allocatable: q}}
	}
	policy := SandboxPolicy{Enabled: true, DefaultWorkload: ModeContainer}
	for _, tc := range []struct {
		name   string
		policy SandboxPolicy
		node   *v1.Node
		// what the node would advertise after a relabel
		mode  Mode
		want  v1.ResourceName
		count int64
	}{
		{"container A10 to passthrough", policy, node(map[string]string{LabelGPUProduct: "NVIDIA-A10", LabelGPUCount: "4"}, ResourceGPU, 4), ModePassthrough, "nvidia.com/GA102GL_A10", 4},
		{"container A10 to vGPU by its vgpu.config", policy, node(map[string]string{LabelGPUProduct: "NVIDIA-A10", LabelGPUCount: "4", LabelVGPUConfig: "A10-4Q"}, ResourceGPU, 4), ModeVGPU, "nvidia.com/NVIDIA_A10-4Q", 24},
		// spec.vgpuDeviceManager.config.default is what an unlabelled node gets.
		{"container A10 to vGPU by the ClusterPolicy's default config", withVGPUConfigDefault(policy, "A10-4Q"), node(map[string]string{LabelGPUProduct: "NVIDIA-A10", LabelGPUCount: "4"}, ResourceGPU, 4), ModeVGPU, "nvidia.com/NVIDIA_A10-4Q", 24},
		{"passthrough node without labels to container", policy, node(map[string]string{LabelWorkloadConfig: "vm-passthrough"}, "nvidia.com/GA102GL_A10", 2), ModeContainer, ResourceGPU, 2},
		{"vGPU node counts GPUs from instances", policy, node(map[string]string{LabelWorkloadConfig: "vm-vgpu"}, "nvidia.com/NVIDIA_L40S-12Q", 8), ModePassthrough, "nvidia.com/AD102GL_L40S", 2},
		// The product label names the card, whose vGPU family is A100DX.
		{"container A100 SXM4 80GB to vGPU", policy, node(map[string]string{LabelGPUProduct: "NVIDIA-A100-SXM4-80GB", LabelGPUCount: "8"}, ResourceGPU, 8), ModeVGPU, "nvidia.com/NVIDIA_A100DX-40C", 16},
		{"container A100 SXM4 80GB to passthrough", policy, node(map[string]string{LabelGPUProduct: "NVIDIA-A100-SXM4-80GB", LabelGPUCount: "8"}, ResourceGPU, 8), ModePassthrough, "nvidia.com/GA100_A100_SXM4_80GB", 8},
		{"container T4 to vGPU: a GRID type", policy, node(map[string]string{LabelGPUProduct: "Tesla-T4", LabelGPUCount: "1"}, ResourceGPU, 1), ModeVGPU, "nvidia.com/GRID_T4-8Q", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			classifier := NewClassifier(ClassifierConfig{}, tc.policy, []*v1.Node{tc.node})
			inv := NewNodeState(tc.node, tc.policy, classifier).Inventory()
			name, count, err := inv.Advertisement(tc.mode)
			if err != nil || name != tc.want || count != tc.count {
				t.Fatalf("inventory %+v advertises %d %s (%v) in %s, want %d %s", inv, count, name, err, tc.mode, tc.count, tc.want)
			}
		})
	}
}

// The conversion that serves a VM asking for an A100 SXM4 80GB's vGPU type
// names that family's profile; another family's type is not served.
func TestConversionOfAnA100SXM4(t *testing.T) {
	labels := map[string]string{LabelGPUProduct: "NVIDIA-A100-SXM4-80GB", LabelGPUCount: "8"}
	node := testNode("a100", labels, map[string]string{string(ResourceGPU): "8"})
	inv := NewNodeState(node, enabledPolicy(ModeContainer), nil).Inventory()
	c, ok := inv.ConversionTo(ModeContainer, "nvidia.com/NVIDIA_A100DX-20C")
	if want := "kubectl label node a100 nvidia.com/gpu.workload.config=vm-vgpu nvidia.com/vgpu.config=A100DX-20C --overwrite"; !ok || c.Command("a100") != want || c.Units() != 32 {
		t.Fatalf("conversion %q for %d units (%v), want %q for 32", c.Command("a100"), c.Units(), ok, want)
	}
	if c, ok := inv.ConversionTo(ModeContainer, "nvidia.com/NVIDIA_A100-20C"); ok {
		t.Fatalf("an A100 PCIe 40GB type served by %q", c.Command("a100"))
	}
}

// A type whose card has words before its family (RTX PRO 6000 Blackwell's
// DC) is the family's inventory: its instances per GPU, its profiles.
func TestInventoryOfATypeNamedWithWordsBeforeItsFamily(t *testing.T) {
	inv, err := NewGPUInventory(2, "", "NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q")
	if err != nil {
		t.Fatal(err)
	}
	if inv.Card.VGPUFamily != "DC" {
		t.Fatalf("vGPU family %q, want DC", inv.Card.VGPUFamily)
	}
	name, units, err := inv.Advertisement(ModeVGPU)
	if err != nil || name != "nvidia.com/NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q" || units != 4 {
		t.Fatalf("advertises %d x %s (%v), want 4 x nvidia.com/NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q", units, name, err)
	}
	if mode, served, ok := inv.Serving("nvidia.com/NVIDIA_RTX_Pro_6000_Blackwell_DC-24Q"); !ok || mode != ModeVGPU || served.VGPU.Size() != "24Q" {
		t.Fatalf("another DC profile: %s, %+v, %v; want it served by a vgpu.config change", mode, served.VGPU, ok)
	}
}

// A node's labels in a mode are what the GPU Operator and GPU feature
// discovery leave: GFD's product (the node's own, else the card's) and count
// in container mode only, the vGPU configuration in vm-vgpu mode, every
// other label kept.
func TestLabelsInMode(t *testing.T) {
	inv, err := NewGPUInventory(4, "A10", "A10-4Q")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		labels map[string]string
		mode   Mode
		want   map[string]string
	}{
		{"container, the card's product", map[string]string{"zone": "a"}, ModeContainer,
			map[string]string{"zone": "a", LabelWorkloadConfig: "container", LabelGPUProduct: "NVIDIA-A10", LabelGPUCount: "4"}},
		{"container, the node's product", map[string]string{LabelGPUProduct: "NVIDIA-A10-PCIE", LabelGPUCount: "2"}, ModeContainer,
			map[string]string{LabelWorkloadConfig: "container", LabelGPUProduct: "NVIDIA-A10-PCIE", LabelGPUCount: "4"}},
		{"passthrough", map[string]string{LabelGPUProduct: "NVIDIA-A10", LabelGPUCount: "4", LabelWorkloadConfig: "container"}, ModePassthrough,
			map[string]string{LabelWorkloadConfig: "vm-passthrough"}},
		{"vGPU", map[string]string{LabelGPUProduct: "NVIDIA-A10"}, ModeVGPU,
			map[string]string{LabelWorkloadConfig: "vm-vgpu", LabelVGPUConfig: "A10-4Q"}},
	} {
		if got := LabelsInMode(tc.labels, tc.mode, inv); !maps.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
