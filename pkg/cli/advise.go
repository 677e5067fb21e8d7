package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/conversionplan"
)

// AdviseReport is the output of advise.
type AdviseReport struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Policy     string `json:"policy"`
	conversionplan.Report
}

const podsWanted = "the output of 'kubectl get pods -A -o json' (a PodList, a List of Pods, or one Pod), as JSON or YAML"

func newAdviseCommand(o *rootOptions) *cobra.Command {
	var src sourceFlags
	var podsFile string
	rules := advisor.DefaultDemandRules()
	cmd := &cobra.Command{
		Use:   "advise [--nodes NODES --pods PODS [--cluster-policy CP]]",
		Short: "Propose which empty GPU nodes to relabel so that pending GPU pods can run, with the commands and the simulated gain",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutputFormat(o.output); err != nil {
				return err
			}
			c, pods, err := clusterAndPods(cmd, o, src, podsFile)
			if err != nil {
				return err
			}
			fitArgs, _, err := deployedArgs(cmd.Context(), c.Client, "", o.inputs(cmd))
			if err != nil {
				return err
			}
			c.FollowScheduler(fitArgs)
			plan, err := conversionplan.Advise(cmd.Context(), &c.Cluster, pods, advisor.Narrowing{Demand: rules}, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			report := &AdviseReport{APIVersion: ReportAPIVersion, Kind: "AdviseReport", Policy: describePolicy(c.Policy), Report: *plan}
			return printAdviseReport(o.out, o.output, report)
		},
	}
	podSourceFlags(cmd, &src, &podsFile, "")
	cmd.Flags().StringVar(&src.dra, "dra", "", "DRA dump with --nodes: "+draWanted+"; without it DRA nodes count as nodes of the default mode")
	cmd.Flags().StringSliceVar(&rules.SchedulerNames, "scheduler-name", rules.SchedulerNames, "only pending pods of these schedulers count as demand, as for the mode controller")
	cmd.Flags().Int32Var(&rules.PriorityCutoff, "expendable-pods-priority-cutoff", rules.PriorityCutoff, "pending pods of a lower priority do not count as demand, as for the mode controller")
	return cmd
}

// clusterAndPods reads the cluster and every pod: from node and pod dumps
// given together, or live when neither is.
func clusterAndPods(cmd *cobra.Command, o *rootOptions, src sourceFlags, podsFile string) (*cluster, []*v1.Pod, error) {
	var c *cluster
	var pods []*v1.Pod
	var err error
	switch {
	case src.nodes != "" && podsFile != "":
		if c, err = loadOffline(src, o.inputs(cmd)); err == nil {
			pods, err = readPods(podsFile, o.inputs(cmd))
		}
	case src.nodes == "" && podsFile == "" && src.clusterPolicy == "":
		if c, err = loadLive(cmd.Context(), o.config, false); err == nil {
			pods, err = c.ListPods(cmd.Context())
		}
	default:
		err = usageErrorf("give --nodes and --pods (and optionally --cluster-policy) together, or none to read the live cluster")
	}
	return c, pods, err
}

// podSourceFlags are the flags of clusterAndPods' inputs.
func podSourceFlags(cmd *cobra.Command, src *sourceFlags, podsFile *string, podsNote string) {
	cmd.Flags().StringVar(&src.nodes, "nodes", "", "node dump instead of the live cluster: "+nodesWanted)
	cmd.Flags().StringVar(podsFile, "pods", "", "pod dump with --nodes: "+podsWanted+podsNote)
	cmd.Flags().StringVar(&src.clusterPolicy, "cluster-policy", "", "ClusterPolicy dump with --nodes; without it the GPU Operator's defaults apply")
}

func printAdviseReport(out io.Writer, format string, r *AdviseReport) error {
	if format != "table" {
		return printStructured(out, format, r)
	}
	if r.Prerequisite != "" {
		fmt.Fprintf(out, "First: %s\n\n", r.Prerequisite)
	}
	if len(r.Relabels) > 0 {
		w := newTable(out)
		w.row("NODE", "FROM", "TO", "ADVERTISES", "COMMAND")
		for _, x := range r.Relabels {
			to := string(x.To)
			if x.Profile != "" {
				to += " (" + x.Profile + ")"
			}
			w.row(x.Node, string(x.From), to, fmt.Sprintf("%d %s", x.Units, x.Resource), x.Command)
		}
		if err := w.flush(); err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	for _, d := range r.DrainFirst {
		fmt.Fprintf(out, "Not proposed: %s %s\n", d.Node, d.Advice)
	}
	for _, u := range r.Unserved {
		if u.Constraint != "" {
			fmt.Fprintf(out, "Still short: %d unit(s) of %s for pods with %s\n", u.Units, u.Resource, u.Constraint)
			continue
		}
		fmt.Fprintf(out, "Still short: %d unit(s) of %s\n", u.Units, u.Resource)
	}
	for _, x := range r.Kept {
		fmt.Fprintf(out, "Not proposed, kept for its own pods: %s %s -> %s (%d %s): its free units are the last of its %s resource beyond the reserve its pods keep\n", x.Node, x.From, x.To, x.Units, x.Resource, x.From)
	}
	for _, x := range r.Withdrawn {
		fmt.Fprintf(out, "Not proposed, no simulated gain: %s %s -> %s (%d %s)\n", x.Node, x.From, x.To, x.Units, x.Resource)
	}
	for _, u := range r.Unservable {
		fmt.Fprintf(out, "No relabel helps %s: %s\n", u.Pod, u.Why)
	}
	for _, u := range r.LeftOut {
		fmt.Fprintf(out, "Not counted as demand: %s: %s\n", u.Pod, u.Why)
	}
	_, err := fmt.Fprintln(out, r.Summary)
	return err
}
