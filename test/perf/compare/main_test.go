package main

import (
	"bytes"
	"strings"
	"testing"
)

const sample = `{"version":"v1","dataItems":[
 {"data":{"Average":200},"unit":"pods/s","labels":{"Metric":"SchedulingThroughput","Name":"BenchmarkPerfScheduling/Fits_Baseline/500Nodes_2000Pods/gpu-modes"}},
 {"data":{"Average":190},"unit":"pods/s","labels":{"Metric":"SchedulingThroughput","Name":"BenchmarkPerfScheduling/Fits/500Nodes_2000Pods/gpu-modes"}},
 {"data":{"Average":0.002},"unit":"ms","labels":{"Metric":"scheduler_framework_extension_point_duration_seconds","Name":"BenchmarkPerfScheduling/Fits_Baseline/500Nodes_2000Pods/gpu-modes","extension_point":"Filter"}},
 {"data":{"Average":0.003},"unit":"ms","labels":{"Metric":"scheduler_framework_extension_point_duration_seconds","Name":"BenchmarkPerfScheduling/Fits/500Nodes_2000Pods/gpu-modes","extension_point":"Filter"}},
 {"data":{"Average":150},"unit":"pods/s","labels":{"Metric":"SchedulingThroughput","Name":"BenchmarkPerfScheduling/Churn/500Nodes_2000Pods/gpu-modes"}}
]}`

func TestCompare(t *testing.T) {
	var out bytes.Buffer
	runs, err := parse([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if err := compare(runs, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a header and two rows:\n%s", out.String())
	}
	if fields := strings.Fields(lines[2]); fields[0] != "Fits" || fields[2] != "190.0" || fields[3] != "200.0" || fields[4] != "0.95" || fields[5] != "Filter" || fields[6] != "1.50" {
		t.Errorf("Fits row %q", lines[2])
	}
	if !strings.Contains(lines[1], "Churn") || !strings.Contains(lines[1], "no baseline run") {
		t.Errorf("Churn row %q", lines[1])
	}
	if _, err := parse([]byte(`{"dataItems":[]}`)); err == nil {
		t.Error("an empty file parsed without error")
	}
}

// Three pairs: ratios 0.95, 1.10 and 1.25, differences -10, +20, +50 pods/s.
func TestSummarize(t *testing.T) {
	var pairs []map[run]*measurement
	for _, ours := range []float64{190, 220, 250} {
		pairs = append(pairs, map[run]*measurement{
			{mix: "Fits_Baseline", workload: "500Nodes"}: {throughput: 200},
			{mix: "Fits", workload: "500Nodes"}:          {throughput: ours},
		})
	}
	var out bytes.Buffer
	if err := summarize(pairs, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	// Standard deviation of 0.95, 1.10, 1.25 is 0.15; over sqrt(3) 0.0866.
	if want := "Fits 500Nodes 3 1.10 ± 0.09 0.95-1.25 1.01 +20.0 ± 17.3"; len(lines) != 2 || strings.Join(strings.Fields(lines[1]), " ") != want {
		t.Fatalf("summary:\n%s\nwant the row\n%s", out.String(), want)
	}
	if err := summarize([]map[run]*measurement{{{mix: "Fits", workload: "500Nodes"}: {throughput: 1}}}, &out); err == nil {
		t.Error("pairs without a baseline summarized without error")
	}
}

// A second baseline of a mix, <Mix>_Baseline<Variant>, is a row of its own
// against the same run of ours, in each file and in the summary.
func TestBaselineVariants(t *testing.T) {
	var pairs []map[run]*measurement
	for _, ours := range []float64{110, 120} {
		pairs = append(pairs, map[run]*measurement{
			{mix: "DRA_Baseline", workload: "5000Nodes"}:                 {throughput: 100},
			{mix: "DRA_BaselineAtOursPercentage", workload: "5000Nodes"}: {throughput: 200},
			{mix: "DRA", workload: "5000Nodes"}:                          {throughput: ours},
		})
	}
	var out bytes.Buffer
	if err := compare(pairs[0], &out); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(out.String()), "\n")[1:]
	want := []string{"DRA 5000Nodes 110.0 100.0 1.10", "DRA vs BaselineAtOursPercentage 5000Nodes 110.0 200.0 0.55"}
	if len(rows) != 2 || strings.Join(strings.Fields(rows[0]), " ") != want[0] || strings.Join(strings.Fields(rows[1]), " ") != want[1] {
		t.Fatalf("rows:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	out.Reset()
	if err := summarize(pairs, &out); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(got, "DRA vs BaselineAtOursPercentage 5000Nodes 2 0.57 ± 0.02 0.55-0.60") {
		t.Errorf("summary:\n%s\nwant the variant's row over both pairs", got)
	}
}
