package integration

import (
	"context"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
)

// A claim is judged by what its DeviceClass selects. A mig.nvidia.com
// claim waits while the only MIG slice is allocated, though a full GPU of
// the same mode is free next to it, and the reasons name the class; it
// binds once the slice is freed.
func TestDRAMIGClaimBesideAFreeFullGPU(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.createDriverDeviceClasses(t)
	e.publishGPUs(t, "dra-full", 1, false)
	e.publishMIG(t, "a100-mig", 1)
	e.createPod(t, e.claimPod(t, "mig-0", "", "mig.nvidia.com"))
	if node := e.waitBound(t, "mig-0"); node != "a100-mig" {
		t.Fatalf("mig-0 bound to %s, want a100-mig", node)
	}
	e.createPod(t, e.claimPod(t, "mig-1", "", "mig.nvidia.com"))
	reasons := []string{"all 1 devices of DeviceClass mig.nvidia.com on the node are allocated", "node's DRA driver publishes no device of DeviceClass mig.nvidia.com"}
	e.waitEventMatching(t, "mig-1", "FailedScheduling", strings.Join(reasons, " and "), func(message string) bool {
		return strings.Contains(message, reasons[0]) && strings.Contains(message, reasons[1])
	})
	e.releaseClaim(t, "mig-0")
	if node := e.waitBound(t, "mig-1"); node != "a100-mig" {
		t.Fatalf("mig-1 bound to %s, want a100-mig, the only node with a MIG slice", node)
	}
}

// Two profiles in one process share one view of the cluster: pods of both
// profiles on one node get GPUs of their own, the VM's GPU is fenced once,
// and the metrics count both profiles' waiting pods.
func TestDRATwoProfiles(t *testing.T) {
	e := newDRANodeWithoutScheduler(t)
	config, err := controlplane.SchedulerConfig(repoRoot+"/"+controlplane.InstallConfigMap, e.cp.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	s := e.startSchedulerWithConfig(t, "scheduler", e.cp.Kubeconfig, withSecondProfile(t, config, "gpu-workload-scheduler-b"))
	cuda := e.claimPod(t, "cuda-a", "", "gpu.nvidia.com")
	vm := e.claimPod(t, "virt-launcher-vm-b-x7k2p", "vm-b", "vfio.gpu.nvidia.com")
	vm.Spec.SchedulerName = "gpu-workload-scheduler-b"
	e.createPod(t, cuda)
	e.createPod(t, vm)
	e.waitBound(t, "cuda-a")
	e.waitBound(t, "virt-launcher-vm-b-x7k2p")
	gpu, vfio := e.allocatedDevice(t, "cuda-a"), e.allocatedDevice(t, "virt-launcher-vm-b-x7k2p")
	if strings.TrimPrefix(gpu, "gpu-") == strings.TrimPrefix(vfio, "gpu-vfio-") {
		t.Fatalf("cuda-a holds %s and the VM %s: one physical GPU in two claims", gpu, vfio)
	}
	// The metrics count every profile's explanations: a VM of the first
	// profile waits, and the collector is the second profile's.
	e.createPod(t, e.claimPod(t, "virt-launcher-vm-a-x7k2p", "vm-a", "vfio.gpu.nvidia.com"))
	e.poll(t, "the first profile's waiting VM counted with its reason", func(ctx context.Context) (bool, error) {
		got, err := controlplane.ScrapeGPUWorkloadMetrics(ctx, s.URL, e.cp.AdminConfig.BearerToken)
		return err == nil && got[`gpu_workload_pending_pods{mode="vm-passthrough",reason="DRASiblingInUse",resource="vfio.gpu.nvidia.com"}`] == 1, nil
	})
	e.waitVMFences(t)
}

// newDRAClusterWithoutScheduler is the lab's CRDs, a ClusterPolicy with
// sandbox workloads enabled and the driver's DeviceClasses; the test
// publishes devices and starts the scheduler.
func newDRAClusterWithoutScheduler(t testing.TB) *env {
	t.Helper()
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	e.createDriverDeviceClasses(t)
	return e
}

// newDRANodeWithoutScheduler is newDRAClusterWithoutScheduler with node
// dra-1, two GPUs published as gpu and vfio devices.
func newDRANodeWithoutScheduler(t testing.TB) *env {
	t.Helper()
	e := newDRAClusterWithoutScheduler(t)
	e.publishGPUs(t, "dra-1", 2, true)
	return e
}

// withSecondProfile adds a copy of the configuration's first profile under
// another scheduler name.
func withSecondProfile(t testing.TB, config []byte, name string) []byte {
	t.Helper()
	var c map[string]any
	if err := yaml.Unmarshal(config, &c); err != nil {
		t.Fatal(err)
	}
	profiles := c["profiles"].([]any)
	var second map[string]any
	raw, err := yaml.Marshal(profiles[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &second); err != nil {
		t.Fatal(err)
	}
	second["schedulerName"] = name
	c["profiles"] = append(profiles, second)
	out, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
