package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// seedNodes creates the seed lab's three GPU nodes and a CPU node.
func (e *env) seedNodes(t *testing.T) {
	t.Helper()
	createNode(e.ctx, t, e.client, "gpu-container", map[string]string{"nvidia.com/gpu.workload.config": "container"}, map[string]string{"nvidia.com/gpu": "1"})
	createNode(e.ctx, t, e.client, "gpu-passthrough", map[string]string{"nvidia.com/gpu.workload.config": "vm-passthrough"}, map[string]string{"nvidia.com/GA102GL_A10": "1"})
	createNode(e.ctx, t, e.client, "gpu-vgpu", map[string]string{"nvidia.com/gpu.workload.config": "vm-vgpu"}, map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"})
	createNode(e.ctx, t, e.client, "cpu-1", nil, nil)
}

// Scenario 1, the seed's lab, and the smoke test of the binary with the
// shipped configuration: each workload lands on the node of its mode, and a
// VM that nothing can serve carries our reasons.
func TestSeedLab(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.seedNodes(t)

	for _, tc := range []struct {
		pod  string
		vmi  string
		req  map[string]string
		node string
	}{
		{pod: "cuda", req: map[string]string{"nvidia.com/gpu": "1"}, node: "gpu-container"},
		{pod: "virt-launcher-vm-a10-x7k2p", vmi: "vm-a10", req: map[string]string{"nvidia.com/GA102GL_A10": "1"}, node: "gpu-passthrough"},
		{pod: "virt-launcher-vm-12q-b9q4d", vmi: "vm-12q", req: map[string]string{"nvidia.com/NVIDIA_A10-12Q": "1"}, node: "gpu-vgpu"},
	} {
		e.createPod(t, gpuPod(tc.pod, tc.vmi, tc.req))
		if got := e.waitBound(t, tc.pod); got != tc.node {
			t.Errorf("pod %s landed on %s, want %s", tc.pod, got, tc.node)
		}
	}

	// A container workload asking for the passthrough node's resource: it can
	// only go there, and that node is taken.
	e.createPod(t, gpuPod("cuda-on-a10", "", map[string]string{"nvidia.com/GA102GL_A10": "1"}))
	e.waitMessage(t, "cuda-on-a10", "0/4 nodes are available: 1 insufficient free nvidia.com/GA102GL_A10, 1 node has no NVIDIA GPUs, "+
		"1 node's GPU mode is container (advertises nvidia.com/gpu), pod needs vm-passthrough, "+
		"1 node's GPU mode is vm-vgpu (advertises nvidia.com/NVIDIA_A10-12Q), pod needs vm-passthrough.")
	// The node advise would list to drain first is named: it runs a VM of
	// the pod's priority, so the fix does not give its drain.
	drainFirst := "; node gpu-vgpu has this hardware but runs VM(s) default/vm-12q of this pod's priority or higher: converting it means stopping them, " +
		"which this fix does not do; stop them if they may stop, then convert it, or add a node with this hardware."
	e.waitEvent(t, "cuda-on-a10", "GPUWorkloadUnschedulable",
		"Pod/default/cuda-on-a10 needs 1 x nvidia.com/GA102GL_A10 (vm-passthrough mode). "+
			"GPU nodes by mode: container 1, vm-passthrough 1, vm-vgpu 1. nvidia.com/GA102GL_A10: 0 free of 1 on 1 node(s). "+
			"Fix: free units are used up; let running GPU pods finish, or let preemption make room for a higher priority"+drainFirst)

	// A second VM for the same card is named by its VMI.
	e.createPod(t, gpuPod("virt-launcher-vm-a10-second-m2k8s", "vm-a10-second", map[string]string{"nvidia.com/GA102GL_A10": "1"}))
	e.waitEvent(t, "virt-launcher-vm-a10-second-m2k8s", "GPUWorkloadUnschedulable",
		"VirtualMachineInstance/default/vm-a10-second (pod virt-launcher-vm-a10-second-m2k8s) needs 1 x nvidia.com/GA102GL_A10 (vm-passthrough mode). "+
			"GPU nodes by mode: container 1, vm-passthrough 1, vm-vgpu 1. nvidia.com/GA102GL_A10: 0 free of 1 on 1 node(s). "+
			"Fix: free units are used up; let running GPU pods finish, or let preemption make room for a higher priority"+drainFirst)
}

func TestSchedulerVersion(t *testing.T) {
	out, err := exec.Command("gpu-workload-scheduler", "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("gpu-workload-scheduler --version: %v\n%s", err, out)
	}
	got := strings.TrimSpace(string(out))
	if !strings.HasPrefix(got, "gpu-workload-scheduler ") || strings.HasPrefix(got, "gpu-workload-scheduler dev ") ||
		!strings.HasSuffix(got, "(k8s.io/kubernetes v1.37.2)") {
		t.Fatalf("--version printed %q, want this project's version from the Makefile's -ldflags and the Kubernetes library version", got)
	}
}

// A profile our plugins cannot run in, args under a misspelt plugin name,
// or profiles that give GPUWorkloadFit different args stop the real binary
// at startup with the field path, before it connects to any API server.
func TestSchedulerRejectsBrokenProfile(t *testing.T) {
	config := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(config, []byte(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: gpu-workload-scheduler
  plugins:
    multiPoint:
      enabled: [{name: GPUStranding}]
  pluginConfig:
  - name: GPUStrandng
    args: {emptyNodePenalty: 0}
- schedulerName: gpu-workload-scheduler-a
  plugins:
    multiPoint:
      enabled: [{name: GPUWorkloadFit}]
- schedulerName: gpu-workload-scheduler-b
  plugins:
    multiPoint:
      enabled: [{name: GPUWorkloadFit}]
  pluginConfig:
  - name: GPUWorkloadFit
    args: {draDriverName: gpu.example.com}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("gpu-workload-scheduler", "--config", config).CombinedOutput()
	if err == nil {
		t.Fatalf("the scheduler started with a broken profile:\n%s", out)
	}
	for _, want := range []string{
		`profiles[0].pluginConfig[0].name: Invalid value: "GPUStrandng": no plugin of that name is registered, so its args would be ignored; did you mean GPUStranding?`,
		`profiles[0].plugins.preFilter.enabled: Required value: GPUStranding scores against the GPU cluster state GPUWorkloadFit builds: enable GPUWorkloadFit at preFilter and filter`,
		`profiles[2].pluginConfig[0].args: Forbidden: differ from the GPUWorkloadFit args of profiles[1]: a scheduler follows one GPU cluster state, so give every profile the same`,
	} {
		// kube-scheduler's command logs the error as a structured klog value.
		if logged := strings.ReplaceAll(want, `"`, `\"`); !strings.Contains(string(out), logged) {
			t.Errorf("output lacks %s:\n%s", logged, out)
		}
	}
}
