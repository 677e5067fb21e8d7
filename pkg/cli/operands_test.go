package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestOperandsCommand(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		code       int
		stdoutHas  string
		stderrWant string
	}{
		{name: "all modes as a table", args: []string{"operands"}, code: ExitOK, stdoutHas: "vm-passthrough  nvidia.com/gpu.deploy.vfio-manager"},
		{name: "one mode", args: []string{"operands", "vm-vgpu"}, code: ExitOK, stdoutHas: "nvidia-vgpu-device-manager"},
		{name: "invalid mode", args: []string{"operands", "vgpu"}, code: ExitUsage,
			stderrWant: "error: invalid GPU workload mode \"vgpu\": valid values are \"container\", \"vm-passthrough\", \"vm-vgpu\"\n"},
		{name: "invalid output", args: []string{"operands", "-o", "xml"}, code: ExitUsage,
			stderrWant: "error: --output \"xml\": valid values are table, json, yaml\n"},
		{name: "unknown flag", args: []string{"operands", "--nodes"}, code: ExitUsage, stderrWant: "error: unknown flag: --nodes\n"},
		{name: "too many args", args: []string{"operands", "container", "vm-vgpu"}, code: ExitUsage},
		{name: "unknown command", args: []string{"status"}, code: ExitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Run(tc.args, &stdout, &stderr); code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdoutHas) {
				t.Fatalf("stdout lacks %q:\n%s", tc.stdoutHas, stdout.String())
			}
			if tc.stderrWant != "" && stderr.String() != tc.stderrWant {
				t.Fatalf("stderr %q, want %q", stderr.String(), tc.stderrWant)
			}
		})
	}
}

func TestOperandsJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"operands", "vm-passthrough", "-o", "json"}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rows []operandRow
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || rows[0].Mode != "vm-passthrough" || rows[0].DeployLabel != "nvidia.com/gpu.deploy.vfio-manager" {
		t.Fatalf("rows %+v", rows)
	}
}
