package sim

import (
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// WriteTable prints one row per policy.
func WriteTable(w io.Writer, scenario *Scenario, results []*Result) error {
	fmt.Fprintf(w, "scenario %s: %d nodes, %d pods\n", scenario.Name, len(scenario.Nodes), len(scenario.Pods))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tPLACED GPU UNITS\tSTRANDED AVG\tMODE\tCPU-MEMORY\tFRAGMENTATION\tEMPTY GPU NODES AVG\tPENDING AVG\tWAIT MEAN/P95 (s)\tUNPLACED GPU PODS\tALLOC AT 1ST FAILURE\tRELABELS\tREVERSALS")
	for _, r := range results {
		s := r.Summary
		first := "-"
		if s.AllocationAtFirstFailure != nil {
			first = fmt.Sprintf("%.1f%%", 100**s.AllocationAtFirstFailure)
		}
		fmt.Fprintf(tw, "%s\t%d/%d (%.1f%%)\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f/%.0f\t%d\t%s\t%d\t%d\n",
			r.Policy, s.GPUUnitsPlaced, s.GPUUnitsRequested, 100*s.PlacedShare, s.StrandedAverageTotal,
			s.StrandedAverage[poddemand.StrandedKindNames[poddemand.StrandedMode]], s.StrandedAverage[poddemand.StrandedKindNames[poddemand.StrandedCPUMemory]], s.StrandedAverage[poddemand.StrandedKindNames[poddemand.StrandedFragmentation]],
			s.EmptyGPUNodesAverage, s.PendingPodsAverage, s.WaitMeanSeconds, s.WaitP95Seconds, s.UnplacedGPUPods, first, len(r.Relabels), s.Reversals)
	}
	return tw.Flush()
}

// Report is the JSON form of a comparison.
type Report struct {
	Schema      string    `json:"schema"`
	Scenario    string    `json:"scenario"`
	Nodes       int       `json:"nodes"`
	Pods        int       `json:"pods"`
	Results     []*Result `json:"results"`
	Description string    `json:"description,omitempty"`
}

// ReportSchema versions the JSON report.
const ReportSchema = "gpu-workload-sim/v1"

// NewReport wraps results for JSON output.
func NewReport(scenario *Scenario, results []*Result) Report {
	return Report{Schema: ReportSchema, Scenario: scenario.Name, Description: scenario.Description, Nodes: len(scenario.Nodes), Pods: len(scenario.Pods), Results: results}
}

// plotColors distinguish up to eight policies.
var plotColors = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"}

// WriteSVG plots stranded units over time, one step line per policy.
func WriteSVG(w io.Writer, scenario *Scenario, results []*Result) error {
	var end time.Duration
	var peak int64
	p := linePlot{title: scenario.Name + ": stranded GPU units over time", xLabel: "simulated time", yLabel: "stranded units"}
	for _, r := range results {
		for _, s := range r.Series {
			end = max(end, s.Time)
			peak = max(peak, s.StrandedTotal())
		}
		series := r.Series
		p.lines = append(p.lines, plotLine{
			legend: fmt.Sprintf("%s (avg %.1f)", r.Policy, r.Summary.StrandedAverageTotal),
			points: func(x, y func(float64) float64) string { return stepPoints(series, x, y) },
		})
	}
	if end == 0 {
		end = time.Second
	}
	p.xMax = end.Seconds()
	for i := 0; i <= 4; i++ {
		t := time.Duration(float64(end) * float64(i) / 4)
		p.xTicks = append(p.xTicks, plotTick{at: t.Seconds(), label: formatClock(t)})
	}
	p.yTicks = roundTicks(float64(peak))
	return p.write(w)
}

// Curve is one line of a curve plot: y over x, x ascending.
type Curve struct {
	Legend string
	X, Y   []float64
}

// WriteCurveSVG plots curves as straight segments between their points,
// both axes from zero and ticked at round values.
func WriteCurveSVG(w io.Writer, title, xLabel, yLabel string, curves []Curve) error {
	p := linePlot{title: title, xLabel: xLabel, yLabel: yLabel}
	var xPeak, yPeak float64
	for _, c := range curves {
		for i := range c.X {
			xPeak, yPeak = max(xPeak, c.X[i]), max(yPeak, c.Y[i])
		}
		p.lines = append(p.lines, plotLine{legend: c.Legend, points: func(x, y func(float64) float64) string {
			var b strings.Builder
			for i := range c.X {
				fmt.Fprintf(&b, "%.1f,%.1f ", x(c.X[i]), y(c.Y[i]))
			}
			return strings.TrimSpace(b.String())
		}})
	}
	for _, v := range roundTicks(xPeak) {
		p.xTicks = append(p.xTicks, plotTick{at: v, label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	p.xMax = p.xTicks[len(p.xTicks)-1].at
	p.yTicks = roundTicks(yPeak)
	return p.write(w)
}

// linePlot is a chart of lines with a legend on the right. The legend's
// column is as wide as its longest entry (textWidth), so that no renderer
// cuts it.
type linePlot struct {
	title, xLabel, yLabel string
	xMax                  float64
	xTicks                []plotTick
	// yTicks run from 0; the last is the top of the plot.
	yTicks []float64
	lines  []plotLine
}

type plotTick struct {
	at    float64
	label string
}

type plotLine struct {
	legend string
	// points is the polyline's points attribute, given the axes' scales.
	points func(x, y func(float64) float64) string
}

func (p linePlot) write(w io.Writer) error {
	const plotW, height, left, top, bottom = 650.0, 420.0, 70.0, 40.0, 50.0
	const legendGap, swatch, legendPad = 12.0, 26.0, 10.0
	plotH := height - top - bottom
	legendW := 0.0
	for _, l := range p.lines {
		legendW = max(legendW, textWidth(l.legend, plotFontSize))
	}
	width := math.Ceil(max(left+plotW+legendGap+swatch+legendW+legendPad, left+textWidth(p.title, plotTitleSize)+legendPad))
	yMax := p.yTicks[len(p.yTicks)-1]
	x := func(v float64) float64 { return left + plotW*v/p.xMax }
	y := func(v float64) float64 { return top + plotH - plotH*v/yMax }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="%.0f">`+"\n", width, height, width, height, plotFontSize)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="%.0f">%s</text>`+"\n", left, plotTitleSize, html.EscapeString(p.title))
	for _, v := range p.yTicks {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left, left+plotW, y(v), y(v), left-6, y(v)+4, strconv.FormatFloat(v, 'f', -1, 64))
	}
	for _, t := range p.xTicks {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x(t.at), top+plotH+18, html.EscapeString(t.label))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", left+plotW/2, height-8, html.EscapeString(p.xLabel))
	fmt.Fprintf(&b, `<text transform="translate(16 %.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", top+plotH/2, html.EscapeString(p.yLabel))
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#333"/>`+"\n", left, top, plotW, plotH)
	for i, l := range p.lines {
		color := plotColors[i%len(plotColors)]
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", color, l.points(x, y))
		ly := top + 16 + float64(i)*18
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="3"/><text x="%.1f" y="%.1f">%s</text>`+"\n",
			left+plotW+legendGap, left+plotW+legendGap+20, ly, ly, color, left+plotW+legendGap+swatch, ly+4, html.EscapeString(l.legend))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// The plots' font sizes, in pixels.
const plotFontSize, plotTitleSize = 12.0, 15.0

// textWidth bounds the width of a text in the plots' sans-serif font:
// 0.62 em per character is wider than the average glyph of the common
// sans-serif fonts, so that a box sized by it holds the text.
func textWidth(s string, fontSize float64) float64 {
	return float64(utf8.RuneCountInString(s)) * 0.62 * fontSize
}

// roundTicks are the y axis' ticks from 0: at most five intervals of 1, 2
// or 5 times a power of ten, the last at or above peak.
func roundTicks(peak float64) []float64 {
	step := 1.0
	if peak > 5 {
		magnitude := math.Pow(10, math.Floor(math.Log10(peak/5)))
		for _, m := range []float64{1, 2, 5, 10} {
			if step = m * magnitude; peak/step <= 5 {
				break
			}
		}
	}
	ticks := []float64{0}
	for v := step; ticks[len(ticks)-1] < max(peak, 1); v += step {
		ticks = append(ticks, v)
	}
	return ticks
}

// stepPoints draws the series as a step function: a vertex pair where the
// value changes, at most one per pixel, so that long runs stay small.
func stepPoints(series []Sample, x, y func(float64) float64) string {
	var b strings.Builder
	lastX, lastY := math.NaN(), math.NaN()
	for _, s := range series {
		px, py := math.Round(x(s.Time.Seconds())), y(float64(s.StrandedTotal()))
		switch {
		case math.IsNaN(lastY):
			fmt.Fprintf(&b, "%.1f,%.1f", px, py)
		case py == lastY:
			continue
		case px == lastX:
			fmt.Fprintf(&b, " %.1f,%.1f", px, py)
		default:
			fmt.Fprintf(&b, " %.1f,%.1f %.1f,%.1f", px, lastY, px, py)
		}
		lastX, lastY = px, py
	}
	if n := len(series); n > 0 {
		fmt.Fprintf(&b, " %.1f,%.1f", x(series[n-1].Time.Seconds()), lastY)
	}
	return b.String()
}

func formatClock(d time.Duration) string {
	h := int(d.Hours())
	m := int(d.Minutes()) % 60
	return fmt.Sprintf("%dh%02d", h, m)
}
