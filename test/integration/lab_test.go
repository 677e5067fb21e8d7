package integration

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// labBinary is bin/gpu-workload-lab, found on PATH.
func labBinary(t *testing.T) string {
	t.Helper()
	binary, err := exec.LookPath("gpu-workload-lab")
	if err != nil {
		t.Fatalf("gpu-workload-lab is not on PATH (fix: make test-integration builds it): %v", err)
	}
	return binary
}

// runLab runs bin/gpu-workload-lab as `make lab` does.
func runLab(t *testing.T, args ...string) (int, string) {
	t.Helper()
	binary := labBinary(t)
	out, err := exec.Command(binary, args...).CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return exit.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

func labArgs(dir, scenario string, extra ...string) []string {
	bin := filepath.Dir(must(exec.LookPath("gpu-workload-scheduler")))
	return append([]string{"up", "--dir", dir, "--repo", repoRoot, "--bin", bin, "--scenario", scenario}, extra...)
}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}

func requireNoLabProcesses(t *testing.T, dir string) {
	t.Helper()
	pidFiles, _ := filepath.Glob(filepath.Join(dir, "*.pid"))
	for _, f := range pidFiles {
		if pid, alive := controlplane.PidAlive(f); alive {
			t.Errorf("%s (pid %d) still runs", f, pid)
		}
	}
}

// CI runs the main command's check mode on the default scenario, so that
// `make lab` cannot rot: LAB_CHECK=1 make lab, as a user types it.
func TestLabDefaultScenarioCheck(t *testing.T) {
	dir := t.TempDir()
	out, err := exec.Command("make", "-C", repoRoot, "--no-print-directory", "lab", "LAB_CHECK=1", "LAB_DIR="+dir).CombinedOutput()
	if err != nil {
		t.Fatalf("LAB_CHECK=1 make lab: %v\n%s", err, out)
	}
	for _, want := range []string{
		"[lab] build tools and binaries",
		"[lab] start etcd and kube-apiserver",
		"[lab] start gpu-workload-scheduler",
		"== Pods (kubectl get pods -A -o wide)",
		"[lab] start the node and KubeVirt agent",
		": 0/6 nodes are available: VirtualMachineInstance/default/vm-l40s: no node advertises nvidia.com/AD102GL_L40S",
		"== GPUWorkloadUnschedulable",
		"Node/gpu-broken",
		"all 5 pod(s) as expected, all 16 metric(s), all 3 explanation(s)",
		"[lab] start gpu-workload-controller (--operation=dryRun)",
		"Node/gpu-a40 WouldConvert: dry run: would convert from vm-vgpu to vm-passthrough for 1 x nvidia.com/GA102GL_A40",
		"vmi/vm-a40: ran kubectl label node gpu-a40 nvidia.com/gpu.workload.config=vm-passthrough --overwrite; landed on gpu-a40",
		"VirtualMachineInstance/default/vm-l40s  VMIDeviceNotAdvertised",
		"fix-success rate: 1 of 1 Pending pod(s) with fix commands landed (100%)",
		"Node/gpu-broken             MismatchedNode",
	} {
		// Tables align their columns to their longest cell: spaces are compared as one.
		if !strings.Contains(strings.Join(strings.Fields(string(out)), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("lab output lacks %q:\n%s", want, out)
		}
	}
	// The agent labels the operands of the nodes it manages, as the GPU Operator does.
	if strings.Contains(string(out), string(gpuworkload.FindingOperandLabelsAbsent)) {
		t.Errorf("lab output reports %s on nodes the agent manages:\n%s", gpuworkload.FindingOperandLabelsAbsent, out)
	}
	requireNoLabProcesses(t, dir)
}

// Every Pending pod's fix, run as the event's annotation gives it, makes the
// pod land once the lab's agent has converted the node: one scenario per
// kind of fix that has commands (docs/lab.md). The default and DRA
// scenarios' check runs follow their fixes too.
func TestEveryFixWorks(t *testing.T) {
	for _, scenario := range []string{"sandbox-disabled", "busy-node", "vgpu-profile", "units-used-up", "pinned-model"} {
		t.Run(scenario, func(t *testing.T) {
			checkLabScenario(t, "lab-fixes/"+scenario, "fix-success rate: 1 of 1 Pending pod(s) with fix commands landed (100%)")
		})
	}
}

// The reasons of docs/reasons.md a lab shows, one Pending pod each, in the
// FailedScheduling message as documented: without DRA, then with it.
// The mode controller, turned on by the scenario's controller.yaml,
// converts the idle node the waiting VM needs, and the VM lands there.
func TestLabControllerScenarioCheck(t *testing.T) {
	checkLabScenario(t, "lab-controller", "[lab] start gpu-workload-controller (--operation=idleOnly)", "all 3 pod(s) as expected",
		"Node/gpu-idle-1 ConversionStarted: tainted gpu-workload.io/converting:NoSchedule to convert from container to vm-passthrough for 1 x nvidia.com/GA102GL_A10",
		"Node/gpu-idle-1 ConversionSucceeded: advertises 1 x nvidia.com/GA102GL_A10 in vm-passthrough")
}

// One scenario per rule the mode controller shares with kubectl drain and
// cluster-autoscaler (docs/controller.md): each asserts, by polling until
// it holds through two more controller passes, the nodes' labels, taints
// and events and the pods' fate, so that what the controller must not do
// is seen not done. Each drain scenario runs an evictable pod or a spare
// node beside the refused one: nothing is evicted when any check refuses.
func TestLabControllerRules(t *testing.T) {
	for _, rule := range []struct{ scenario, verdict string }{
		{"no-controller", "all 3 pod(s) as expected, all 1 node(s)"},
		{"safe-to-evict", "all 2 pod(s) as expected, all 1 node(s)"},
		{"local-storage", "all 2 pod(s) as expected, all 1 node(s)"},
		{"budget", "all 3 pod(s) as expected, all 1 node(s)"},
		{"fits-nowhere", "all 3 pod(s) as expected, all 1 node(s)"},
		{"renamed-resource", "all 2 pod(s) as expected, all 2 node(s)"},
		{"flapping", "all 2 pod(s) as expected, all 1 node(s)"},
		{"gated-and-terminating", "all 2 pod(s) as expected, all 1 node(s)"},
		{"vgpu-failed", "all 1 pod(s) as expected, all 1 node(s)"},
	} {
		t.Run(rule.scenario, func(t *testing.T) {
			checkLabScenario(t, filepath.Join("lab-controller-rules", rule.scenario), rule.verdict)
		})
	}
}

func TestLabReasonsScenarioCheck(t *testing.T) {
	checkLabScenario(t, "lab-reasons", "all 18 pod(s) as expected")
	checkLabScenario(t, "lab-dra-reasons", "all 6 pod(s) as expected")
}

// checkLabScenario runs the lab's check mode on a scenario of
// manifests/examples: it must pass, print each of wants, and leave nothing running.
func checkLabScenario(t *testing.T, scenario string, wants ...string) {
	t.Helper()
	dir := t.TempDir()
	code, out := runLab(t, labArgs(dir, filepath.Join(repoRoot, "manifests", "examples", scenario), "--check")...)
	if code != 0 {
		t.Fatalf("exit %d, want 0:\n%s", code, out)
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("lab output lacks %q:\n%s", want, out)
		}
	}
	requireNoLabProcesses(t, dir)
}

// VMs as VMIs: the agent renders the permitted one's launcher pod, which
// lands, and refuses the other with KubeVirt's FailedCreate event.
func TestLabKubeVirtScenarioCheck(t *testing.T) {
	checkLabScenario(t, "lab-kubevirt", "all 3 pod(s) as expected, all 3 explanation(s)", "vmi/vm-a40: no launcher pod: failed to render launch manifest")
}

// The DRA scenario: DeviceClasses, ResourceSlices and claims applied as the
// NVIDIA DRA driver and KubeVirt would make them, beside a device-plugin
// node; the VM whose only vfio device is the sibling of a GPU in use waits.
func TestLabDRAScenarioCheck(t *testing.T) {
	dir := t.TempDir()
	// make runs in the repository: the scenario path is relative to it.
	out, err := exec.Command("make", "-C", repoRoot, "--no-print-directory", "lab", "LAB_CHECK=1", "LAB_DIR="+dir,
		"LAB_SCENARIO=manifests/examples/lab-dra").CombinedOutput()
	if err != nil {
		t.Fatalf("LAB_CHECK=1 LAB_SCENARIO=manifests/examples/lab-dra make lab: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "all 5 pod(s) as expected") {
		t.Errorf("lab output lacks the expectations' verdict:\n%s", out)
	}
	requireNoLabProcesses(t, dir)
}

// A user's scenario whose expectations do not hold: check mode prints each
// difference, exits non-zero and leaves nothing running. A second lab in the
// same directory while one runs is refused.
func TestLabUserScenario(t *testing.T) {
	scenario := t.TempDir()
	for name, content := range map[string]string{
		"nodes.yaml": `apiVersion: v1
kind: Node
metadata:
  name: gpu-a
  labels: {nvidia.com/gpu.workload.config: container}
status:
  capacity: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "1"}
  allocatable: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "1"}
`,
		"pods.yaml": `apiVersion: v1
kind: Pod
metadata: {name: train}
spec:
  schedulerName: gpu-workload-scheduler
  containers:
    - name: main
      image: trainer
      resources: {limits: {nvidia.com/gpu: "1"}}
`,
		"expect.yaml": "pods:\n  train: {node: gpu-b}\n",
	} {
		if err := os.WriteFile(filepath.Join(scenario, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	code, out := runLab(t, labArgs(dir, scenario, "--check")...)
	if code != 1 || !strings.Contains(out, `pod train: on "gpu-a", want node gpu-b`) {
		t.Fatalf("exit %d, want 1 with the difference:\n%s", code, out)
	}
	requireNoLabProcesses(t, dir)

	if code, out := runLab(t, labArgs(dir, scenario)...); code != 0 {
		t.Fatalf("lab up exited %d:\n%s", code, out)
	}
	t.Cleanup(func() {
		if code, out := runLab(t, "down", "--dir", dir); code != 0 {
			t.Errorf("lab down exited %d:\n%s", code, out)
		}
		requireNoLabProcesses(t, dir)
	})
	if code, out := runLab(t, labArgs(dir, scenario)...); code != 1 || !strings.Contains(out, "a lab is already running in "+dir) {
		t.Fatalf("second lab: exit %d, want 1 saying a lab runs:\n%s", code, out)
	}

	// A lab whose scheduler died is stale: the next one stops the rest and starts afresh.
	pid, alive := controlplane.PidAlive(filepath.Join(dir, "scheduler.pid"))
	if !alive {
		t.Fatal("the lab's scheduler does not run")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The pid is gone once the kernel has reaped it; poll, the lab's parent has exited.
	e := &env{ctx: context.Background()}
	e.poll(t, "the killed scheduler to disappear", func(context.Context) (bool, error) {
		_, alive := controlplane.PidAlive(filepath.Join(dir, "scheduler.pid"))
		return !alive, nil
	})
	if code, out := runLab(t, labArgs(dir, scenario)...); code != 0 || !strings.Contains(out, "[lab] stale lab in "+dir+" (6 of 7 processes alive): stopping it") {
		t.Fatalf("lab over a stale one: exit %d:\n%s", code, out)
	}
}

// advise's plan, applied command by command as -o json gives it, lands the
// waiting VMs once the lab's agent has converted the nodes, and relabels no
// node that runs a VM.
func TestEveryPlanWorks(t *testing.T) {
	dir := t.TempDir()
	if code, out := runLab(t, labArgs(dir, filepath.Join(repoRoot, "manifests", "examples", "lab-fixes", "advise-plan"))...); code != 0 {
		t.Fatalf("lab up exited %d:\n%s", code, out)
	}
	t.Cleanup(func() {
		if code, out := runLab(t, "down", "--dir", dir); code != 0 {
			t.Errorf("lab down exited %d:\n%s", code, out)
		}
	})
	config, err := clientcmd.BuildConfigFromFlags("", filepath.Join(dir, "kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	e := &env{ctx: context.Background(), client: kubernetes.NewForConfigOrDie(config)}
	pods, err := e.client.CoreV1().Pods("default").List(e.ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var waiting []string
	modeOfVMNodes := map[string]string{}
	for _, p := range pods.Items {
		switch {
		case p.Spec.NodeName == "":
			waiting = append(waiting, p.Name)
		case gpuworkload.VMIOf(&p) != nil:
			node, err := e.client.CoreV1().Nodes().Get(e.ctx, p.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			modeOfVMNodes[node.Name] = node.Labels[gpuworkload.LabelWorkloadConfig]
		}
	}
	if len(waiting) != 2 || len(modeOfVMNodes) != 1 {
		t.Fatalf("scenario: %d waiting pods and %d nodes with VMs, want 2 and 1", len(waiting), len(modeOfVMNodes))
	}

	env := append(os.Environ(), "KUBECONFIG="+filepath.Join(dir, "kubeconfig"))
	advise := exec.Command("kubectl-gpu_workload", "advise", "-o", "json")
	advise.Env = env
	out, err := advise.Output()
	if err != nil {
		t.Fatalf("advise: %v\n%s", err, out)
	}
	var report struct {
		Commands []string `json:"commands"`
	}
	if err := json.Unmarshal(out, &report); err != nil || len(report.Commands) == 0 {
		t.Fatalf("advise -o json gave no commands (%v):\n%s", err, out)
	}
	for _, c := range report.Commands {
		cmd := exec.Command("sh", "-c", c)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", c, err, out)
		}
	}
	for _, name := range waiting {
		e.poll(t, "VM "+name+" to land after the plan", func(ctx context.Context) (bool, error) {
			p, err := e.client.CoreV1().Pods("default").Get(ctx, name, metav1.GetOptions{})
			return err == nil && p.Spec.NodeName != "", err
		})
	}
	for name, mode := range modeOfVMNodes {
		node, err := e.client.CoreV1().Nodes().Get(e.ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := node.Labels[gpuworkload.LabelWorkloadConfig]; got != mode {
			t.Errorf("node %s runs a VM and was relabelled from %s to %s by the plan %q", name, mode, got, report.Commands)
		}
	}
}

// The lab's agent admits pods bound to its nodes as the kubelet does: of two
// VMs bound to a node with one A10, the first runs and the second fails
// with the kubelet's reason, message and event.
func TestLabAgentAdmitsAsTheKubelet(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	agent := labBinary(t)
	if _, err := e.cp.StartProcess("agent", agent, "agent", "--kubeconfig", e.cp.Kubeconfig); err != nil {
		t.Fatal(err)
	}
	createNode(e.ctx, t, e.client, "pt-08", map[string]string{gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: "vm-passthrough"}, map[string]string{a10: "1"})
	for _, vm := range []struct{ pod, vmi string }{{"virt-launcher-vm-1-abcde", "vm-1"}, {"virt-launcher-vm-2-fghij", "vm-2"}} {
		pod := gpuPod(vm.pod, vm.vmi, map[string]string{a10: "1"})
		pod.Spec.NodeName = "pt-08"
		e.createPod(t, pod)
		e.poll(t, "pod "+vm.pod+" admitted or rejected", func(ctx context.Context) (bool, error) {
			p, err := e.client.CoreV1().Pods("default").Get(ctx, vm.pod, metav1.GetOptions{})
			return err == nil && p.Status.Phase != v1.PodPending, err
		})
	}
	running, err := e.client.CoreV1().Pods("default").Get(e.ctx, "virt-launcher-vm-1-abcde", metav1.GetOptions{})
	if err != nil || running.Status.Phase != v1.PodRunning {
		t.Fatalf("the first VM: %v, %v; want Running", running.Status.Phase, err)
	}
	rejected, err := e.client.CoreV1().Pods("default").Get(e.ctx, "virt-launcher-vm-2-fghij", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reason, message := "OutOf"+a10, "Pod was rejected: Node didn't have enough resource: "+a10+", requested: 1, used: 1, capacity: 1"
	if rejected.Status.Phase != v1.PodFailed || rejected.Status.Reason != reason || rejected.Status.Message != message {
		t.Errorf("the second VM: phase %s, reason %q, message %q; want Failed, %q, %q", rejected.Status.Phase, rejected.Status.Reason, rejected.Status.Message, reason, message)
	}
	e.waitEvent(t, rejected.Name, reason, message)
}

// The lab's nodes are Ready because the agent renews their leases as the
// kubelet does, and the real node-lifecycle controller reads the renewals:
// with the agent gone, the node turns Unknown and is tainted unreachable,
// as a node whose kubelet died.
func TestLabNodeHeartbeats(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	binary := labBinary(t)
	createNode(e.ctx, t, e.client, "gpu-1", map[string]string{gpuworkload.LabelWorkloadConfig: "container"}, map[string]string{"nvidia.com/gpu": "1"})
	agent, err := e.cp.StartProcess("agent", binary, "agent", "--kubeconfig", e.cp.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cp.StartProcess("kube-controllers", binary, "controllers", "--kubeconfig", e.cp.Kubeconfig); err != nil {
		t.Fatal(err)
	}
	var first *metav1.MicroTime
	e.poll(t, "the node's lease renewed twice, and the node Ready", func(ctx context.Context) (bool, error) {
		lease, err := e.client.CoordinationV1().Leases(v1.NamespaceNodeLease).Get(ctx, "gpu-1", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil || lease.Spec.RenewTime == nil {
			return false, err
		}
		if first == nil {
			first = lease.Spec.RenewTime
		}
		return lease.Spec.RenewTime.After(first.Time) && nodeReady(e.node(t, "gpu-1")) == v1.ConditionTrue, nil
	})
	if err := agent.Kill(); err != nil {
		t.Fatal(err)
	}
	// The node-lifecycle controller waits its grace period (50 s) after the
	// last renewal it saw: a longer bound than e.poll's.
	err = wait.PollUntilContextTimeout(e.ctx, 500*time.Millisecond, 2*time.Minute, true, func(context.Context) (bool, error) {
		node := e.node(t, "gpu-1")
		return nodeReady(node) == v1.ConditionUnknown && slices.ContainsFunc(node.Spec.Taints, func(taint v1.Taint) bool {
			return taint.Key == v1.TaintNodeUnreachable && taint.Effect == v1.TaintEffectNoSchedule
		}), nil
	})
	if err != nil {
		t.Fatalf("the node of a stopped agent: Ready %s, taints %v; want Unknown and %s:NoSchedule (%v)", nodeReady(e.node(t, "gpu-1")), e.node(t, "gpu-1").Spec.Taints, v1.TaintNodeUnreachable, err)
	}
}

func nodeReady(node *v1.Node) v1.ConditionStatus {
	for _, c := range node.Status.Conditions {
		if c.Type == v1.NodeReady {
			return c.Status
		}
	}
	return ""
}

// The lab runs its scheduler as a Deployment would: killed, it is started
// again after the kubelet's back-off and takes the lease again.
func TestLabRestartsTheScheduler(t *testing.T) {
	dir := t.TempDir()
	if code, out := runLab(t, labArgs(dir, filepath.Join(repoRoot, "manifests", "examples", "lab"))...); code != 0 {
		t.Fatalf("lab up: exit %d:\n%s", code, out)
	}
	t.Cleanup(func() {
		if code, out := runLab(t, "down", "--dir", dir); code != 0 {
			t.Errorf("lab down: exit %d:\n%s", code, out)
		}
		requireNoLabProcesses(t, dir)
	})
	logPath := filepath.Join(dir, "scheduler.log")
	started := regexp.MustCompile(`\[supervise\] started \S+, pid (\d+), restarts (\d+)`)
	var log string
	e := &env{ctx: context.Background()}
	e.poll(t, "the supervisor to log the scheduler's start", func(context.Context) (bool, error) {
		data, err := os.ReadFile(logPath)
		log = string(data)
		return err == nil && started.MatchString(log), err
	})
	pid, err := strconv.Atoi(started.FindStringSubmatch(log)[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill the scheduler (pid %d): %v", pid, err)
	}
	e.poll(t, "the scheduler started again and leading", func(context.Context) (bool, error) {
		data, err := os.ReadFile(logPath)
		if err != nil {
			return false, err
		}
		_, after, restarted := strings.Cut(string(data), ", restarts 1\n")
		return restarted && strings.Contains(after, "Successfully acquired lease"), nil
	})
	if data, _ := os.ReadFile(logPath); !strings.Contains(string(data), "exited (signal: killed)") {
		t.Errorf("the supervisor does not log the exit:\n%s", data)
	}
}
