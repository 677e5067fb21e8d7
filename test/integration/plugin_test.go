package integration

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gpu-workload-scheduler/scheduler/pkg/cli"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
)

// kubectlPlugin runs bin/kubectl-gpu_workload against the control plane.
func (e *env) kubectlPlugin(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("kubectl-gpu_workload", append(args, "--kubeconfig", e.cp.Kubeconfig)...)
	out, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), string(out) + string(exit.Stderr)
	}
	if err != nil {
		t.Fatalf("kubectl-gpu_workload is not on PATH (fix: make build): %v", err)
	}
	return 0, string(out)
}

// The kubectl plugin against a live cluster: node findings, KubeVirt's
// allowlist, a VMI whose device is neither permitted nor advertised with its
// FailedCreate event, and explain of a live pod.
func TestKubectlPluginLive(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	e.seedNodes(t)
	createNode(e.ctx, t, e.client, "gpu-broken", map[string]string{"nvidia.com/gpu.workload.config": "vm-passthrough"}, map[string]string{"nvidia.com/gpu": "1"})
	e.createNamespace(t, "kubevirt")
	e.createUnstructured(t, clusterstate.KubeVirtGVR, "kubevirt", map[string]any{
		"apiVersion": "kubevirt.io/v1", "kind": "KubeVirt", "metadata": map[string]any{"name": "kubevirt"},
		"spec": map[string]any{"configuration": map[string]any{
			"permittedHostDevices": map[string]any{
				"pciHostDevices":  []any{map[string]any{"pciVendorSelector": "10DE:2236", "resourceName": a10, "externalResourceProvider": true}},
				"mediatedDevices": []any{map[string]any{"mdevNameSelector": "NVIDIA A10-12Q", "resourceName": "nvidia.com/NVIDIA_A10_12Q", "externalResourceProvider": true}},
			},
			"developerConfiguration": map[string]any{"disabledFeatureGates": []any{"GPUsWithDRA"}},
		}},
	})
	// A VM whose GPU comes from a ResourceClaim while KubeVirt's GPUsWithDRA is off.
	e.createUnstructured(t, schema.GroupVersionResource{Group: "kubevirt.io", Version: "v1", Resource: "virtualmachineinstances"}, "default", map[string]any{
		"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance", "metadata": map[string]any{"name": "vm-dra"},
		"spec": map[string]any{
			"schedulerName":  schedulerName,
			"resourceClaims": []any{map[string]any{"name": "gpu", "resourceClaimName": "vm-dra-gpu"}},
			"domain": map[string]any{"devices": map[string]any{
				"gpus": []any{map[string]any{"name": "gpu1", "claimName": "gpu", "requestName": "gpu"}},
			}},
		},
	})
	vmi := e.createUnstructured(t, schema.GroupVersionResource{Group: "kubevirt.io", Version: "v1", Resource: "virtualmachineinstances"}, "default", map[string]any{
		"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance", "metadata": map[string]any{"name": "vm-a40"},
		"spec": map[string]any{"schedulerName": schedulerName, "domain": map[string]any{"devices": map[string]any{
			"gpus": []any{map[string]any{"name": "gpu1", "deviceName": "nvidia.com/GA102GL_A40"}},
		}}},
	})
	// What virt-controller records when it refuses to create the launcher pod.
	if _, err := e.client.CoreV1().Events("default").Create(e.ctx, &v1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "vm-a40.failedcreate", Namespace: "default"},
		InvolvedObject: v1.ObjectReference{APIVersion: "kubevirt.io/v1", Kind: "VirtualMachineInstance", Namespace: "default", Name: "vm-a40", UID: vmi.GetUID()},
		Reason:         "FailedCreate", Type: v1.EventTypeWarning,
		Message: "GPU nvidia.com/GA102GL_A40 is not permitted in permittedHostDevices configuration",
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	code, out := e.kubectlPlugin(t, "check", "-o", "json")
	if code != cli.ExitFindings {
		t.Fatalf("check exit %d, want 1:\n%s", code, out)
	}
	var report cli.CheckReport
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("check -o json: %v\n%s", err, out)
	}
	found := map[string]cli.ReportFinding{}
	for _, f := range report.Findings {
		found[f.Object+" "+string(f.Code)] = f
	}
	for _, want := range []string{
		"Node/gpu-broken ForeignResource",
		"KubeVirt/kubevirt/kubevirt ResourceNotPermitted",
		"KubeVirt/kubevirt/kubevirt PermittedNameMismatch",
		"VirtualMachineInstance/default/vm-a40 VMIDeviceNotPermitted",
		"VirtualMachineInstance/default/vm-a40 VMIDeviceNotAdvertised",
		"VirtualMachineInstance/default/vm-dra VMIClaimsGateOff",
	} {
		if _, ok := found[want]; !ok {
			t.Errorf("check found no %s; findings: %+v", want, report.Findings)
		}
	}
	// The entry's mdevNameSelector says which name the sandbox device plugin advertises.
	if f := found["KubeVirt/kubevirt/kubevirt PermittedNameMismatch"]; f.Fix != "set resourceName: nvidia.com/NVIDIA_A10-12Q on that entry of KubeVirt/kubevirt/kubevirt" {
		t.Errorf("typo fix %q, want the name the plugin advertises", f.Fix)
	}
	if f := found["VirtualMachineInstance/default/vm-a40 VMIDeviceNotPermitted"]; !strings.HasSuffix(f.Message, "FailedCreate events: GPU nvidia.com/GA102GL_A40 is not permitted in permittedHostDevices configuration") {
		t.Errorf("VMI finding %q does not carry the FailedCreate event", f.Message)
	}
	if report.Summary.Policy != "ClusterPolicy cluster-policy (sandboxWorkloads enabled, defaultWorkload container)" {
		t.Errorf("policy %q", report.Summary.Policy)
	}

	e.createPod(t, gpuPod("virt-launcher-vm-a10-x7k2p", "vm-a10", map[string]string{a10: "1"}))
	code, out = e.kubectlPlugin(t, "explain", "pod", "virt-launcher-vm-a10-x7k2p", "-n", "default", "-o", "json")
	var explain cli.ExplainReport
	if err := json.Unmarshal([]byte(out), &explain); code != cli.ExitOK || err != nil {
		t.Fatalf("explain exit %d, %v:\n%s", code, err, out)
	}
	verdicts := map[string]string{}
	for _, n := range explain.Nodes {
		verdicts[n.Node] = n.Verdict + " " + n.Reason
	}
	if verdicts["gpu-passthrough"] != "fits " || verdicts["gpu-broken"] != "rejected node is converting its GPU mode or vGPU profile" {
		t.Errorf("explain verdicts %v", verdicts)
	}
	// A running VM's launcher pod: its node is where it runs, not a node
	// whose units it lacks because it holds them.
	vmiGVR := schema.GroupVersionResource{Group: "kubevirt.io", Version: "v1", Resource: "virtualmachineinstances"}
	vmGVR := schema.GroupVersionResource{Group: "kubevirt.io", Version: "v1", Resource: "virtualmachines"}
	for _, name := range []string{"vm-passthrough", "vm-stopped"} {
		e.createUnstructured(t, vmGVR, "default", map[string]any{"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachine", "metadata": map[string]any{"name": name},
			"spec": map[string]any{"runStrategy": "Always"}})
	}
	running := gpuPod("virt-launcher-vm-passthrough-x7k2p", "vm-passthrough", map[string]string{a10: "1"})
	running.Labels["kubevirt.io/created-by"] = string(e.createUnstructured(t, vmiGVR, "default", map[string]any{
		"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance", "metadata": map[string]any{"name": "vm-passthrough"},
		"spec": map[string]any{"schedulerName": schedulerName, "domain": map[string]any{"devices": map[string]any{
			"hostDevices": []any{map[string]any{"name": "gpu1", "deviceName": a10}},
		}}},
	}).GetUID())
	running.Spec.NodeName = "gpu-passthrough"
	e.createPod(t, running)
	code, out = e.kubectlPlugin(t, "explain", "pod", running.Name, "-n", "default", "-o", "json")
	explain = cli.ExplainReport{}
	if err := json.Unmarshal([]byte(out), &explain); code != cli.ExitOK || err != nil {
		t.Fatalf("explain of a running pod: exit %d, %v:\n%s", code, err, out)
	}
	verdicts = map[string]string{}
	for _, n := range explain.Nodes {
		verdicts[n.Node] = n.Verdict + " " + n.Reason
	}
	if explain.RunsOn != "gpu-passthrough" || verdicts["gpu-passthrough"] != "fits " ||
		!strings.HasPrefix(explain.Summary, "pod default/virt-launcher-vm-passthrough-x7k2p runs on node gpu-passthrough. Were it pending, with its own GPUs free: ") {
		t.Errorf("explain of a running pod: runsOn %q, verdicts %v, summary %q", explain.RunsOn, verdicts, explain.Summary)
	}
	// explain vmi and explain vm follow KubeVirt's objects to the launcher pod.
	for _, kind := range []string{"vmi", "vm"} {
		code, out = e.kubectlPlugin(t, "explain", kind, "vm-passthrough", "-o", "json")
		explain = cli.ExplainReport{}
		if err := json.Unmarshal([]byte(out), &explain); code != cli.ExitOK || err != nil || explain.RunsOn != "gpu-passthrough" ||
			explain.Pod != "default/virt-launcher-vm-passthrough-x7k2p" || explain.VirtualMachineInstance != "default/vm-passthrough" {
			t.Errorf("explain %s vm-passthrough: exit %d, %v: %s", kind, code, err, out)
		}
	}
	// A VMI without a launcher pod: what keeps KubeVirt from creating it.
	code, out = e.kubectlPlugin(t, "explain", "vmi", "vm-a40", "-o", "json")
	explain = cli.ExplainReport{}
	if err := json.Unmarshal([]byte(out), &explain); code != cli.ExitFindings || err != nil || explain.Pod != "" || len(explain.Findings) == 0 ||
		explain.Findings[0].Code != "VMIDeviceNotPermitted" || !strings.Contains(explain.Findings[0].Message, "FailedCreate events: GPU nvidia.com/GA102GL_A40 is not permitted") {
		t.Errorf("explain vmi vm-a40: exit %d, %v: %s", code, err, out)
	}
	code, out = e.kubectlPlugin(t, "explain", "vm", "vm-stopped")
	if code != cli.ExitUsage || !strings.Contains(out, "virtualmachine default/vm-stopped has no VirtualMachineInstance: it is stopped") {
		t.Errorf("explain vm of a stopped VM: exit %d, %q", code, out)
	}
	// A pod that is not there is an input error that names its namespace.
	code, out = e.kubectlPlugin(t, "explain", "pod", "nosuchpod", "-n", "kube-system")
	if code != cli.ExitUsage || !strings.Contains(out, "pod kube-system/nosuchpod not found") {
		t.Errorf("explain of a missing pod: exit %d, %q; want exit %d naming kube-system/nosuchpod", code, out, cli.ExitUsage)
	}
}

func (e *env) createUnstructured(t *testing.T, gvr schema.GroupVersionResource, namespace string, obj map[string]any) *unstructured.Unstructured {
	t.Helper()
	created, err := e.dynamic.Resource(gvr).Namespace(namespace).Create(e.ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create %s: %v", gvr.Resource, err)
	}
	return created
}
