package hardware

import (
	"testing"
)

// The passthrough names of domain.md's examples, as the sandbox device
// plugin derives them from its pci.ids.
func TestPassthroughNamesOfPCIDevices(t *testing.T) {
	for id, want := range map[string]string{
		"2236": "GA102GL_A10", "2235": "GA102GL_A40", "27b8": "AD104GL_L4", "26b9": "AD102GL_L40S", "20b5": "GA100_A100_PCIE_80GB",
		"2331": "GH100_H100_PCIE", "2330": "GH100_H100_SXM5_80GB", "1eb8": "TU104GL_TESLA_T4", "25b6": "GA107GL_A2___A16",
	} {
		if got := cards.devices[cards.byID[id]].PassthroughName(); got != want {
			t.Errorf("device %s: passthrough name %q, want %q", id, got, want)
		}
	}
}

// Volta and Turing vGPU types keep the GRID brand.
func TestVGPUTypePrefix(t *testing.T) {
	for family, want := range map[string]string{"T4": "GRID", "V100": "GRID", "V100DX": "GRID", "RTX6000P": "GRID", "A10": "NVIDIA", "A100DX": "NVIDIA", "DC": "NVIDIA", "unknown": "NVIDIA"} {
		if got := VGPUTypePrefix(family); got != want {
			t.Errorf("VGPUTypePrefix(%s) = %s, want %s", family, got, want)
		}
	}
}

func TestCardOfModel(t *testing.T) {
	for model, want := range map[string]string{"A10": "A10", "GA102GL_A10": "A10", "NVIDIA-A10": "A10", "nvidia.com/GA102GL_A10": "A10", "A100DX": "A100DX", "Tesla-T4": "T4"} {
		card, err := CardOfModel(model)
		if err != nil || card.VGPUFamily != want {
			t.Errorf("CardOfModel(%s) = %q (%v), want family %s", model, card.VGPUFamily, err, want)
		}
	}
	if _, err := CardOfModel("H42"); err == nil {
		t.Error("CardOfModel(H42): no error for a model nothing names")
	}
}

// The productName the DRA driver publishes is NVML's name for the board,
// which the card identity builds from the sandbox device plugin's pci.ids
// (../shared/data/upstream): what nvidia-smi prints for these cards.
func TestDRAProductNameFromPCIIDs(t *testing.T) {
	for model, want := range map[string]string{
		"T4":               "Tesla T4",
		"GA102GL_A10":      "NVIDIA A10",
		"AD102GL_L40S":     "NVIDIA L40S",
		"GH100_H100_PCIE":  "NVIDIA H100 PCIe",
		"TU104GL_TESLA_T4": "Tesla T4",
	} {
		card, err := CardOfModel(model)
		if err != nil {
			t.Fatal(err)
		}
		if got := card.DRAProductName(); got != want {
			t.Errorf("%s: productName %q, want %q", model, got, want)
		}
	}
}
