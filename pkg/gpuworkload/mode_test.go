package gpuworkload

import (
	"strings"
	"testing"
)

func TestParseMode(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Mode
		wantErr bool
	}{
		{in: "container", want: ModeContainer},
		{in: "vm-passthrough", want: ModePassthrough},
		{in: "vm-vgpu", want: ModeVGPU},
		{in: "Container", wantErr: true},
		{in: " container", wantErr: true},
		{in: "vm-vGPU", wantErr: true},
		{in: "vgpu", wantErr: true},
		{in: "", wantErr: true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseMode(tc.in)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("ParseMode(%q) = %q, want an error", tc.in, got)
				}
				want := `invalid GPU workload mode "` + tc.in + `": valid values are "container", "vm-passthrough", "vm-vgpu"`
				if err.Error() != want {
					t.Fatalf("error %q, want %q", err, want)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseMode(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestModeResourceClass(t *testing.T) {
	for _, m := range Modes {
		back, ok := m.ResourceClass().Mode()
		if !ok || back != m {
			t.Errorf("%s: class %s maps back to %q", m, m.ResourceClass(), back)
		}
		if m.IsSandbox() != strings.HasPrefix(string(m), "vm-") {
			t.Errorf("%s: IsSandbox() = %v", m, m.IsSandbox())
		}
	}
}
