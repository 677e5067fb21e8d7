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

// deletedPod is a pod whose metadata a case goes on.
const deletedPod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"

func TestLoadScenarioExpectations(t *testing.T) {
	for _, tc := range []struct {
		name, pods, expect string
		wantErr            string
	}{
		{name: "a node's labels, taints and events", pods: onePod,
			expect: "pods: {p: {node: gpu-a, phase: Running}}\nnodes:\n  gpu-a:\n    labels: {a: b}\n    taints: [gpu-workload.io/converting:NoSchedule]\n    events: [\"NotDrained: has no controller\"]\n"},
		{name: "no taints", pods: onePod, expect: "nodes: {gpu-a: {taints: []}}\n"},
		{name: "a fix that fails", pods: onePod, expect: "pods: {p: {pending: x, fix: fails}}\n"},
		{name: "an event without its reason", pods: onePod, expect: "nodes: {gpu-a: {events: [has no controller]}}\n",
			wantErr: `nodes.gpu-a.events[0]: "has no controller" is not "<Reason>: <text in the message>"`},
		{name: "a taint without its effect", pods: onePod, expect: "nodes: {gpu-a: {taints: [gpu-workload.io/converting]}}\n",
			wantErr: "nodes.gpu-a.taints: invalid taint spec: gpu-workload.io/converting"},
		{name: "a taint removal", pods: onePod, expect: "nodes: {gpu-a: {taints: [\"a:NoSchedule-\"]}}\n",
			wantErr: "nodes.gpu-a.taints: a:NoSchedule- removes a taint"},
		{name: "a phase without a node", pods: onePod, expect: "pods: {p: {pending: x, phase: Failed}}\n",
			wantErr: "pods.p.phase: a phase needs the node the pod is bound to"},
		{name: "a fix that lands", pods: onePod, expect: "pods: {p: {pending: x, fix: lands}}\n",
			wantErr: `pods.p.fix: "lands"; the only value is "fails"`},
		{name: "a deleted pod without a finalizer", pods: deletedPod + "  deletionTimestamp: \"2026-01-01T00:00:00Z\"\n",
			wantErr: "Pod p: metadata.deletionTimestamp without metadata.finalizers"},
		{name: "a deleted pod kept by a finalizer", pods: deletedPod + "  deletionTimestamp: \"2026-01-01T00:00:00Z\"\n  finalizers: [example.com/hold]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"pods.yaml": tc.pods}
			if tc.expect != "" {
				files[ExpectFile] = tc.expect
			}
			for name, content := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := LoadScenario(dir)
			switch {
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("err %v, want it to contain %q", err, tc.wantErr)
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			}
		})
	}
}
