package modecontroller

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// migrate asks KubeVirt to live-migrate the VMI off the node, once: the
// migration's name is fixed by the node and the VMI, so a restarted
// controller finds it. It says why not when KubeVirt reports the VMI not
// live-migratable (a GPU passthrough device pins it, typically): the
// controller never stops a VM.
func (c *Controller) migrate(ctx context.Context, node *v1.Node, ref gpuworkload.VMIRef) (why string, err error) {
	vmi, why, err := c.migratable(ctx, ref)
	if why != "" || err != nil {
		return why, err
	}
	migration := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": gpuworkload.KubeVirtGroup + "/" + gpuworkload.KubeVirtVersion,
		"kind":       gpuworkload.VMIMigrationKind,
		"metadata": map[string]any{
			"name": "gpu-workload-" + node.Name + "-" + ref.Name, "namespace": ref.Namespace,
			"labels": map[string]any{LabelConvertingNode: node.Name},
		},
		"spec": map[string]any{"vmiName": ref.Name},
	}}
	switch _, err := c.dynamic.Resource(clusterstate.VMIMigrationGVR).Namespace(ref.Namespace).Create(ctx, migration, metav1.CreateOptions{}); {
	case apierrors.IsAlreadyExists(err):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("create VirtualMachineInstanceMigration for %s/%s: %w", ref.Namespace, ref.Name, err)
	}
	c.metrics.conversionMigrations.Inc()
	klog.FromContext(ctx).Info("Live-migrating a VM to convert its node", "vmi", klog.KRef(ref.Namespace, ref.Name), "node", node.Name)
	c.recorder.Eventf(vmi, node, v1.EventTypeNormal, "MigratedForConversion", "Drain", "live migration requested (VirtualMachineInstanceMigration %s) to convert node %s", migration.GetName(), node.Name)
	return "", nil
}

// migratable reads the VMI and says why KubeVirt cannot live-migrate it;
// "" when it can.
func (c *Controller) migratable(ctx context.Context, ref gpuworkload.VMIRef) (*unstructured.Unstructured, string, error) {
	vmi, err := c.dynamic.Resource(clusterstate.VMIGVR).Namespace(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil, fmt.Sprintf("VM %s/%s has no VirtualMachineInstance to migrate: the controller never stops a VM", ref.Namespace, ref.Name), nil
	case err != nil:
		return nil, "", fmt.Errorf("get VirtualMachineInstance %s/%s: %w", ref.Namespace, ref.Name, err)
	}
	if ok, reason := liveMigratable(vmi); !ok {
		return nil, fmt.Sprintf("VM %s/%s is not live-migratable (%s): the controller never stops a VM", ref.Namespace, ref.Name, reason), nil
	}
	return vmi, "", nil
}

// LabelConvertingNode marks the migrations the controller creates with the
// node they empty.
const LabelConvertingNode = "gpu-workload.io/converting-node"

// liveMigratable reads KubeVirt's LiveMigratable condition of the VMI; when
// it is not True, the condition's reason and message, or that it is absent.
func liveMigratable(vmi *unstructured.Unstructured) (bool, string) {
	conditions, _, _ := unstructured.NestedSlice(vmi.Object, "status", "conditions")
	for _, c := range conditions {
		cond, ok := c.(map[string]any)
		if !ok || cond["type"] != "LiveMigratable" {
			continue
		}
		if cond["status"] == string(metav1.ConditionTrue) {
			return true, ""
		}
		return false, fmt.Sprintf("LiveMigratable %v: %v %v", cond["status"], cond["reason"], cond["message"])
	}
	return false, "no LiveMigratable condition"
}
