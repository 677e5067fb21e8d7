package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inventory"
)

// fencedDevices are the pool/device each DeviceTaintRule selects, sorted.
func (e *env) fencedDevices(ctx context.Context) ([]string, error) {
	rules, err := e.client.ResourceV1().DeviceTaintRules().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range rules.Items {
		sel := r.Spec.DeviceSelector
		if r.Labels[drasiblings.ManagedByLabel] != drasiblings.ManagedBy || sel == nil || sel.Pool == nil || sel.Device == nil ||
			r.Spec.Taint.Key != drasiblings.FenceTaintKey || r.Spec.Taint.Effect != resourceapi.DeviceTaintEffectNoSchedule {
			return nil, fmt.Errorf("DeviceTaintRule %s is not a fence of ours: %+v", r.Name, r)
		}
		out = append(out, *sel.Pool+"/"+*sel.Device)
	}
	slices.Sort(out)
	return out, nil
}

// waitFenced waits until the DeviceTaintRules fence exactly the devices.
func (e *env) waitFenced(t testing.TB, want ...string) {
	t.Helper()
	slices.Sort(want)
	var got []string
	e.poll(t, fmt.Sprintf("DeviceTaintRules fencing %v", want), func(ctx context.Context) (bool, error) {
		var err error
		got, err = e.fencedDevices(ctx)
		return err == nil && slices.Equal(got, want), err
	})
}

// setDevicePublished emulates the NVIDIA DRA driver, which withdraws a GPU's
// container device from its node's slice once it has prepared a vfio claim
// on the GPU and publishes it again at unprepare: a new generation of the
// node's pool, with or without the device.
func (e *env) setDevicePublished(t testing.TB, node, device string, published bool, template resourceapi.Device) {
	t.Helper()
	slices := e.client.ResourceV1().ResourceSlices()
	slice, err := slices.Get(e.ctx, node+"-gpu.nvidia.com", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	devices := slice.Spec.Devices[:0:0]
	for _, d := range slice.Spec.Devices {
		if d.Name != device {
			devices = append(devices, d)
		}
	}
	if published {
		template.Name = device
		devices = append(devices, template)
	}
	slice.Spec.Devices = devices
	slice.Spec.Pool.Generation++
	if _, err := slices.Update(e.ctx, slice, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("update ResourceSlice of %s: %v", node, err)
	}
}

// sliceDevice is a device of the node's slice as published.
func (e *env) sliceDevice(t testing.TB, node, device string) resourceapi.Device {
	t.Helper()
	slice, err := e.client.ResourceV1().ResourceSlices().Get(e.ctx, node+"-gpu.nvidia.com", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range slice.Spec.Devices {
		if d.Name == device {
			return d
		}
	}
	t.Fatalf("node %s publishes no device %s", node, device)
	return resourceapi.Device{}
}

// inventoryRow is kubectl gpu-workload inventory's row of a resource.
func (e *env) inventoryRow(t *testing.T, resource string) inventory.Resource {
	t.Helper()
	code, out := e.kubectlPlugin(t, "inventory", "-o", "json")
	var report struct {
		Resources []inventory.Resource `json:"resources"`
	}
	if err := json.Unmarshal([]byte(out), &report); code != 0 || err != nil {
		t.Fatalf("kubectl gpu-workload inventory: exit %d (%v)\n%s", code, err, out)
	}
	for _, r := range report.Resources {
		if string(r.Resource) == resource {
			return r
		}
	}
	t.Fatalf("kubectl gpu-workload inventory has no row of %s:\n%s", resource, out)
	return inventory.Resource{}
}

// heldClaim is a claim of the DeviceClass allocated the device before the
// test's schedulers ran, reserved for no pod.
func (e *env) heldClaim(t testing.TB, name, deviceClass, pool, device string) {
	t.Helper()
	claims := e.client.ResourceV1().ResourceClaims("default")
	claim, err := claims.Create(e.ctx, &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: resourceapi.ResourceClaimSpec{
		Devices: resourceapi.DeviceClaim{Requests: []resourceapi.DeviceRequest{{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: deviceClass}}}},
	}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	claim.Status.Allocation = &resourceapi.AllocationResult{Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{
		{Request: "gpu", Driver: dradevices.DRADriver, Pool: pool, Device: device}}}}
	if _, err := claims.UpdateStatus(e.ctx, claim, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("allocate %s to claim %s: %v", device, name, err)
	}
}

// claimDevice is the device the claim's allocation holds, "" while none.
func (e *env) claimDevice(ctx context.Context, name string) (string, error) {
	c, err := e.client.ResourceV1().ResourceClaims("default").Get(ctx, name, metav1.GetOptions{})
	if err != nil || c.Status.Allocation == nil || len(c.Status.Allocation.Devices.Results) == 0 {
		return "", err
	}
	r := c.Status.Allocation.Devices.Results[0]
	return r.Pool + "/" + r.Device, nil
}

// Beside kube-scheduler's default profile: ours allocates a VM's vfio claim
// on a node whose other GPU a claim holds, and fences the GPU's container
// device, so that a
// container pod of default-scheduler with a gpu.nvidia.com claim is never
// given it. It waits on the fence; once the emulated driver has prepared
// the VM's claim and withdrawn gpu-0 the fence is gone, and it waits on the
// device being gone, which the inventory counts as part of the VM's GPU
// (sibling-in-use), not as missing; once the VM's claim is released and gpu-0 published
// again, it binds to gpu-0, and no DeviceTaintRule remains.
func TestDRASiblingFencedAgainstTheDefaultScheduler(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.startDefaultScheduler(t)
	e.createDriverDeviceClasses(t)
	// Two GPUs, the second held through gpu-1 by a claim: once the driver
	// withdraws gpu-0 the pool still publishes a container device, which
	// says it publishes both devices of its GPUs.
	e.publishGPUs(t, "dra-1", 2, true)
	e.heldClaim(t, "training", dradevices.DRAClassGPU, "dra-1", "gpu-1")
	gpu0 := e.sliceDevice(t, "dra-1", "gpu-0")

	vm := e.claimPod(t, "virt-launcher-vm-x7k2p", "vm", dradevices.DRAClassVFIO)
	e.createPod(t, vm)
	e.waitBound(t, vm.Name)
	e.waitFenced(t, "dra-1/gpu-0")

	cuda := e.claimPod(t, "cuda", "", dradevices.DRAClassGPU)
	cuda.Spec.SchedulerName = controlplane.DefaultSchedulerName
	e.createPod(t, cuda)
	e.waitMessage(t, "cuda", "0/1 nodes are available: 1 cannot allocate all claims.")

	e.setDevicePublished(t, "dra-1", "gpu-0", false, gpu0)
	e.waitFenced(t)
	e.poll(t, "default-scheduler to try cuda again on the new slice", func(ctx context.Context) (bool, error) {
		pod, err := e.client.CoreV1().Pods("default").Get(ctx, "cuda", metav1.GetOptions{})
		if err != nil || pod.Spec.NodeName != "" {
			return false, fmt.Errorf("cuda: bound to %q (%v), want Pending", pod.Spec.NodeName, err)
		}
		msg := unschedulableMessage(pod)
		return strings.HasPrefix(msg, "0/1 nodes are available: 1 cannot allocate all claims."), nil
	})
	if device, err := e.claimDevice(e.ctx, "cuda"); err != nil || device != "" {
		t.Fatalf("cuda's claim holds %q (%v) while gpu-0 is withdrawn, want nothing", device, err)
	}
	// The withdrawn device is part of the VM's GPU: neither missing nor free.
	if got := e.inventoryRow(t, "gpu.nvidia.com"); got.Allocatable != 2 || got.Allocated != 1 || got.SiblingInUse != 1 || got.Free != 0 {
		t.Errorf("inventory of gpu.nvidia.com while gpu-0 is withdrawn: %+v, want 2 devices: gpu-1 allocated, gpu-0 sibling-in-use", got)
	}

	if err := e.client.CoreV1().Pods("default").Delete(e.ctx, vm.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
		t.Fatal(err)
	}
	e.releaseClaim(t, vm.Name)
	e.setDevicePublished(t, "dra-1", "gpu-0", true, gpu0)
	e.waitBound(t, "cuda")
	e.releaseClaim(t, "training")
	if device := e.allocatedDevice(t, "cuda"); device != "gpu-0" {
		t.Fatalf("cuda's claim got %s, want gpu-0", device)
	}
	e.waitFenced(t)
}

// A VM of ours and a container pod of default-scheduler, each with a claim,
// are created together for a one-GPU node, 20 times in each order: never do
// both claims hold devices of the one GPU. Whichever allocates first wins;
// the other waits. Once every claim is released no DeviceTaintRule remains.
func TestDRASiblingNeverTwiceBesideTheDefaultScheduler(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.startDefaultScheduler(t)
	e.createDriverDeviceClasses(t)
	const rounds = 40
	var pods []string
	wins := map[string]int{}
	for i := range rounds {
		node := fmt.Sprintf("dra-%d", i)
		e.publishGPUs(t, node, 1, true)
		e.labelNode(t, node, "gpu-workload.io/round", node)
		vm := e.claimPod(t, fmt.Sprintf("virt-launcher-vm-%d", i), fmt.Sprintf("vm-%d", i), dradevices.DRAClassVFIO)
		cuda := e.claimPod(t, fmt.Sprintf("cuda-%d", i), "", dradevices.DRAClassGPU)
		cuda.Spec.SchedulerName = controlplane.DefaultSchedulerName
		round := []*v1.Pod{vm, cuda}
		if i%2 == 1 {
			round = []*v1.Pod{cuda, vm}
		}
		for _, pod := range round {
			pod.Spec.NodeSelector = map[string]string{"gpu-workload.io/round": node}
			e.createPod(t, pod)
			pods = append(pods, pod.Name)
		}
		var bound []string
		e.poll(t, fmt.Sprintf("round %d: one pod bound, the other unschedulable", i), func(ctx context.Context) (bool, error) {
			bound = bound[:0]
			settled := 0
			for _, pod := range round {
				got, err := e.client.CoreV1().Pods("default").Get(ctx, pod.Name, metav1.GetOptions{})
				if err != nil {
					return false, err
				}
				if got.Spec.NodeName != "" {
					bound = append(bound, got.Name)
					settled++
				} else if unschedulableMessage(got) != "" {
					settled++
				}
			}
			return settled == 2 && len(bound) > 0, nil
		})
		if len(bound) != 1 {
			t.Errorf("round %d: %v bound, want one of the two", i, bound)
		}
		for _, name := range bound {
			wins[strings.TrimSuffix(name, fmt.Sprintf("-%d", i))]++
		}
	}
	// Read last, after every round: a loser that got its device late shows.
	heldBy := map[string]string{}
	for _, name := range pods {
		device, err := e.claimDevice(e.ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if device == "" {
			continue
		}
		gpu := strings.Replace(device, "gpu-vfio-", "gpu-", 1)
		if other, ok := heldBy[gpu]; ok {
			t.Errorf("the GPU of %s is allocated to claims %s and %s", gpu, other, name)
		}
		heldBy[gpu] = name
	}
	t.Logf("%d rounds: won by %v", rounds, wins)
	for _, name := range pods {
		if err := e.client.CoreV1().Pods("default").Delete(e.ctx, name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
			t.Fatal(err)
		}
		e.releaseClaim(t, name)
	}
	e.waitFenced(t)
}

// waitVMFences waits until the DeviceTaintRules fence exactly the container
// device of each GPU whose vfio device a reserved claim holds: the devices
// in these tests stay published, as no driver prepares the claims.
func (e *env) waitVMFences(t testing.TB) {
	t.Helper()
	claims, err := e.client.ResourceV1().ResourceClaims("").List(e.ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range claims.Items {
		if c.Status.Allocation == nil || len(c.Status.ReservedFor) == 0 {
			continue
		}
		for _, r := range c.Status.Allocation.Devices.Results {
			if gpu, ok := strings.CutPrefix(r.Device, "gpu-vfio-"); ok {
				want = append(want, r.Pool+"/gpu-"+gpu)
			}
		}
	}
	e.waitFenced(t, want...)
}
