package hardware

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// Card is what is known of a node's GPU model: the PCI devices it can be,
// and, where those agree, the name it advertises in vm-passthrough mode and
// the vGPU type family its profiles are named by. Unknown is empty, never
// a guess.
type Card struct {
	// Devices are the NVIDIA PCI devices the evidence allows, by ID; none
	// when nothing names one.
	Devices []PCIDevice
	// PassthroughName is the resource name without nvidia.com/ in
	// vm-passthrough mode: GA102GL_A10.
	PassthroughName string
	// VGPUFamily is the card part of the family's vgpu.config values: A10,
	// A100DX (an A100 SXM4 80GB).
	VGPUFamily string
	// product is the product label the evidence gave, which tells the
	// boards of one device ID apart (A2 / A16).
	product string
}

// CardEvidence is what a node shows of its GPU model. Each field may be empty.
type CardEvidence struct {
	// DeviceID is the PCI device ID (2236), from node feature discovery's
	// labels or from KubeVirt's pciVendorSelector.
	DeviceID string
	// PassthroughName is an advertised passthrough resource without
	// nvidia.com/: a pci.ids name (GA102GL_A10) or a raw device ID (26b5).
	PassthroughName string
	// VGPUType is an advertised vGPU type.
	VGPUType VGPUProfile
	// Product is gpu-feature-discovery's nvidia.com/gpu.product (NVIDIA-A10, Tesla-T4).
	Product string
}

// IdentifyCard is the one place a GPU model is read from what a node shows.
// Each piece of evidence narrows the PCI devices the GPUs can be, the most
// reliable first (device ID, advertised names, product label); one that
// would leave none (a stale product label beside an advertised name) is
// ignored. The pci.ids copy of the sandbox device plugin names the
// devices, the vGPU device manager's default configuration their families.
func IdentifyCard(e CardEvidence) Card {
	var candidates []int
	narrow := func(allowed []int) (narrowed bool) {
		if candidates == nil {
			candidates = slices.Clone(allowed)
			return true
		}
		kept := slices.DeleteFunc(slices.Clone(candidates), func(i int) bool { return !slices.Contains(allowed, i) })
		if len(kept) == 0 {
			return false
		}
		candidates = kept
		return true
	}
	var card Card
	if i, ok := cards.byID[strings.ToLower(e.DeviceID)]; ok {
		narrow([]int{i})
	}
	if e.PassthroughName != "" {
		card.PassthroughName = e.PassthroughName
		if i, ok := cards.byID[e.PassthroughName]; ok {
			narrow([]int{i})
		} else if byName := cards.byPassthroughName[e.PassthroughName]; len(byName) > 0 {
			narrow(byName)
		}
	}
	if e.VGPUType.Card != "" {
		card.VGPUFamily = e.VGPUType.Family()
		if ids := cards.byFamily[card.VGPUFamily]; len(ids) > 0 {
			narrow(ids)
		}
	}
	if byBoard := cards.byBoard[boardKey(e.Product)]; len(byBoard) > 0 && narrow(byBoard) {
		card.product = e.Product
	}
	for _, i := range candidates {
		card.Devices = append(card.Devices, cards.devices[i])
	}
	if card.PassthroughName == "" {
		card.PassthroughName = card.commonPassthroughName()
	}
	if card.VGPUFamily == "" {
		card.VGPUFamily = card.onlyFamily()
	}
	return card
}

// CardOfModel reads a model as the simulator's and the lab's inputs give
// it: a vGPU family (A10, A100DX), a passthrough device name (GA102GL_A10)
// or a product label (NVIDIA-A100-SXM4-80GB).
func CardOfModel(model string) (Card, error) {
	bare := strings.TrimPrefix(model, ResourceDomain)
	if bare == "" {
		return Card{}, nil
	}
	if _, ok := vgpuCards.Cards[bare]; ok {
		return IdentifyCard(CardEvidence{VGPUType: VGPUProfile{Card: bare}}), nil
	}
	if _, ok := cards.byPassthroughName[bare]; ok || IsPCIDeviceID(bare) {
		return IdentifyCard(CardEvidence{PassthroughName: bare}), nil
	}
	if _, ok := cards.byBoard[boardKey(bare)]; ok {
		return IdentifyCard(CardEvidence{Product: bare}), nil
	}
	return Card{}, fmt.Errorf("GPU model %+q is neither a vGPU family of the operator's vGPU configuration (A10, A100DX), a passthrough device name of pci.ids (GA102GL_A10) nor a GPU product (NVIDIA-A10)", model)
}

// PassthroughNameOfID is the name the sandbox device plugin advertises a
// PCI device ID by in vm-passthrough mode (GA102GL_A10 for 2236); ok is
// false for an ID pci.ids lacks, which the plugin advertises as it is.
func PassthroughNameOfID(id string) (name string, ok bool) {
	i, ok := cards.byID[id]
	if !ok {
		return "", false
	}
	return cards.devices[i].PassthroughName(), true
}

// KnownPassthroughName reports whether pci.ids names a device so (GA102GL_A10).
func KnownPassthroughName(bare string) bool {
	_, ok := cards.byPassthroughName[bare]
	return ok
}

// String names the card in messages by what is known of it.
func (c Card) String() string {
	switch {
	case c.VGPUFamily != "":
		return c.VGPUFamily
	case c.PassthroughName != "":
		return c.PassthroughName
	}
	return "(model unknown)"
}

// DefaultProfile is what vgpu.config=default creates on the card: per PCI
// device ID, so that a family whose cards differ (DC) has one when the
// device is known.
func (c Card) DefaultProfile() VGPUProfile {
	if len(c.Devices) == 1 {
		if size, ok := vgpuCards.Cards[c.VGPUFamily].DefaultProfiles[c.Devices[0].ID]; ok {
			p, _ := parseProfile(c.VGPUFamily + "-" + size)
			return p
		}
	}
	p, _ := DefaultVGPUProfile(c.VGPUFamily)
	return p
}

// Product is the nvidia.com/gpu.product label gpu-feature-discovery sets
// for the card in container mode: the label the node showed, else the
// NVML name built from the pci.ids board with '-' between words
// (NVIDIA-A10, Tesla-T4, NVIDIA-A100-SXM4-80GB), which NVML may spell
// otherwise (it says NVIDIA-A100-80GB-PCIe where pci.ids has A100 PCIe
// 80GB). Empty when the devices are sold as several products and nothing
// says which, or pci.ids does not name one.
func (c Card) Product() string {
	if c.product != "" {
		return c.product
	}
	var products []string
	for _, d := range c.Devices {
		boards := d.Boards()
		if len(boards) == 0 {
			return ""
		}
		for _, board := range boards {
			products = append(products, productOfBoard(board))
		}
	}
	slices.Sort(products)
	if products = slices.Compact(products); len(products) != 1 {
		return ""
	}
	return products[0]
}

// DRAProductName is the productName attribute the NVIDIA DRA driver gives
// the card's devices: the NVML name, which the product label spells with
// '-' between words. A name with a '-' of its own (Tesla P100-PCIE-16GB)
// comes back with a space there; empty without a product.
func (c Card) DRAProductName() string { return strings.ReplaceAll(c.Product(), "-", " ") }

// productOfBoard names a board as NVML does: Tesla and Quadro boards keep
// their brand, the others are NVIDIA's.
func productOfBoard(board string) string {
	if !strings.HasPrefix(board, "Tesla ") && !strings.HasPrefix(board, "Quadro ") {
		board = "NVIDIA " + board
	}
	return strings.Join(strings.Fields(board), "-")
}

func (c Card) commonPassthroughName() string {
	name := ""
	for _, d := range c.Devices {
		if name != "" && d.PassthroughName() != name {
			return ""
		}
		name = d.PassthroughName()
	}
	return name
}

// onlyFamily is the vGPU family of the devices, when one: a device ID sold
// as boards of different families (A2 / A16, Quadro RTX 6000/8000) is told
// apart by the product the evidence named, which starts its family's name.
func (c Card) onlyFamily() string {
	var families []string
	for _, d := range c.Devices {
		families = append(families, cards.familiesByID[d.ID]...)
	}
	slices.Sort(families)
	families = slices.Compact(families)
	if len(families) > 1 && c.product != "" {
		named := compactName(c.product)
		families = slices.DeleteFunc(families, func(f string) bool { return !strings.HasPrefix(compactName(f), named) })
	}
	if len(families) != 1 {
		return ""
	}
	return families[0]
}

// VGPUTypePrefix is the word a family's advertised vGPU types start with:
// GRID for Volta and Turing GPUs (GRID_T4-2Q, GRID_V100-8Q), whose vGPU
// types kept that brand, NVIDIA for the others.
func VGPUTypePrefix(family string) string {
	for _, i := range cards.byFamily[family] {
		if chip := cards.devices[i].chip(); strings.HasPrefix(chip, "GV") || strings.HasPrefix(chip, "TU") {
			return "GRID"
		}
	}
	return "NVIDIA"
}

// boardKey compares a product label with a pci.ids board: their words
// without NVIDIA's brands, in any order (NVML puts 80GB before PCIe where
// pci.ids puts it after).
func boardKey(product string) string {
	words := brandlessWords(product)
	slices.Sort(words)
	return strings.Join(words, " ")
}

// compactName compares a product with a vGPU family: Quadro-RTX-8000 is
// RTX8000, which starts RTX8000P.
func compactName(s string) string { return strings.Join(brandlessWords(s), "") }

func brandlessWords(s string) []string {
	words := strings.FieldsFunc(strings.ToUpper(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return slices.DeleteFunc(words, func(w string) bool { return w == "NVIDIA" || w == "TESLA" || w == "QUADRO" })
}

// cardIndex finds devices by ID, passthrough name, board and vGPU family.
type cardIndex struct {
	devices           []PCIDevice
	byID              map[string]int
	byPassthroughName map[string][]int
	byBoard           map[string][]int
	byFamily          map[string][]int
	familiesByID      map[string][]string
}

var cards = mustIndexCards(pciDevicesText, vgpuCards)

func mustIndexCards(pciText []byte, table VGPUTable) cardIndex {
	devices, err := parsePCIDevices(pciText)
	if err != nil {
		panic(fmt.Sprintf("embedded data/nvidia_pci_devices.txt: %v", err))
	}
	idx := cardIndex{devices: devices, byID: map[string]int{}, byPassthroughName: map[string][]int{}, byBoard: map[string][]int{},
		byFamily: map[string][]int{}, familiesByID: map[string][]string{}}
	for i, d := range devices {
		// The device plugin takes the first line of an ID.
		if _, seen := idx.byID[d.ID]; seen {
			continue
		}
		idx.byID[d.ID] = i
		idx.byPassthroughName[d.PassthroughName()] = append(idx.byPassthroughName[d.PassthroughName()], i)
		for _, board := range d.Boards() {
			// A board of brand words only (Quadro) names no card.
			if key := boardKey(board); key != "" {
				idx.byBoard[key] = append(idx.byBoard[key], i)
			}
		}
	}
	for _, family := range slices.Sorted(maps.Keys(table.Cards)) {
		for _, id := range slices.Sorted(maps.Keys(table.Cards[family].DefaultProfiles)) {
			i, ok := idx.byID[id]
			if !ok {
				// A device of the vGPU configuration that pci.ids lacks: the
				// device plugin names it by its ID.
				i = len(idx.devices)
				idx.devices = append(idx.devices, PCIDevice{ID: id})
				idx.byID[id] = i
				idx.byPassthroughName[id] = append(idx.byPassthroughName[id], i)
			}
			idx.byFamily[family] = append(idx.byFamily[family], i)
			idx.familiesByID[id] = append(idx.familiesByID[id], family)
		}
	}
	return idx
}
