package modecontroller

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// TaintKey keeps new pods off a node while the controller converts it.
const TaintKey = "gpu-workload.io/converting"

// Annotations the controller keeps on a node.
const (
	// annotationConversion is the record of a conversion under way (JSON):
	// what a restarted controller resumes from.
	annotationConversion = "gpu-workload.io/conversion"
	// annotationStartedAt is when the node's last conversion started (RFC
	// 3339), for the rate limit; annotationFailedAt when the last one
	// rolled back, for the back-off.
	annotationStartedAt = "gpu-workload.io/conversion-started-at"
	annotationFailedAt  = "gpu-workload.io/conversion-failed-at"
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
		return nil, fmt.Errorf("node %s: annotation %s=%q is not a conversion record", node.Name, annotationConversion, raw)
	}
	return &rec, nil
}

func conversionTaint() v1.Taint {
	return v1.Taint{Key: TaintKey, Effect: v1.TaintEffectNoSchedule}
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

// start taints the node and records the conversion, in one update that
// fails if the node changed since it was read: two controllers never both
// start on a node. A node that is no longer a candidate is skipped.
func (c *Controller) start(ctx context.Context, r advisor.Relabel, drain bool) error {
	now := c.clock.Now()
	node, err := c.client.CoreV1().Nodes().Get(ctx, r.Node, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("get node %s: %w", r.Node, err)
	}
	if why := c.holdReason(node, now); why != "" {
		klog.FromContext(ctx).Info("Not converting node", "node", r.Node, "why", why)
		return nil
	}
	rec := record{
		Phase: phaseTainted, Resource: r.Resource, Units: r.Units, To: r.To, Profile: r.Profile,
		OldMode: labelOf(node, gpuworkload.LabelWorkloadConfig), OldConfig: labelOf(node, gpuworkload.LabelVGPUConfig),
		Started: metav1.NewTime(now.UTC().Truncate(time.Second)), Drain: drain,
	}
	node = node.DeepCopy()
	node.Spec.Taints = append(node.Spec.Taints, conversionTaint())
	if err := setRecord(node, &rec); err != nil {
		return err
	}
	node.Annotations[annotationStartedAt] = rec.Started.Format(time.RFC3339)
	updated, err := c.update(ctx, node)
	if err != nil || updated == nil {
		return err
	}
	conversionsStarted.Inc()
	klog.FromContext(ctx).Info("Started conversion", "node", r.Node, "from", r.From, "to", r.To, "resource", r.Resource, "units", r.Units)
	c.recorder.Eventf(updated, nil, v1.EventTypeNormal, "ConversionStarted", "Convert", "tainted %s:%s to convert from %s to %s for %d x %s", TaintKey, v1.TaintEffectNoSchedule, r.From, r.To, r.Units, r.Resource)
	_, err = c.advance(ctx, updated, &rec)
	return err
}

// advance takes a conversion one or more steps on; done says it ended
// (succeeded, aborted or rolled back). Each step is one update, so a
// controller that stops between two steps resumes at the next.
func (c *Controller) advance(ctx context.Context, node *v1.Node, rec *record) (done bool, err error) {
	now := c.clock.Now()
	if rec.Phase == phaseTainted {
		pods, err := c.gpuPodsByNode(ctx, node.Name)
		if err != nil {
			return false, err
		}
		if running := pods[node.Name]; len(running) > 0 {
			if rec.Drain {
				return c.drain(ctx, node, rec, running)
			}
			conversionsAborted.Inc()
			return true, c.finish(ctx, node, nil, "ConversionAborted", v1.EventTypeWarning, fmt.Sprintf("the node runs GPU pods (%s) since it was planned: labels unchanged, taint removed", podNames(running)))
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
		if node, err = c.update(ctx, next); err != nil || node == nil {
			return false, err
		}
	}
	if converted(node, rec) {
		conversionsSucceeded.Inc()
		conversionSeconds.Observe(now.Sub(rec.Started.Time).Seconds())
		return true, c.finish(ctx, node, func(n *v1.Node) { n.Annotations[gpuworkload.AnnotationConvertedFor] = string(rec.Resource) },
			"ConversionSucceeded", v1.EventTypeNormal, fmt.Sprintf("advertises %d x %s in %s after %s; taint removed", rec.Units, rec.Resource, rec.To, now.Sub(rec.Started.Time).Round(time.Second)))
	}
	if now.Sub(rec.Started.Time) < c.opts.ConversionTimeout {
		return false, nil
	}
	conversionsRolledBack.Inc()
	return true, c.rollBack(ctx, node, rec, "ConversionRolledBack", fmt.Sprintf("did not advertise %d x %s in %s within %s", rec.Units, rec.Resource, rec.To, c.opts.ConversionTimeout))
}

// drain evicts the node's container GPU pods through the Eviction API, so
// that PodDisruptionBudgets hold, live-migrates its VMs, and waits for them
// all to go. A refused eviction, a VM KubeVirt cannot live-migrate or the
// timeout ends the conversion: the node keeps its mode, is untainted and
// left alone for the back-off.
func (c *Controller) drain(ctx context.Context, node *v1.Node, rec *record, running []*v1.Pod) (bool, error) {
	if c.clock.Now().Sub(rec.Started.Time) >= c.opts.ConversionTimeout {
		conversionsRolledBack.Inc()
		return true, c.rollBack(ctx, node, rec, "ConversionRolledBack", fmt.Sprintf("GPU pods (%s) still ran %s after the drain started", podNames(running), c.opts.ConversionTimeout))
	}
	for _, p := range running {
		if vmi := gpuworkload.VMIOf(p); vmi != nil {
			why, err := c.migrate(ctx, node, *vmi)
			if err != nil {
				return false, err
			}
			if why != "" {
				conversionsAborted.Inc()
				return true, c.rollBack(ctx, node, rec, "ConversionAborted", why)
			}
			continue
		}
		if p.DeletionTimestamp != nil {
			continue
		}
		err := c.client.PolicyV1().Evictions(p.Namespace).Evict(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: p.Name}})
		switch {
		case apierrors.IsTooManyRequests(err):
			conversionsAborted.Inc()
			return true, c.rollBack(ctx, node, rec, "ConversionAborted", fmt.Sprintf("the eviction of pod %s/%s was refused: %v", p.Namespace, p.Name, err))
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return false, fmt.Errorf("evict pod %s/%s from node %s: %w", p.Namespace, p.Name, node.Name, err)
		}
		conversionEvictions.Inc()
		klog.FromContext(ctx).Info("Evicted pod to convert its node", "pod", klog.KObj(p), "node", node.Name, "to", rec.To)
		c.recorder.Eventf(p, node, v1.EventTypeNormal, "EvictedForConversion", "Drain", "evicted through the Eviction API to convert node %s to %s for %d x %s", node.Name, rec.To, rec.Units, rec.Resource)
	}
	return false, nil
}

// rollBack ends a conversion with the node as it was before: old labels,
// no taint, and the failure recorded for the back-off.
func (c *Controller) rollBack(ctx context.Context, node *v1.Node, rec *record, reason, why string) error {
	failedAt := c.clock.Now().UTC().Format(time.RFC3339)
	return c.finish(ctx, node, func(n *v1.Node) {
		setLabel(n, gpuworkload.LabelWorkloadConfig, rec.OldMode)
		setLabel(n, gpuworkload.LabelVGPUConfig, rec.OldConfig)
		n.Annotations[annotationFailedAt] = failedAt
	}, reason, v1.EventTypeWarning, fmt.Sprintf("%s: old labels restored, taint removed, node left alone for %s", why, c.opts.Backoff))
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

// finish ends a conversion in one update: change, untaint, drop the record.
func (c *Controller) finish(ctx context.Context, node *v1.Node, change func(*v1.Node), reason, eventType, message string) error {
	next := node.DeepCopy()
	if change != nil {
		change(next)
	}
	next.Spec.Taints = slices.DeleteFunc(next.Spec.Taints, func(t v1.Taint) bool { return t.Key == TaintKey })
	delete(next.Annotations, annotationConversion)
	updated, err := c.update(ctx, next)
	if err != nil || updated == nil {
		return err
	}
	c.recorder.Eventf(updated, nil, eventType, reason, "Convert", "%s", message)
	return nil
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

// update writes the node if nobody changed it since it was read; on a
// conflict it returns nil and no error, and the next pass reads it again.
func (c *Controller) update(ctx context.Context, node *v1.Node) (*v1.Node, error) {
	updated, err := c.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{FieldManager: Name})
	if apierrors.IsConflict(err) {
		klog.FromContext(ctx).V(2).Info("Node changed since it was read; retrying at the next pass", "node", node.Name)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("update node %s: %w", node.Name, err)
	}
	return updated, nil
}
