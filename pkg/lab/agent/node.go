package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// Deploy labels the vGPU device manager pauses while it changes a node's vGPUs.
var pausedForVGPUChange = []string{
	gpuworkload.DeployLabelPrefix + "sandbox-device-plugin",
	gpuworkload.DeployLabelPrefix + "sandbox-validator",
}

// syncNode converts a node with hardware when what it should serve, its
// effective mode and vGPU profile, differs from what it serves. A node first
// seen is taken as prepared for what it serves, broken or not, unless its vGPU
// configuration is pending: then the conversion under way completes.
func (a *agent) syncNode(ctx context.Context, name string) error {
	node, err := a.nodes.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := a.reportReady(ctx, node); err != nil {
		return err
	}
	hardware, managed := node.Annotations[AnnotationHardware]
	if !managed {
		return nil
	}
	gpus, model, err := parseHardware(hardware)
	if err != nil {
		a.warn(node, "LabHardwareInvalid", "annotation %s=%+q: %v", AnnotationHardware, hardware, err)
		return nil
	}
	delay, err := a.conversionDelay(node)
	if err != nil {
		a.warn(node, "LabConversionDelayInvalid", "annotation %s=%+q: %v", AnnotationConversionDelay, node.Annotations[AnnotationConversionDelay], err)
		return nil
	}
	policy, err := a.policy()
	if err != nil {
		return err
	}
	mode := policy.EffectiveMode(node.Labels).Mode
	target := string(mode)
	if mode == gpuworkload.ModeVGPU {
		target += "/" + policy.VGPUConfigOf(node.Labels[gpuworkload.LabelVGPUConfig])
	}
	prepared, converting := node.Annotations[annotationPrepared], node.Annotations[annotationConverting]
	switch {
	case prepared == "" && converting == "" && node.Labels[gpuworkload.LabelVGPUConfigState] == gpuworkload.VGPUConfigStatePending:
		return a.patchNode(ctx, node, nil, map[string]any{annotationConverting: target, annotationReadyAt: readyAt(delay)}, nil, delay)
	case prepared == "" && converting == "":
		return a.patchNode(ctx, node, operandLabels(node, policy, mode), map[string]any{annotationPrepared: target}, nil, 0)
	case converting == target:
		ready, err := time.Parse(time.RFC3339Nano, node.Annotations[annotationReadyAt])
		if err == nil && time.Now().Before(ready) {
			a.queue.AddAfter(key{kind: "node", name: name}, time.Until(ready))
			return nil
		}
		return a.finishConversion(ctx, node, policy, mode, target, gpus, model)
	case converting != "" || prepared != target:
		return a.startConversion(ctx, node, policy, mode, target, delay)
	}
	return nil
}

// operandLabels are the deploy labels the GPU Operator gives a node it
// finds without any: those of the node's mode.
func operandLabels(node *v1.Node, policy gpuworkload.SandboxPolicy, mode gpuworkload.Mode) map[string]any {
	for key := range node.Labels {
		if strings.HasPrefix(key, gpuworkload.DeployLabelPrefix) {
			return nil
		}
	}
	labels := map[string]any{}
	for _, key := range gpuworkload.Operands().ExpectedDeployLabels(mode, policy.Runtime) {
		labels[key] = "true"
	}
	return labels
}

// reportReady is the kubelet's Ready condition, posted once for a node
// that has none: the mode controller, as cluster-autoscaler, holds a node
// that never reported Ready.
func (a *agent) reportReady(ctx context.Context, node *v1.Node) error {
	for _, c := range node.Status.Conditions {
		if c.Type == v1.NodeReady {
			return nil
		}
	}
	now := metav1.Now()
	status, err := json.Marshal(map[string]any{"status": map[string]any{"conditions": []v1.NodeCondition{{
		Type: v1.NodeReady, Status: v1.ConditionTrue, Reason: "KubeletReady", Message: "the lab agent reports the node ready",
		LastHeartbeatTime: now, LastTransitionTime: now,
	}}}})
	if err != nil {
		return err
	}
	if _, err := a.client.CoreV1().Nodes().PatchStatus(ctx, node.Name, status); err != nil {
		return fmt.Errorf("report node %s Ready: %w", node.Name, err)
	}
	return nil
}

func readyAt(delay time.Duration) string {
	return time.Now().Add(delay).UTC().Format(time.RFC3339Nano)
}

// startConversion does what the GPU Operator does first: the new mode's
// deploy labels, the other modes' removed, the vGPU state pending with the
// sandbox operands paused, and the old resource left at 0 by the restarted
// device plugin.
func (a *agent) startConversion(ctx context.Context, node *v1.Node, policy gpuworkload.SandboxPolicy, mode gpuworkload.Mode, target string, delay time.Duration) error {
	labels := map[string]any{}
	for _, key := range gpuworkload.Operands().ExpectedDeployLabels(mode, policy.Runtime) {
		if node.Labels[key] == "" {
			labels[key] = "true"
		}
	}
	for _, key := range gpuworkload.Operands().ForeignDeployLabels(mode) {
		if _, ok := node.Labels[key]; ok {
			labels[key] = nil
		}
	}
	if mode == gpuworkload.ModeVGPU {
		labels[gpuworkload.LabelVGPUConfigState] = gpuworkload.VGPUConfigStatePending
		for _, key := range pausedForVGPUChange {
			labels[key] = gpuworkload.PausedForVGPUChange
		}
	} else if _, ok := node.Labels[gpuworkload.LabelVGPUConfigState]; ok {
		labels[gpuworkload.LabelVGPUConfigState] = nil
	}
	zeroed := v1.ResourceList{}
	var byName *gpuworkload.Classifier
	for name, q := range node.Status.Capacity {
		if byName.MayBeGPU(name) && !q.IsZero() {
			zeroed[name] = resource.MustParse("0")
		}
	}
	klog.FromContext(ctx).Info("Converting node", "node", node.Name, "to", target, "delay", delay)
	return a.patchNode(ctx, node, labels, map[string]any{annotationConverting: target, annotationReadyAt: readyAt(delay)}, zeroed, delay)
}

// finishConversion is the device plugin coming back: the new resource
// advertised with the count the node's GPUs give in the mode, the vGPU
// state success, the operands resumed and gpu-feature-discovery's product
// and count labels set in container mode and gone elsewhere; or, for a
// profile the card lacks, the vGPU state failed and nothing advertised.
func (a *agent) finishConversion(ctx context.Context, node *v1.Node, policy gpuworkload.SandboxPolicy, mode gpuworkload.Mode, target string, gpus int64, model string) error {
	profile := ""
	if config := policy.VGPUConfigOf(node.Labels[gpuworkload.LabelVGPUConfig]); mode == gpuworkload.ModeVGPU && config != hardware.VGPUConfigDefault {
		profile = config
	}
	annotations := map[string]any{annotationPrepared: target, annotationConverting: nil, annotationReadyAt: nil}
	labels := map[string]any{}
	var advertised v1.ResourceList
	inv, err := gpuworkload.NewGPUInventory(gpus, model, profile)
	var name v1.ResourceName
	var count int64
	if failure, ok := node.Annotations[AnnotationVGPUFailure]; ok && mode == gpuworkload.ModeVGPU && err == nil {
		err = errors.New(failure)
	}
	if err == nil {
		name, count, err = inv.Advertisement(mode)
	}
	if err != nil {
		a.warn(node, "LabConversionFailed", "the GPUs (%s) cannot serve %s: %v", node.Annotations[AnnotationHardware], target, err)
		if mode == gpuworkload.ModeVGPU {
			labels[gpuworkload.LabelVGPUConfigState] = gpuworkload.VGPUConfigStateFailed
		}
		klog.FromContext(ctx).Info("Conversion failed", "node", node.Name, "to", target, "err", err)
		return a.patchNode(ctx, node, labels, annotations, nil, 0)
	}
	advertised = v1.ResourceList{name: *resource.NewQuantity(count, resource.DecimalSI)}
	if mode == gpuworkload.ModeVGPU {
		labels[gpuworkload.LabelVGPUConfigState] = gpuworkload.VGPUConfigStateSuccess
	}
	converted := gpuworkload.LabelsInMode(node.Labels, mode, inv)
	for _, key := range []string{gpuworkload.LabelGPUProduct, gpuworkload.LabelGPUCount} {
		if value, ok := converted[key]; !ok {
			if _, had := node.Labels[key]; had {
				labels[key] = nil
			}
		} else if node.Labels[key] != value {
			labels[key] = value
		}
	}
	for key, value := range node.Labels {
		if value == gpuworkload.PausedForVGPUChange {
			labels[key] = "true"
		}
	}
	klog.FromContext(ctx).Info("Node converted", "node", node.Name, "to", target, "advertises", name, "count", count)
	return a.patchNode(ctx, node, labels, annotations, advertised, 0)
}

// patchNode merges labels and annotations (nil deletes one), then sets the
// given resources in capacity and allocatable, and looks again after requeue
// when it is positive.
func (a *agent) patchNode(ctx context.Context, node *v1.Node, labels, annotations map[string]any, resources v1.ResourceList, requeue time.Duration) error {
	// A null labels or annotations map in a merge patch would delete them all.
	metadata := map[string]any{}
	if len(labels) > 0 {
		metadata["labels"] = labels
	}
	if len(annotations) > 0 {
		metadata["annotations"] = annotations
	}
	patch, err := json.Marshal(map[string]any{"metadata": metadata})
	if err != nil {
		return err
	}
	if _, err := a.client.CoreV1().Nodes().Patch(ctx, node.Name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("patch node %s: %w", node.Name, err)
	}
	if len(resources) > 0 {
		status, err := json.Marshal(map[string]any{"status": map[string]any{"capacity": resources, "allocatable": resources}})
		if err != nil {
			return err
		}
		if _, err := a.client.CoreV1().Nodes().PatchStatus(ctx, node.Name, status); err != nil {
			return fmt.Errorf("patch the status of node %s: %w", node.Name, err)
		}
	}
	if requeue > 0 {
		a.queue.AddAfter(key{kind: "node", name: node.Name}, requeue)
	}
	return nil
}

func (a *agent) warn(regarding *v1.Node, reason, format string, args ...any) {
	a.recorder.Eventf(regarding, nil, v1.EventTypeWarning, reason, "Reconcile", format, args...)
}
