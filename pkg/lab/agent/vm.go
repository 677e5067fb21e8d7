package agent

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// syncVM starts a VirtualMachine as virt-controller does: a VM that is to
// run (spec.runStrategy Always or RerunOnFailure, or spec.running true) gets
// a VMI of its own name from spec.template, which it owns, once. The VMI
// carries the template's schedulerName to its launcher pod (syncVMI).
func (a *agent) syncVM(ctx context.Context, namespace, name string) error {
	obj, err := a.vms.ByNamespace(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	vm, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return fmt.Errorf("VirtualMachine %s/%s: a %T", namespace, name, obj)
	}
	if !toRun(vm) {
		return nil
	}
	if _, err := a.vmis.ByNamespace(namespace).Get(name); !apierrors.IsNotFound(err) {
		return err
	}
	template, _, _ := unstructured.NestedMap(vm.Object, "spec", "template")
	spec, found, _ := unstructured.NestedMap(template, "spec")
	if !found {
		a.recorder.Eventf(vm, nil, v1.EventTypeWarning, "FailedCreate", "Create", "spec.template.spec is missing: no VirtualMachineInstance to create")
		return nil
	}
	vmi := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	vmi.SetAPIVersion(gpuworkload.KubeVirtGroup + "/" + gpuworkload.KubeVirtVersion)
	vmi.SetKind("VirtualMachineInstance")
	vmi.SetNamespace(namespace)
	vmi.SetName(name)
	labels, _, _ := unstructured.NestedStringMap(template, "metadata", "labels")
	vmi.SetLabels(labels)
	annotations, _, _ := unstructured.NestedStringMap(template, "metadata", "annotations")
	vmi.SetAnnotations(annotations)
	vmi.SetOwnerReferences([]metav1.OwnerReference{*metav1.NewControllerRef(vm, vm.GroupVersionKind())})
	_, err = a.dynamic.Resource(clusterstate.VMIGVR).Namespace(namespace).Create(ctx, vmi, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// toRun reads whether KubeVirt keeps the VM running.
func toRun(vm *unstructured.Unstructured) bool {
	if strategy, found, _ := unstructured.NestedString(vm.Object, "spec", "runStrategy"); found {
		return strategy == "Always" || strategy == "RerunOnFailure"
	}
	running, _, _ := unstructured.NestedBool(vm.Object, "spec", "running")
	return running
}
