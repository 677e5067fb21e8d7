package lab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
)

const onePod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"

func TestLoadScenarioControllerSettings(t *testing.T) {
	for _, tc := range []struct {
		name, controller string
		want             modecontroller.Operation
		wantErr          string
	}{
		{name: "without controller.yaml, a dry run", want: modecontroller.DryRun},
		{name: "idleOnly", controller: "operation: idleOnly\n", want: modecontroller.IdleOnly},
		{name: "an unknown operation", controller: "operation: evict\n", wantErr: `controller.yaml: operation: "evict" is not one of [dryRun idleOnly drain]`},
		{name: "an unknown field", controller: "operations: drain\n", wantErr: "want operation: one of [dryRun idleOnly drain]"},
		{name: "more flags", controller: "operation: drain\nargs: [--conversion-timeout=30s]\n", want: modecontroller.Drain},
		{name: "an argument that is not a flag", controller: "operation: drain\nargs: [30s]\n", wantErr: `controller.yaml: args[0]: "30s" is not a flag; write it --name=value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "pods.yaml"), []byte(onePod), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.controller != "" {
				if err := os.WriteFile(filepath.Join(dir, ControllerFile), []byte(tc.controller), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, err := LoadScenario(dir)
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want it to contain %q", err, tc.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case s.Controller.Operation != tc.want || len(s.Objects) != 1:
				t.Fatalf("operation %q and %d object(s), want %q and the pod only", s.Controller.Operation, len(s.Objects), tc.want)
			}
		})
	}
}
