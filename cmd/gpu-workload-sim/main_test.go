package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/sim"
)

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "give scenario files, or --nodes and --pods"},
		{[]string{"--nodes", "n.csv"}, "give scenario files, or --nodes and --pods"},
		{[]string{"-o", "xml", "s.yaml"}, `-o "xml": want table or json`},
		// A flag after the scenario is read as a flag, before anything runs.
		{[]string{"s.yaml", "-o", "xml"}, `-o "xml": want table or json`},
		{[]string{"s.yaml", "--no-such-flag"}, `flag provided but not defined: -no-such-flag`},
		{[]string{"--policies", "best", "s.yaml"}, `unknown policy "best"`},
		{[]string{"--advisor", "sometimes", "--nodes", "n.csv", "--pods", "p.csv"}, `--advisor "sometimes": want off, on or both`},
		// The flags share the scenario file's bounds.
		{[]string{"--advisor-interval", "0s", "s.yaml"}, "--advisor-interval 0s: want from 1s to a year"},
		{[]string{"--advisor-interval", "1ns", "s.yaml"}, "--advisor-interval 1ns: want from 1s to a year"},
		{[]string{"--advisor-conversion", "-1m", "s.yaml"}, "--advisor-conversion -1m0s: want from 0s to a year"},
		{[]string{"--max-input-size", "lots", "s.yaml"}, `--max-input-size "lots": want a positive size such as 128Mi or 1Gi`},
	} {
		err := run(context.Background(), tc.args, new(bytes.Buffer), new(bytes.Buffer))
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
}

func TestSimpleFormEndToEnd(t *testing.T) {
	dir := t.TempDir()
	nodes := filepath.Join(dir, "nodes.csv")
	pods := filepath.Join(dir, "pods.csv")
	if err := os.WriteFile(nodes, []byte("name,gpus,model\ngpu-1,4,A10\ngpu-2,4,A10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pods, []byte("name,arrival,departure,gpus\na,0,100,3\nb,10,100,2\nc,20,100,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	plots := filepath.Join(dir, "plots")
	if err := run(context.Background(), []string{"-o", "json", "--plot-dir", plots, "--nodes", nodes, "--pods", pods}, &out, new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	var reports []sim.Report
	if err := json.Unmarshal(out.Bytes(), &reports); err != nil {
		t.Fatalf("output is not the JSON report: %v\n%s", err, out.String())
	}
	if len(reports) != 1 || reports[0].Schema != sim.ReportSchema || len(reports[0].Results) != len(sim.ScoringPolicies) {
		t.Fatalf("reports %+v: want one %s report with every policy", reports, sim.ReportSchema)
	}
	for _, r := range reports[0].Results {
		if r.Summary.GPUUnitsRequested != 6 || r.Summary.GPUUnitsPlaced != 6 {
			t.Errorf("%s placed %d of %d units, want 6 of 6", r.Policy, r.Summary.GPUUnitsPlaced, r.Summary.GPUUnitsRequested)
		}
	}
	if _, err := os.Stat(filepath.Join(plots, "pods.csv.svg")); err != nil {
		t.Errorf("no plot: %v", err)
	}
}

func TestBadInputIsNotAUsageError(t *testing.T) {
	err := run(context.Background(), []string{filepath.Join(t.TempDir(), "missing.yaml")}, new(bytes.Buffer), new(bytes.Buffer))
	if err == nil || errors.Is(err, errUsage) || !strings.Contains(err.Error(), "missing.yaml") {
		t.Fatalf("error %v, want one naming the missing file", err)
	}
}

// Inputs that never end or are too large are errors naming them before
// memory grows: --nodes /dev/zero, and a pod file over --max-input-size.
func TestInputsAreBounded(t *testing.T) {
	dir := t.TempDir()
	pods := filepath.Join(dir, "pods.csv")
	if err := os.WriteFile(pods, []byte("name,gpus\n"+strings.Repeat("a,1\n", 1<<18)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--nodes", "/dev/zero", "--pods", pods}, "/dev/zero: byte 0 is NUL: not JSON, YAML or CSV text"},
		{[]string{"--max-input-size", "64Ki", "--nodes", pods, "--pods", pods}, pods + " is larger than the input limit of 64Ki: if it is the input you meant, raise the limit with --max-input-size"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := run(context.Background(), tc.args, new(bytes.Buffer), new(bytes.Buffer))
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one saying %q", tc.args, err, tc.want)
		}
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 256<<20 {
			t.Errorf("%v: allocated %d bytes, want at most 256 MiB", tc.args, grown)
		}
	}
}

func TestFlagsAfterTheScenario(t *testing.T) {
	dir := t.TempDir()
	scenario := filepath.Join(dir, "s.yaml")
	for name, content := range map[string]string{
		"s.yaml":    "name: s\nnodes: nodes.csv\npods: pods.csv\n",
		"nodes.csv": "name,gpus,model\ngpu-1,4,A10\n",
		"pods.csv":  "name,arrival,departure,gpus\na,0,100,1\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{scenario, "-o", "json", "--policies", "default"}, &out, new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	var reports []sim.Report
	if err := json.Unmarshal(out.Bytes(), &reports); err != nil || len(reports) != 1 || len(reports[0].Results) != 1 {
		t.Fatalf("want one JSON report with one policy: %v\n%s", err, out.String())
	}
}

// Outputs are opened and every input loaded before the first run: a bad
// later scenario, an unwritable --json or a --plot-dir that is a file stops
// the command before it simulates anything.
func TestOutputsAndInputsCheckedBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"good.yaml": "name: good\nnodes: nodes.csv\npods: pods.csv\n",
		"bad.yaml":  "name: bad\nnodes: nodes.csv\npods: missing.csv\n",
		"nodes.csv": "name,gpus\nx,1\n",
		"pods.csv":  "name,gpus\np,1\n",
		"a-file":    "",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	good, bad := filepath.Join(dir, "good.yaml"), filepath.Join(dir, "bad.yaml")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{good, bad}, "missing.csv"},
		{[]string{"--json", filepath.Join(dir, "no-such-dir", "r.json"), good}, "--json:"},
		{[]string{"--plot-dir", filepath.Join(dir, "a-file"), good}, "--plot-dir:"},
	} {
		var stderr bytes.Buffer
		err := run(context.Background(), tc.args, new(bytes.Buffer), &stderr)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(stderr.String(), "runs in") {
			t.Errorf("%v: error %v, stderr %q; want an error containing %q before any run", tc.args, err, stderr.String(), tc.want)
		}
	}
}

func TestPlotFileNameStaysInTheDirectory(t *testing.T) {
	for name, want := range map[string]string{
		"drift":             "drift.svg",
		"../../../tmp/evil": ".._.._.._tmp_evil.svg",
		"..":                "scenario...svg",
		"a b/c":             "a_b_c.svg",
	} {
		if got := plotFileName(name); got != want || strings.ContainsRune(got, filepath.Separator) {
			t.Errorf("plotFileName(%q) = %q, want %q", name, got, want)
		}
	}
}
