package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// The NVIDIA DRA driver's DeviceClasses, as its chart ships them.
func (e *env) createDriverDeviceClasses(t testing.TB) {
	t.Helper()
	for _, class := range []*resourceapi.DeviceClass{
		dradevices.DriverDeviceClass(dradevices.DRAClassGPU, dradevices.DRATypeGPU, gpuworkload.ResourceGPU),
		dradevices.DriverDeviceClass("mig.nvidia.com", dradevices.DRATypeMIG, ""),
		dradevices.DriverDeviceClass(dradevices.DRAClassVFIO, dradevices.DRATypeVFIO, ""),
	} {
		if _, err := e.client.ResourceV1().DeviceClasses().Create(e.ctx, class, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create DeviceClass %s: %v", class.Name, err)
		}
	}
}

// publishGPUs creates a DRA node and the ResourceSlice the driver publishes
// for it: gpus GPUs as gpu-N, and with passthrough also as gpu-vfio-N, each
// pair sharing its PCI bus ID.
func (e *env) publishGPUs(t testing.TB, node string, gpus int, passthrough bool) {
	t.Helper()
	createNode(e.ctx, t, e.client, node, map[string]string{"nvidia.com/gpu.present": "true"}, nil)
	slice := &resourceapi.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: node + "-gpu.nvidia.com"}, Spec: resourceapi.ResourceSliceSpec{
		Driver: "gpu.nvidia.com", NodeName: ptr.To(node), Pool: resourceapi.ResourcePool{Name: node, ResourceSliceCount: 1},
	}}
	device := func(name, deviceType, busID string) resourceapi.Device {
		return resourceapi.Device{Name: name, Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
			"type":                            {StringValue: ptr.To(deviceType)},
			"productName":                     {StringValue: ptr.To("NVIDIA A10")},
			"resource.kubernetes.io/pciBusID": {StringValue: ptr.To(busID)},
		}}
	}
	for i := range gpus {
		busID := fmt.Sprintf("0000:%02x:00.0", 0x3b+i)
		slice.Spec.Devices = append(slice.Spec.Devices, device(fmt.Sprintf("gpu-%d", i), "gpu", busID))
		if passthrough {
			slice.Spec.Devices = append(slice.Spec.Devices, device(fmt.Sprintf("gpu-vfio-%d", i), "vfio", busID))
		}
	}
	if _, err := e.client.ResourceV1().ResourceSlices().Create(e.ctx, slice, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ResourceSlice for %s: %v", node, err)
	}
}

// claimPod is a pod that uses one device of the DeviceClass through a
// ResourceClaim of its own; vmi shapes it as a virt-launcher pod.
func (e *env) claimPod(t testing.TB, name, vmi, deviceClass string) *v1.Pod {
	t.Helper()
	return e.claimPodFor(t, name, vmi, resourceapi.ExactDeviceRequest{DeviceClassName: deviceClass})
}

// claimPodFor is claimPod with the claim's one request as given.
func (e *env) claimPodFor(t testing.TB, name, vmi string, request resourceapi.ExactDeviceRequest) *v1.Pod {
	t.Helper()
	claim := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: resourceapi.ResourceClaimSpec{
		Devices: resourceapi.DeviceClaim{Requests: []resourceapi.DeviceRequest{{Name: "gpu", Exactly: &request}}},
	}}
	if _, err := e.client.ResourceV1().ResourceClaims("default").Create(e.ctx, claim, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ResourceClaim %s: %v", name, err)
	}
	pod := gpuPod(name, vmi, nil)
	pod.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To(name)}}
	pod.Spec.Containers[0].Resources.Claims = []v1.ResourceClaim{{Name: "gpu"}}
	return pod
}

// releaseClaim frees and deletes the claim of a pod that is gone, as
// kube-controller-manager's resource claim controller does; the lab runs no
// controller manager.
func (e *env) releaseClaim(t testing.TB, name string) {
	t.Helper()
	e.releaseClaimIn(t, "default", name)
}

// releaseClaimIn is releaseClaim for a claim of namespace.
func (e *env) releaseClaimIn(t testing.TB, namespace, name string) {
	t.Helper()
	claims := e.client.ResourceV1().ResourceClaims(namespace)
	// A scheduler may still be writing the claim of a pod it gave up.
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		claim, err := claims.Get(e.ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		claim.Status.ReservedFor, claim.Status.Allocation = nil, nil
		if claim, err = claims.UpdateStatus(e.ctx, claim, metav1.UpdateOptions{}); err != nil {
			return err
		}
		claim.Finalizers = nil
		_, err = claims.Update(e.ctx, claim, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("free claim %s and remove its finalizers: %v", name, err)
	}
	if err := claims.Delete(e.ctx, name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete claim %s: %v", name, err)
	}
}

// allocatedDevice waits for the claim's allocation and returns its device.
func (e *env) allocatedDevice(t testing.TB, claim string) string {
	t.Helper()
	var device string
	e.poll(t, "claim "+claim+" allocated", func(ctx context.Context) (bool, error) {
		c, err := e.client.ResourceV1().ResourceClaims("default").Get(ctx, claim, metav1.GetOptions{})
		if err != nil || c.Status.Allocation == nil || len(c.Status.Allocation.Devices.Results) == 0 {
			return false, err
		}
		device = c.Status.Allocation.Devices.Results[0].Device
		return true, nil
	})
	return device
}

// Parity with kube-scheduler's default profile on Kubernetes 1.37: a pod
// that requests nvidia.com/gpu binds to a node that only publishes GPUs
// through the DRA driver, and gets its extended-resource claim; claim-based
// container pods and VMs bind to devices of their class; device-plugin
// nodes keep working beside DRA nodes.
func TestDRAMixedCluster(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.createDriverDeviceClasses(t)
	createNode(e.ctx, t, e.client, "gpu-passthrough", map[string]string{"nvidia.com/gpu.workload.config": "vm-passthrough"}, map[string]string{a10: "1"})
	e.publishGPUs(t, "dra-containers", 2, false)
	e.publishGPUs(t, "dra-vms", 1, true)

	e.createPod(t, gpuPod("cuda-two", "", map[string]string{"nvidia.com/gpu": "2"}))
	if node := e.waitBound(t, "cuda-two"); node != "dra-containers" {
		t.Fatalf("cuda-two bound to %s, want dra-containers, the only node with two gpu devices", node)
	}
	e.poll(t, "cuda-two's extended-resource claim", func(ctx context.Context) (bool, error) {
		pod, err := e.client.CoreV1().Pods("default").Get(ctx, "cuda-two", metav1.GetOptions{})
		return err == nil && pod.Status.ExtendedResourceClaimStatus != nil && pod.Status.ExtendedResourceClaimStatus.ResourceClaimName != "", err
	})

	e.createPod(t, e.claimPod(t, "virt-launcher-vm-dra-x7k2p", "vm-dra", "vfio.gpu.nvidia.com"))
	if node := e.waitBound(t, "virt-launcher-vm-dra-x7k2p"); node != "dra-vms" {
		t.Fatalf("the VM bound to %s, want dra-vms, the only node with vfio devices", node)
	}
	if device := e.allocatedDevice(t, "virt-launcher-vm-dra-x7k2p"); device != "gpu-vfio-0" {
		t.Fatalf("the VM's claim got %s, want gpu-vfio-0", device)
	}

	// A VM that asks for a vfio device through a claim and for a model
	// through the device plugin needs both on one node: the passthrough node
	// publishes no DRA device, which GPUWorkloadFit says itself.
	mixed := e.claimPod(t, "virt-launcher-vm-mixed-x7k2p", "vm-mixed", "vfio.gpu.nvidia.com")
	mixed.Spec.Containers[0].Resources = v1.ResourceRequirements{Requests: v1.ResourceList{a10: resource.MustParse("1")}, Limits: v1.ResourceList{a10: resource.MustParse("1")}}
	e.createPod(t, mixed)
	e.waitEventMatching(t, "virt-launcher-vm-mixed-x7k2p", "FailedScheduling", "gpu-passthrough rejected for the claim", func(message string) bool {
		return strings.Contains(message, "1 node's DRA driver publishes no device of DeviceClass vfio.gpu.nvidia.com")
	})

	// A device-plugin VM beside the DRA nodes still lands where its model is advertised.
	e.createPod(t, gpuPod("virt-launcher-vm-a10-x7k2p", "vm-a10", map[string]string{a10: "1"}))
	if node := e.waitBound(t, "virt-launcher-vm-a10-x7k2p"); node != "gpu-passthrough" {
		t.Fatalf("the device-plugin VM bound to %s, want gpu-passthrough", node)
	}
}

// The sibling invariant under load: 4 DRA nodes with 4 GPUs each, every GPU
// published as gpu-N and gpu-vfio-N. 100 container pods (extended resource
// and claims) and 100 VMs (vfio claims) arrive at once, and 20 of them are
// deleted while they schedule. No physical GPU may end up in two
// allocations, exactly as many pods bind as there are GPUs, and the
// DeviceTaintRules fence exactly the container devices of the VMs' GPUs.
func TestDRASiblingInvariant(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.createDriverDeviceClasses(t)
	const nodes, gpusPerNode = 4, 4
	for i := range nodes {
		e.publishGPUs(t, fmt.Sprintf("dra-%d", i), gpusPerNode, true)
	}
	var names []string
	for i := range 100 {
		name := fmt.Sprintf("cuda-%03d", i)
		if i%2 == 0 {
			e.createPod(t, gpuPod(name, "", map[string]string{"nvidia.com/gpu": "1"}))
		} else {
			e.createPod(t, e.claimPod(t, name, "", "gpu.nvidia.com"))
		}
		vm := fmt.Sprintf("virt-launcher-vm-%03d-x7k2p", i)
		e.createPod(t, e.claimPod(t, vm, fmt.Sprintf("vm-%03d", i), "vfio.gpu.nvidia.com"))
		names = append(names, name, vm)
	}
	deleted := map[string]bool{}
	for i := 0; len(deleted) < 20; i += 7 {
		name := names[i%len(names)]
		if err := e.client.CoreV1().Pods("default").Delete(e.ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Fatalf("delete pod %s: %v", name, err)
		}
		deleted[name] = true
	}

	busIDs := map[string]string{}
	for i := range nodes {
		for g := range gpusPerNode {
			busID := fmt.Sprintf("0000:%02x:00.0", 0x3b+g)
			pool := fmt.Sprintf("dra-%d", i)
			busIDs[pool+"/"+fmt.Sprintf("gpu-%d", g)] = pool + " " + busID
			busIDs[pool+"/"+fmt.Sprintf("gpu-vfio-%d", g)] = pool + " " + busID
		}
	}
	// Every physical GPU ends up allocated, each to one claim, and every
	// claim's pod that still exists is bound. A pod deleted while it was
	// being bound leaves its claim allocated: no resource claim controller
	// frees it here, so its GPU stays taken, as does a bound pod's that is
	// terminating without a kubelet.
	var heldBy map[string]string
	var twice []string
	e.poll(t, fmt.Sprintf("all %d physical GPUs allocated, the claims' pods bound", nodes*gpusPerNode), func(ctx context.Context) (bool, error) {
		claims, err := e.client.ResourceV1().ResourceClaims("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		pods, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		nodeOf := map[types.UID]string{}
		for _, p := range pods.Items {
			nodeOf[p.UID] = p.Spec.NodeName
		}
		heldBy, twice = map[string]string{}, nil
		settled := true
		for _, c := range claims.Items {
			if c.Status.Allocation == nil {
				continue
			}
			for _, consumer := range c.Status.ReservedFor {
				if node, exists := nodeOf[consumer.UID]; exists && node == "" {
					settled = false
				}
			}
			for _, r := range c.Status.Allocation.Devices.Results {
				gpu := busIDs[r.Pool+"/"+r.Device]
				if other, ok := heldBy[gpu]; ok {
					twice = append(twice, fmt.Sprintf("physical GPU %s is allocated to claims %s and %s", gpu, other, c.Name))
				}
				heldBy[gpu] = c.Name
			}
		}
		return len(twice) > 0 || settled && len(heldBy) == nodes*gpusPerNode, nil
	})
	for _, problem := range twice {
		t.Error(problem)
	}
	e.waitVMFences(t)
}

// publishMIG creates a DRA node whose one GPU is in static MIG mode: the
// driver publishes only its MIG devices, each with the parent GPU's PCI bus ID.
func (e *env) publishMIG(t testing.TB, node string, slices int) {
	t.Helper()
	createNode(e.ctx, t, e.client, node, map[string]string{"nvidia.com/gpu.present": "true"}, nil)
	slice := &resourceapi.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: node + "-gpu.nvidia.com"}, Spec: resourceapi.ResourceSliceSpec{
		Driver: "gpu.nvidia.com", NodeName: ptr.To(node), Pool: resourceapi.ResourcePool{Name: node, ResourceSliceCount: 1},
	}}
	for i := range slices {
		slice.Spec.Devices = append(slice.Spec.Devices, resourceapi.Device{Name: fmt.Sprintf("gpu-0-mig-1g5gb-%d", i), Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
			"type":                            {StringValue: ptr.To("mig")},
			"productName":                     {StringValue: ptr.To("NVIDIA A100-SXM4-40GB")},
			"resource.kubernetes.io/pciBusID": {StringValue: ptr.To("0000:3b:00.0")},
		}})
	}
	if _, err := e.client.ResourceV1().ResourceSlices().Create(e.ctx, slice, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ResourceSlice for %s: %v", node, err)
	}
}

// wantNoDeviceTaintRules checks that no DeviceTaintRule exists: the
// scheduler writes none.
func (e *env) wantNoDeviceTaintRules(t testing.TB) {
	t.Helper()
	rules, err := e.client.ResourceV1().DeviceTaintRules().List(e.ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rules.Items) != 0 {
		t.Fatalf("%d DeviceTaintRules exist, want none: the first is %s", len(rules.Items), rules.Items[0].Name)
	}
}

// Static MIG: the 7 slices of one A100 carry its PCI bus ID and are
// independent. With some allocated the rest stay allocatable, and the guard
// writes no DeviceTaintRule, which would close them to every scheduler.
func TestDRAStaticMIGSlices(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.createDriverDeviceClasses(t)
	e.publishMIG(t, "a100-mig", 7)
	for i := range 2 {
		e.createPod(t, e.claimPod(t, fmt.Sprintf("mig-%d", i), "", "mig.nvidia.com"))
		e.waitBound(t, fmt.Sprintf("mig-%d", i))
	}
	for i := 2; i < 7; i++ {
		e.createPod(t, e.claimPod(t, fmt.Sprintf("mig-%d", i), "", "mig.nvidia.com"))
	}
	for i := 2; i < 7; i++ {
		if node := e.waitBound(t, fmt.Sprintf("mig-%d", i)); node != "a100-mig" {
			t.Fatalf("mig-%d bound to %s, want a100-mig", i, node)
		}
	}
	e.wantNoDeviceTaintRules(t)
}

// A pair allocated before the scheduler ran (the default profile's race):
// two claims hold gpu-0 and gpu-vfio-0. A new claim for gpu.nvidia.com binds
// to the node's free gpu-1.
func TestDRAPairAllocatedBeforeBlocksNothingElse(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.createDriverDeviceClasses(t)
	e.publishGPUs(t, "dra-1", 2, true)
	e.heldClaim(t, "old-cuda", dradevices.DRAClassGPU, "dra-1", "gpu-0")
	e.heldClaim(t, "old-vm", dradevices.DRAClassVFIO, "dra-1", "gpu-vfio-0")
	e.createPod(t, e.claimPod(t, "cuda-new", "", "gpu.nvidia.com"))
	if node := e.waitBound(t, "cuda-new"); node != "dra-1" {
		t.Fatalf("cuda-new bound to %s, want dra-1", node)
	}
	if device := e.allocatedDevice(t, "cuda-new"); device != "gpu-1" {
		t.Fatalf("cuda-new got %s, want gpu-1, the only GPU no claim holds", device)
	}
	e.wantNoDeviceTaintRules(t)
}

// The devices our filter counts are those the allocator allocates from. A
// VM's vfio claim finds none on dra-stale, whose only vfio device is in an
// older generation of its pool, nor on dra-split, whose pool declares two
// slices of which one is published: GPUWorkloadFit refuses the pod for
// every node, as no node publishes a usable vfio device. Once dra-split's second slice is published, the VM
// binds there.
func TestDRAPoolsTheAllocatorSkips(t *testing.T) {
	// The scheduler starts after the slices exist, so that its first
	// attempt already sees them.
	e := newDRAClusterWithoutScheduler(t)
	slice := func(name, node, pool string, generation, count int64, device, deviceType, busID string, taints ...resourceapi.DeviceTaint) {
		t.Helper()
		s := &resourceapi.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: resourceapi.ResourceSliceSpec{
			Driver: "gpu.nvidia.com", NodeName: ptr.To(node), Pool: resourceapi.ResourcePool{Name: pool, Generation: generation, ResourceSliceCount: count},
			Devices: []resourceapi.Device{{Name: device, Taints: taints, Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{
				"type": {StringValue: ptr.To(deviceType)}, "resource.kubernetes.io/pciBusID": {StringValue: ptr.To(busID)}}}},
		}}
		if _, err := e.client.ResourceV1().ResourceSlices().Create(e.ctx, s, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create ResourceSlice %s: %v", name, err)
		}
	}
	for _, node := range []string{"dra-stale", "dra-split"} {
		createNode(e.ctx, t, e.client, node, map[string]string{"nvidia.com/gpu.present": "true"}, nil)
	}
	slice("dra-stale-2", "dra-stale", "dra-stale", 2, 1, "gpu-0", "gpu", "0000:3b:00.0")
	slice("dra-stale-1", "dra-stale", "dra-stale", 1, 1, "gpu-vfio-1", "vfio", "0000:3c:00.0")
	slice("dra-split-a", "dra-split", "dra-split", 1, 2, "gpu-vfio-0", "vfio", "0000:3b:00.0")
	e.startScheduler(t, "scheduler")

	e.createPod(t, e.claimPod(t, "virt-launcher-vm-dra-x7k2p", "vm-dra", "vfio.gpu.nvidia.com"))
	e.waitEvent(t, "virt-launcher-vm-dra-x7k2p", "FailedScheduling", "0/2 nodes are available: VirtualMachineInstance/default/vm-dra: no node's DRA driver publishes a device of DeviceClass vfio.gpu.nvidia.com. "+
		"preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.")

	slice("dra-split-b", "dra-split", "dra-split", 1, 2, "gpu-1", "gpu", "0000:3c:00.0")
	if node := e.waitBound(t, "virt-launcher-vm-dra-x7k2p"); node != "dra-split" {
		t.Fatalf("the VM bound to %s, want dra-split, whose pool is now complete", node)
	}
	if device := e.allocatedDevice(t, "virt-launcher-vm-dra-x7k2p"); device != "gpu-vfio-0" {
		t.Fatalf("the VM's claim got %s, want gpu-vfio-0", device)
	}

	// A device tainted NoSchedule goes only to a claim that tolerates the taint.
	maintenance := resourceapi.DeviceTaint{Key: "example.com/maintenance", Effect: resourceapi.DeviceTaintEffectNoSchedule}
	createNode(e.ctx, t, e.client, "dra-tainted", map[string]string{"nvidia.com/gpu.present": "true"}, nil)
	slice("dra-tainted", "dra-tainted", "dra-tainted", 1, 1, "gpu-vfio-0", "vfio", "0000:3b:00.0", maintenance)
	e.createPod(t, e.claimPod(t, "virt-launcher-vm-intolerant-x7k2p", "vm-intolerant", "vfio.gpu.nvidia.com"))
	e.waitEventMatching(t, "virt-launcher-vm-intolerant-x7k2p", "FailedScheduling", "dra-tainted rejected for its taint", func(message string) bool {
		return strings.Contains(message, "1 the node's free devices of DeviceClass vfio.gpu.nvidia.com are tainted")
	})
	e.createPod(t, e.claimPodFor(t, "virt-launcher-vm-tolerant-x7k2p", "vm-tolerant", resourceapi.ExactDeviceRequest{DeviceClassName: "vfio.gpu.nvidia.com",
		Tolerations: []resourceapi.DeviceToleration{{Key: maintenance.Key, Operator: resourceapi.DeviceTolerationOpExists, Effect: resourceapi.DeviceTaintEffectNoSchedule}}}))
	if node := e.waitBound(t, "virt-launcher-vm-tolerant-x7k2p"); node != "dra-tainted" {
		t.Fatalf("the tolerating VM bound to %s, want dra-tainted", node)
	}
}
