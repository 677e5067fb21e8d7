// Command traces compares the scoring policies over more than the shipped
// traces: each shipped scenario replayed with its own trace and with traces
// drawn from other seeds, reported as means and as the number of traces each
// policy wins alone. One trace is one sample of a chaotic process (which node
// happens to drain first decides a relabel); docs/simulation.md explains
// why the comparison rests on the means.
//
// With -dra-shares it measures instead what moving nodes to the DRA driver
// is worth: each trace replayed with each share of the nodes the driver can
// serve published through DRA, reported as the stranding by mode and its
// paired difference from the first share.
//
// With -controller it measures the mode controller's policy instead: each
// trace of the scenarios that run the advisor replayed with the advisor's
// plans applied at once (by hand, at the advisor's interval) and with the
// controller's hysteresis and rate limit, reported as the paired difference.
//
//	go run ./test/sim/traces [-seeds 11-50] [-dir DIR] [-scenarios drift] [-dra-shares 0,25,50,100 -policies default,gpu-stranding -plot-dir DIR]
//	go run ./test/sim/traces -controller [-demand-wait 10m -idle-for 30m -max-conversions 2 -window 1h] -scenarios drift,vgpu-profiles -policies gpu-stranding
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
	"github.com/gpu-workload-scheduler/scheduler/pkg/sim"
	"github.com/gpu-workload-scheduler/scheduler/test/sim/scenariogen"
)

type options struct {
	seeds, dir, shipped, scenarios, policies, draShares, plotDir string
	// controller, when set, compares the controller's policy with these
	// options against the advisor by hand.
	controller *modecontroller.Options
}

func main() {
	var o options
	flag.StringVar(&o.seeds, "seeds", "11-50", "seeds of the extra traces: comma-separated numbers or ranges (11-50)")
	flag.StringVar(&o.dir, "dir", "", "directory to keep the extra traces in, as <scenario>-s<seed>/ (default: a temporary directory, removed)")
	flag.StringVar(&o.shipped, "shipped", "test/sim/scenarios", "directory of the shipped scenarios")
	flag.StringVar(&o.scenarios, "scenarios", "", "comma-separated subset of the shipped scenarios (default: all)")
	flag.StringVar(&o.policies, "policies", "", "comma-separated subset of the simulator's policies (default: all)")
	flag.StringVar(&o.draShares, "dra-shares", "", "percentages of the nodes the DRA driver can serve to publish through DRA, e.g. 0,25,50,100: measure the DRA share instead of comparing the policies")
	flag.StringVar(&o.plotDir, "plot-dir", "", "with -dra-shares, directory for <scenario>-dra-share.svg")
	controller := flag.Bool("controller", false, "compare the mode controller's policy with the advisor by hand, on the scenarios that run the advisor")
	c := modecontroller.Defaults()
	c.Operation = modecontroller.IdleOnly
	flag.DurationVar(&c.DemandWait, "demand-wait", c.DemandWait, "with -controller, its --demand-wait")
	flag.DurationVar(&c.IdleFor, "idle-for", c.IdleFor, "with -controller, its --idle-for")
	flag.IntVar(&c.MaxConversions, "max-conversions", c.MaxConversions, "with -controller, its --max-conversions")
	flag.DurationVar(&c.Window, "window", c.Window, "with -controller, its --window")
	flag.DurationVar(&c.NodeCooldown, "node-cooldown", c.NodeCooldown, "with -controller, its --node-cooldown")
	flag.Parse()
	if *controller {
		o.controller = &c
	}
	if err := run(os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "traces:", err)
		os.Exit(1)
	}
}

func run(out io.Writer, o options) error {
	seeds, err := parseSeeds(o.seeds)
	if err != nil {
		return err
	}
	specs, err := selectedScenarios(o.scenarios)
	if err != nil {
		return err
	}
	policies, err := sim.ScoringPoliciesByName(o.policies)
	if err != nil {
		return fmt.Errorf("-policies: %w", err)
	}
	shares, err := sim.ParseDRAShares(o.draShares)
	if err != nil {
		return err
	}
	dir := o.dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "traces")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	opts, err := sim.ShippedOptions()
	if err != nil {
		return err
	}
	ctx := klog.NewContext(context.Background(), logr.Discard())
	for _, spec := range specs {
		paths := []string{filepath.Join(o.shipped, spec.Name, "scenario.yaml")}
		for _, seed := range seeds {
			trace := spec.WithSeed(seed)
			if err := scenariogen.Write(dir, trace); err != nil {
				return err
			}
			paths = append(paths, filepath.Join(dir, trace.Name, "scenario.yaml"))
		}
		var runs [][]*sim.Result
		var draRuns []sim.DRAShareRuns
		var first *sim.Scenario
		for _, path := range paths {
			scenario, advisor, err := sim.LoadScenario(path, inputlimit.Default)
			if err != nil {
				return err
			}
			if first == nil {
				first = scenario
			}
			opts.Advisor = advisor
			if o.controller != nil {
				if advisor == nil {
					return fmt.Errorf("%s: -controller: the scenario does not run the advisor; choose among those that do with -scenarios", path)
				}
				byHand, err := sim.Compare(ctx, scenario, policies, opts)
				if err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
				withController := *advisor
				c := *o.controller
				c.Interval = advisor.Interval
				withController.Controller = &c
				controlled := opts
				controlled.Advisor = &withController
				results, err := sim.Compare(ctx, scenario, policies, controlled)
				if err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
				runs = append(runs, append(byHand, results...))
				continue
			}
			if shares != nil {
				r, err := sim.RunDRAShares(ctx, scenario, shares, policies, opts)
				if err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
				draRuns = append(draRuns, r)
				continue
			}
			results, err := sim.Compare(ctx, scenario, policies, opts)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			runs = append(runs, results)
		}
		if shares != nil {
			if err := sim.ReportDRAShares(out, o.plotDir, first, shares, draRuns); err != nil {
				return err
			}
			continue
		}
		if o.controller != nil {
			if err := writeControllerTable(out, spec.Name, seeds, *o.controller, runs); err != nil {
				return err
			}
			continue
		}
		if err := writeTable(out, spec.Name, seeds, runs); err != nil {
			return err
		}
	}
	return nil
}

func selectedScenarios(list string) ([]scenariogen.Spec, error) {
	shipped := scenariogen.Shipped()
	if list == "" {
		return shipped, nil
	}
	var names []string
	for _, s := range shipped {
		names = append(names, s.Name)
	}
	var out []scenariogen.Spec
	for _, name := range strings.Split(list, ",") {
		i := slices.Index(names, name)
		if i < 0 {
			return nil, fmt.Errorf("-scenarios: %+q is not a shipped scenario; valid ones are %s", name, strings.Join(names, ","))
		}
		out = append(out, shipped[i])
	}
	return out, nil
}

// parseSeeds reads comma-separated seeds and inclusive ranges: "11-14,20".
func parseSeeds(list string) ([]uint64, error) {
	var seeds []uint64
	for _, field := range strings.Split(list, ",") {
		first, last, isRange := strings.Cut(strings.TrimSpace(field), "-")
		from, err := strconv.ParseUint(first, 10, 64)
		to := from
		if err == nil && isRange {
			to, err = strconv.ParseUint(last, 10, 64)
		}
		if err != nil || to < from {
			return nil, fmt.Errorf("-seeds: %+q is neither a whole number nor a range like 11-50", field)
		}
		for seed := from; seed <= to; seed++ {
			seeds = append(seeds, seed)
		}
	}
	return seeds, nil
}

// writeTable prints, per policy, the means over the traces and the number
// of traces in which the policy alone strands fewest units or places most.
func writeTable(out io.Writer, name string, seeds []uint64, runs [][]*sim.Result) error {
	fmt.Fprintf(out, "scenario %s: %d traces (the shipped one and seeds %s)\n", name, len(runs), joinSeeds(seeds))
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tSTRANDED AVG (MEAN)\tPLACED GPU UNITS (MEAN)\tFEWEST STRANDED\tMOST PLACED")
	for i, r := range runs[0] {
		var stranded, placed, share float64
		var fewest, most int
		for _, results := range runs {
			s := results[i].Summary
			stranded += s.StrandedAverageTotal
			placed += float64(s.GPUUnitsPlaced)
			share += s.PlacedShare
			if alone(results, i, func(a, b sim.Summary) bool { return a.StrandedAverageTotal < b.StrandedAverageTotal }) {
				fewest++
			}
			if alone(results, i, func(a, b sim.Summary) bool { return a.GPUUnitsPlaced > b.GPUUnitsPlaced }) {
				most++
			}
		}
		n := float64(len(runs))
		fmt.Fprintf(tw, "%s\t%.2f\t%.1f (%.2f%%)\t%d/%d\t%d/%d\n", r.Policy, stranded/n, placed/n, 100*share/n, fewest, len(runs), most, len(runs))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeDifferences(out, runs)
}

// writeDifferences prints, against each other policy, GPUStranding's mean
// difference per trace with its standard error: a difference within about
// two standard errors of zero is not one the traces can tell.
func writeDifferences(out io.Writer, runs [][]*sim.Result) error {
	ours := sim.IndexOfPolicy(runs[0], sim.GPUStrandingPolicy)
	if ours < 0 {
		_, err := fmt.Fprintln(out)
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GPU-STRANDING MINUS	STRANDED (MEAN ± SE)	PLACED UNITS (MEAN ± SE)")
	for i, r := range runs[0] {
		if i == ours {
			continue
		}
		stranded := make([]float64, len(runs))
		placed := make([]float64, len(runs))
		for t, results := range runs {
			stranded[t] = results[ours].Summary.StrandedAverageTotal - results[i].Summary.StrandedAverageTotal
			placed[t] = float64(results[ours].Summary.GPUUnitsPlaced - results[i].Summary.GPUUnitsPlaced)
		}
		sm, se := sim.MeanAndStandardError(stranded)
		pm, pe := sim.MeanAndStandardError(placed)
		fmt.Fprintf(tw, "%s	%+.2f ± %.2f	%+.1f ± %.1f\n", r.Policy, sm, se, pm, pe)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(out)
	return err
}

// writeControllerTable prints, per policy, the means of the advisor by hand
// and of the controller, and the controller's paired difference per trace
// with its standard error. Each run holds the by-hand results, then the
// controller's, policy by policy.
func writeControllerTable(out io.Writer, name string, seeds []uint64, c modecontroller.Options, runs [][]*sim.Result) error {
	fmt.Fprintf(out, "scenario %s: %d traces (the shipped one and seeds %s); controller --demand-wait=%s --idle-for=%s --max-conversions=%d --window=%s --node-cooldown=%s\n",
		name, len(runs), joinSeeds(seeds), c.DemandWait, c.IdleFor, c.MaxConversions, c.Window, c.NodeCooldown)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POLICY\tPLACED UNITS (MEAN)\tSTRANDED AVG (MEAN)\tRELABELS (MEAN)\tREVERSALS (MEAN)\tCONTROLLER MINUS BY HAND: PLACED\tSTRANDED\tRELABELS")
	policies := len(runs[0]) / 2
	for i := range 2 * policies {
		var placed, stranded, relabels, reversals float64
		for _, results := range runs {
			s := results[i]
			placed += float64(s.Summary.GPUUnitsPlaced)
			stranded += s.Summary.StrandedAverageTotal
			relabels += float64(len(s.Relabels))
			reversals += float64(s.Summary.Reversals)
		}
		n := float64(len(runs))
		fmt.Fprintf(tw, "%s\t%.1f\t%.2f\t%.1f\t%.2f", runs[0][i].Policy, placed/n, stranded/n, relabels/n, reversals/n)
		if i < policies {
			fmt.Fprintln(tw, "\t\t\t")
			continue
		}
		diff := func(of func(*sim.Result) float64) string {
			d := make([]float64, len(runs))
			for t, results := range runs {
				d[t] = of(results[i]) - of(results[i-policies])
			}
			m, se := sim.MeanAndStandardError(d)
			return fmt.Sprintf("%+.1f ± %.1f", m, se)
		}
		fmt.Fprintf(tw, "\t%s\t%s\t%s\n",
			diff(func(r *sim.Result) float64 { return float64(r.Summary.GPUUnitsPlaced) }),
			diff(func(r *sim.Result) float64 { return r.Summary.StrandedAverageTotal }),
			diff(func(r *sim.Result) float64 { return float64(len(r.Relabels)) }))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(out)
	return err
}

// alone reports whether result i beats every other result by better.
func alone(results []*sim.Result, i int, better func(a, b sim.Summary) bool) bool {
	for j, r := range results {
		if j != i && !better(results[i].Summary, r.Summary) {
			return false
		}
	}
	return true
}

func joinSeeds(seeds []uint64) string {
	out := make([]string, len(seeds))
	for i, s := range seeds {
		out[i] = strconv.FormatUint(s, 10)
	}
	return strings.Join(out, ", ")
}
