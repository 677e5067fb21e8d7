package cli

import (
	"encoding/json"
	"testing"
)

func TestOperandsJSON(t *testing.T) {
	code, stdout, stderr := run(t, nil, "operands", "vm-passthrough", "-o", "json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []operandRow
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || rows[0].Mode != "vm-passthrough" || rows[0].DeployLabel != "nvidia.com/gpu.deploy.vfio-manager" {
		t.Fatalf("rows %+v", rows)
	}
}
