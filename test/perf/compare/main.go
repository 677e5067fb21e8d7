// Command compare reads the JSON files BenchmarkPerfScheduling writes and
// prints, for every mix, our SchedulingThroughput and extension point
// durations as ratios of the baseline run in the same file. Each file is
// one invocation, which runs each mix's baseline and then ours: a pair.
// Given several, it also prints per mix the mean ratio with its standard
// error and range, and the mean paired difference with its standard error.
//
//	go run ./test/perf/compare BenchmarkPerfScheduling_benchmark_gpuworkload_<date>.json...
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gpu-workload-scheduler/scheduler/pkg/sim"
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
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: compare BenchmarkPerfScheduling_benchmark_gpuworkload_<date>.json...")
		os.Exit(2)
	}
	var pairs []map[run]*measurement
	for _, file := range os.Args[1:] {
		data, err := os.ReadFile(file)
		var runs map[run]*measurement
		if err == nil {
			runs, err = parse(data)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "compare %s: %v\n", file, err)
			os.Exit(1)
		}
		fmt.Printf("== %s\n", file)
		if err := compare(runs, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "compare %s: %v\n", file, err)
			os.Exit(1)
		}
		pairs = append(pairs, runs)
	}
	if len(pairs) > 1 {
		fmt.Printf("== %d pairs\n", len(pairs))
		if err := summarize(pairs, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "compare: %v\n", err)
			os.Exit(1)
		}
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

// comparison is one of our runs against one baseline run of the same
// workload. A mix's baseline is <Mix>_Baseline; another,
// <Mix>_Baseline<Variant> (the default profile configured otherwise), is
// reported as the mix "<Mix> vs Baseline<Variant>".
type comparison struct {
	label      run
	ours, base run
}

// comparisonsOf lists each of our runs against each of its baselines, by
// label; a run of ours without a baseline has an empty base.
func comparisonsOf(runs map[run]*measurement) []comparison {
	var out []comparison
	for r := range runs {
		if strings.Contains(r.mix, baselineSuffix) {
			continue
		}
		found := false
		for b := range runs {
			if b.workload != r.workload || !strings.HasPrefix(b.mix, r.mix+baselineSuffix) {
				continue
			}
			label := r
			if variant := strings.TrimPrefix(b.mix, r.mix+"_"); b.mix != r.mix+baselineSuffix {
				label.mix = r.mix + " vs " + variant
			}
			out = append(out, comparison{label: label, ours: r, base: b})
			found = true
		}
		if !found {
			out = append(out, comparison{label: r, ours: r})
		}
	}
	slices.SortFunc(out, func(a, b comparison) int {
		return strings.Compare(a.ours.mix+"/"+a.ours.workload+"/"+a.base.mix, b.ours.mix+"/"+b.ours.workload+"/"+b.base.mix)
	})
	return out
}

func compare(runs map[run]*measurement, out io.Writer) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "MIX\tWORKLOAD\tTHROUGHPUT (pods/s) OURS\tBASELINE\tRATIO\tEXTENSION POINT DURATION RATIOS (ours/baseline, average)")
	for _, c := range comparisonsOf(runs) {
		m := runs[c.ours]
		base, ok := runs[c.base]
		if !ok {
			fmt.Fprintf(w, "%s\t%s\t%.1f\t-\t-\tno baseline run\n", c.label.mix, c.label.workload, m.throughput)
			continue
		}
		var points []string
		for _, point := range sortedKeys(m.extension) {
			if b := base.extension[point]; b > 0 {
				points = append(points, fmt.Sprintf("%s %.2f", point, m.extension[point]/b))
			}
		}
		fmt.Fprintf(w, "%s\t%s\t%.1f\t%.1f\t%s\t%s\n", c.label.mix, c.label.workload, m.throughput, base.throughput, ratio(m.throughput, base.throughput), strings.Join(points, ", "))
	}
	return w.Flush()
}

// summarize prints, per mix and workload, over the pairs that have both
// runs: the ratios' mean, standard error and range, and the mean paired
// difference of throughput with its standard error.
func summarize(pairs []map[run]*measurement, out io.Writer) error {
	ratios, differences := map[run][]float64{}, map[run][]float64{}
	var mixes []run
	for _, runs := range pairs {
		for _, c := range comparisonsOf(runs) {
			base, ok := runs[c.base]
			if !ok || base.throughput <= 0 {
				continue
			}
			r := c.label
			if _, seen := ratios[r]; !seen {
				mixes = append(mixes, r)
			}
			ratios[r] = append(ratios[r], runs[c.ours].throughput/base.throughput)
			differences[r] = append(differences[r], runs[c.ours].throughput-base.throughput)
		}
	}
	if len(mixes) == 0 {
		return fmt.Errorf("no mix has both runs in any file")
	}
	slices.SortFunc(mixes, func(a, b run) int { return strings.Compare(a.mix+"/"+a.workload, b.mix+"/"+b.workload) })
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "MIX\tWORKLOAD\tPAIRS\tRATIO MEAN ± SE\tRANGE\tMEAN - SE\tDIFFERENCE (pods/s) MEAN ± SE")
	for _, r := range mixes {
		mean, se := sim.MeanAndStandardError(ratios[r])
		diff, diffSE := sim.MeanAndStandardError(differences[r])
		fmt.Fprintf(w, "%s\t%s\t%d\t%.2f ± %.2f\t%.2f-%.2f\t%.2f\t%+.1f ± %.1f\n", r.mix, r.workload, len(ratios[r]), mean, se,
			slices.Min(ratios[r]), slices.Max(ratios[r]), mean-se, diff, diffSE)
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
