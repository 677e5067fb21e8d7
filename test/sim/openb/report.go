package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"text/tabwriter"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/sim"
)

// drawResult is one draw's figures per policy, in the results' order.
type drawResult struct {
	pods int
	// constrained counts the pods kept to some cards (gpu_spec).
	constrained int
	policies    []string
	// ours is GPUStranding's index in policies, -1 when it did not run.
	ours int
	// allocated is the GPUs allocated at the end of the draw.
	allocated []float64
	// atFull is the share of GPUs allocated when the arrived workload
	// first reached 100% of the GPUs.
	atFull   []float64
	stranded []float64
	// strandedAtEnd is the units stranded after the last arrival, by kind.
	strandedAtEnd [][poddemand.NumStrandedKinds]int64
	// firstFailure is the share of GPUs allocated when a GPU pod first
	// found no node; 1 when every GPU pod found one.
	firstFailure []float64
	// waitingAtFull and pinnedAtFull are the GPUs waiting pods request at
	// that moment, and of them those of pods kept to some cards.
	waitingAtFull, pinnedAtFull []float64
	// curve is, per policy, the share of GPUs allocated when the arrived
	// workload first reached 0%, 1%, ... of the GPUs.
	curve [][]float64
	gpus  float64
}

func measure(results []*sim.Result, d draw, gpus, inflation float64) drawResult {
	points := int(math.Round(100 * inflation))
	r := drawResult{pods: len(d.pods), gpus: gpus, ours: sim.IndexOfPolicy(results, sim.GPUStrandingPolicy)}
	for _, p := range d.pods {
		if p.RequiredNodeAffinity != nil {
			r.constrained++
		}
	}
	for _, res := range results {
		samples := samplesByArrivedShare(res.Series, d, gpus, points)
		curve := make([]float64, len(samples))
		for i, s := range samples {
			curve[i] = s.AllocatedGPUs / gpus
		}
		full := samples[min(100, points)]
		first := 1.0
		if f := res.Summary.AllocationAtFirstFailure; f != nil {
			first = *f
		}
		var last sim.Sample
		if n := len(res.Series); n > 0 {
			last = res.Series[n-1]
		}
		r.policies = append(r.policies, res.Policy)
		r.allocated = append(r.allocated, last.AllocatedGPUs)
		r.strandedAtEnd = append(r.strandedAtEnd, last.Stranded)
		r.atFull = append(r.atFull, curve[min(100, points)])
		r.waitingAtFull = append(r.waitingAtFull, float64(full.PendingUnits))
		r.pinnedAtFull = append(r.pinnedAtFull, float64(full.PendingPinnedUnits))
		r.stranded = append(r.stranded, res.Summary.StrandedAverageTotal)
		r.firstFailure = append(r.firstFailure, first)
		r.curve = append(r.curve, curve)
	}
	return r
}

// samplesByArrivedShare reads the cluster after the arrival that first
// brought the arrived workload to each whole percent of the GPUs.
func samplesByArrivedShare(series []sim.Sample, d draw, gpus float64, points int) []sim.Sample {
	samples := make([]sim.Sample, points+1)
	arrival, sample, current := 0, 0, sim.Sample{}
	for percent := 1; percent <= points; percent++ {
		for arrival < len(d.pods)-1 && 100*d.arrived[arrival]/gpus < float64(percent) {
			arrival++
		}
		for sample < len(series) && series[sample].Time <= d.pods[arrival].Arrival {
			current = series[sample]
			sample++
		}
		samples[percent] = current
	}
	return samples
}

func meanPods(runs []drawResult) float64 {
	total := 0
	for _, r := range runs {
		total += r.pods
	}
	return float64(total) / float64(len(runs))
}

// meanConstrained is the percentage of the pods kept to some cards.
func meanConstrained(runs []drawResult) float64 {
	constrained, pods := 0, 0
	for _, r := range runs {
		constrained += r.constrained
		pods += r.pods
	}
	return 100 * float64(constrained) / float64(pods)
}

// column is one figure of every draw for one policy.
func column(runs []drawResult, policy int, figure func(drawResult) []float64) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		out[i] = figure(r)[policy]
	}
	return out
}

func mean(xs []float64) float64 {
	m, _ := sim.MeanAndStandardError(xs)
	return m
}

func allocated(r drawResult) []float64 { return r.allocated }
func atFull(r drawResult) []float64    { return r.atFull }
func stranded(r drawResult) []float64  { return r.stranded }
func firstFail(r drawResult) []float64 { return r.firstFailure }
func waiting(r drawResult) []float64   { return r.waitingAtFull }
func pinned(r drawResult) []float64    { return r.pinnedAtFull }

// writeTable prints the means per policy, how many draws each allocates
// most GPUs in alone, and GPUStranding's paired differences.
func writeTable(w io.Writer, runs []drawResult) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tGPUS ALLOCATED AT END (MEAN)\tAT 100% ARRIVED (MEAN)\tSTRANDED AVG (MEAN)\tSTRANDED AT END: MODE/CPU-MEMORY/FRAGMENTATION (MEAN)\tALLOC AT 1ST FAILURE (MEAN)\tWAITING AT 100%: GPUS (PINNED) (MEAN)\tMOST GPUS ALLOCATED")
	policies := runs[0].policies
	for i, name := range policies {
		most := 0
		for _, r := range runs {
			if alone(r.allocated, i) {
				most++
			}
		}
		var atEnd [poddemand.NumStrandedKinds]float64
		for _, r := range runs {
			for k, v := range r.strandedAtEnd[i] {
				atEnd[k] += float64(v) / float64(len(runs))
			}
		}
		end := mean(column(runs, i, allocated))
		fmt.Fprintf(tw, "%s\t%.1f (%.2f%%)\t%.2f%%\t%.2f\t%.1f/%.1f/%.1f\t%.1f%%\t%.1f (%.1f)\t%d/%d\n", name, end, 100*end/runs[0].gpus,
			100*mean(column(runs, i, atFull)), mean(column(runs, i, stranded)),
			atEnd[poddemand.StrandedMode], atEnd[poddemand.StrandedCPUMemory], atEnd[poddemand.StrandedFragmentation],
			100*mean(column(runs, i, firstFail)), mean(column(runs, i, waiting)), mean(column(runs, i, pinned)), most, len(runs))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if ours := runs[0].ours; ours >= 0 {
		fmt.Fprintln(tw, "GPU-STRANDING MINUS\tGPUS ALLOCATED AT END (MEAN ± SE)\tAT 100% ARRIVED, POINTS (MEAN ± SE)\tSTRANDED AVG (MEAN ± SE)")
		for i, name := range policies {
			if i == ours {
				continue
			}
			gpus := difference(runs, ours, i, allocated)
			points := difference(runs, ours, i, atFull)
			for d := range points {
				points[d] *= 100
			}
			units := difference(runs, ours, i, stranded)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", name, formatDifference(gpus, 1), formatDifference(points, 2), formatDifference(units, 2))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

func difference(runs []drawResult, ours, other int, figure func(drawResult) []float64) []float64 {
	a, b := column(runs, ours, figure), column(runs, other, figure)
	for i := range a {
		a[i] -= b[i]
	}
	return a
}

func formatDifference(xs []float64, decimals int) string {
	m, se := sim.MeanAndStandardError(xs)
	return fmt.Sprintf("%+.*f ± %.*f", decimals, m, decimals, se)
}

// alone reports whether policy i allocated more than every other.
func alone(figures []float64, i int) bool {
	for j, v := range figures {
		if j != i && v >= figures[i] {
			return false
		}
	}
	return true
}

// writePlot plots the mean allocation curve of each policy over the draws.
func writePlot(path, name string, runs []drawResult) error {
	var curves []sim.Curve
	for i, policy := range runs[0].policies {
		points := len(runs[0].curve[i])
		c := sim.Curve{X: make([]float64, points), Y: make([]float64, points)}
		for p := range points {
			c.X[p] = float64(p)
			for _, r := range runs {
				c.Y[p] += 100 * r.curve[i][p] / float64(len(runs))
			}
		}
		c.Legend = fmt.Sprintf("%s (end %.2f%%)", policy, c.Y[points-1])
		curves = append(curves, c)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("%s: GPUs allocated as the workload arrives (mean of %d draws)", name, len(runs))
	if err := sim.WriteCurveSVG(f, title, "GPUs requested by arrived pods (% of the cluster's GPUs)", "GPUs allocated (%)", curves); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
