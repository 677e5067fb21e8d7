package gpuworkload

import (
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
		{model: "B200", mode: ModePassthrough, err: `the passthrough device name of model "B200" is unknown`},
		{model: "GH100_H100_PCIE", mode: ModeVGPU, err: "the vGPU profile of model \"\" is unknown"},
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
		{model: "GH100_H100_PCIE", resource: "nvidia.com/NVIDIA_H100-10C"},
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
		name string
		node *v1.Node
		// what the node would advertise after a relabel
		mode  Mode
		want  v1.ResourceName
		count int64
	}{
		{"container A10 to passthrough", node(map[string]string{LabelGPUProduct: "NVIDIA-A10", LabelGPUCount: "4"}, ResourceGPU, 4), ModePassthrough, "nvidia.com/GA102GL_A10", 4},
		{"container A10 to vGPU by its vgpu.config", node(map[string]string{LabelGPUProduct: "NVIDIA-A10", LabelGPUCount: "4", LabelVGPUConfig: "A10-4Q"}, ResourceGPU, 4), ModeVGPU, "nvidia.com/NVIDIA_A10-4Q", 24},
		{"passthrough node without labels to container", node(map[string]string{LabelWorkloadConfig: "vm-passthrough"}, "nvidia.com/GA102GL_A10", 2), ModeContainer, ResourceGPU, 2},
		{"vGPU node counts GPUs from instances", node(map[string]string{LabelWorkloadConfig: "vm-vgpu"}, "nvidia.com/NVIDIA_L40S-12Q", 8), ModePassthrough, "nvidia.com/AD102GL_L40S", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			classifier := NewClassifier(ClassifierConfig{}, policy, []*v1.Node{tc.node})
			inv := InventoryOf(tc.node, NewNodeState(tc.node, policy, classifier))
			name, count, err := inv.Advertisement(tc.mode)
			if err != nil || name != tc.want || count != tc.count {
				t.Fatalf("inventory %+v advertises %d %s (%v) in %s, want %d %s", inv, count, name, err, tc.mode, tc.count, tc.want)
			}
		})
	}
}

// A type whose card has words before its family (RTX PRO 6000 Blackwell's
// DC) is the family's inventory: its instances per GPU, its profiles.
func TestInventoryOfATypeNamedWithWordsBeforeItsFamily(t *testing.T) {
	inv, err := NewGPUInventory(2, "", "NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q")
	if err != nil {
		t.Fatal(err)
	}
	if inv.Card != "DC" {
		t.Fatalf("card %q, want the family DC", inv.Card)
	}
	name, units, err := inv.Advertisement(ModeVGPU)
	if err != nil || name != "nvidia.com/NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q" || units != 4 {
		t.Fatalf("advertises %d x %s (%v), want 4 x nvidia.com/NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q", units, name, err)
	}
	if mode, served, ok := inv.Serving("nvidia.com/NVIDIA_RTX_Pro_6000_Blackwell_DC-24Q"); !ok || mode != ModeVGPU || served.VGPU.Size() != "24Q" {
		t.Fatalf("another DC profile: %s, %+v, %v; want it served by a vgpu.config change", mode, served.VGPU, ok)
	}
}
