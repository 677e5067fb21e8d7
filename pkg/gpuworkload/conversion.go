package gpuworkload

import (
	"encoding/json"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TaintConverting is the mode controller's NoSchedule taint on a node it
// converts. Its value is the conversion's start in ConversionTaintLayout
// (a taint value allows no colon, so not RFC 3339).
const TaintConverting = "gpu-workload.io/converting"

// ConversionTaintLayout is the time layout of TaintConverting's value.
const ConversionTaintLayout = "20060102T150405Z"

// ConversionTaintStarted reads the start a conversion taint carries.
func ConversionTaintStarted(t v1.Taint) (time.Time, bool) {
	at, err := time.Parse(ConversionTaintLayout, t.Value)
	return at, t.Key == TaintConverting && err == nil
}

// StaleConversionFindings reports a conversion taint older than timeout:
// every conversion ends (succeeds or rolls back) within the mode
// controller's --conversion-timeout, so an older one was left by a
// controller that is gone, and keeps the node out of scheduling for good.
func StaleConversionFindings(node *v1.Node, now time.Time, timeout time.Duration) []Finding {
	for _, t := range node.Spec.Taints {
		if t.Key != TaintConverting {
			continue
		}
		started, ok := ConversionTaintStarted(t)
		switch {
		case !ok:
			return []Finding{NewFinding(FindingStaleConversionTaint, releaseFix(node.Name),
				"the taint %s=%+q carries no start time the mode controller wrote", TaintConverting, t.Value)}
		case now.Sub(started) >= timeout:
			return []Finding{NewFinding(FindingStaleConversionTaint, releaseFix(node.Name),
				"the taint %s was set at %s, more than the conversion timeout %s ago: no mode controller is ending this conversion",
				TaintConverting, started.Format(time.RFC3339), timeout)}
		}
	}
	return nil
}

func releaseFix(node string) string {
	return fmt.Sprintf("run the mode controller to resume it, or release the node by hand: restore nvidia.com/gpu.workload.config from the oldMode of kubectl get node %s -o jsonpath='{.metadata.annotations.gpu-workload\\.io/conversion}', then kubectl annotate node %s gpu-workload.io/conversion- && kubectl taint node %s %s:NoSchedule- (docs/controller.md)",
		node, node, node, TaintConverting)
}

// DefaultConversionTimeout is how long a conversion takes at most: the
// mode controller's --conversion-timeout and GPUWorkloadFitArgs
// conversionTimeout by default. A node unsettled for longer is mismatched.
const DefaultConversionTimeout = 20 * time.Minute

// conversionLabels are the node labels whose change starts a conversion.
var conversionLabels = []string{LabelWorkloadConfig, LabelVGPUConfig}

// UnsettledSince is when an unsettled node's conversion started: the last
// write of its mode or vGPU configuration label in its managed fields, else
// seen (when the caller first saw it unsettled; zero: not known). The
// scheduler's informers drop managed fields, so it times a node from when
// it first saw it unsettled.
func UnsettledSince(node *v1.Node, seen time.Time) time.Time {
	var last time.Time
	for _, e := range node.ManagedFields {
		if e.Time != nil && e.Time.After(last) && writesConversionLabel(e) {
			last = e.Time.Time
		}
	}
	if last.IsZero() {
		return seen
	}
	return last
}

// ConversionLabelWrites keeps the managed-fields entries UnsettledSince
// reads, so that a dump can drop the rest.
func ConversionLabelWrites(entries []metav1.ManagedFieldsEntry) []metav1.ManagedFieldsEntry {
	var out []metav1.ManagedFieldsEntry
	for _, e := range entries {
		if e.Time != nil && writesConversionLabel(e) {
			out = append(out, e)
		}
	}
	return out
}

// writesConversionLabel reports whether the entry owns a conversion label.
func writesConversionLabel(e metav1.ManagedFieldsEntry) bool {
	if e.FieldsV1 == nil {
		return false
	}
	var owned struct {
		Metadata struct {
			Labels map[string]json.RawMessage `json:"f:labels"`
		} `json:"f:metadata"`
	}
	if json.Unmarshal(e.FieldsV1.Raw, &owned) != nil {
		return false
	}
	for _, label := range conversionLabels {
		if _, ok := owned.Metadata.Labels["f:"+label]; ok {
			return true
		}
	}
	return false
}
