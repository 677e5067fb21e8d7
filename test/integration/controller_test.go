package integration

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/lab/agent"
	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
)

// startAgent runs the lab's agent, which converts relabelled nodes as the
// GPU Operator does and admits bound pods as the kubelet does.
func (e *env) startAgent(t *testing.T) {
	t.Helper()
	binary := labBinary(t)
	if _, err := e.cp.StartProcess("agent", binary, "agent", "--kubeconfig", e.cp.Kubeconfig, "--conversion-delay", "2s"); err != nil {
		t.Fatal(err)
	}
}

// startController runs bin/gpu-workload-controller as the ServiceAccount of
// manifests/install (useControllerRBAC), polling every second (the shortest interval it accepts), with the
// demand and idle hysteresis off unless args say otherwise.
func (e *env) startController(t *testing.T, name string, args ...string) *controlplane.Process {
	t.Helper()
	binary, err := exec.LookPath("gpu-workload-controller")
	if err != nil {
		t.Fatalf("gpu-workload-controller is not on PATH (fix: make build, then put bin/ on PATH): %v", err)
	}
	base := []string{"--kubeconfig", filepath.Join(e.cp.Dir, controllerKubeconfig), "--interval=1s", "--demand-wait=0", "--idle-for=0", "--secure-port=0", "--v=2"}
	p, err := e.cp.StartProcess(name, binary, append(base, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wantNothingForbidden(t, p.LogPath) })
	return p
}

const controllerKubeconfig = "controller.kubeconfig"

// useControllerRBAC creates the controller's ServiceAccount and roles of
// manifests/install and a kubeconfig with its token.
func (e *env) useControllerRBAC(t *testing.T) {
	t.Helper()
	e.applyRBAC(t, "manifests/install", func(name string) bool { return strings.HasPrefix(name, modecontroller.Name) })
	token, err := e.client.CoreV1().ServiceAccounts(schedulerName).CreateToken(e.ctx, modecontroller.Name,
		&authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.cp.WriteKubeconfig(filepath.Join(e.cp.Dir, controllerKubeconfig), modecontroller.Name, token.Status.Token); err != nil {
		t.Fatal(err)
	}
}

// tolerateConversionTaint adds the controller's taint to the operand
// DaemonSets' tolerations, as the controller requires.
func (e *env) tolerateConversionTaint(t *testing.T) {
	t.Helper()
	resource := e.dynamic.Resource(clusterstate.ClusterPolicyGVR)
	policy, err := resource.Get(e.ctx, "cluster-policy", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tolerations := []any{
		map[string]any{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
		map[string]any{"key": modecontroller.TaintKey, "operator": "Exists", "effect": "NoSchedule"},
	}
	if err := unstructured.SetNestedSlice(policy.Object, tolerations, "spec", "daemonsets", "tolerations"); err != nil {
		t.Fatal(err)
	}
	if _, err := resource.Update(e.ctx, policy, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// labNode creates a node the agent manages: one A10 in the mode given,
// with gpu-feature-discovery's product label in container mode, and waits
// for the agent to take it as it is.
func (e *env) labNode(t *testing.T, name, mode string, annotations map[string]string) {
	t.Helper()
	annotations[agent.AnnotationHardware] = "1 x A10"
	labels := map[string]string{gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: mode}
	if mode == "container" {
		labels[gpuworkload.LabelGPUProduct] = "NVIDIA-A10"
	}
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: annotations, Labels: labels}}
	if _, err := e.client.CoreV1().Nodes().Create(e.ctx, node, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	advertised := map[string]string{"nvidia.com/gpu": "1"}
	switch mode {
	case "vm-passthrough":
		advertised = map[string]string{a10: "1"}
	case "vm-vgpu":
		// The A10's default profile, A10-12Q, two per GPU.
		advertised = map[string]string{"nvidia.com/NVIDIA_A10-12Q": "2"}
	}
	patchNodeStatus(e.ctx, t, e.client, name, advertised)
	e.poll(t, "the agent to take "+name, func(context.Context) (bool, error) {
		return agent.Took(e.node(t, name)), nil
	})
}

// nodeEvents counts the events of a reason about a node.
func (e *env) nodeEvents(t *testing.T, node, reason string) int {
	t.Helper()
	return len(e.nodeEventMessages(t, node, reason))
}

func (e *env) nodeEventMessages(t *testing.T, node, reason string) []string {
	t.Helper()
	list, err := e.client.CoreV1().Events("").List(e.ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + node + ",reason=" + reason})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range list.Items {
		out = append(out, ev.Message)
	}
	return out
}

func (e *env) node(t *testing.T, name string) *v1.Node {
	t.Helper()
	n, err := e.client.CoreV1().Nodes().Get(e.ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func tainted(n *v1.Node) bool {
	for _, taint := range n.Spec.Taints {
		if taint.Key == modecontroller.TaintKey {
			return true
		}
	}
	return false
}

// wantUnchanged fails for a node that is tainted or left its mode.
func (e *env) wantUnchanged(t *testing.T, name, mode string) {
	t.Helper()
	if n := e.node(t, name); tainted(n) || n.Labels[gpuworkload.LabelWorkloadConfig] != mode {
		t.Errorf("node %s: taints %v, mode %s; want untouched in %s", name, n.Spec.Taints, n.Labels[gpuworkload.LabelWorkloadConfig], mode)
	}
}

// newControllerEnv is a control plane with the scheduler, the lab's agent
// as the GPU Operator, kube-controller-manager's disruption and ReplicaSet
// controllers (budgets' status computed, evicted pods recreated), a
// ClusterPolicy whose operands tolerate the conversion taint, and the
// controller's RBAC.
func newControllerEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	e.tolerateConversionTaint(t)
	e.startScheduler(t, "scheduler")
	e.useControllerRBAC(t)
	e.startAgent(t)
	binary := labBinary(t)
	if _, err := e.cp.StartProcess("kube-controllers", binary, "controllers", "--kubeconfig", e.cp.Kubeconfig); err != nil {
		t.Fatal(err)
	}
	return e
}

// The mode controller on a real control plane, with the scheduler and the
// lab's agent as the GPU Operator: a dry run changes nothing; two replicas
// convert the fewest idle nodes for the waiting VMs, one acting; a node
// the operator never converts is rolled back; a controller killed
// mid-conversion is replaced and the conversion completes once; demand
// younger than the hysteresis converts nothing; under drain, a budget stops
// one drain, another empties a node for a VM, and a live-migratable VM is
// migrated off a node.
func TestModeController(t *testing.T) {
	e := newControllerEnv(t)
	e.labNode(t, "pt-busy", "vm-passthrough", map[string]string{})
	e.labNode(t, "c-busy", "container", map[string]string{})
	for _, name := range []string{"c-idle-1", "c-idle-2", "c-idle-3"} {
		e.labNode(t, name, "container", map[string]string{})
	}
	running := []*v1.Pod{gpuPod("virt-launcher-vm-0-aaaaa", "vm-0", map[string]string{a10: "1"}), replicated(gpuPod("job-0", "", map[string]string{"nvidia.com/gpu": "1"}))}
	running[0].Spec.NodeName, running[1].Spec.NodeName = "pt-busy", "c-busy"
	for _, p := range append(running,
		gpuPod("virt-launcher-vm-1-bbbbb", "vm-1", map[string]string{a10: "1"}),
		gpuPod("virt-launcher-vm-2-ccccc", "vm-2", map[string]string{a10: "1"})) {
		e.createPod(t, p)
	}
	for _, vm := range []string{"virt-launcher-vm-1-bbbbb", "virt-launcher-vm-2-ccccc"} {
		e.poll(t, vm+" unschedulable", func(ctx context.Context) (bool, error) {
			msg, err := e.podMessage(ctx, vm)
			return msg != "", err
		})
	}

	t.Run("dry run: events, no change", func(t *testing.T) {
		dry := e.startController(t, "controller-dry-run", "--operation=dryRun", "--leader-elect=false")
		e.poll(t, "WouldConvert events on two nodes", func(context.Context) (bool, error) {
			return e.nodeEvents(t, "c-idle-1", "WouldConvert") > 0 && e.nodeEvents(t, "c-idle-2", "WouldConvert") > 0, nil
		})
		if err := dry.Kill(); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"c-idle-1", "c-idle-2", "c-idle-3", "c-busy"} {
			e.wantUnchanged(t, name, "container")
		}
	})

	t.Run("two replicas: the fewest idle nodes, one replica acting", func(t *testing.T) {
		replicas := []*controlplane.Process{
			e.startController(t, "controller-a", "--operation=idleOnly", "--lease-namespace="+schedulerName),
			e.startController(t, "controller-b", "--operation=idleOnly", "--lease-namespace="+schedulerName),
		}
		for _, vm := range []string{"virt-launcher-vm-1-bbbbb", "virt-launcher-vm-2-ccccc"} {
			if node := e.waitBound(t, vm); node != "c-idle-1" && node != "c-idle-2" {
				t.Errorf("%s landed on %s, want a converted idle node", vm, node)
			}
		}
		for _, name := range []string{"c-idle-1", "c-idle-2"} {
			e.poll(t, name+" converted and untainted", func(context.Context) (bool, error) {
				n := e.node(t, name)
				return !tainted(n) && n.Annotations[gpuworkload.AnnotationConvertedFor] == a10, nil
			})
			if started := e.nodeEvents(t, name, "ConversionStarted"); started != 1 {
				t.Errorf("node %s: %d ConversionStarted events, want 1", name, started)
			}
		}
		e.wantUnchanged(t, "c-idle-3", "container")
		e.wantUnchanged(t, "c-busy", "container")
		e.wantUnchanged(t, "pt-busy", "vm-passthrough")
		var acted []string
		for _, r := range replicas {
			if err := r.Kill(); err != nil {
				t.Fatal(err)
			}
			log, err := os.ReadFile(r.LogPath)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(log), `"Started conversion"`); n > 0 {
				acted = append(acted, r.LogPath)
			}
		}
		if len(acted) != 1 {
			t.Errorf("replicas that started conversions: %v, want exactly one", acted)
		}
	})

	t.Run("the operator never converts: rolled back", func(t *testing.T) {
		opt := e.node(t, "c-idle-3")
		opt.Labels[modecontroller.LabelOptOut] = "disabled"
		if _, err := e.client.CoreV1().Nodes().Update(e.ctx, opt, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		e.labNode(t, "c-stuck", "container", map[string]string{agent.AnnotationConversionDelay: "1h"})
		e.createPod(t, gpuPod("virt-launcher-vm-3-ddddd", "vm-3", map[string]string{a10: "1"}))

		// Demand younger than --demand-wait converts nothing.
		patient := e.startController(t, "controller-patient", "--operation=idleOnly", "--leader-elect=false", "--max-conversions=10", "--demand-wait=1h")
		e.poll(t, "the patient controller to plan twice", func(context.Context) (bool, error) {
			log, err := os.ReadFile(patient.LogPath)
			return strings.Count(string(log), `"Planned" prerequisite="" relabels=[]`) >= 2, err
		})
		if err := patient.Kill(); err != nil {
			t.Fatal(err)
		}
		e.wantUnchanged(t, "c-stuck", "container")

		c := e.startController(t, "controller-rollback", "--operation=idleOnly", "--leader-elect=false", "--max-conversions=10", "--conversion-timeout=5s")
		e.poll(t, "c-stuck rolled back", func(context.Context) (bool, error) {
			return e.nodeEvents(t, "c-stuck", "ConversionRolledBack") > 0, nil
		})
		if err := c.Kill(); err != nil {
			t.Fatal(err)
		}
		n := e.node(t, "c-stuck")
		if tainted(n) || n.Labels[gpuworkload.LabelWorkloadConfig] != "container" || n.Annotations["gpu-workload.io/conversion-failed-at"] == "" {
			t.Errorf("c-stuck after the rollback: taints %v, labels %v, annotations %v; want untainted, container, the failure recorded", n.Spec.Taints, n.Labels, n.Annotations)
		}
		e.wantUnchanged(t, "c-idle-3", "container")
		if err := e.client.CoreV1().Pods("default").Delete(e.ctx, "virt-launcher-vm-3-ddddd", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("killed mid-conversion: the next controller completes it once", func(t *testing.T) {
		e.labNode(t, "c-resume", "container", map[string]string{agent.AnnotationConversionDelay: "3s"})
		e.createPod(t, gpuPod("virt-launcher-vm-4-eeeee", "vm-4", map[string]string{a10: "1"}))
		first := e.startController(t, "controller-first", "--operation=idleOnly", "--leader-elect=false", "--max-conversions=10", "--conversion-timeout=2m")
		e.poll(t, "c-resume relabelled", func(context.Context) (bool, error) {
			n := e.node(t, "c-resume")
			return tainted(n) && n.Labels[gpuworkload.LabelWorkloadConfig] == "vm-passthrough", nil
		})
		if err := first.Kill(); err != nil {
			t.Fatal(err)
		}
		e.poll(t, "the agent to finish converting c-resume", func(context.Context) (bool, error) {
			q, ok := e.node(t, "c-resume").Status.Allocatable[a10]
			return ok && q.Value() == 1, nil
		})
		if n := e.node(t, "c-resume"); !tainted(n) {
			t.Fatal("c-resume untainted with no controller running")
		}
		e.startController(t, "controller-second", "--operation=idleOnly", "--leader-elect=false", "--max-conversions=10", "--conversion-timeout=2m")
		if node := e.waitBound(t, "virt-launcher-vm-4-eeeee"); node != "c-resume" {
			t.Errorf("vm-4 landed on %s, want c-resume", node)
		}
		if started, succeeded := e.nodeEvents(t, "c-resume", "ConversionStarted"), e.nodeEvents(t, "c-resume", "ConversionSucceeded"); started != 1 || succeeded != 1 {
			t.Errorf("c-resume: %d ConversionStarted and %d ConversionSucceeded events, want 1 each", started, succeeded)
		}
		e.wantUnchanged(t, "c-stuck", "container")
	})

	t.Run("drain: what kubectl drain or a budget refuses is never evicted; a node all checks pass is drained", func(t *testing.T) {
		job, err := e.client.CoreV1().Pods("default").Get(e.ctx, "job-0", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		job.Labels = map[string]string{"app": "guarded"}
		if job, err = e.client.CoreV1().Pods("default").Update(e.ctx, job, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		// Running and Ready, as the kubelet (not run here) reports it: the
		// Eviction API lets a Pending pod go whatever its budget says.
		job.Status.Phase = v1.PodRunning
		job.Status.Conditions = append(job.Status.Conditions, v1.PodCondition{Type: v1.PodReady, Status: v1.ConditionTrue})
		if _, err := e.client.CoreV1().Pods("default").UpdateStatus(e.ctx, job, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		// The budget's status is the disruption controller's.
		one := intstr.FromInt32(1)
		if _, err := e.client.PolicyV1().PodDisruptionBudgets("default").Create(e.ctx, &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Name: "guarded", Namespace: "default"},
			Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &one, Selector: &metav1.LabelSelector{MatchLabels: job.Labels}},
		}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		e.poll(t, "the disruption controller to observe the budget", func(ctx context.Context) (bool, error) {
			pdb, err := e.client.PolicyV1().PodDisruptionBudgets("default").Get(ctx, "guarded", metav1.GetOptions{})
			return err == nil && pdb.Status.ObservedGeneration == pdb.Generation && pdb.Status.CurrentHealthy == 1, err
		})
		// A pod that declares no controller: kubectl drain refuses it
		// without --force, and nothing would bring it back.
		e.labNode(t, "c-bare", "container", map[string]string{})
		bare := gpuPod("bare-0", "", map[string]string{"nvidia.com/gpu": "1"})
		bare.Spec.NodeName = "c-bare"
		e.createPod(t, bare)
		e.createPod(t, gpuPod("virt-launcher-vm-5-fffff", "vm-5", map[string]string{a10: "1"}))
		drain := e.startController(t, "controller-drain", "--operation=drain", "--leader-elect=false", "--max-conversions=10", "--conversion-timeout=2m")
		for node, want := range map[string]string{
			"c-busy": "PodDisruptionBudget default/guarded allows 0 disruption(s) and the drain needs 1 (pod default/job-0)",
			"c-bare": "pod default/bare-0 is refused by kubectl drain's rules: cannot delete Pods that declare no controller",
		} {
			e.poll(t, node+" not drained", func(context.Context) (bool, error) {
				return e.nodeEvents(t, node, "NotDrained") > 0, nil
			})
			if msgs := e.nodeEventMessages(t, node, "NotDrained"); !strings.Contains(msgs[0], want) {
				t.Errorf("%s's NotDrained event: %q, want it to say %q", node, msgs[0], want)
			}
		}

		// A ReplicaSet's pod, first on c-drain, the one node of its pool;
		// c-spare joins the pool once it runs there, so that it has
		// somewhere to go (its mode is managed elsewhere, so it is not
		// itself converted for the VM). The ReplicaSet controller recreates
		// the pod after the eviction, and the scheduler places it on c-spare.
		e.labNode(t, "c-drain", "container", map[string]string{})
		pool := map[string]string{"lab.gpu-workload.io/pool": "train"}
		e.labelNode(t, "c-drain", "lab.gpu-workload.io/pool", "train")
		template := gpuPod("", "", map[string]string{"nvidia.com/gpu": "1"})
		template.Labels, template.Spec.NodeSelector = map[string]string{"app": "train"}, pool
		if _, err := e.client.AppsV1().ReplicaSets("default").Create(e.ctx, &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: "train", Namespace: "default"},
			Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](1), Selector: &metav1.LabelSelector{MatchLabels: template.Labels},
				Template: v1.PodTemplateSpec{ObjectMeta: template.ObjectMeta, Spec: template.Spec}},
		}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		first := e.waitReplicaOn(t, "app=train", "c-drain")
		e.labNode(t, "c-spare", "container", map[string]string{})
		e.labelNode(t, "c-spare", modecontroller.LabelOptOut, "disabled")
		e.labelNode(t, "c-spare", "lab.gpu-workload.io/pool", "train")
		if node := e.waitBound(t, "virt-launcher-vm-5-fffff"); node != "c-drain" {
			t.Errorf("vm-5 landed on %s, want the drained c-drain", node)
		}
		if _, err := e.client.CoreV1().Pods("default").Get(e.ctx, first, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("%s after the drain: %v, want it evicted", first, err)
		}
		e.waitReplicaOn(t, "app=train", "c-spare")
		e.poll(t, "c-drain untainted", func(context.Context) (bool, error) { return !tainted(e.node(t, "c-drain")), nil })
		if err := drain.Kill(); err != nil {
			t.Fatal(err)
		}
		for _, node := range []string{"c-busy", "c-bare"} {
			e.wantUnchanged(t, node, "container")
			if started := e.nodeEvents(t, node, "ConversionStarted"); started != 0 {
				t.Errorf("%s: %d ConversionStarted events, want none: its drain is refused before anything changes", node, started)
			}
		}
		for _, pod := range []string{"job-0", "bare-0"} {
			if p, err := e.client.CoreV1().Pods("default").Get(e.ctx, pod, metav1.GetOptions{}); err != nil || p.DeletionTimestamp != nil {
				t.Errorf("%s after a refused drain: %v, deleted at %v; want it running", pod, err, p.DeletionTimestamp)
			}
		}
	})

	t.Run("drain: a live-migratable VM is migrated, never stopped", func(t *testing.T) {
		e.labNode(t, "pt-migrate", "vm-passthrough", map[string]string{})
		// The node the VM can migrate to: a drain whose VMs would fit on no
		// other node is refused. Its mode is managed elsewhere, so it is
		// not itself converted for the vGPU VM.
		e.labNode(t, "pt-spare", "vm-passthrough", map[string]string{})
		spare := e.node(t, "pt-spare")
		spare.Labels[modecontroller.LabelOptOut] = "disabled"
		if _, err := e.client.CoreV1().Nodes().Update(e.ctx, spare, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		source := gpuPod("virt-launcher-vm-m-mmmmm", "vm-m", map[string]string{a10: "1"})
		source.Spec.NodeName = "pt-migrate"
		e.createPod(t, source)
		// The VMI as virt-controller reports it: no host device pins it.
		vmi := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
			"metadata": map[string]any{"name": "vm-m", "namespace": "default"},
			"status":   map[string]any{"conditions": []any{map[string]any{"type": "LiveMigratable", "status": "True"}}},
		}}
		if _, err := e.dynamic.Resource(clusterstate.VMIGVR).Namespace("default").Create(e.ctx, vmi, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		e.createPod(t, gpuPod("virt-launcher-vm-v-vvvvv", "vm-v", map[string]string{"nvidia.com/NVIDIA_A10-12Q": "1"}))
		migrating := e.startController(t, "controller-migrate", "--operation=drain", "--leader-elect=false", "--max-conversions=10", "--conversion-timeout=2m")
		e.poll(t, "the controller's VirtualMachineInstanceMigration of vm-m", func(ctx context.Context) (bool, error) {
			list, err := e.dynamic.Resource(clusterstate.VMIMigrationGVR).Namespace("default").List(ctx, metav1.ListOptions{LabelSelector: modecontroller.LabelConvertingNode + "=pt-migrate"})
			return err == nil && len(list.Items) == 1, err
		})
		if p, err := e.client.CoreV1().Pods("default").Get(e.ctx, source.Name, metav1.GetOptions{}); err != nil || p.DeletionTimestamp != nil {
			t.Fatalf("the VM's launcher pod after the migration request: %v, deleted at %v; want it left to KubeVirt", err, p.DeletionTimestamp)
		}
		// KubeVirt completes the migration: the source launcher pod goes.
		if err := e.client.CoreV1().Pods("default").Delete(e.ctx, source.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
			t.Fatal(err)
		}
		if node := e.waitBound(t, "virt-launcher-vm-v-vvvvv"); node != "pt-migrate" {
			t.Errorf("vm-v landed on %s, want pt-migrate, converted to vm-vgpu once its VM migrated", node)
		}
		if err := migrating.Kill(); err != nil {
			t.Fatal(err)
		}
	})
}

// Demand that alternates between modes, each phase shorter than the
// hysteresis, converts nothing; the same demand once it has waited
// converts the idle node at the next pass.
func TestModeControllerAlternatingDemand(t *testing.T) {
	e := newControllerEnv(t)
	e.labNode(t, "c-busy", "container", map[string]string{})
	e.labNode(t, "pt-busy", "vm-passthrough", map[string]string{})
	e.labNode(t, "flip", "vm-vgpu", map[string]string{})
	running := []*v1.Pod{gpuPod("job-0", "", map[string]string{"nvidia.com/gpu": "1"}), gpuPod("virt-launcher-vm-0-aaaaa", "vm-0", map[string]string{a10: "1"})}
	running[0].Spec.NodeName, running[1].Spec.NodeName = "c-busy", "pt-busy"
	for _, p := range running {
		e.createPod(t, p)
	}

	patient := e.startController(t, "controller-patient", "--operation=idleOnly", "--leader-elect=false", "--demand-wait=1h")
	for i, phase := range []*v1.Pod{
		gpuPod("train-1", "", map[string]string{"nvidia.com/gpu": "1"}),
		gpuPod("virt-launcher-vm-1-bbbbb", "vm-1", map[string]string{a10: "1"}),
		gpuPod("train-2", "", map[string]string{"nvidia.com/gpu": "1"}),
	} {
		e.createPod(t, phase)
		e.poll(t, phase.Name+" unschedulable", func(ctx context.Context) (bool, error) {
			msg, err := e.podMessage(ctx, phase.Name)
			return msg != "", err
		})
		e.waitPlans(t, patient, 2)
		if i < 2 {
			if err := e.client.CoreV1().Pods("default").Delete(e.ctx, phase.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := patient.Kill(); err != nil {
		t.Fatal(err)
	}
	e.wantUnchanged(t, "flip", "vm-vgpu")
	if started := e.nodeEvents(t, "flip", "ConversionStarted"); started != 0 {
		t.Fatalf("flip: %d ConversionStarted events under alternating young demand, want none", started)
	}

	e.startController(t, "controller-ready", "--operation=idleOnly", "--leader-elect=false")
	if node := e.waitBound(t, "train-2"); node != "flip" {
		t.Errorf("train-2 landed on %s, want flip, converted to container once its demand counts", node)
	}
}

// waitReplicaOn waits until a pod of the selector, not being deleted, is
// bound to the node, and returns its name.
func (e *env) waitReplicaOn(t *testing.T, selector, node string) string {
	t.Helper()
	var name string
	e.poll(t, "a pod of "+selector+" on "+node, func(ctx context.Context) (bool, error) {
		pods, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return false, err
		}
		for _, p := range pods.Items {
			if p.Spec.NodeName == node && p.DeletionTimestamp == nil {
				name = p.Name
				return true, nil
			}
		}
		return false, nil
	})
	return name
}

// replicated gives the pod a ReplicaSet as its controller, which kubectl
// drain requires of a pod it evicts.
func replicated(p *v1.Pod) *v1.Pod {
	p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: p.Name, UID: types.UID("rs-" + p.Name), Controller: ptr.To(true)}}
	return p
}

// waitPlans waits until the controller has planned n more times.
func (e *env) waitPlans(t *testing.T, p *controlplane.Process, n int) {
	t.Helper()
	plans := func() int {
		log, err := os.ReadFile(p.LogPath)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(log), `"Planned"`)
	}
	want := plans() + n
	e.poll(t, fmt.Sprintf("%d more plans", n), func(context.Context) (bool, error) { return plans() >= want, nil })
}

// What RBAC cannot say, the shipped admission policy enforces: as its
// service account, the controller may change on a node only the mode and
// vGPU configuration labels, its own annotations and its own taint; any
// other change is refused with the policy's message.
func TestControllerNodeWritesAdmission(t *testing.T) {
	e := newEnv(t)
	e.useControllerRBAC(t)
	createNode(e.ctx, t, e.client, "gpu-1", map[string]string{gpuworkload.LabelWorkloadConfig: "container", "team": "ml"}, map[string]string{"nvidia.com/gpu": "1"})
	config, err := clientcmd.BuildConfigFromFlags("", filepath.Join(e.cp.Dir, controllerKubeconfig))
	if err != nil {
		t.Fatal(err)
	}
	asController := kubernetes.NewForConfigOrDie(config)
	patch := func(body string) error {
		_, err := asController.CoreV1().Nodes().Patch(e.ctx, "gpu-1", types.MergePatchType, []byte(body), metav1.PatchOptions{})
		return err
	}
	const foreignLabel = "gpu-workload-controller may change only the labels nvidia.com/gpu.workload.config and nvidia.com/vgpu.config of a node"
	// The API server loads a new policy in the background: until it does,
	// a foreign label goes through.
	attempt := 0
	e.poll(t, "the policy to refuse a foreign label", func(context.Context) (bool, error) {
		attempt++
		err := patch(fmt.Sprintf(`{"metadata":{"labels":{"team":"ml-%d"}}}`, attempt))
		if err == nil {
			return false, nil
		}
		if apierrors.IsForbidden(err) && strings.Contains(err.Error(), foreignLabel) {
			return true, nil
		}
		return false, err
	})
	for _, tc := range []struct{ name, patch, refusal string }{
		{"a label of the node restriction", `{"metadata":{"labels":{"node-restriction.kubernetes.io/pool":"a"}}}`, foreignLabel},
		{"a label removed", `{"metadata":{"labels":{"team":null}}}`, foreignLabel},
		{"a foreign annotation", `{"metadata":{"annotations":{"owner":"me"}}}`, "gpu-workload-controller may change only its own annotations"},
		{"a foreign taint", `{"spec":{"taints":[{"key":"example.com/maintenance","effect":"NoSchedule"}]}}`, "gpu-workload-controller may add or remove only its own taint gpu-workload.io/converting"},
		{"a cordon", `{"spec":{"unschedulable":true}}`, "gpu-workload-controller may not change a node's spec.unschedulable"},
		{"its own labels, annotation and taint", `{"metadata":{"labels":{"nvidia.com/gpu.workload.config":"vm-vgpu","nvidia.com/vgpu.config":"A10-12Q"},"annotations":{"gpu-workload.io/conversion":"{}"}},"spec":{"taints":[{"key":"gpu-workload.io/converting","value":"20261205T060000Z","effect":"NoSchedule"}]}}`, ""},
		{"its own taint removed", `{"spec":{"taints":[]}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := patch(tc.patch)
			switch {
			case tc.refusal == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refusal != "" && (!apierrors.IsForbidden(err) || !strings.Contains(err.Error(), tc.refusal)):
				t.Fatalf("err %v, want Forbidden saying %q", err, tc.refusal)
			}
		})
	}
	node := e.node(t, "gpu-1")
	if node.Labels[gpuworkload.LabelWorkloadConfig] != "vm-vgpu" || node.Spec.Unschedulable || len(node.Spec.Taints) != 0 || node.Annotations["owner"] != "" {
		t.Errorf("node after the writes: labels %v, annotations %v, unschedulable %v, taints %v; want only the controller's own changes", node.Labels, node.Annotations, node.Spec.Unschedulable, node.Spec.Taints)
	}
}

// The controller's secure port delegates authentication and authorization
// to the API server, as kube-scheduler's does: the health paths answer
// anyone, /metrics only a subject the API server allows to get it
// (Prometheus's ServiceAccount under the monitoring component's RBAC).
func TestControllerSecurePort(t *testing.T) {
	e := newEnv(t)
	e.useControllerRBAC(t)
	e.applyRBAC(t, "manifests/examples/monitoring", func(name string) bool { return name == "gpu-workload-scheduler-metrics-reader" })
	prometheus, other := e.newServiceAccountToken(t, "monitoring", "prometheus-k8s"), e.newServiceAccountToken(t, "default", "curious")
	ports, err := controlplane.FreePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig := filepath.Join(e.cp.Dir, controllerKubeconfig)
	e.startController(t, "controller", "--lease-namespace="+schedulerName,
		"--bind-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", ports[0]), "--cert-dir="+filepath.Join(e.cp.Dir, "controller-certs"),
		"--authentication-kubeconfig="+kubeconfig, "--authorization-kubeconfig="+kubeconfig,
		// The control plane has no client CA for delegated authentication to look up.
		"--authentication-skip-lookup=true")
	url := fmt.Sprintf("https://127.0.0.1:%d", ports[0])
	e.poll(t, "the controller's /readyz to answer 200 to anyone", func(ctx context.Context) (bool, error) {
		status, _, err := controlplane.GetSecure(ctx, url, "/readyz", "")
		return err == nil && status == http.StatusOK, nil
	})
	for _, path := range []string{"/healthz", "/livez"} {
		if status, body, err := controlplane.GetSecure(e.ctx, url, path, ""); err != nil || status != http.StatusOK {
			t.Errorf("anonymous GET %s: %d %s, %v; want 200", path, status, body, err)
		}
	}
	if status, body, err := controlplane.GetSecure(e.ctx, url, "/healthz?verbose", ""); err != nil || !strings.Contains(string(body), "[+]leaderElection ok") {
		t.Errorf("GET /healthz?verbose: %d %s, %v; want the lease's check", status, body, err)
	}
	for _, who := range []struct{ name, token string }{{"anonymous", ""}, {"a ServiceAccount without the binding", other}} {
		if status, body, err := controlplane.GetSecure(e.ctx, url, "/metrics", who.token); err != nil || status != http.StatusForbidden {
			t.Errorf("%s GET /metrics: %d %s, %v; want 403", who.name, status, body, err)
		}
	}
	series, err := controlplane.ScrapeGPUWorkloadMetrics(e.ctx, url, prometheus)
	if err != nil {
		t.Fatalf("Prometheus's ServiceAccount GET /metrics: %v", err)
	}
	if _, ok := series["gpu_workload_conversions_in_progress"]; !ok {
		t.Errorf("no gpu_workload_conversions_in_progress among %d series", len(series))
	}
}
