// Command compare reads the JSON file BenchmarkPerfScheduling writes and
// prints, for every mix, our SchedulingThroughput and extension point
// durations as ratios of the baseline run in the same file.
//
//	go run ./test/perf/compare BenchmarkPerfScheduling_benchmark_gpuworkload_<date>.json
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
)

// baselineSuffix marks the test case that runs the default plugins only.
const baselineSuffix = "_Baseline"

type dataItems struct {
	DataItems []struct {
		Data   map[string]float64 `json:"data"`
		Unit   string             `json:"unit"`
		Labels map[string]string  `json:"labels"`
	} `json:"dataItems"`
}

// run is one test case and workload: "Fits/500Nodes_2000Pods".
type run struct{ mix, workload string }

// measurement is what compare reads per run: throughput and the average
// duration of each extension point.
type measurement struct {
	throughput float64
	extension  map[string]float64
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: compare BenchmarkPerfScheduling_benchmark_gpuworkload_<date>.json")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err == nil {
		err = compare(data, os.Stdout)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "compare %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func parse(data []byte) (map[run]*measurement, error) {
	var items dataItems
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, fmt.Errorf("not scheduler_perf data items: %w", err)
	}
	runs := map[run]*measurement{}
	for _, item := range items.DataItems {
		// Name is BenchmarkPerfScheduling/<test case>/<workload>/<collection>.
		parts := strings.Split(item.Labels["Name"], "/")
		if len(parts) < 3 || !strings.HasPrefix(parts[0], "BenchmarkPerfScheduling") {
			continue
		}
		r := run{mix: parts[1], workload: parts[2]}
		m := runs[r]
		if m == nil {
			m = &measurement{extension: map[string]float64{}}
			runs[r] = m
		}
		switch metric := item.Labels["Metric"]; {
		case metric == "SchedulingThroughput":
			m.throughput = item.Data["Average"]
		case metric == "scheduler_framework_extension_point_duration_seconds" && item.Labels["extension_point"] != "":
			m.extension[item.Labels["extension_point"]] = item.Data["Average"]
		}
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("no data items with a Name label")
	}
	return runs, nil
}

func compare(data []byte, out io.Writer) error {
	runs, err := parse(data)
	if err != nil {
		return err
	}
	var ours []run
	for r := range runs {
		if !strings.HasSuffix(r.mix, baselineSuffix) {
			ours = append(ours, r)
		}
	}
	slices.SortFunc(ours, func(a, b run) int { return strings.Compare(a.mix+"/"+a.workload, b.mix+"/"+b.workload) })
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "MIX\tWORKLOAD\tTHROUGHPUT (pods/s) OURS\tBASELINE\tRATIO\tEXTENSION POINT DURATION RATIOS (ours/baseline, average)")
	for _, r := range ours {
		base, ok := runs[run{mix: r.mix + baselineSuffix, workload: r.workload}]
		if !ok {
			fmt.Fprintf(w, "%s\t%s\t%.1f\t-\t-\tno baseline run\n", r.mix, r.workload, runs[r].throughput)
			continue
		}
		m := runs[r]
		var points []string
		for _, point := range sortedKeys(m.extension) {
			if b := base.extension[point]; b > 0 {
				points = append(points, fmt.Sprintf("%s %.2f", point, m.extension[point]/b))
			}
		}
		fmt.Fprintf(w, "%s\t%s\t%.1f\t%.1f\t%s\t%s\n", r.mix, r.workload, m.throughput, base.throughput, ratio(m.throughput, base.throughput), strings.Join(points, ", "))
	}
	return w.Flush()
}

func ratio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
