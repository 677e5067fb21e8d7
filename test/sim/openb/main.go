// Command openb compares the scoring policies on scenarios built from the
// Alibaba openb GPU trace (cluster-trace-gpu-v2023) by FGD's method: tasks
// drawn with replacement, no departures, until the GPUs requested reach 130%
// of the cluster's; several seeded draws, reported as means and as
// GPUStranding's paired differences with their standard errors, and the
// share of GPUs allocated as the arrived workload grows, plotted per policy.
// docs/simulation.md documents every mapping choice.
//
// With -dra-shares it measures instead what moving nodes to the DRA driver
// is worth: each draw replayed with each share of the nodes the driver can
// serve published through DRA (sim.RunDRAShares).
//
// -pods runs another task list of the trace, such as the gpuspec lists,
// whose tasks name the cards they accept; scenarios are named after it. On
// such a list the three-mode mapping keeps each node's card, so that the
// pins mean something.
//
//	go run ./test/sim/openb [-data ../shared/data/openb] [-pods FILE] [-nodes FILE] [-draws 10] [-out docs/simulation] [-scenarios openb-three-mode -dra-shares 0,25,50,100] [-percentage-of-nodes-to-score 5]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
	"github.com/gpu-workload-scheduler/scheduler/pkg/sim"
)

func main() {
	data := flag.String("data", "../shared/data/openb", "directory of the openb trace's node and task lists")
	pods := flag.String("pods", "", "the task list (default: "+taskFile+" in -data), e.g. openb_pod_list_gpuspec10.csv; scenarios are named after it")
	nodes := flag.String("nodes", "", "the node list (default: "+nodeFile+" in -data)")
	draws := flag.Int("draws", 10, "seeded draws per scenario (seeds 1 to draws)")
	inflation := flag.Float64("inflation", 1.3, "GPUs requested per draw, as a multiple of the cluster's GPUs")
	out := flag.String("out", "", "directory for openb.txt and the allocation plots (default: the table on standard output only)")
	only := flag.String("scenarios", "", "comma-separated subset of "+scenarioNames(taskListName(taskFile))+" for the default task list, named after -pods for another (default: all)")
	policies := flag.String("policies", "", "comma-separated subset of the simulator's policies (default: all)")
	controller := flag.Bool("controller", false, "with the advisor's mappings, run each policy also with the mode controller's shipped policy in idleOnly (gpu-workload-controller's defaults) and report both, paired")
	draShares := flag.String("dra-shares", "", "percentages of the nodes the DRA driver can serve to publish through DRA, e.g. 0,25,50,100: measure the DRA share instead of comparing the policies: the table on standard output, the plots in -out as <scenario>-dra-share.svg")
	percentage := flag.Int("percentage-of-nodes-to-score", -1, "kube-scheduler's percentageOfNodesToScore in place of the shipped configuration's: 1 to 100, or 0 for kube-scheduler's adaptive default (default: the shipped configuration's)")
	flag.Parse()
	o := options{data: *data, pods: *pods, nodes: *nodes, draws: *draws, inflation: *inflation, out: *out, only: *only, policies: *policies, draShares: *draShares, controller: *controller}
	if *percentage != -1 {
		o.percentage = ptr.To(int32(*percentage))
	}
	if err := run(os.Stdout, o); err != nil {
		fmt.Fprintln(os.Stderr, "openb:", err)
		os.Exit(1)
	}
}

type options struct {
	data string
	// pods and nodes override the lists in data.
	pods, nodes string
	draws       int
	inflation   float64
	out         string
	only        string
	policies    string
	draShares   string
	// controller adds the mode controller's runs to the advisor's.
	controller bool
	// percentage, when set, replaces the shipped percentageOfNodesToScore;
	// 0 is kube-scheduler's adaptive default.
	percentage *int32
}

func scenarioNames(list string) string {
	names := make([]string, len(mappings))
	for i, m := range mappings {
		names[i] = m.name(list)
	}
	return strings.Join(names, ",")
}

func selected(only, list string) ([]mapping, error) {
	if only == "" {
		return mappings, nil
	}
	var out []mapping
	for _, name := range strings.Split(only, ",") {
		i := slices.IndexFunc(mappings, func(m mapping) bool { return m.name(list) == name })
		if i < 0 {
			return nil, fmt.Errorf("-scenarios: %+q is unknown; valid scenarios for the task list %s are %s", name, list, scenarioNames(list))
		}
		out = append(out, mappings[i])
	}
	return out, nil
}

// or is path, or file in dir when path is empty.
func or(path, dir, file string) string {
	if path != "" {
		return path
	}
	return filepath.Join(dir, file)
}

func run(stdout io.Writer, o options) error {
	if o.draws < 2 {
		return fmt.Errorf("-draws %d: want at least 2, for standard errors", o.draws)
	}
	if o.inflation <= 0 || o.inflation > 10 {
		return fmt.Errorf("-inflation %v: want more than 0 and at most 10, e.g. 1.3", o.inflation)
	}
	if p := o.percentage; p != nil && (*p < 0 || *p > 100) {
		return fmt.Errorf("-percentage-of-nodes-to-score %d: want a whole percentage from 1 to 100, 0 for kube-scheduler's adaptive default, or -1 for the shipped configuration's", *p)
	}
	podsPath, nodesPath := or(o.pods, o.data, taskFile), or(o.nodes, o.data, nodeFile)
	list := taskListName(podsPath)
	chosen, err := selected(o.only, list)
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
	nodes, err := readNodes(nodesPath)
	if err != nil {
		return err
	}
	tasks, err := readTasks(podsPath)
	if err != nil {
		return err
	}
	shipped, err := sim.ShippedOptions()
	if err != nil {
		return err
	}
	if o.percentage != nil {
		shipped.Percentage = o.percentage
	}
	ctx := klog.NewContext(context.Background(), logr.Discard())
	var report strings.Builder
	w := io.MultiWriter(stdout, &report)
	for _, m := range chosen {
		m = m.forTasks(tasks)
		name := m.name(list)
		specs, gpus, err := cluster(m, nodes)
		if err != nil {
			return err
		}
		opts := shipped
		if m.advisor {
			opts.Advisor = &sim.AdvisorOptions{Interval: sim.DefaultAdvisorInterval, Conversion: sim.DefaultAdvisorConversion}
		}
		var controlled sim.Options
		if o.controller && m.advisor {
			c := modecontroller.Defaults()
			c.Operation, c.Interval = modecontroller.IdleOnly, sim.DefaultAdvisorInterval
			controlled = shipped
			controlled.Advisor = &sim.AdvisorOptions{Interval: sim.DefaultAdvisorInterval, Conversion: sim.DefaultAdvisorConversion, Controller: &c}
		}
		var runs []drawResult
		var draRuns []sim.DRAShareRuns
		relabels := map[string]int{}
		for seed := 1; seed <= o.draws; seed++ {
			d, err := inflate(m, tasks, gpus, o.inflation, rand.New(rand.NewPCG(uint64(seed), 0)))
			if err != nil {
				return err
			}
			scenario := &sim.Scenario{Name: fmt.Sprintf("%s-s%d", name, seed), Nodes: specs, Pods: d.pods, Policy: sim.EnabledSandboxPolicy()}
			if shares != nil {
				r, err := sim.RunDRAShares(ctx, scenario, shares, policies, opts)
				if err != nil {
					return err
				}
				draRuns = append(draRuns, r)
				var figures []string
				for i, share := range shares {
					for _, res := range r[i] {
						figures = append(figures, fmt.Sprintf("%s at %.0f%% stranded %.2f", res.Policy, 100*share, res.Summary.StrandedAverageTotal))
					}
				}
				fmt.Fprintf(os.Stderr, "%s: draw %d of %d done: %s\n", name, seed, o.draws, strings.Join(figures, ", "))
				continue
			}
			results, err := sim.Compare(ctx, scenario, policies, opts)
			if err != nil {
				return fmt.Errorf("%s: %w", scenario.Name, err)
			}
			if controlled.Advisor != nil {
				more, err := sim.Compare(ctx, scenario, policies, controlled)
				if err != nil {
					return fmt.Errorf("%s: %w", scenario.Name, err)
				}
				results = append(results, more...)
			}
			for _, r := range results {
				relabels[r.Policy] += len(r.Relabels)
			}
			runs = append(runs, measure(results, d, gpus, o.inflation))
			figures := make([]string, len(results))
			for i, res := range results {
				last := runs[len(runs)-1]
				figures[i] = fmt.Sprintf("%s stranded %.2f allocated %.0f (%.2f%% at 100%% arrived)", res.Policy, res.Summary.StrandedAverageTotal, last.allocated[i], 100*last.atFull[i])
			}
			fmt.Fprintf(os.Stderr, "%s: draw %d of %d done: %s\n", name, seed, o.draws, strings.Join(figures, ", "))
		}
		if shares != nil {
			if err := sim.ReportDRAShares(w, o.out, &sim.Scenario{Name: name, Nodes: specs}, shares, draRuns); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(w, "scenario %s: %d nodes, %.0f GPUs, %d draws to %.0f%% (seeds 1-%d), %.0f pods per draw on average, %.1f%% of them with a gpu_spec\n%s.\n",
			name, len(nodes), gpus, o.draws, 100*o.inflation, o.draws, meanPods(runs), meanConstrained(runs), m.description)
		if err := writeTable(w, runs); err != nil {
			return err
		}
		if controlled.Advisor != nil {
			for _, p := range runs[0].policies {
				fmt.Fprintf(w, "relabels %s: %.1f per draw\n", p, float64(relabels[p])/float64(len(runs)))
			}
			fmt.Fprintln(w)
		}
		if o.out != "" {
			if err := writePlot(filepath.Join(o.out, name+"-allocation.svg"), name, runs); err != nil {
				return err
			}
		}
	}
	if o.out == "" || shares != nil {
		return nil
	}
	return os.WriteFile(filepath.Join(o.out, "openb-"+list+".txt"), []byte(report.String()), 0o644)
}
