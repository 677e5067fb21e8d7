package integration

import (
	"context"
	"os"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
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

// Two profiles in one process share one guard and one view of the
// cluster: the guard starts once, pods of both profiles on one node get GPUs
// of their own, with one rule on each allocated device's other half, and
// the metrics count both profiles' waiting pods.
func TestDRATwoProfilesOneGuard(t *testing.T) {
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
	e.poll(t, "one rule on each allocated device's other half", func(context.Context) (bool, error) {
		return len(e.guardRules(t)) == 2, nil
	})
	// The metrics count every profile's explanations: a VM of the first
	// profile waits, and the collector is the second profile's.
	e.createPod(t, e.claimPod(t, "virt-launcher-vm-a-x7k2p", "vm-a", "vfio.gpu.nvidia.com"))
	e.poll(t, "the first profile's waiting VM counted with its reason", func(ctx context.Context) (bool, error) {
		got, err := controlplane.ScrapeGPUWorkloadMetrics(ctx, s.URL, e.cp.AdminConfig.BearerToken)
		return err == nil && got[`gpu_workload_pending_pods{mode="vm-passthrough",reason="DRASiblingInUse",resource="vfio.gpu.nvidia.com"}`] == 1, nil
	})
	log, err := os.ReadFile(s.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "Guarding sibling DRA devices with DeviceTaintRules"); n != 1 {
		t.Fatalf("the guard started %d times in a process with two profiles, want once", n)
	}
}

// newDRANodeWithoutScheduler is the lab's CRDs, a ClusterPolicy with
// sandbox workloads enabled, the driver's DeviceClasses and node dra-1 with
// two GPUs published as gpu and vfio devices; the test starts the scheduler.
func newDRANodeWithoutScheduler(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	e.createDriverDeviceClasses(t)
	e.publishGPUs(t, "dra-1", 2, true)
	return e
}

// withSecondProfile adds a copy of the configuration's first profile under
// another scheduler name.
func withSecondProfile(t *testing.T, config []byte, name string) []byte {
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

// While the API refuses DeviceTaintRules (an admission policy denies them),
// the guard reports failures and pods still get whole GPUs; once the API
// accepts them again the rules are written and the failures metric is 0.
func TestDRAGuardRecoversFromRuleAPIFailure(t *testing.T) {
	e := newDRANodeWithoutScheduler(t)
	e.denyDeviceTaintRules(t)
	s := e.startScheduler(t, "scheduler")
	e.createPod(t, e.claimPod(t, "cuda-1", "", "gpu.nvidia.com"))
	e.waitBound(t, "cuda-1")
	e.poll(t, "the guard to report failing reconciliations", func(ctx context.Context) (bool, error) {
		got, err := controlplane.ScrapeGPUWorkloadMetrics(ctx, s.URL, e.cp.AdminConfig.BearerToken)
		return err == nil && got["gpu_workload_dra_guard_failures"] >= 2, nil
	})
	if rules := e.guardRules(t); len(rules) != 0 {
		t.Fatalf("%d rules written while the API denies them", len(rules))
	}
	e.createPod(t, e.claimPod(t, "virt-launcher-vm-1-x7k2p", "vm-1", "vfio.gpu.nvidia.com"))
	if err := e.client.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Delete(e.ctx, denyRulesName, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.waitBound(t, "virt-launcher-vm-1-x7k2p")
	gpu, vfio := e.allocatedDevice(t, "cuda-1"), e.allocatedDevice(t, "virt-launcher-vm-1-x7k2p")
	if strings.TrimPrefix(gpu, "gpu-") == strings.TrimPrefix(vfio, "gpu-vfio-") {
		t.Fatalf("cuda-1 holds %s and the VM %s: one physical GPU in two claims", gpu, vfio)
	}
	e.poll(t, "the rules written and the failures cleared", func(ctx context.Context) (bool, error) {
		got, err := controlplane.ScrapeGPUWorkloadMetrics(ctx, s.URL, e.cp.AdminConfig.BearerToken)
		return err == nil && got["gpu_workload_dra_guard_failures"] == 0 && len(e.guardRules(t)) == 2, nil
	})
}

const denyRulesName = "deny-device-taint-rules"

// denyDeviceTaintRules makes the API server refuse every DeviceTaintRule
// write, and waits until a probe write is refused.
func (e *env) denyDeviceTaintRules(t *testing.T) {
	t.Helper()
	admission := e.client.AdmissionregistrationV1()
	policy := &admissionv1.ValidatingAdmissionPolicy{ObjectMeta: metav1.ObjectMeta{Name: denyRulesName}, Spec: admissionv1.ValidatingAdmissionPolicySpec{
		FailurePolicy: ptr.To(admissionv1.Fail),
		MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{{RuleWithOperations: admissionv1.RuleWithOperations{
			Operations: []admissionv1.OperationType{admissionv1.Create, admissionv1.Update},
			Rule:       admissionv1.Rule{APIGroups: []string{"resource.k8s.io"}, APIVersions: []string{"*"}, Resources: []string{"devicetaintrules"}},
		}}}},
		Validations: []admissionv1.Validation{{Expression: "false", Message: "DeviceTaintRules are refused for this test"}},
	}}
	if _, err := admission.ValidatingAdmissionPolicies().Create(e.ctx, policy, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &admissionv1.ValidatingAdmissionPolicyBinding{ObjectMeta: metav1.ObjectMeta{Name: denyRulesName}, Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{
		PolicyName: denyRulesName, ValidationActions: []admissionv1.ValidationAction{admissionv1.Deny},
	}}
	if _, err := admission.ValidatingAdmissionPolicyBindings().Create(e.ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	probe := &resourceapi.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: "probe"}, Spec: resourceapi.DeviceTaintRuleSpec{
		DeviceSelector: &resourceapi.DeviceTaintSelector{Driver: ptr.To("example.com")},
		Taint:          resourceapi.DeviceTaint{Key: "example.com/probe", Effect: resourceapi.DeviceTaintEffectNoSchedule},
	}}
	rules := e.client.ResourceV1().DeviceTaintRules()
	e.poll(t, "the admission policy to refuse DeviceTaintRules", func(ctx context.Context) (bool, error) {
		_, err := rules.Create(ctx, probe, metav1.CreateOptions{})
		if err == nil {
			return false, rules.Delete(ctx, probe.Name, metav1.DeleteOptions{})
		}
		return apierrors.IsInvalid(err) || apierrors.IsForbidden(err), nil
	})
}
