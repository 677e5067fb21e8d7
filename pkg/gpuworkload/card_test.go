package gpuworkload

import (
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
)

// A card is read from whatever the node shows, and the same card comes out
// of each: the product label GFD sets, NFD's PCI device label, or what the
// sandbox device plugin advertises.
func TestIdentifyCardFromNodeLabelsAndAdvertisement(t *testing.T) {
	for _, tc := range []struct {
		name                             string
		labels, quantities               map[string]string
		family, passthroughName, product string
	}{
		{name: "A10 by product", labels: map[string]string{LabelGPUProduct: "NVIDIA-A10"},
			family: "A10", passthroughName: "GA102GL_A10", product: "NVIDIA-A10"},
		{name: "T4 by its Tesla product", labels: map[string]string{LabelGPUProduct: "Tesla-T4"},
			family: "T4", passthroughName: "TU104GL_TESLA_T4", product: "Tesla-T4"},
		// The vGPU family is not the marketing name: an 80 GB A100 SXM4 is A100DX.
		{name: "A100 SXM4 80GB by product", labels: map[string]string{LabelGPUProduct: "NVIDIA-A100-SXM4-80GB"},
			family: "A100DX", passthroughName: "GA100_A100_SXM4_80GB", product: "NVIDIA-A100-SXM4-80GB"},
		// NVML puts 80GB before PCIe, pci.ids after.
		{name: "A100 PCIe 80GB by product", labels: map[string]string{LabelGPUProduct: "NVIDIA-A100-80GB-PCIe"},
			family: "A100D", passthroughName: "GA100_A100_PCIE_80GB", product: "NVIDIA-A100-80GB-PCIe"},
		// Without the label, the product is built from pci.ids' board.
		{name: "A100 PCIe 80GB by passthrough name", quantities: map[string]string{"nvidia.com/GA100_A100_PCIE_80GB": "1"},
			family: "A100D", passthroughName: "GA100_A100_PCIE_80GB", product: "NVIDIA-A100-PCIe-80GB"},
		// One device ID sold as two boards of two families.
		{name: "A16 by product", labels: map[string]string{LabelGPUProduct: "NVIDIA-A16"},
			family: "A16", passthroughName: "GA107GL_A2___A16", product: "NVIDIA-A16"},
		{name: "A2 by product", labels: map[string]string{LabelGPUProduct: "NVIDIA-A2"},
			family: "A2", passthroughName: "GA107GL_A2___A16", product: "NVIDIA-A2"},
		{name: "A2 or A16 by passthrough name", quantities: map[string]string{"nvidia.com/GA107GL_A2___A16": "1"},
			passthroughName: "GA107GL_A2___A16"},
		{name: "Quadro RTX 8000 by product", labels: map[string]string{LabelGPUProduct: "Quadro-RTX-8000"},
			family: "RTX8000P", passthroughName: "TU102GL_QUADRO_RTX_6000_8000", product: "Quadro-RTX-8000"},
		{name: "H100 SXM5 by NFD's device label", labels: map[string]string{"feature.node.kubernetes.io/pci-0302_10de_2330.present": "true"},
			family: "H100XM", passthroughName: "GH100_H100_SXM5_80GB", product: "NVIDIA-H100-SXM5-80GB"},
		{name: "A100 SXM4 80GB by passthrough name", quantities: map[string]string{"nvidia.com/GA100_A100_SXM4_80GB": "1"},
			family: "A100DX", passthroughName: "GA100_A100_SXM4_80GB", product: "NVIDIA-A100-SXM4-80GB"},
		{name: "T4 by its GRID vGPU type", quantities: map[string]string{"nvidia.com/GRID_T4-2Q": "8"},
			family: "T4", passthroughName: "TU104GL_TESLA_T4", product: "Tesla-T4"},
		// The advertisement outranks a product label left from container mode.
		{name: "stale product label", labels: map[string]string{LabelGPUProduct: "NVIDIA-A10"}, quantities: map[string]string{"nvidia.com/GH100_H100_PCIE": "1"},
			family: "H100", passthroughName: "GH100_H100_PCIE", product: "NVIDIA-H100-PCIe"},
		// DC spans RTX PRO 6000 Blackwell Server Edition and RTX PRO 4500 Blackwell: one family, two device names.
		{name: "DC by its vGPU type", quantities: map[string]string{"nvidia.com/NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q": "2"},
			family: "DC"},
		{name: "an NVML name pci.ids does not list", labels: map[string]string{LabelGPUProduct: "NVIDIA-H100-80GB-HBM3"}},
		{name: "raw device ID of a device pci.ids lacks", quantities: map[string]string{"nvidia.com/ffff": "1"}, passthroughName: "ffff"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			node := testNode("n1", tc.labels, tc.quantities)
			card := IdentifyCard(cardEvidenceOf(node, NewNodeState(node, enabledPolicy(ModeContainer), nil)))
			if card.VGPUFamily != tc.family || card.PassthroughName != tc.passthroughName || card.Product() != tc.product {
				t.Fatalf("family %q, passthrough name %q, product %q; want %q, %q, %q (devices %v)",
					card.VGPUFamily, card.PassthroughName, card.Product(), tc.family, tc.passthroughName, tc.product, card.Devices)
			}
		})
	}
}

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

// The vGPU default of a family whose cards differ is the device's.
func TestDefaultProfileOfADevice(t *testing.T) {
	node := testNode("n1", map[string]string{"feature.node.kubernetes.io/pci-10de_2bb5.present": "true"}, nil)
	card := IdentifyCard(cardEvidenceOf(node, NewNodeState(node, enabledPolicy(ModeContainer), nil)))
	if p := card.defaultProfile(); p.Name() != "DC-48Q" {
		t.Fatalf("default profile of device 2bb5 %q, want DC-48Q", p.Name())
	}
	if _, ok := DefaultVGPUProfile("DC"); ok {
		t.Fatal("DC has a default without a device ID; its cards get 48Q and 16Q")
	}
}

// Every NVIDIA entry of the plugin's pci.ids (the embedded table, which
// TestPCITableIsGenerated holds to the file), advertised as the plugin
// names it, is a passthrough GPU, and the card read from that name is the
// entry or another of the same name.
func TestEveryPCIIDsEntryIsAPassthroughName(t *testing.T) {
	devices, err := parsePCIDevices(pciDevicesText)
	if err != nil {
		t.Fatal(err)
	}
	if len(devices) < 1900 {
		t.Fatalf("%d NVIDIA devices, want the 1,900 or more of pci.ids", len(devices))
	}
	for _, d := range devices {
		name := d.PassthroughName()
		if class, recognised := classifyByName(v1.ResourceName(ResourceDomain + name)); !recognised || class != ClassPassthroughGPU {
			t.Errorf("device %s (%s): nvidia.com/%s is %v (recognised %v), want a passthrough GPU", d.ID, d.Name, name, class, recognised)
			continue
		}
		card := IdentifyCard(CardEvidence{PassthroughName: name})
		if !slices.ContainsFunc(card.Devices, func(c PCIDevice) bool { return c.PassthroughName() == name }) {
			t.Errorf("device %s (%s): the card read from nvidia.com/%s is %v", d.ID, d.Name, name, card.Devices)
		}
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
