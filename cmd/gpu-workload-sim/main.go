// Command gpu-workload-sim replays timed workloads through the scheduler
// framework with the shipped configuration and compares scoring policies by
// the GPU inventory they strand. See docs/simulation.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/klog/v2"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/manifests/install"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
	"github.com/gpu-workload-scheduler/scheduler/pkg/sim"
	"github.com/gpu-workload-scheduler/scheduler/pkg/version"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gpu-workload-sim:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// parseInterspersed accepts flags before, between and after the scenario
// files, so that "gpu-workload-sim s.yaml -o json" means what it says
// instead of taking -o for a file after the whole run. After "--" every
// argument is a file.
func parseInterspersed(fs *flag.FlagSet, args []string) (files []string, err error) {
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return files, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(files, rest...), nil
		}
		files = append(files, rest[0])
		args = rest[1:]
	}
}

type options struct {
	nodes, pods string
	config      string
	policies    string
	advisor     string
	interval    time.Duration
	conversion  time.Duration
	output      string
	jsonFile    string
	plotDir     string
	noShortcuts bool
	// maxInput is the bytes --max-input-size allows one input file.
	maxInput int64
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gpu-workload-sim", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.nodes, "nodes", "", "cluster description (CSV or YAML), instead of a scenario file")
	fs.StringVar(&o.pods, "pods", "", "timed workload (CSV or YAML), with --nodes")
	fs.StringVar(&o.config, "config", "", "ConfigMap or KubeSchedulerConfiguration to run (default: the shipped "+install.ConfigMapFile+")")
	fs.StringVar(&o.policies, "policies", "", "comma-separated policies to compare (default: all):"+policyList())
	fs.StringVar(&o.advisor, "advisor", "", "run the mode advisor: off, on, or both (each policy with and without); default: on when the scenario configures it, else off")
	fs.DurationVar(&o.interval, "advisor-interval", sim.DefaultAdvisorInterval, "how often the advisor looks, unless the scenario says")
	fs.DurationVar(&o.conversion, "advisor-conversion", sim.DefaultAdvisorConversion, "how long a relabelled node advertises nothing, unless the scenario says")
	fs.StringVar(&o.output, "o", "table", "output: table or json")
	fs.StringVar(&o.jsonFile, "json", "", "also write the JSON report to this file")
	fs.BoolVar(&o.noShortcuts, "no-shortcuts", false, "run the whole profile on every node for every pod, without the simulator's three shortcuts (docs/simulation.md): the same results, slower")
	fs.StringVar(&o.plotDir, "plot-dir", "", "write <scenario>.svg, stranded units over time per policy, to this directory")
	maxInputSize := fs.String(strings.TrimPrefix(inputlimit.Flag, "--"), resource.NewQuantity(inputlimit.Default, resource.BinarySI).String(),
		"the most one input file may hold, such as 512Mi; a larger one is an error before it is read whole")
	showVersion := fs.Bool("version", false, "print the version")
	verbose := fs.Bool("log", false, "log the scheduler framework's messages to standard error")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: gpu-workload-sim [flags] SCENARIO.yaml...\n       gpu-workload-sim [flags] --nodes NODES --pods PODS\n\n")
		fs.PrintDefaults()
	}
	scenarioFiles, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *showVersion {
		fmt.Fprintln(stdout, version.String("gpu-workload-sim"))
		return nil
	}
	if o.maxInput, err = inputlimit.Parse(*maxInputSize); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if o.output != "table" && o.output != "json" {
		return fmt.Errorf("%w: -o %+q: want table or json", errUsage, o.output)
	}
	if (o.nodes == "") != (o.pods == "") || (o.nodes != "") == (len(scenarioFiles) > 0) {
		fs.Usage()
		return fmt.Errorf("%w: give scenario files, or --nodes and --pods", errUsage)
	}
	if !slices.Contains([]string{"", "off", "on", "both"}, o.advisor) {
		return fmt.Errorf("%w: --advisor %+q: want off, on or both", errUsage, o.advisor)
	}
	if err := (sim.AdvisorOptions{Interval: o.interval, Conversion: o.conversion}).Validate("--advisor-interval", "--advisor-conversion"); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	policies, err := sim.ScoringPoliciesByName(o.policies)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	configData, configSource, err := schedulerConfiguration(o.config, o.maxInput)
	if err != nil {
		return err
	}
	profile, percentage, err := placement.LoadProfile(configData, configSource)
	if err != nil {
		return err
	}
	scheduler := placement.Options{Profile: profile, Percentage: percentage,
		KeepIdlePlugins: o.noShortcuts, FilterEveryNode: o.noShortcuts, FilterEveryTime: o.noShortcuts}
	logger := logr.Discard()
	if *verbose {
		logger = klog.Background()
	}
	ctx = klog.NewContext(ctx, logger)
	// Every input is loaded and every output opened before the first run:
	// a mistake found after minutes of simulation would lose the results.
	type input struct {
		scenario *sim.Scenario
		advisor  *sim.AdvisorOptions
	}
	var inputs []input
	for _, item := range scenarioInputs(o, scenarioFiles) {
		scenario, advisor, err := item()
		if err != nil {
			return err
		}
		inputs = append(inputs, input{scenario, advisor})
	}
	if o.plotDir != "" {
		if err := os.MkdirAll(o.plotDir, 0o755); err != nil {
			return fmt.Errorf("--plot-dir: %w", err)
		}
	}
	var jsonOut *os.File
	if o.jsonFile != "" {
		if jsonOut, err = os.Create(o.jsonFile); err != nil {
			return fmt.Errorf("--json: %w", err)
		}
		defer jsonOut.Close()
	}
	var reports []sim.Report
	for _, in := range inputs {
		scenario, advisor := in.scenario, in.advisor
		started := time.Now()
		var results []*sim.Result
		for _, advisorOpts := range advisorRuns(o, advisor) {
			rs, err := sim.Compare(ctx, scenario, policies, sim.Options{Options: scheduler, Advisor: advisorOpts})
			if err != nil {
				return fmt.Errorf("scenario %s: %w", scenario.Name, err)
			}
			results = append(results, rs...)
		}
		fmt.Fprintf(stderr, "scenario %s: %d nodes, %d pods, %d runs in %s\n", scenario.Name, len(scenario.Nodes), len(scenario.Pods), len(results), time.Since(started).Round(time.Millisecond))
		if o.plotDir != "" {
			if err := writePlot(o.plotDir, scenario, results); err != nil {
				return err
			}
		}
		if o.output == "table" {
			if err := sim.WriteTable(stdout, scenario, results); err != nil {
				return err
			}
			fmt.Fprintln(stdout)
		}
		reports = append(reports, sim.NewReport(scenario, results))
	}
	if jsonOut != nil {
		if err := writeJSON(jsonOut, reports); err != nil {
			return err
		}
		if err := jsonOut.Close(); err != nil {
			return err
		}
	}
	if o.output == "json" {
		return writeJSON(stdout, reports)
	}
	return nil
}

func writeJSON(w io.Writer, reports []sim.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(reports)
}

func policyList() string {
	var b strings.Builder
	for _, p := range sim.ScoringPolicies {
		fmt.Fprintf(&b, "\n  %s: %s", p.Name, p.Description)
	}
	return b.String()
}

// schedulerConfiguration reads --config: a ConfigMap holding config.yaml, or
// the configuration itself.
func schedulerConfiguration(path string, limit int64) ([]byte, string, error) {
	if path == "" {
		data, err := install.SchedulerConfiguration()
		return data, install.ConfigMapFile, err
	}
	data, err := inputlimit.ReadFile(path, limit)
	if err != nil {
		return nil, "", err
	}
	var probe struct {
		Kind string `json:"kind"`
	}
	if err := yaml.Unmarshal(data, &probe); err != nil {
		return nil, "", fmt.Errorf("--config %s: %w", path, err)
	}
	if probe.Kind == "ConfigMap" {
		data, err = install.SchedulerConfigurationOf(data, path)
		return data, path, err
	}
	return data, path, nil
}

type scenarioLoader func() (*sim.Scenario, *sim.AdvisorOptions, error)

func scenarioInputs(o options, paths []string) []scenarioLoader {
	if o.nodes != "" {
		return []scenarioLoader{func() (*sim.Scenario, *sim.AdvisorOptions, error) {
			s, err := sim.NewScenario(filepath.Base(o.pods), o.nodes, o.pods, o.maxInput)
			return s, nil, err
		}}
	}
	var out []scenarioLoader
	for _, p := range paths {
		out = append(out, func() (*sim.Scenario, *sim.AdvisorOptions, error) { return sim.LoadScenario(p, o.maxInput) })
	}
	return out
}

// advisorRuns lists the advisor settings to run each policy with: nil is
// without the advisor.
func advisorRuns(o options, fromScenario *sim.AdvisorOptions) []*sim.AdvisorOptions {
	opts := fromScenario
	if opts == nil {
		opts = &sim.AdvisorOptions{Interval: o.interval, Conversion: o.conversion}
	}
	mode := o.advisor
	if mode == "" {
		mode = "off"
		if fromScenario != nil {
			mode = "on"
		}
	}
	switch mode {
	case "on":
		return []*sim.AdvisorOptions{opts}
	case "both":
		return []*sim.AdvisorOptions{nil, opts}
	}
	return []*sim.AdvisorOptions{nil}
}

func writePlot(dir string, scenario *sim.Scenario, results []*sim.Result) error {
	f, err := os.Create(filepath.Join(dir, plotFileName(scenario.Name)))
	if err != nil {
		return err
	}
	if err := sim.WriteSVG(f, scenario, results); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// plotFileName makes a scenario name a file name inside the plot directory:
// characters other than letters, digits, '-', '_' and '.' become '_', and a
// name of dots only cannot climb out.
func plotFileName(scenario string) string {
	name := strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.') {
			return r
		}
		return '_'
	}, scenario)
	if strings.Trim(name, ".") == "" {
		name = "scenario" + name
	}
	return name + ".svg"
}
