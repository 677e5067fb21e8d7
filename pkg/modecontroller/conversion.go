package modecontroller

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// TaintKey keeps new pods off a node while the controller converts it.
const TaintKey = gpuworkload.TaintConverting

// Annotations the controller keeps on a node.
const (
	// annotationConversion is the record of a conversion under way (JSON):
	// what a restarted controller resumes from.
	annotationConversion = "gpu-workload.io/conversion"
	// annotationFailedAt is when the node's last conversion rolled back
	// (RFC 3339), for the back-off.
	annotationFailedAt = "gpu-workload.io/conversion-failed-at"
)

// phase is how far a conversion has come.
type phase string

const (
	// phaseTainted: the node is tainted and its labels are as before.
	phaseTainted phase = "Tainted"
	// phaseRelabelled: the node carries the new labels; the operator is
	// converting it.
	phaseRelabelled phase = "Relabelled"
)

// record is a conversion under way. The old labels are kept as they were,
// nil where the node did not have one, so that a rollback restores them.
type record struct {
	Phase    phase            `json:"phase"`
	Resource v1.ResourceName  `json:"resource"`
	Units    int64            `json:"units"`
	To       gpuworkload.Mode `json:"to"`
	// Profile is the new nvidia.com/vgpu.config, "" when it does not change.
	Profile   string      `json:"profile,omitempty"`
	OldMode   *string     `json:"oldMode"`
	OldConfig *string     `json:"oldVGPUConfig"`
	Started   metav1.Time `json:"started"`
	// Drain says GPU pods on the node are moved off it (container pods
	// evicted, VMs live-migrated) rather than the conversion aborted.
	Drain bool `json:"drain,omitempty"`
}

func recordOf(node *v1.Node) (*record, error) {
	raw, ok := node.Annotations[annotationConversion]
	if !ok {
		return nil, nil
	}
	var rec record
	if err := json.Unmarshal([]byte(raw), &rec); err != nil || rec.Phase != phaseTainted && rec.Phase != phaseRelabelled || rec.To == "" {
		return nil, fmt.Errorf("node %s: annotation %s=%+q is not a conversion record", node.Name, annotationConversion, raw)
	}
	return &rec, nil
}

func conversionTaint(started time.Time) v1.Taint {
	taint := v1.Taint{Key: TaintKey, Effect: v1.TaintEffectNoSchedule}
	if !started.IsZero() {
		taint.Value = started.UTC().Format(gpuworkload.ConversionTaintLayout)
	}
	return taint
}

func hasTaint(n *v1.Node) bool {
	return slices.ContainsFunc(n.Spec.Taints, func(t v1.Taint) bool { return t.Key == TaintKey })
}

func timeAnnotation(n *v1.Node, key string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339, n.Annotations[key])
	return t, err == nil
}

func labelOf(n *v1.Node, key string) *string {
	if v, ok := n.Labels[key]; ok {
		return &v
	}
	return nil
}

func setLabel(n *v1.Node, key string, value *string) {
	if value == nil {
		delete(n.Labels, key)
		return
	}
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	n.Labels[key] = *value
}

// start records the conversion in the history, then taints the node and
// records it there, in one update that fails if the node changed since it
// was read: two controllers never both start on a node, and a start the
// rate limit did not count never happens. A node that is no longer a
// candidate is skipped. The node is relabelled at a later pass, once the
// taint has had an interval to reach the schedulers.
func (c *Controller) start(ctx context.Context, p *pass, r advisor.Relabel, drain bool) error {
	node, err := c.client.CoreV1().Nodes().Get(ctx, r.Node, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get node %s: %w", r.Node, err)
	}
	if why := c.holdReason(node, p); why != "" {
		klog.FromContext(ctx).Info("Not converting node", "node", r.Node, "why", why)
		return nil
	}
	started := p.now.UTC().Truncate(time.Second)
	if ok, err := c.remember(ctx, p.history, r.Node, started, false); err != nil || !ok {
		return err
	}
	rec := record{
		Phase: phaseTainted, Resource: r.Resource, Units: r.Units, To: r.To, Profile: r.Profile,
		OldMode: labelOf(node, gpuworkload.LabelWorkloadConfig), OldConfig: labelOf(node, gpuworkload.LabelVGPUConfig),
		Started: metav1.NewTime(started), Drain: drain,
	}
	next := node.DeepCopy()
	next.Spec.Taints = append(next.Spec.Taints, conversionTaint(started))
	if err := setRecord(next, &rec); err != nil {
		return err
	}
	updated, err := c.write(ctx, node, next)
	if err != nil || updated == nil {
		return err
	}
	c.metrics.conversionsStarted.Inc()
	klog.FromContext(ctx).Info("Started conversion", "node", r.Node, "from", r.From, "to", r.To, "resource", r.Resource, "units", r.Units)
	c.recorder.Eventf(updated, nil, v1.EventTypeNormal, "ConversionStarted", "Convert", "tainted %s:%s to convert from %s to %s for %d x %s", TaintKey, v1.TaintEffectNoSchedule, r.From, r.To, r.Units, r.Resource)
	return nil
}

// advance takes a conversion one step on; done says it ended (succeeded,
// aborted or rolled back). Each step is one update, so a controller that
// stops between two steps resumes at the next. The node's
// pods are listed from the API server before the relabel and again before
// the taint is removed: a GPU pod that reached the node meanwhile ends the
// conversion with the node as it was.
func (c *Controller) advance(ctx context.Context, p *pass, node *v1.Node, rec *record) (done bool, err error) {
	elapsed := p.now.Sub(rec.Started.Time)
	pods, err := c.gpuPodsByNode(ctx, p, node.Name)
	if err != nil {
		return false, err
	}
	running := pods[node.Name]
	if rec.Phase == phaseTainted {
		if len(running) > 0 {
			if rec.Drain {
				return c.drain(ctx, p, node, rec, running)
			}
			return c.end(ctx, p, node, rec, outcomeAborted, fmt.Sprintf("the node runs GPU pods (%s) since it was planned", podNames(running)))
		}
		next := node.DeepCopy()
		setLabel(next, gpuworkload.LabelWorkloadConfig, (*string)(&rec.To))
		if rec.Profile != "" {
			setLabel(next, gpuworkload.LabelVGPUConfig, &rec.Profile)
		}
		rec.Phase = phaseRelabelled
		if err := setRecord(next, rec); err != nil {
			return false, err
		}
		_, err := c.write(ctx, node, next)
		return false, err
	}
	switch {
	case len(running) > 0:
		return c.end(ctx, p, node, rec, outcomeRolledBack, fmt.Sprintf("GPU pods (%s) reached the node while it converted", podNames(running)))
	case rec.To == gpuworkload.ModeVGPU && node.Labels[gpuworkload.LabelVGPUConfigState] == gpuworkload.VGPUConfigStateFailed:
		return c.end(ctx, p, node, rec, outcomeRolledBack, fmt.Sprintf("the vGPU device manager failed to apply %s (%s=%s)", appliedVGPUConfig(node), gpuworkload.LabelVGPUConfigState, gpuworkload.VGPUConfigStateFailed))
	case converted(node, rec):
		return c.end(ctx, p, node, rec, outcomeSucceeded, fmt.Sprintf("advertises %d x %s in %s after %s", rec.Units, rec.Resource, rec.To, elapsed.Round(time.Second)))
	case elapsed >= c.opts.ConversionTimeout:
		return c.end(ctx, p, node, rec, outcomeRolledBack, fmt.Sprintf("did not advertise %d x %s in %s within %s", rec.Units, rec.Resource, rec.To, c.opts.ConversionTimeout))
	}
	return false, nil
}

// drain moves the node's GPU pods off it, all or nothing: every check
// (judgeDrain) passes before the first eviction, or nothing is evicted and
// the conversion ends. Container pods go through the Eviction API, so
// budgets hold; VMs are live-migrated. Later passes wait for them to go; a
// refused eviction (a budget that changed since the check), a pod that
// arrived and fails a check, or the timeout ends the conversion.
func (c *Controller) drain(ctx context.Context, p *pass, node *v1.Node, rec *record, running []*v1.Pod) (bool, error) {
	if p.now.Sub(rec.Started.Time) >= c.opts.ConversionTimeout {
		return c.end(ctx, p, node, rec, outcomeRolledBack, fmt.Sprintf("GPU pods (%s) still ran %s after the drain started", podNames(running), c.opts.ConversionTimeout))
	}
	m, err := c.judgeDrain(ctx, running)
	if err != nil {
		return false, err
	}
	if len(m.refused) > 0 {
		return c.end(ctx, p, node, rec, outcomeAborted, "the drain is refused, nothing evicted by this check: "+strings.Join(m.refused, "; "))
	}
	for _, vm := range m.migrate {
		why, err := c.migrate(ctx, node, *gpuworkload.VMIOf(vm))
		if err != nil {
			return false, err
		}
		if why != "" {
			return c.end(ctx, p, node, rec, outcomeAborted, why)
		}
	}
	for _, pod := range m.evict {
		err := c.evict(ctx, pod)
		switch {
		case apierrors.IsTooManyRequests(err):
			return c.end(ctx, p, node, rec, outcomeAborted, fmt.Sprintf("the eviction of pod %s/%s was refused: %v", pod.Namespace, pod.Name, err))
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return false, fmt.Errorf("evict pod %s/%s from node %s: %w", pod.Namespace, pod.Name, node.Name, err)
		}
		c.metrics.conversionEvictions.Inc()
		klog.FromContext(ctx).Info("Evicted pod to convert its node", "pod", klog.KObj(pod), "node", node.Name, "to", rec.To)
		c.recorder.Eventf(pod, node, v1.EventTypeNormal, "EvictedForConversion", "Drain", "evicted through the Eviction API to convert node %s to %s for %d x %s", node.Name, rec.To, rec.Units, rec.Resource)
	}
	return false, nil
}

// outcome is how a conversion ended.
type outcome int

const (
	outcomeSucceeded outcome = iota
	outcomeAborted
	outcomeRolledBack
)

// end finishes a conversion in one update: on success the converted-for
// annotation, otherwise the old labels and the back-off; the taint and the
// record removed either way. The history and the metrics count it only
// once that update is written, so a retried step counts once.
func (c *Controller) end(ctx context.Context, p *pass, node *v1.Node, rec *record, o outcome, why string) (bool, error) {
	next := node.DeepCopy()
	reason, eventType, message := "ConversionSucceeded", v1.EventTypeNormal, why+"; taint removed"
	if o == outcomeSucceeded {
		next.Annotations[gpuworkload.AnnotationConvertedFor] = string(rec.Resource)
	} else {
		reason = map[outcome]string{outcomeAborted: "ConversionAborted", outcomeRolledBack: "ConversionRolledBack"}[o]
		eventType = v1.EventTypeWarning
		setLabel(next, gpuworkload.LabelWorkloadConfig, rec.OldMode)
		setLabel(next, gpuworkload.LabelVGPUConfig, rec.OldConfig)
		message = why + ": labels unchanged, taint removed"
		// A node whose pods landed before the relabel is busy, which holds
		// it already; a refused drain or a failed conversion is not
		// retried before the back-off.
		if o == outcomeRolledBack || rec.Drain {
			next.Annotations[annotationFailedAt] = p.now.UTC().Format(time.RFC3339)
			message = fmt.Sprintf("%s: old labels restored, taint removed, node left alone for %s", why, c.opts.Backoff)
		}
	}
	next.Spec.Taints = slices.DeleteFunc(next.Spec.Taints, func(t v1.Taint) bool { return t.Key == TaintKey })
	delete(next.Annotations, annotationConversion)
	updated, err := c.write(ctx, node, next)
	if err != nil || updated == nil {
		return false, err
	}
	switch o {
	case outcomeSucceeded:
		c.metrics.conversionsSucceeded.Inc()
		c.metrics.conversionSeconds.Observe(p.now.Sub(rec.Started.Time).Seconds())
	case outcomeAborted:
		c.metrics.conversionsAborted.Inc()
	case outcomeRolledBack:
		c.metrics.conversionsRolledBack.Inc()
	}
	c.recorder.Eventf(updated, nil, eventType, reason, "Convert", "%s", message)
	if _, err := c.remember(ctx, p.history, node.Name, p.now, true); err != nil {
		return true, err
	}
	return true, nil
}

func podNames(pods []*v1.Pod) string {
	names := make([]string, len(pods))
	for i, p := range pods {
		names[i] = p.Namespace + "/" + p.Name
	}
	return strings.Join(names, ", ")
}

// converted says the operator has done its part: the node runs the new
// mode and advertises what the plan counted on (for vGPU, the vGPU device
// manager reports success).
func converted(node *v1.Node, rec *record) bool {
	if node.Labels[gpuworkload.LabelWorkloadConfig] != string(rec.To) {
		return false
	}
	if rec.To == gpuworkload.ModeVGPU && node.Labels[gpuworkload.LabelVGPUConfigState] != gpuworkload.VGPUConfigStateSuccess {
		return false
	}
	q, ok := node.Status.Allocatable[rec.Resource]
	return ok && q.Value() >= rec.Units
}

func setRecord(node *v1.Node, rec *record) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if node.Annotations == nil {
		node.Annotations = map[string]string{}
	}
	node.Annotations[annotationConversion] = string(raw)
	return nil
}

// write changes the node from read to next if nobody changed it since it
// was read; on a conflict it returns nil and no error, and the next pass
// reads it again.
func (c *Controller) write(ctx context.Context, read, next *v1.Node) (*v1.Node, error) {
	patch, err := nodePatch(read, next)
	if err != nil {
		return nil, err
	}
	updated, err := c.client.CoreV1().Nodes().Patch(ctx, read.Name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: Name})
	if apierrors.IsConflict(err) {
		klog.FromContext(ctx).V(2).Info("Node changed since it was read; retrying at the next pass", "node", read.Name)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("patch node %s: %w", read.Name, err)
	}
	return updated, nil
}

// nodePatch is a merge patch of exactly what the controller changes on a
// node, its labels, annotations and taints, with read's resourceVersion as
// a precondition: two controllers never both write a step, and the
// admission policy of manifests/install (which lets the controller change
// nothing else) sees only what changed.
func nodePatch(read, next *v1.Node) ([]byte, error) {
	metadata := map[string]any{"resourceVersion": read.ResourceVersion}
	if changed := mapChanges(read.Labels, next.Labels); len(changed) > 0 {
		metadata["labels"] = changed
	}
	if changed := mapChanges(read.Annotations, next.Annotations); len(changed) > 0 {
		metadata["annotations"] = changed
	}
	patch := map[string]any{"metadata": metadata}
	if !equality.Semantic.DeepEqual(read.Spec.Taints, next.Spec.Taints) {
		// Taints are an atomic list: the patch carries all of them.
		taints := next.Spec.Taints
		if taints == nil {
			taints = []v1.Taint{}
		}
		patch["spec"] = map[string]any{"taints": taints}
	}
	return json.Marshal(patch)
}

// mapChanges is the merge patch from one map to another: changed and new
// keys with their values, removed keys as null.
func mapChanges(from, to map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range to {
		if old, ok := from[k]; !ok || old != v {
			out[k] = v
		}
	}
	for k := range from {
		if _, ok := to[k]; !ok {
			out[k] = nil
		}
	}
	return out
}

// appliedVGPUConfig names the vGPU configuration the device manager
// applies to the node: its label's, or without one the ClusterPolicy's default.
func appliedVGPUConfig(node *v1.Node) string {
	if config := node.Labels[gpuworkload.LabelVGPUConfig]; config != "" {
		return gpuworkload.LabelVGPUConfig + "=" + config
	}
	return "the ClusterPolicy's default vGPU configuration (no " + gpuworkload.LabelVGPUConfig + " label)"
}
