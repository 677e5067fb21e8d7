package hardware

import (
	"strings"
	"testing"
)

func TestParseVGPUTypeName(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    VGPUProfile
		perGPU  int // 0: unknown
		wantErr string
	}{
		{in: "nvidia.com/NVIDIA_A10-12Q", want: VGPUProfile{Prefix: "NVIDIA", Card: "A10", FramebufferGB: 12, Series: 'Q'}, perGPU: 2},
		{in: "NVIDIA_A10-4Q", want: VGPUProfile{Prefix: "NVIDIA", Card: "A10", FramebufferGB: 4, Series: 'Q'}, perGPU: 6},
		{in: "GRID_T4-2Q", want: VGPUProfile{Prefix: "GRID", Card: "T4", FramebufferGB: 2, Series: 'Q'}, perGPU: 8},
		{in: "NVIDIA_A100-1-5C", want: VGPUProfile{Prefix: "NVIDIA", Card: "A100", GPUInstanceSlices: 1, FramebufferGB: 5, Series: 'C'}, perGPU: 7},
		{in: "NVIDIA_H100-7-80C", want: VGPUProfile{Prefix: "NVIDIA", Card: "H100", GPUInstanceSlices: 7, FramebufferGB: 80, Series: 'C'}, perGPU: 1},
		{in: "NVIDIA_L40S-48Q", want: VGPUProfile{Prefix: "NVIDIA", Card: "L40S", FramebufferGB: 48, Series: 'Q'}, perGPU: 1},
		{in: "NVIDIA_A16-16C", want: VGPUProfile{Prefix: "NVIDIA", Card: "A16", FramebufferGB: 16, Series: 'C'}, perGPU: 1},
		{in: "NVIDIA_A40-2B", want: VGPUProfile{Prefix: "NVIDIA", Card: "A40", FramebufferGB: 2, Series: 'B'}},
		{in: "NVIDIA_RTX6000-Ada-4Q", want: VGPUProfile{Prefix: "NVIDIA", Card: "RTX6000-Ada", FramebufferGB: 4, Series: 'Q'}, perGPU: 12},
		{in: "NVIDIA_H100XM-80C", want: VGPUProfile{Prefix: "NVIDIA", Card: "H100XM", FramebufferGB: 80, Series: 'C'}, perGPU: 1},
		{in: "NVIDIA_A100-1-5CME", want: VGPUProfile{Prefix: "NVIDIA", Card: "A100", GPUInstanceSlices: 1, FramebufferGB: 5, Series: 'C', Suffix: "ME"}, perGPU: 1},
		{in: "NVIDIA_RTX_Pro_6000_Blackwell_DC-48Q", want: VGPUProfile{Prefix: "NVIDIA", Card: "RTX_Pro_6000_Blackwell_DC", FramebufferGB: 48, Series: 'Q'}, perGPU: 2},
		{in: "NVIDIA_RTX_Pro_6000_Blackwell_DC-4-48QGFX", want: VGPUProfile{Prefix: "NVIDIA", Card: "RTX_Pro_6000_Blackwell_DC", GPUInstanceSlices: 4, FramebufferGB: 48, Series: 'Q', Suffix: "GFX"}, perGPU: 2},
		{in: "NVIDIA_A100-1-0CNOME", want: VGPUProfile{Prefix: "NVIDIA", Card: "A100", GPUInstanceSlices: 1, Series: 'C', Suffix: "NOME"}},
		{in: "NVIDIA_6000D-84Q", want: VGPUProfile{Prefix: "NVIDIA", Card: "6000D", FramebufferGB: 84, Series: 'Q'}, perGPU: 1},
		{in: "GA102GL_A10", wantErr: "want NVIDIA_<card>-<profile>"},
		{in: "NVIDIA_A10", wantErr: "want <card>-<framebuffer GB><series>"},
		{in: "NVIDIA_A10-12X", wantErr: `series 'X' is not one of A, B, C, Q`},
		{in: "NVIDIA_A10-012Q", wantErr: "is not a number of GB"},
		{in: "NVIDIA_A10-Q", wantErr: "want <framebuffer GB><series>"},
		{in: "NVIDIA_-12Q", wantErr: "want <card>-<framebuffer GB><series>"},
		{in: "NVIDIA__A-12Q", wantErr: "starting with a letter or digit"},
		{in: "NVIDIA_A_--1A", wantErr: "starting with a letter or digit"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseVGPUTypeName(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			if want := strings.TrimPrefix(tc.in, ResourceDomain); got.TypeName() != want {
				t.Fatalf("TypeName() = %q, want %q", got.TypeName(), want)
			}
			perGPU, ok := got.MaxPerGPU()
			if ok != (tc.perGPU > 0) || perGPU != tc.perGPU {
				t.Fatalf("MaxPerGPU() = %d, %v; want %d", perGPU, ok, tc.perGPU)
			}
		})
	}
}

func TestParseVGPUConfig(t *testing.T) {
	p, err := ParseVGPUConfig("A10-12Q")
	if err != nil {
		t.Fatal(err)
	}
	advertised, _ := ParseVGPUTypeName("NVIDIA_A10-12Q")
	if !p.SameProfile(advertised) || p.Name() != "A10-12Q" || p.TypeName() != "A10-12Q" {
		t.Fatalf("A10-12Q parsed as %+v", p)
	}
	other, _ := ParseVGPUConfig("A10-4Q")
	if other.SameProfile(advertised) {
		t.Fatal("A10-4Q is the same profile as NVIDIA_A10-12Q")
	}
	if _, err := ParseVGPUConfig(VGPUConfigDefault); err == nil {
		t.Fatal("default parsed as a profile")
	}
}

func TestVGPUConfigCreates(t *testing.T) {
	for _, tc := range []struct {
		config, advertised string
		want               bool
	}{
		{"A10-12Q", "NVIDIA_A10-12Q", true},
		{"A10-4Q", "NVIDIA_A10-12Q", false},
		{"DC-1-24QGFX", "NVIDIA_RTX_Pro_6000_Blackwell_DC-1-24QGFX", true},
		{"DC-1-24QGFX", "NVIDIA_RTX_Pro_6000_Blackwell_DC-1-24Q", true},
		{"A100-1-5CMEALL", "NVIDIA_A100-1-5C", true},
		{"A100-1-5CME", "NVIDIA_A100-1-5CME", true},
		{"DC-1-24Q", "NVIDIA_RTX_Pro_6000_Blackwell_DC-1-24QGFX", false},
		{"A100-1-5CME", "NVIDIA_A100-1-5CNOME", false},
		{"DC-1-24QGFX", "NVIDIA_RTX_Pro_6000_Blackwell_DC-1-12Q", false},
	} {
		config, err := ParseVGPUConfig(tc.config)
		if err != nil {
			t.Fatal(err)
		}
		advertised, err := ParseVGPUTypeName(tc.advertised)
		if err != nil {
			t.Fatal(err)
		}
		if got := config.Creates(advertised); got != tc.want {
			t.Errorf("vgpu.config=%s creates %s: %v, want %v", tc.config, tc.advertised, got, tc.want)
		}
	}
}

func TestDefaultVGPUProfile(t *testing.T) {
	for card, want := range map[string]string{"A10": "A10-12Q", "A16": "A16-8Q", "T4": "T4-8Q", "A40": "A40-24Q", "L40S": "L40S-24Q"} {
		p, ok := DefaultVGPUProfile(card)
		if !ok || p.Name() != want {
			t.Errorf("%s: default %q, %v; want %s", card, p.Name(), ok, want)
		}
		if n, _ := p.MaxPerGPU(); n != 2 {
			t.Errorf("%s: default profile holds %d per GPU, want 2", card, n)
		}
	}
	// DC spans cards with different defaults; X9000 is no card.
	for _, card := range []string{"DC", "X9000"} {
		if p, ok := DefaultVGPUProfile(card); ok {
			t.Errorf("%s: default %s, want unknown", card, p.Name())
		}
	}
}

func TestParseVGPUCardsRejects(t *testing.T) {
	for _, tc := range []struct{ name, yaml, wantErr string }{
		{name: "profile larger than the card", yaml: "cards:\n  X1: {memoryGB: 8, profiles: {16Q: 1}}\n", wantErr: "does not fit 8 GB"},
		{name: "bad size", yaml: "cards:\n  X1: {memoryGB: 8, profiles: {4Z: 1}}\n", wantErr: "not a profile size"},
		{name: "default not listed", yaml: "cards:\n  X1: {memoryGB: 8, defaultProfiles: {\"2236\": 4Q}, profiles: {8Q: 1}}\n", wantErr: "one of the card's profiles, not 4Q"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseVGPUTable([]byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}
