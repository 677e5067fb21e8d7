package hardware

import (
	"strings"
	"testing"
)

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
		if _, known := PassthroughNameOfID(deviceID); known && len(card.Devices) != 1 {
			t.Fatalf("%+v: devices %v, want the one of the device ID", e, card.Devices)
		}
		_ = card.Product()
	})
}
