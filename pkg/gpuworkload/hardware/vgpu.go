package hardware

import (
	"cmp"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

//go:embed data/vgpu_profiles.yaml
var vgpuProfilesYAML []byte

// VGPUProfile is a vGPU type as advertised by the sandbox device plugin
// (NVIDIA_A10-12Q, GRID_T4-2Q, NVIDIA_A100-1-5CME,
// NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q) or as named in
// nvidia.com/vgpu.config (A10-12Q, DC-48Q).
type VGPUProfile struct {
	// Prefix is "NVIDIA" or "GRID" for advertised type names, empty for vgpu.config values.
	Prefix string
	// Card is what the type name gives before the profile: the family
	// (A10), or words ending with it (RTX_Pro_6000_Blackwell_DC).
	Card string
	// GPUInstanceSlices is the MIG GPU instance size of a MIG-backed profile, 0 otherwise.
	GPUInstanceSlices int
	// FramebufferGB may be 0 (a type without framebuffer of its own).
	FramebufferGB int
	// Series is the license series letter: A, B, C or Q.
	Series byte
	// Suffix is a MIG-backed profile's media or graphics suffix: ME, NOME,
	// MEALL or GFX; empty for most.
	Suffix string
}

// vgpuSuffixes are the device manager's MIG suffixes, longest first so
// that MEALL is not read as ME.
var vgpuSuffixes = []string{"MEALL", "NOME", "GFX", "ME"}

var vgpuPrefixes = []string{"NVIDIA", "GRID"}

// ParseVGPUTypeName parses an advertised vGPU resource name, with or without
// the nvidia.com/ domain.
func ParseVGPUTypeName(name string) (VGPUProfile, error) {
	prefix, rest, ok := cutVGPUPrefix(strings.TrimPrefix(name, ResourceDomain))
	if !ok {
		return VGPUProfile{}, fmt.Errorf("vGPU type %+q: want NVIDIA_<card>-<profile> or GRID_<card>-<profile>, e.g. NVIDIA_A10-12Q", name)
	}
	p, err := parseProfile(rest)
	if err != nil {
		return VGPUProfile{}, fmt.Errorf("vGPU type %+q: %w", name, err)
	}
	p.Prefix = prefix
	return p, nil
}

// cutVGPUPrefix splits a bare vGPU type name after its NVIDIA_ or GRID_ prefix.
func cutVGPUPrefix(bare string) (prefix, rest string, ok bool) {
	for _, prefix := range vgpuPrefixes {
		if rest, ok := strings.CutPrefix(bare, prefix); ok && strings.HasPrefix(rest, "_") {
			return prefix, rest[1:], true
		}
	}
	return "", "", false
}

// ParseVGPUConfig parses a nvidia.com/vgpu.config value naming one profile,
// such as A10-12Q. "default" and custom section names are not profiles.
func ParseVGPUConfig(value string) (VGPUProfile, error) {
	p, err := parseProfile(value)
	if err != nil {
		return VGPUProfile{}, fmt.Errorf("vgpu.config %+q: %w", value, err)
	}
	return p, nil
}

// parseProfile parses <card>-[<slices>-]<framebuffer GB><series>[<suffix>],
// as the vGPU device manager reads type names.
func parseProfile(s string) (VGPUProfile, error) {
	cut := strings.LastIndexByte(s, '-')
	if cut <= 0 {
		return VGPUProfile{}, fmt.Errorf("want <card>-<framebuffer GB><series>, e.g. A10-12Q")
	}
	card, size := s[:cut], s[cut+1:]
	var suffix string
	for _, sfx := range vgpuSuffixes {
		if rest, ok := strings.CutSuffix(size, sfx); ok && len(rest) >= 2 {
			size, suffix = rest, sfx
			break
		}
	}
	if len(size) < 2 {
		return VGPUProfile{}, fmt.Errorf("profile %+q: want <framebuffer GB><series>, e.g. 12Q", size)
	}
	series := size[len(size)-1]
	if !strings.ContainsRune("ABCQ", rune(series)) {
		return VGPUProfile{}, fmt.Errorf("profile %+q: series %+q is not one of A, B, C, Q", size, series)
	}
	fb, ok := parseCount(size[:len(size)-1])
	if size[:len(size)-1] == "0" {
		fb, ok = 0, true
	}
	if !ok {
		return VGPUProfile{}, fmt.Errorf("profile %+q: framebuffer %+q is not a number of GB", size, size[:len(size)-1])
	}
	p := VGPUProfile{FramebufferGB: fb, Series: series, Suffix: suffix}
	if i := strings.LastIndexByte(card, '-'); i > 0 {
		if slices, ok := parseCount(card[i+1:]); ok && slices <= 7 {
			p.GPUInstanceSlices = slices
			card = card[:i]
		}
	}
	if !validCard(card) || !validCard(card[strings.LastIndexByte(card, '_')+1:]) {
		return VGPUProfile{}, fmt.Errorf("card %+q: want letters, digits, '_' or '-', each '_'-separated word starting with a letter or digit", card)
	}
	p.Card = card
	return p, nil
}

// parseCount accepts a canonical positive decimal: no sign, no leading zero.
func parseCount(s string) (int, bool) {
	if s == "" || s[0] == '0' || len(s) > 4 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || strconv.Itoa(n) != s {
		return 0, false
	}
	return n, true
}

// validCard allows a family that starts with a digit: the operator's
// configuration has 6000D.
func validCard(card string) bool {
	if card == "" || !isLetter(card[0]) && !isDigit(card[0]) {
		return false
	}
	for i := 0; i < len(card); i++ {
		c := card[i]
		if !isLetter(c) && !isDigit(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// Size is the profile without the card: 12Q, or 1-5CME for MIG-backed profiles.
func (p VGPUProfile) Size() string {
	size := strconv.Itoa(p.FramebufferGB) + string(p.Series) + p.Suffix
	if p.GPUInstanceSlices > 0 {
		return strconv.Itoa(p.GPUInstanceSlices) + "-" + size
	}
	return size
}

// Family is the vGPU type family, the card as the device manager's
// configuration names it: the last word of the type name's card
// (RTX_Pro_6000_Blackwell_DC is DC).
func (p VGPUProfile) Family() string { return p.Card[strings.LastIndexByte(p.Card, '_')+1:] }

// Name is the profile as nvidia.com/vgpu.config names it, the last word of
// the type name: A10-12Q, DC-48Q.
func (p VGPUProfile) Name() string { return p.Family() + "-" + p.Size() }

// TypeName is the advertised type name: NVIDIA_A10-12Q, or Name() without a prefix.
func (p VGPUProfile) TypeName() string {
	if p.Prefix == "" {
		return p.Name()
	}
	return p.Prefix + "_" + p.Card + "-" + p.Size()
}

// SameProfile compares profiles as the device manager matches a label to a
// type: by the last word of the name, so NVIDIA_/GRID_ and the words
// before the family do not count.
func (p VGPUProfile) SameProfile(q VGPUProfile) bool {
	return p.Family() == q.Family() && p.Size() == q.Size()
}

// Creates reports whether nvidia.com/vgpu.config naming p makes the vGPU
// device manager create the advertised type. The device manager creates a
// configured type as named when the driver has it, and otherwise without
// its MIG attribute suffix (vgpu-device-manager pkg/vgpu/config.go,
// stripVGPUConfigSuffix): RTX PRO 6000 Blackwell's DC-1-24QGFX creates
// DC-1-24Q.
func (p VGPUProfile) Creates(advertised VGPUProfile) bool {
	withoutSuffix := p
	withoutSuffix.Suffix = ""
	return p.SameProfile(advertised) || p.Suffix != "" && withoutSuffix.SameProfile(advertised)
}

// MaxPerGPU is the number of instances of the profile one physical GPU holds
// in equal-size mode. ok is false for cards and profiles the table does not
// know: the caller must say "unknown" rather than guess.
func (p VGPUProfile) MaxPerGPU() (count int, ok bool) {
	card, ok := vgpuCards.Cards[p.Family()]
	if !ok {
		return 0, false
	}
	count, ok = card.Profiles[p.Size()]
	return count, ok
}

// CardProfiles lists the profile sizes the vGPU device manager's default
// configuration offers on the card, by series and then framebuffer; ok is
// false for cards the table does not know.
func CardProfiles(card string) (sizes []string, ok bool) {
	c, ok := vgpuCards.Cards[card]
	if !ok {
		return nil, false
	}
	return sortedSizes(card, c), true
}

// sortedSizes orders a card's profile sizes by series, MIG slices,
// framebuffer and suffix.
func sortedSizes(card string, c VGPUTableCard) []string {
	profiles := make([]VGPUProfile, 0, len(c.Profiles))
	for size := range c.Profiles {
		p, _ := parseProfile(card + "-" + size)
		profiles = append(profiles, p)
	}
	slices.SortFunc(profiles, func(a, b VGPUProfile) int {
		return cmp.Or(cmp.Compare(b.Series, a.Series), cmp.Compare(a.GPUInstanceSlices, b.GPUInstanceSlices), cmp.Compare(a.FramebufferGB, b.FramebufferGB), cmp.Compare(a.Suffix, b.Suffix))
	})
	sizes := make([]string, len(profiles))
	for i, p := range profiles {
		sizes[i] = p.Size()
	}
	return sizes
}

// DefaultVGPUProfile is what vgpu.config=default (or no label) creates on
// the card family, from the operator's default section. ok is false when
// unknown, or when the family's cards get different defaults: then only
// the PCI device ID tells.
func DefaultVGPUProfile(card string) (VGPUProfile, bool) {
	c, ok := vgpuCards.Cards[card]
	var size string
	for _, s := range c.DefaultProfiles {
		if size != "" && s != size {
			return VGPUProfile{}, false
		}
		size = s
	}
	if !ok || size == "" {
		return VGPUProfile{}, false
	}
	p, err := parseProfile(card + "-" + size)
	return p, err == nil
}

// VGPUConfigDefault is the vgpu.config value (and the meaning of no label)
// that selects each card's default profile.
const VGPUConfigDefault = "default"

// VGPUTable is data/vgpu_profiles.yaml: per vGPU type family, the profiles
// the operator's default device manager configuration offers
// (hack/gen-vgpu-table makes it).
type VGPUTable struct {
	Cards map[string]VGPUTableCard `json:"cards"`
}

// VGPUTableCard is one family of the table.
type VGPUTableCard struct {
	MemoryGB int `json:"memoryGB"`
	// DefaultProfiles maps PCI device IDs (20b2) to the profile size
	// vgpu.config=default creates on them.
	DefaultProfiles map[string]string `json:"defaultProfiles,omitempty"`
	Profiles        map[string]int    `json:"profiles"`
}

var vgpuCards = mustParseVGPUCards(vgpuProfilesYAML)

func mustParseVGPUCards(data []byte) VGPUTable {
	table, err := ParseVGPUTable(data)
	if err != nil {
		panic(fmt.Sprintf("embedded data/vgpu_profiles.yaml: %v", err))
	}
	return table
}

// ParseVGPUTable reads and checks the table.
func ParseVGPUTable(data []byte) (VGPUTable, error) {
	var table VGPUTable
	if err := yaml.UnmarshalStrict(data, &table); err != nil {
		return table, err
	}
	for name, card := range table.Cards {
		if card.MemoryGB <= 0 || len(card.Profiles) == 0 {
			return table, fmt.Errorf("cards.%s: memoryGB and profiles are required", name)
		}
		for size, count := range card.Profiles {
			p, err := parseProfile(name + "-" + size)
			if err != nil || p.Size() != size {
				return table, fmt.Errorf("cards.%s.profiles.%s: not a profile size", name, size)
			}
			if count <= 0 || p.FramebufferGB > card.MemoryGB {
				return table, fmt.Errorf("cards.%s.profiles.%s: count %d does not fit %d GB", name, size, count, card.MemoryGB)
			}
		}
		for id, size := range card.DefaultProfiles {
			if _, ok := card.Profiles[size]; !ok || !IsPCIDeviceID(id) {
				return table, fmt.Errorf("cards.%s.defaultProfiles.%s: want a PCI device ID and one of the card's profiles, not %s", name, id, size)
			}
		}
	}
	return table, nil
}

// IsVGPUTypeName reports whether a bare resource name (without nvidia.com/)
// is a vGPU type name. It parses without building the error a non-vGPU name would
// get: names are classified at every scheduling attempt.
func IsVGPUTypeName(bare string) bool {
	_, rest, ok := cutVGPUPrefix(bare)
	if !ok {
		return false
	}
	_, err := parseProfile(rest)
	return err == nil
}
