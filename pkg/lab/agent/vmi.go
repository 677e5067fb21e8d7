package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// vmi holds the fields of a VirtualMachineInstance that rendering its
// launcher pod reads.
type vmi struct {
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		SchedulerName  string                `json:"schedulerName"`
		ResourceClaims []v1.PodResourceClaim `json:"resourceClaims"`
		Domain         struct {
			Resources struct {
				Requests v1.ResourceList `json:"requests"`
			} `json:"resources"`
			Devices struct {
				GPUs        []vmiDevice `json:"gpus"`
				HostDevices []vmiDevice `json:"hostDevices"`
			} `json:"devices"`
		} `json:"domain"`
	} `json:"spec"`
}

// vmiDevice is a gpus[] or hostDevices[] entry: a device plugin resource,
// or a request of one of the VMI's ResourceClaims.
type vmiDevice struct {
	Name        string `json:"name"`
	DeviceName  string `json:"deviceName"`
	ClaimName   string `json:"claimName"`
	RequestName string `json:"requestName"`
}

const launcherContainer = "compute"

// syncVMI renders a VMI's launcher pod as virt-controller does, once: each
// gpus[] and hostDevices[] entry adds one of its deviceName to the compute
// container's requests and limits, a claim entry references the VMI's claim,
// and labels, the domain annotation, the owner reference and schedulerName
// are carried over. A device the KubeVirt CR's permittedHostDevices lacks
// gets virt-controller's FailedCreate event and no pod.
func (a *agent) syncVMI(ctx context.Context, namespace, name string) error {
	obj, err := a.vmis.ByNamespace(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return fmt.Errorf("VirtualMachineInstance %s/%s: a %T", namespace, name, obj)
	}
	var vm vmi
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &vm); err != nil {
		a.recorder.Eventf(u, nil, v1.EventTypeWarning, "FailedCreate", "Create", "failed to read the VMI: %v", err)
		return nil
	}
	existing, err := a.pods.Pods(namespace).List(labels.SelectorFromSet(labels.Set{"kubevirt.io/created-by": string(vm.UID)}))
	if err != nil || len(existing) > 0 {
		return err
	}
	permitted, err := a.permitted()
	if err != nil {
		return err
	}
	var refused []string
	for _, list := range []struct {
		kind    string
		devices []vmiDevice
	}{{"GPU", vm.Spec.Domain.Devices.GPUs}, {"HostDevice", vm.Spec.Domain.Devices.HostDevices}} {
		for _, d := range list.devices {
			if d.ClaimName == "" && !permitted.Permits(v1.ResourceName(d.DeviceName)) {
				refused = append(refused, fmt.Sprintf("%s %s is not permitted in permittedHostDevices configuration", list.kind, d.DeviceName))
			}
		}
	}
	if len(refused) > 0 {
		a.recorder.Eventf(u, nil, v1.EventTypeWarning, "FailedCreate", "Create", "failed to render launch manifest: %s", strings.Join(refused, ", "))
		return nil
	}
	pod := launcherPod(&vm)
	if _, err := a.client.CoreV1().Pods(namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	klog.FromContext(ctx).Info("Created launcher pod", "vmi", klog.KObj(u), "pod", pod.Name)
	return nil
}

// permitted is the permittedHostDevices of the KubeVirt CR the scheduler
// reads (the oldest); nil, which permits everything, without a list.
func (a *agent) permitted() (*gpuworkload.PermittedHostDevices, error) {
	chosen, err := oldest(a.kubevirt)
	if err != nil || chosen == nil {
		return nil, err
	}
	return gpuworkload.PermittedHostDevicesFromKubeVirt(chosen)
}

func launcherPod(vm *vmi) *v1.Pod {
	podLabels := map[string]string{"kubevirt.io": "virt-launcher", "kubevirt.io/created-by": string(vm.UID), "vm.kubevirt.io/name": vm.Name}
	for k, v := range vm.Labels {
		podLabels[k] = v
	}
	requests, limits := v1.ResourceList{}, v1.ResourceList{}
	for name, q := range vm.Spec.Domain.Resources.Requests {
		requests[name] = q
	}
	var claims []v1.ResourceClaim
	for _, d := range append(append([]vmiDevice{}, vm.Spec.Domain.Devices.GPUs...), vm.Spec.Domain.Devices.HostDevices...) {
		if d.ClaimName != "" {
			claims = append(claims, v1.ResourceClaim{Name: d.ClaimName, Request: d.RequestName})
			continue
		}
		name := v1.ResourceName(d.DeviceName)
		count := limits[name]
		count.Add(resource.MustParse("1"))
		requests[name], limits[name] = count, count
	}
	sum := sha256.Sum256([]byte(vm.UID))
	isController := true
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: "virt-launcher-" + vm.Name + "-" + hex.EncodeToString(sum[:])[:5], Namespace: vm.Namespace,
			Labels: podLabels, Annotations: map[string]string{"kubevirt.io/domain": vm.Name},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: gpuworkload.KubeVirtGroup + "/" + gpuworkload.KubeVirtVersion, Kind: "VirtualMachineInstance",
				Name: vm.Name, UID: types.UID(vm.UID), Controller: &isController, BlockOwnerDeletion: &isController,
			}},
		},
		Spec: v1.PodSpec{
			SchedulerName:  vm.Spec.SchedulerName,
			ResourceClaims: vm.Spec.ResourceClaims,
			Containers: []v1.Container{{
				Name: launcherContainer, Image: "virt-launcher",
				Resources: v1.ResourceRequirements{Requests: requests, Limits: limits, Claims: claims},
			}},
		},
	}
}
