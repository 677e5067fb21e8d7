package gpuworkload

import (
	"regexp"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func FuzzParseMode(f *testing.F) {
	for _, s := range []string{"container", "vm-passthrough", "vm-vgpu", "Container", "", "vm-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMode(s)
		if err != nil {
			if !strings.Contains(err.Error(), `valid values are "container", "vm-passthrough", "vm-vgpu"`) {
				t.Fatalf("error %q does not list the valid values", err)
			}
			return
		}
		if string(m) != s {
			t.Fatalf("ParseMode(%q) = %q", s, m)
		}
		d := enabledPolicy(ModeContainer).EffectiveMode(map[string]string{LabelWorkloadConfig: s})
		if d.Mode != m || d.Reason != ReasonLabelHonoured {
			t.Fatalf("valid label %q decided as %+v", s, d)
		}
	})
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{"nvidia.com/gpu", "nvidia.com/mig-1g.5gb", "nvidia.com/GA107GL_A2___A16", "nvidia.com/26b5",
		"nvidia.com/GRID_T4-2Q", "nvidia.com/NVIDIA_A100-1-5C", "nvidia.com/hostdev", "cpu", "nvidia.com/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := (*Classifier)(nil).Classify(v1.ResourceName(s))
		if c.IsGPU() && !strings.HasPrefix(s, ResourceDomain) {
			t.Fatalf("%q outside nvidia.com/ classified %s", s, c)
		}
		if c == ClassVGPUProfile {
			p, err := ParseVGPUTypeName(s)
			if err != nil || ResourceDomain+p.TypeName() != s {
				t.Fatalf("vGPU %q does not round-trip: %q, %v", s, p.TypeName(), err)
			}
		}
	})
}

func FuzzParseVGPUTypeName(f *testing.F) {
	for _, s := range []string{"NVIDIA_A10-12Q", "GRID_T4-2Q", "NVIDIA_A100-1-5C", "NVIDIA_RTX6000-Ada-4Q", "NVIDIA_A10-012Q", "NVIDIA_-1Q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseVGPUTypeName(s)
		if err != nil {
			return
		}
		if p.TypeName() != strings.TrimPrefix(s, ResourceDomain) {
			t.Fatalf("%q round-trips to %q", s, p.TypeName())
		}
		again, err := ParseVGPUConfig(p.Name())
		if err != nil || !again.SameProfile(p) {
			t.Fatalf("config %q of %q: %+v, %v", p.Name(), s, again, err)
		}
		p.MaxPerGPU()
	})
}

// Whatever a node shows, the card read from it keeps what the node
// advertises and names only devices the evidence allows.
func FuzzIdentifyCard(f *testing.F) {
	f.Add("2330", "GA100_A100_SXM4_80GB", "GRID_T4-2Q", "NVIDIA-A10")
	f.Add("", "GA107GL_A2___A16", "", "NVIDIA-A16")
	f.Add("1e78", "", "", "Quadro-RTX-8000")
	f.Fuzz(func(t *testing.T, deviceID, passthroughName, vgpuType, product string) {
		e := CardEvidence{DeviceID: deviceID, PassthroughName: passthroughName, Product: product}
		e.VGPUType, _ = ParseVGPUTypeName(vgpuType)
		card := IdentifyCard(e)
		if passthroughName != "" && card.PassthroughName != passthroughName {
			t.Fatalf("%+v: passthrough name %q, want the advertised one", e, card.PassthroughName)
		}
		if e.VGPUType.Card != "" && card.VGPUFamily != e.VGPUType.Family() {
			t.Fatalf("%+v: vGPU family %q, want the advertised type's", e, card.VGPUFamily)
		}
		if _, known := cards.byID[deviceID]; known && len(card.Devices) != 1 {
			t.Fatalf("%+v: devices %v, want the one of the device ID", e, card.Devices)
		}
		_ = card.Product()
	})
}

var longExponent = regexp.MustCompile(`[eE][+-]?[0-9]{5,}`)

func FuzzUnits(f *testing.F) {
	for _, s := range []string{"0", "4", "65536", "65537", "-1", "0.5", "500m", "1e400", "9223372036854775808", "1Ki", "1e-9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// ParseQuantity itself takes seconds on some long exponents
		// (1E-55535556, 1e2333333400): not Units' to judge, and a fuzz worker
		// that slow is taken for hung. TestUnitsOfHugeExponents covers Units.
		if longExponent.MatchString(s) {
			return
		}
		q, err := resource.ParseQuantity(s)
		if err != nil {
			return
		}
		units, err := Units(q)
		if err != nil {
			if !strings.Contains(err.Error(), "is not a whole number of units from 0 to 65536") {
				t.Fatalf("Units(%s): error %q does not state the range", s, err)
			}
			return
		}
		// Cmp would take seconds on a zero with a huge exponent (0E55535556).
		exact, whole := q.AsInt64()
		if units < 0 || units > MaxUnits || !(units == 0 && q.IsZero() || whole && exact == units) {
			t.Fatalf("Units(%s) = %d, which is not the quantity or out of range", s, units)
		}
	})
}
