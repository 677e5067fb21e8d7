package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterview"
	"github.com/gpu-workload-scheduler/scheduler/pkg/explanation"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inventory"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// InventoryReport is the output of inventory: the numbers the scheduler's
// gpu_workload_ metrics give.
type InventoryReport struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Policy     string `json:"policy"`
	inventory.Report
}

func newInventoryCommand(o *rootOptions) *cobra.Command {
	var src sourceFlags
	var podsFile string
	cmd := &cobra.Command{
		Use:   "inventory [--nodes NODES --pods PODS [--cluster-policy CP]]",
		Short: "GPU units per mode and resource (allocatable, allocated, free, stranded), GPU nodes by state, empty nodes and waiting GPU pods: the scheduler's gpu_workload_ metrics",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutputFormat(o.output); err != nil {
				return err
			}
			c, pods, err := clusterAndPods(cmd, o, src, podsFile)
			if err != nil {
				return err
			}
			codes := map[types.UID]string{}
			if c.Live {
				if codes, err = explainedReasons(cmd.Context(), c); err != nil {
					return err
				}
			}
			fitArgs, _, err := deployedArgs(cmd.Context(), c.Client, "", o.inputs(cmd))
			if err != nil {
				return err
			}
			if err := c.ReadAs(clusterview.SchedulerView(fitArgs)); err != nil {
				return err
			}
			_, state, err := offlinePlugin(cmd.Context(), c, fitArgs)
			if err != nil {
				return err
			}
			report := &InventoryReport{APIVersion: ReportAPIVersion, Kind: "InventoryReport", Policy: describePolicy(c.Policy),
				Report: state.InventoryOf(cmd.Context(), c.Nodes, pods, []string{placement.ProfileName}, func(p *v1.Pod) string { return codes[p.UID] })}
			return printInventory(o.out, o.output, report)
		},
	}
	podSourceFlags(cmd, &src, &podsFile, "; waiting pods then count as "+inventory.Unexplained)
	cmd.Flags().StringVar(&src.dra, "dra", "", "DRA dump with --nodes: "+draWanted+"; without it DRA nodes show no devices")
	return cmd
}

// explainedReasons is, by pod, the reason code of the latest explanation
// the scheduler recorded (its gpu-workload.io/reason-code annotation).
func explainedReasons(ctx context.Context, c *cluster) (map[types.UID]string, error) {
	list, err := c.Client.EventsV1().Events("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	latest := map[types.UID]*eventsv1.Event{}
	for i := range list.Items {
		e := &list.Items[i]
		if e.Reason != reasons.EventReasonUnschedulable {
			continue
		}
		if prev := latest[e.Regarding.UID]; prev == nil || lastSeen(e).After(lastSeen(prev)) {
			latest[e.Regarding.UID] = e
		}
	}
	codes := make(map[types.UID]string, len(latest))
	for uid, e := range latest {
		codes[uid] = e.Annotations[explanation.AnnotationReasonCode]
	}
	return codes, nil
}

func lastSeen(e *eventsv1.Event) time.Time {
	if e.Series != nil {
		return e.Series.LastObservedTime.Time
	}
	return e.EventTime.Time
}

func printInventory(out io.Writer, format string, r *InventoryReport) error {
	if format != "table" {
		return printStructured(out, format, r)
	}
	w := newTable(out)
	w.row("MODE", "RESOURCE", "ALLOCATABLE", "ALLOCATED", "FREE", "STRANDED ("+strings.Join(poddemand.StrandedKindNames[:], " / ")+")")
	for _, res := range r.Resources {
		stranded := make([]string, len(poddemand.StrandedKindNames))
		for i, kind := range poddemand.StrandedKindNames {
			stranded[i] = fmt.Sprint(res.Stranded[kind])
		}
		strandedColumn := strings.Join(stranded, " / ")
		if res.DRA {
			strandedColumn = fmt.Sprintf("- (DRA devices: %d tainted, %d sibling in use)", res.Tainted, res.SiblingInUse)
		}
		allocated := fmt.Sprint(res.Allocated)
		if res.HeldByOtherSchedulers > 0 {
			allocated += fmt.Sprintf(" (%d by other schedulers)", res.HeldByOtherSchedulers)
		}
		if res.OverCommitted > 0 {
			allocated += fmt.Sprintf(" (%d over-committed)", res.OverCommitted)
		}
		free := fmt.Sprint(res.Free)
		if res.Unavailable > 0 {
			free += fmt.Sprintf(" (%d unavailable)", res.Unavailable)
		}
		w.row(string(res.Mode), string(res.Resource), fmt.Sprint(res.Allocatable), allocated, free, strandedColumn)
	}
	w.row()
	w.row("MODE", "READY", "CONVERTING", "MISMATCHED", "EMPTY")
	for _, m := range r.Modes {
		w.row(string(m.Mode), fmt.Sprint(m.Ready), fmt.Sprint(m.Converting), fmt.Sprint(m.Mismatched), fmt.Sprint(m.Empty))
	}
	if len(r.Cards) > 0 {
		w.row()
		w.row("CARD", "NODES", "ALLOCATABLE", "HELD BY UNPINNED PODS", "PINNED PODS WAITING", "PINNED UNITS WAITING")
		for _, c := range r.Cards {
			w.row(c.Card, fmt.Sprint(c.Nodes), fmt.Sprint(c.Allocatable), fmt.Sprint(c.HeldByUnpinned), fmt.Sprint(c.PinnedPodsWaiting), fmt.Sprint(c.PinnedUnitsWaiting))
		}
	}
	if len(r.Pending) > 0 {
		w.row()
		w.row("WAITING FOR", "RESOURCE", "REASON", "PODS", "UNITS", "PODS' CONSTRAINT")
		for _, p := range r.Pending {
			w.row(string(p.Mode), string(p.Resource), p.Reason, fmt.Sprint(p.Pods), fmt.Sprint(p.Units), cmp.Or(p.Constraint, "-"))
		}
	}
	if err := w.flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(out, "Policy: %s.\n", r.Policy)
	return err
}
