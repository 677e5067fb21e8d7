package sim

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
)

// servableByDRA says whether the DRA driver could take over the node's
// GPUs: container and passthrough nodes of a card with a known passthrough
// device name. vGPU nodes stay with the device plugins: the driver offers
// no vGPU.
func servableByDRA(n placement.NodeSpec) bool {
	if n.DRA || n.Inventory.GPUs == 0 || n.Mode == gpuworkload.ModeVGPU {
		return false
	}
	_, _, err := n.Inventory.Advertisement(gpuworkload.ModePassthrough)
	return err == nil
}

// WithDRANodes is the scenario with a share (0 to 1) of the nodes the DRA
// driver could serve published through DRA instead, spread evenly over the
// node list so that each kind of node gives its share. It returns how many
// nodes it moved and how many it could have.
func (s *Scenario) WithDRANodes(share float64) (moved *Scenario, dra, servable int) {
	out := *s
	out.Name = fmt.Sprintf("%s-dra%.0f", s.Name, 100*share)
	out.Nodes = make([]placement.NodeSpec, len(s.Nodes))
	for i, n := range s.Nodes {
		if servableByDRA(n) {
			// Node k of the servable ones moves when it takes the count
			// moved to the next whole number: k = 3, 7, 11... for a quarter.
			if int(float64(servable+1)*share) > int(float64(servable)*share) {
				n.DRA = true
				dra++
			}
			servable++
		}
		out.Nodes[i] = n
	}
	return &out, dra, servable
}

// ParseDRAShares reads a comma-separated list of percentages, e.g.
// 0,25,50,100; an empty list is none.
func ParseDRAShares(list string) ([]float64, error) {
	if list == "" {
		return nil, nil
	}
	var shares []float64
	for _, field := range strings.Split(list, ",") {
		percent, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || percent < 0 || percent > 100 {
			return nil, fmt.Errorf("-dra-shares: %+q is not a whole percentage from 0 to 100; give e.g. 0,25,50,100", field)
		}
		shares = append(shares, float64(percent)/100)
	}
	return shares, nil
}

// DRAShareRuns are one trace's results at each DRA share, in the shares'
// order, each with the policies' results in their order.
type DRAShareRuns [][]*Result

// RunDRAShares replays the scenario with each share of its servable nodes
// moved to DRA.
func RunDRAShares(ctx context.Context, scenario *Scenario, shares []float64, policies []ScoringPolicy, opts Options) (DRAShareRuns, error) {
	runs := make(DRAShareRuns, len(shares))
	for i, share := range shares {
		moved, _, _ := scenario.WithDRANodes(share)
		results, err := Compare(ctx, moved, policies, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", moved.Name, err)
		}
		runs[i] = results
	}
	return runs, nil
}

func strandedByMode(s Summary) float64 {
	return s.StrandedAverage[poddemand.StrandedKindNames[poddemand.StrandedMode]]
}

// ReportDRAShares prints the table and, with a plot directory, plots the
// stranding by mode in <plotDir>/<scenario>-dra-share.svg.
func ReportDRAShares(w io.Writer, plotDir string, scenario *Scenario, shares []float64, traces []DRAShareRuns) error {
	if err := writeDRAShareTable(w, scenario, shares, traces); err != nil {
		return err
	}
	if plotDir == "" {
		return nil
	}
	f, err := os.Create(filepath.Join(plotDir, scenario.Name+"-dra-share.svg"))
	if err != nil {
		return err
	}
	if err := writeDRASharePlot(f, scenario, shares, traces); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeDRAShareTable prints, per policy and share, the means over the traces
// and the paired difference from the first share, with its standard error.
func writeDRAShareTable(w io.Writer, scenario *Scenario, shares []float64, traces []DRAShareRuns) error {
	_, _, servable := scenario.WithDRANodes(0)
	fmt.Fprintf(w, "scenario %s: %d traces; DRA share of the %d of %d nodes the DRA driver can serve (vGPU nodes stay with the device plugins)\n",
		scenario.Name, len(traces), servable, len(scenario.Nodes))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tDRA SHARE\tDRA NODES\tSTRANDED BY MODE\tMINUS FIRST SHARE (MEAN ± SE)\tSTRANDED TOTAL\tMINUS FIRST SHARE (MEAN ± SE)\tPLACED GPU UNITS\tWAIT MEAN (s)")
	for policy, first := range traces[0][0] {
		for i, share := range shares {
			_, dra, _ := scenario.WithDRANodes(share)
			var mode, total, placed, wait float64
			modeDiff := make([]float64, len(traces))
			totalDiff := make([]float64, len(traces))
			for t, runs := range traces {
				s, base := runs[i][policy].Summary, runs[0][policy].Summary
				mode += strandedByMode(s)
				total += s.StrandedAverageTotal
				placed += float64(s.GPUUnitsPlaced)
				wait += s.WaitMeanSeconds
				modeDiff[t] = strandedByMode(s) - strandedByMode(base)
				totalDiff[t] = s.StrandedAverageTotal - base.StrandedAverageTotal
			}
			n := float64(len(traces))
			md, mse := MeanAndStandardError(modeDiff)
			td, tse := MeanAndStandardError(totalDiff)
			fmt.Fprintf(tw, "%s\t%.0f%%\t%d\t%.2f\t%+.2f ± %.2f\t%.2f\t%+.2f ± %.2f\t%.1f\t%.0f\n",
				first.Policy, 100*share, dra, mode/n, md, mse, total/n, td, tse, placed/n, wait/n)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

// writeDRASharePlot plots each policy's mean stranding by mode over the
// traces against the DRA share.
func writeDRASharePlot(w io.Writer, scenario *Scenario, shares []float64, traces []DRAShareRuns) error {
	var curves []Curve
	for policy, first := range traces[0][0] {
		c := Curve{Legend: first.Policy}
		for i, share := range shares {
			mode := 0.0
			for _, runs := range traces {
				mode += strandedByMode(runs[i][policy].Summary)
			}
			c.X = append(c.X, 100*share)
			c.Y = append(c.Y, mode/float64(len(traces)))
		}
		curves = append(curves, c)
	}
	return WriteCurveSVG(w, scenario.Name+": stranding by mode against the DRA share", "nodes the DRA driver can serve that it does (%)", "stranded units by mode (time average)", curves)
}
