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
	if err := compare([]byte(sample), &out); err != nil {
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
	if err := compare([]byte(`{"dataItems":[]}`), &out); err == nil {
		t.Error("an empty file compared without error")
	}
}
