package placement

import (
	"fmt"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// namespace holds every pod placed.
const namespace = "sim"

const podsPerNode = 1000

// nodeObject is the node as the GPU Operator and the device plugins leave it:
// its mode label, and the advertised GPU resource (none while converting) in
// capacity and allocatable. A DRA node has neither: its GPUs are in its
// ResourceSlice.
func nodeObject(spec NodeSpec, mode gpuworkload.Mode, advertised v1.ResourceName, units int64, version int) *v1.Node {
	labels := map[string]string{}
	for key, value := range spec.Labels {
		if !strings.HasPrefix(key, gpuworkload.DeployLabelPrefix) && key != gpuworkload.LabelVGPUConfigState {
			labels[key] = value
		}
	}
	if spec.Inventory.GPUs > 0 {
		// A DRA node runs the DRA driver, not a mode; GPU feature discovery
		// labels it as in container mode.
		labelled := mode
		if spec.DRA {
			labelled = gpuworkload.ModeContainer
		}
		labels = gpuworkload.LabelsInMode(labels, labelled, spec.Inventory)
		labels[gpuworkload.LabelGPUPresent] = "true"
		if spec.DRA {
			delete(labels, gpuworkload.LabelWorkloadConfig)
		}
	}
	labels[v1.LabelHostname] = spec.Name
	list := v1.ResourceList{
		v1.ResourceCPU:    *resource.NewMilliQuantity(spec.MilliCPU, resource.DecimalSI),
		v1.ResourceMemory: *resource.NewQuantity(spec.Memory, resource.BinarySI),
		v1.ResourcePods:   *resource.NewQuantity(podsPerNode, resource.DecimalSI),
	}
	if units > 0 {
		list[advertised] = *resource.NewQuantity(units, resource.DecimalSI)
	}
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: spec.Name, UID: types.UID("node-" + spec.Name), Labels: labels, ResourceVersion: strconv.Itoa(version)},
		Status:     v1.NodeStatus{Capacity: list, Allocatable: list.DeepCopy()},
	}
}

// podObject is the pod the workload describes; a VM is a virt-launcher pod.
func podObject(spec PodSpec, schedulerName string) *v1.Pod {
	requests := v1.ResourceList{}
	if spec.MilliCPU > 0 {
		requests[v1.ResourceCPU] = *resource.NewMilliQuantity(spec.MilliCPU, resource.DecimalSI)
	}
	if spec.Memory > 0 {
		requests[v1.ResourceMemory] = *resource.NewQuantity(spec.Memory, resource.BinarySI)
	}
	var limits v1.ResourceList
	var claims []v1.ResourceClaim
	if spec.ClaimProducts != nil {
		claims = []v1.ResourceClaim{{Name: vmClaimRequest}}
	} else if spec.GPU != "" {
		requests[spec.GPU] = *resource.NewQuantity(spec.GPUCount, resource.DecimalSI)
		limits = v1.ResourceList{spec.GPU: requests[spec.GPU]}
	}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: spec.Name, Namespace: namespace, UID: types.UID("pod-" + spec.Name)},
		Spec: v1.PodSpec{
			SchedulerName: schedulerName,
			Containers:    []v1.Container{{Name: "compute", Resources: v1.ResourceRequirements{Requests: requests, Limits: limits, Claims: claims}}},
		},
	}
	if claims != nil {
		pod.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: vmClaimRequest, ResourceClaimName: ptr.To(vmClaimName(spec.Name))}}
	}
	pod.Spec.NodeSelector = spec.NodeSelector
	if spec.RequiredNodeAffinity != nil {
		pod.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: spec.RequiredNodeAffinity}}
	}
	if spec.VM {
		pod.Labels = map[string]string{"kubevirt.io": "virt-launcher", "kubevirt.io/created-by": "vmi-" + spec.Name}
		pod.Annotations = map[string]string{"kubevirt.io/domain": spec.Name}
	}
	return pod
}

// vmClaimRequest names the one request of a VM's claim, and the pod's
// reference to the claim.
const vmClaimRequest = "gpu"

// vmClaimObject is the ResourceClaim of a VM that accepts several cards:
// its GPUs from the vfio DeviceClass, of the first card in its list that
// a node has enough of (firstAvailable), as KubeVirt users write them.
func vmClaimObject(spec PodSpec) *resourceapi.ResourceClaim {
	alternatives := make([]resourceapi.DeviceSubRequest, len(spec.ClaimProducts))
	for i, product := range spec.ClaimProducts {
		alternatives[i] = resourceapi.DeviceSubRequest{
			Name: fmt.Sprintf("card-%d", i), DeviceClassName: dradevices.DRAClassVFIO,
			Selectors:      []resourceapi.DeviceSelector{dradevices.ProductNameSelector(product)},
			AllocationMode: resourceapi.DeviceAllocationModeExactCount, Count: spec.GPUCount,
		}
	}
	return &resourceapi.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: vmClaimName(spec.Name), UID: types.UID("claim-" + spec.Name), ResourceVersion: "1"},
		Spec:       resourceapi.ResourceClaimSpec{Devices: resourceapi.DeviceClaim{Requests: []resourceapi.DeviceRequest{{Name: vmClaimRequest, FirstAvailable: alternatives}}}},
	}
}

func vmClaimName(pod string) string { return pod + "-gpu" }

// draClaimObject is the extended-resource claim DynamicResources writes for
// a pod at PreBind, with the devices allocated to it on the node.
func draClaimObject(pod, node string, devices []string) *resourceapi.ResourceClaim {
	claim := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: draClaimName(pod)}}
	results := make([]resourceapi.DeviceRequestAllocationResult, len(devices))
	for i, d := range devices {
		results[i] = resourceapi.DeviceRequestAllocationResult{Request: "container-0-request-0", Driver: dradevices.DRADriver, Pool: node, Device: d}
	}
	claim.Status.Allocation = &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{Results: results}}
	return claim
}

func draClaimName(pod string) string { return pod + "-extended-resources" }
