package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inventory"
)

// The scheduler's /metrics counts the GPU inventory on the real control
// plane: a VM waits for the one passthrough A10 while two container GPUs
// are free, which nobody waiting can use (stranded by mode).
func TestInventoryMetrics(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	createNode(e.ctx, t, e.client, "gpu-container", map[string]string{gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: "container"}, map[string]string{"nvidia.com/gpu": "2"})
	createNode(e.ctx, t, e.client, "gpu-passthrough", map[string]string{gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: "vm-passthrough"}, map[string]string{"nvidia.com/GA102GL_A10": "1"})
	s := e.startScheduler(t, "scheduler")
	e.createPod(t, gpuPod("virt-launcher-vm-1-abcde", "vm-1", map[string]string{"nvidia.com/GA102GL_A10": "1"}))
	e.waitBound(t, "virt-launcher-vm-1-abcde")
	e.createPod(t, gpuPod("virt-launcher-vm-2-fghij", "vm-2", map[string]string{"nvidia.com/GA102GL_A10": "1"}))
	e.waitEventMatching(t, "virt-launcher-vm-2-fghij", "GPUWorkloadUnschedulable", "free units are used up", func(m string) bool { return strings.Contains(m, "free units are used up") })

	want := map[string]float64{
		`gpu_workload_units{mode="container",resource="nvidia.com/gpu",state="allocatable"}`:                       2,
		`gpu_workload_units{mode="container",resource="nvidia.com/gpu",state="free"}`:                              2,
		`gpu_workload_units{mode="vm-passthrough",resource="nvidia.com/GA102GL_A10",state="allocated"}`:            1,
		`gpu_workload_units{mode="vm-passthrough",resource="nvidia.com/GA102GL_A10",state="free"}`:                 0,
		`gpu_workload_stranded_units{kind="mode",mode="container",resource="nvidia.com/gpu"}`:                      2,
		`gpu_workload_stranded_units{kind="fragmentation",mode="container",resource="nvidia.com/gpu"}`:             0,
		`gpu_workload_stranded_units{kind="mode",mode="vm-passthrough",resource="nvidia.com/GA102GL_A10"}`:         0,
		`gpu_workload_nodes{mode="container",state="ready"}`:                                                       1,
		`gpu_workload_nodes{mode="vm-passthrough",state="ready"}`:                                                  1,
		`gpu_workload_nodes{mode="vm-vgpu",state="ready"}`:                                                         0,
		`gpu_workload_empty_nodes{mode="container"}`:                                                               1,
		`gpu_workload_empty_nodes{mode="vm-passthrough"}`:                                                          0,
		`gpu_workload_pending_pods{mode="vm-passthrough",reason="Insufficient",resource="nvidia.com/GA102GL_A10"}`: 1,
	}
	got := e.waitForMetrics(t, s.URL, want, "Insufficient")
	e.inventoryAgrees(t, got)
}

// A pod whose GPU is free on a node that lacks its CPU waits for CPU: the
// explanation says so (GPUsFree) instead of "used up", and the metrics
// count the pod under that reason and the node's free units as stranded by
// CPU or memory.
func TestInventoryMetricsWhenCPUIsShort(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	createNode(e.ctx, t, e.client, "gpu-container", map[string]string{gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: "container"}, map[string]string{"nvidia.com/gpu": "2"})
	s := e.startScheduler(t, "scheduler")
	e.createPod(t, gpuPod("cuda-large", "", map[string]string{"nvidia.com/gpu": "1", "cpu": "64"}))
	const fix = "Fix: the requested units are free on 1 node(s); the FailedScheduling message says what else rejects those nodes"
	e.waitEventMatching(t, "cuda-large", "GPUWorkloadUnschedulable", fix, func(m string) bool { return strings.Contains(m, fix) })

	want := map[string]float64{
		`gpu_workload_units{mode="container",resource="nvidia.com/gpu",state="free"}`:               2,
		`gpu_workload_stranded_units{kind="cpu-memory",mode="container",resource="nvidia.com/gpu"}`: 2,
		`gpu_workload_pending_pods{mode="container",reason="GPUsFree",resource="nvidia.com/gpu"}`:   1,
	}
	got := e.waitForMetrics(t, s.URL, want, "GPUsFree")
	e.inventoryAgrees(t, got)
}

// The DRA driver's devices count in the same families, by the DeviceClass
// that selects them: a node publishes one GPU as gpu-0 (gpu.nvidia.com) and
// gpu-vfio-0 (vfio.gpu.nvidia.com); a VM holds gpu-vfio-0, which blocks
// gpu-0, and a second VM waits for a vfio device. The GPU itself counts
// once, allocated, under mode dra.
func TestInventoryMetricsDRA(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	e.createDriverDeviceClasses(t)
	e.publishGPUs(t, "dra-vms", 1, true)
	s := e.startScheduler(t, "scheduler")
	e.createPod(t, e.claimPod(t, "virt-launcher-vm-1-abcde", "vm-1", "vfio.gpu.nvidia.com"))
	e.waitBound(t, "virt-launcher-vm-1-abcde")
	e.createPod(t, e.claimPod(t, "virt-launcher-vm-2-fghij", "vm-2", "vfio.gpu.nvidia.com"))

	want := map[string]float64{
		`gpu_workload_units{mode="vm-passthrough",resource="vfio.gpu.nvidia.com",state="allocatable"}`:             1,
		`gpu_workload_units{mode="vm-passthrough",resource="vfio.gpu.nvidia.com",state="allocated"}`:               1,
		`gpu_workload_units{mode="vm-passthrough",resource="vfio.gpu.nvidia.com",state="free"}`:                    0,
		`gpu_workload_units{mode="container",resource="gpu.nvidia.com",state="allocatable"}`:                       1,
		`gpu_workload_units{mode="container",resource="gpu.nvidia.com",state="sibling-in-use"}`:                    1,
		`gpu_workload_units{mode="container",resource="gpu.nvidia.com",state="free"}`:                              0,
		`gpu_workload_units{mode="dra",resource="gpu.nvidia.com",state="allocatable"}`:                             1,
		`gpu_workload_units{mode="dra",resource="gpu.nvidia.com",state="allocated"}`:                               1,
		`gpu_workload_units{mode="dra",resource="gpu.nvidia.com",state="free"}`:                                    0,
		`gpu_workload_stranded_units{kind="cpu-memory",mode="dra",resource="gpu.nvidia.com"}`:                      0,
		`gpu_workload_nodes{mode="dra",state="ready"}`:                                                             1,
		`gpu_workload_empty_nodes{mode="dra"}`:                                                                     0,
		`gpu_workload_pending_pods{mode="vm-passthrough",reason="DRAAllAllocated",resource="vfio.gpu.nvidia.com"}`: 1,
	}
	got := e.waitForMetrics(t, s.URL, want, "DRAAllAllocated")
	e.inventoryAgrees(t, got)
}

// waitForMetrics scrapes until every wanted series has its value and the
// rejections of reason were counted, and returns the last scrape.
func (e *env) waitForMetrics(t *testing.T, url string, want map[string]float64, reason string) map[string]float64 {
	t.Helper()
	var got map[string]float64
	e.poll(t, "the metrics to count the waiting VM", func(ctx context.Context) (bool, error) {
		var err error
		got, err = controlplane.ScrapeGPUWorkloadMetrics(ctx, url, e.cp.AdminConfig.BearerToken)
		if err != nil {
			return false, err
		}
		for series, value := range want {
			if v, ok := got[series]; !ok || v != value {
				return false, nil
			}
		}
		return got[fmt.Sprintf(`gpu_workload_unschedulable_attempts_total{reason=%q}`, reason)] >= 1, nil
	})
	for series, value := range want {
		if got[series] != value {
			t.Errorf("%s = %v, want %v", series, got[series], value)
		}
	}
	return got
}

// inventoryAgrees checks that kubectl gpu-workload inventory gives the
// scraped gauges' numbers, series for series.
func (e *env) inventoryAgrees(t *testing.T, got map[string]float64) {
	t.Helper()
	inventoryCmd := exec.Command("kubectl-gpu_workload", "inventory", "-o", "json", "--kubeconfig", e.cp.Kubeconfig)
	out, err := inventoryCmd.Output()
	if err != nil {
		t.Fatalf("kubectl gpu-workload inventory: %v\n%s", err, out)
	}
	var report inventory.Report
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatal(err)
	}
	fromInventory := map[string]float64{}
	for _, r := range report.Resources {
		labels := fmt.Sprintf(`mode=%q,resource=%q`, r.Mode, r.Resource)
		states := map[string]int64{"allocatable": r.Allocatable, "allocated": r.Allocated, "free": r.Free, inventory.StateHeldByOtherSchedulers: r.HeldByOtherSchedulers}
		if r.DRA {
			states[dradevices.DRADeviceTainted], states[dradevices.DRADeviceSiblingInUse] = r.Tainted, r.SiblingInUse
		} else {
			states[inventory.StateOverCommitted], states[inventory.StateUnavailable] = r.OverCommitted, r.Unavailable
		}
		for state, v := range states {
			fromInventory[fmt.Sprintf(`gpu_workload_units{%s,state=%q}`, labels, state)] = float64(v)
		}
		for kind, v := range r.Stranded {
			fromInventory[fmt.Sprintf(`gpu_workload_stranded_units{kind=%q,%s}`, kind, labels)] = float64(v)
		}
	}
	for _, m := range report.Modes {
		for state, v := range map[string]int{"ready": m.Ready, "converting": m.Converting, "mismatched": m.Mismatched} {
			fromInventory[fmt.Sprintf(`gpu_workload_nodes{mode=%q,state=%q}`, m.Mode, state)] = float64(v)
		}
		fromInventory[fmt.Sprintf(`gpu_workload_empty_nodes{mode=%q}`, m.Mode)] = float64(m.Empty)
	}
	for _, c := range report.Cards {
		fromInventory[fmt.Sprintf(`gpu_workload_card_units{card=%q,state=%q}`, c.Card, inventory.CardAllocatable)] = float64(c.Allocatable)
		fromInventory[fmt.Sprintf(`gpu_workload_card_units{card=%q,state=%q}`, c.Card, inventory.CardHeldByUnpinned)] = float64(c.HeldByUnpinned)
		fromInventory[fmt.Sprintf(`gpu_workload_pinned_waiting_units{card=%q}`, c.Card)] = float64(c.PinnedUnitsWaiting)
	}
	for _, p := range report.Pending {
		// The metric sums over the pods' node constraints.
		fromInventory[fmt.Sprintf(`gpu_workload_pending_pods{mode=%q,reason=%q,resource=%q}`, p.Mode, p.Reason, p.Resource)] += float64(p.Pods)
	}
	gauges := 0
	for series, value := range got {
		// Not inventory: the attempts counted, and the DRA guard's health.
		if strings.HasPrefix(series, "gpu_workload_unschedulable_attempts_total") || strings.HasPrefix(series, "gpu_workload_dra_") {
			continue
		}
		gauges++
		if v, ok := fromInventory[series]; !ok || v != value {
			t.Errorf("%s: metrics %v, inventory %v (present %v)", series, value, v, ok)
		}
	}
	if len(fromInventory) != gauges {
		t.Errorf("inventory gives %d series, the metrics %d gauges:\n%v\n%v", len(fromInventory), gauges, fromInventory, got)
	}
}

// Under the install RBAC, Prometheus's ServiceAccount, bound by the
// monitoring component's RBAC, reads the metrics; another is refused.
func TestMetricsUnderMonitoringRBAC(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	s, _ := e.startSchedulerWithInstallRBAC(t)
	e.seedNodes(t)
	e.createPod(t, gpuPod("virt-launcher-vm-l40s-q2w3e", "vm-l40s", map[string]string{"nvidia.com/AD102GL_L40S": "1"}))

	// The monitoring component's RBAC only: the installation's is in place.
	e.applyRBAC(t, "manifests/examples/monitoring", func(name string) bool { return name == "gpu-workload-scheduler-metrics-reader" })
	prometheus, other := e.newServiceAccountToken(t, "monitoring", "prometheus-k8s"), e.newServiceAccountToken(t, "default", "curious")

	series := `gpu_workload_pending_pods{mode="vm-passthrough",reason="NotAdvertised",resource="nvidia.com/AD102GL_L40S"}`
	e.poll(t, "Prometheus's ServiceAccount to read "+series+" 1", func(ctx context.Context) (bool, error) {
		got, err := controlplane.ScrapeGPUWorkloadMetrics(ctx, s.URL, prometheus)
		return err == nil && got[series] == 1, nil
	})
	if _, err := controlplane.ScrapeGPUWorkloadMetrics(e.ctx, s.URL, other); err == nil || !strings.Contains(err.Error(), "403") {
		t.Fatalf("a ServiceAccount without the binding read /metrics: %v, want 403 Forbidden", err)
	}
	wantNothingForbidden(t, s.LogPath)
}

// newServiceAccountToken creates a ServiceAccount (and its namespace, other
// than default) and returns a token of it.
func (e *env) newServiceAccountToken(t *testing.T, namespace, name string) string {
	t.Helper()
	if namespace != "default" {
		e.createNamespace(t, namespace)
	}
	if _, err := e.client.CoreV1().ServiceAccounts(namespace).Create(e.ctx, &v1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	tr, err := e.client.CoreV1().ServiceAccounts(namespace).CreateToken(e.ctx, name, &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr.Status.Token
}

// A node whose bound pods hold more GPUs than it has (two VMs bound by hand
// to a node with one A10, as a lost binding leaves it) is reported by the
// metrics, by inventory, which agrees with them, and by check, which names
// the pods.
func TestOverCommittedNodeReported(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	createNode(e.ctx, t, e.client, "pt-08", map[string]string{gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: "vm-passthrough"}, map[string]string{a10: "1"})
	s := e.startScheduler(t, "scheduler")
	for _, vm := range []struct{ pod, vmi string }{{"virt-launcher-vm-1-abcde", "vm-1"}, {"virt-launcher-vm-2-fghij", "vm-2"}} {
		pod := gpuPod(vm.pod, vm.vmi, map[string]string{a10: "1"})
		pod.Spec.NodeName = "pt-08"
		e.createPod(t, pod)
	}
	overCommitted := `gpu_workload_units{mode="vm-passthrough",resource="nvidia.com/GA102GL_A10",state="over-committed"}`
	var got map[string]float64
	e.poll(t, "the metrics to count the over-committed unit", func(ctx context.Context) (bool, error) {
		var err error
		got, err = controlplane.ScrapeGPUWorkloadMetrics(ctx, s.URL, e.cp.AdminConfig.BearerToken)
		return err == nil && got[overCommitted] == 1, nil
	})
	if allocated := got[`gpu_workload_units{mode="vm-passthrough",resource="nvidia.com/GA102GL_A10",state="allocated"}`]; allocated != 2 {
		t.Errorf("allocated %v, want 2", allocated)
	}
	e.inventoryAgrees(t, got)
	out, err := exec.Command("kubectl-gpu_workload", "check", "--kubeconfig", e.cp.Kubeconfig, "--fail-on", "error", "-o", "json").Output()
	if err == nil {
		t.Fatalf("check passed with an over-committed node:\n%s", out)
	}
	want := "2 units of nvidia.com/GA102GL_A10 are bound to the node, which has 1 allocatable: default/virt-launcher-vm-1-abcde (1), default/virt-launcher-vm-2-fghij (1)"
	if !strings.Contains(string(out), `"code": "OverCommitted"`) || !strings.Contains(string(out), want) {
		t.Fatalf("check does not report the over-commit (%q):\n%s", want, out)
	}
}
