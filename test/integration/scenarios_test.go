package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const a10 = "nvidia.com/GA102GL_A10"

// Scenario 2, the seed's trap: nodes labelled vm-passthrough while the
// ClusterPolicy has sandbox workloads disabled. The operator prepared them for
// containers, so they advertise nvidia.com/gpu.
func TestSandboxDisabledTrap(t *testing.T) {
	e := newClusterWithPolicy(t, false)
	createNode(e.ctx, t, e.client, "gpu-1", map[string]string{"nvidia.com/gpu.workload.config": "vm-passthrough"}, map[string]string{"nvidia.com/gpu": "1"})
	createNode(e.ctx, t, e.client, "cpu-1", nil, nil)

	e.createPod(t, gpuPod("virt-launcher-vm-a10-x7k2p", "vm-a10", map[string]string{a10: "1"}))
	e.waitMessage(t, "virt-launcher-vm-a10-x7k2p", "0/2 nodes are available: VirtualMachineInstance/default/vm-a10: pod needs vm-passthrough mode but "+
		"sandboxWorkloads is disabled in ClusterPolicy cluster-policy: the GPU Operator ignores nvidia.com/gpu.workload.config=vm-passthrough, set on 1 node(s), "+
		"and runs every GPU node in container mode.")
	e.waitEvent(t, "virt-launcher-vm-a10-x7k2p", "GPUWorkloadUnschedulable",
		"VirtualMachineInstance/default/vm-a10 (pod virt-launcher-vm-a10-x7k2p) needs 1 x nvidia.com/GA102GL_A10 (vm-passthrough mode). "+
			"GPU nodes by mode: container 1, vm-passthrough 0, vm-vgpu 0. nvidia.com/GA102GL_A10: 0 free of 0 on 0 node(s). "+
			"sandboxWorkloads is disabled in ClusterPolicy cluster-policy, so the mode label of 1 node(s) is ignored. "+
			`Fix: enable sandbox workloads: kubectl patch clusterpolicies.nvidia.com cluster-policy --type merge -p '{"spec":{"sandboxWorkloads":{"enabled":true}}}'`)

	// The fix, and the operator's part of it: the sandbox device plugin now advertises the card.
	e.applyClusterPolicy(t, "cluster-policy", true)
	patchNodeStatus(e.ctx, t, e.client, "gpu-1", map[string]string{"nvidia.com/gpu": "0", a10: "1"})
	if node := e.waitBound(t, "virt-launcher-vm-a10-x7k2p"); node != "gpu-1" {
		t.Fatalf("bound to %s, want gpu-1", node)
	}
}

// Scenario 3: no ClusterPolicy CRD when the scheduler starts; the args policy
// applies until the CRD and a ClusterPolicy appear, with no restart.
func TestClusterPolicyCRDInstalledLater(t *testing.T) {
	e := newEnv(t)
	e.startScheduler(t, "scheduler")
	createNode(e.ctx, t, e.client, "gpu-1", map[string]string{"nvidia.com/gpu.workload.config": "vm-passthrough"}, map[string]string{a10: "1"})

	e.createPod(t, gpuPod("virt-launcher-vm-a10-x7k2p", "vm-a10", map[string]string{a10: "1"}))
	e.waitMessage(t, "virt-launcher-vm-a10-x7k2p", "0/1 nodes are available: VirtualMachineInstance/default/vm-a10: pod needs vm-passthrough mode but "+
		"sandboxWorkloads is disabled in the scheduler's plugin args: the GPU Operator ignores nvidia.com/gpu.workload.config=vm-passthrough, set on 1 node(s), "+
		"and runs every GPU node in container mode.")

	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	if node := e.waitBound(t, "virt-launcher-vm-a10-x7k2p"); node != "gpu-1" {
		t.Fatalf("bound to %s, want gpu-1", node)
	}
}

// Scenario 4: a container node is relabelled to vm-passthrough and its
// device plugin replaced; the pending VM schedules through the queueing hint,
// long before the scheduler's 5-minute flush of unschedulable pods.
func TestRelabelNode(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	createNode(e.ctx, t, e.client, "gpu-1", map[string]string{"nvidia.com/gpu.workload.config": "container"}, map[string]string{"nvidia.com/gpu": "1"})

	e.createPod(t, gpuPod("virt-launcher-vm-a10-x7k2p", "vm-a10", map[string]string{a10: "1"}))
	e.waitMessage(t, "virt-launcher-vm-a10-x7k2p", "0/1 nodes are available: VirtualMachineInstance/default/vm-a10: no node advertises nvidia.com/GA102GL_A10; "+
		"the cluster advertises container GPU: nvidia.com/gpu.")

	start := time.Now()
	e.labelNode(t, "gpu-1", "nvidia.com/gpu.workload.config", "vm-passthrough")
	patchNodeStatus(e.ctx, t, e.client, "gpu-1", map[string]string{"nvidia.com/gpu": "0", a10: "1"})
	if node := e.waitBound(t, "virt-launcher-vm-a10-x7k2p"); node != "gpu-1" {
		t.Fatalf("bound to %s, want gpu-1", node)
	}
	t.Logf("bound %s after the relabel", time.Since(start).Round(time.Millisecond))
}

// Scenario 5: the vGPU profile changes from A10-12Q to A10-4Q on a node with two A10s.
func TestVGPUProfileChange(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	createNode(e.ctx, t, e.client, "gpu-vgpu", map[string]string{"nvidia.com/gpu.workload.config": "vm-vgpu", "nvidia.com/gpu.count": "2"},
		map[string]string{"nvidia.com/NVIDIA_A10-12Q": "4"})

	// The vGPU device manager starts the change: it pauses the sandbox operands.
	for key, value := range map[string]string{
		"nvidia.com/vgpu.config":                      "A10-4Q",
		"nvidia.com/vgpu.config.state":                "pending",
		"nvidia.com/gpu.deploy.sandbox-device-plugin": "paused-for-vgpu-change",
	} {
		e.labelNode(t, "gpu-vgpu", key, value)
	}
	e.createPod(t, gpuPod("virt-launcher-vm-12q-b9q4d", "vm-12q", map[string]string{"nvidia.com/NVIDIA_A10-12Q": "1"}))
	e.waitMessage(t, "virt-launcher-vm-12q-b9q4d", "0/1 nodes are available: 1 node is converting its GPU mode or vGPU profile.")
	if err := e.client.CoreV1().Pods("default").Delete(e.ctx, "virt-launcher-vm-12q-b9q4d", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	// The change succeeds: 2 GPUs x 6 A10-4Q.
	patchNodeStatus(e.ctx, t, e.client, "gpu-vgpu", map[string]string{"nvidia.com/NVIDIA_A10-12Q": "0", "nvidia.com/NVIDIA_A10-4Q": "12"})
	e.labelNode(t, "gpu-vgpu", "nvidia.com/gpu.deploy.sandbox-device-plugin", "true")
	e.labelNode(t, "gpu-vgpu", "nvidia.com/vgpu.config.state", "success")
	for i := range 12 {
		name := "virt-launcher-vm-4q-" + string(rune('a'+i))
		e.createPod(t, gpuPod(name, "vm-4q-"+string(rune('a'+i)), map[string]string{"nvidia.com/NVIDIA_A10-4Q": "1"}))
		if node := e.waitBound(t, name); node != "gpu-vgpu" {
			t.Fatalf("%s bound to %s", name, node)
		}
	}
	e.createPod(t, gpuPod("virt-launcher-vm-4q-13th", "vm-4q-13th", map[string]string{"nvidia.com/NVIDIA_A10-4Q": "1"}))
	e.waitMessage(t, "virt-launcher-vm-4q-13th", "0/1 nodes are available: 1 insufficient free nvidia.com/NVIDIA_A10-4Q.")
}

// Scenario 6: requests that no node can serve are rejected for all nodes at once.
func TestRequestsNothingCanServe(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.seedNodes(t)

	e.createPod(t, gpuPod("both-modes", "", map[string]string{"nvidia.com/gpu": "1", a10: "1"}))
	e.waitMessage(t, "both-modes", "0/4 nodes are available: pod requests GPU resources of several modes "+
		"(nvidia.com/GA102GL_A10: vm-passthrough, nvidia.com/gpu: container); a node runs one mode.")

	// The seed's manifest tied to hardware the cluster lacks.
	e.createPod(t, gpuPod("virt-launcher-vm-l40s-q2w3e", "vm-l40s", map[string]string{"nvidia.com/AD102GL_L40S": "1"}))
	e.waitMessage(t, "virt-launcher-vm-l40s-q2w3e", "0/4 nodes are available: VirtualMachineInstance/default/vm-l40s: no node advertises nvidia.com/AD102GL_L40S; "+
		"the cluster advertises container GPU: nvidia.com/gpu; passthrough GPU: nvidia.com/GA102GL_A10; vGPU profile: nvidia.com/NVIDIA_A10-12Q.")
}

func (e *env) createPriorityClass(t *testing.T, name string, value int32) {
	t.Helper()
	pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value}
	if _, err := e.client.SchedulingV1().PriorityClasses().Create(e.ctx, pc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func withPriority(pod *v1.Pod, class string) *v1.Pod {
	pod.Spec.PriorityClassName = class
	return pod
}

// Scenario 7: preemption still works when units are used up, and never
// evicts anything for a pod whose mode a node does not run.
func TestPreemption(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	e.createPriorityClass(t, "low", 100)
	e.createPriorityClass(t, "high", 1000)
	e.startScheduler(t, "scheduler")
	createNode(e.ctx, t, e.client, "gpu-container", map[string]string{"nvidia.com/gpu.workload.config": "container"}, map[string]string{"nvidia.com/gpu": "1"})
	createNode(e.ctx, t, e.client, "gpu-passthrough", map[string]string{"nvidia.com/gpu.workload.config": "vm-passthrough"}, map[string]string{a10: "1"})

	e.createPod(t, withPriority(gpuPod("low-cuda", "", map[string]string{"nvidia.com/gpu": "1"}), "low"))
	e.createPod(t, withPriority(gpuPod("virt-launcher-vm-high-a", "vm-high-a", map[string]string{a10: "1"}), "high"))
	e.waitBound(t, "low-cuda")
	e.waitBound(t, "virt-launcher-vm-high-a")

	// A high-priority VM for the taken card: the container node runs another
	// mode, so its low-priority pod must not be a victim.
	e.createPod(t, withPriority(gpuPod("virt-launcher-vm-high-b", "vm-high-b", map[string]string{a10: "1"}), "high"))
	e.waitMessage(t, "virt-launcher-vm-high-b", "0/2 nodes are available: 1 insufficient free nvidia.com/GA102GL_A10, "+
		"1 node's GPU mode is container (advertises nvidia.com/gpu), pod needs vm-passthrough.")
	e.poll(t, "the preemption attempt to be reported", func(ctx context.Context) (bool, error) {
		msg, err := e.podMessage(ctx, "virt-launcher-vm-high-b")
		return msg != withoutPreemption(msg), err
	})
	if low, err := e.client.CoreV1().Pods("default").Get(e.ctx, "low-cuda", metav1.GetOptions{}); err != nil || low.DeletionTimestamp != nil {
		t.Fatalf("low-priority pod on a node of another mode was preempted (or lost): %v", err)
	}

	// A high-priority container pod: the low-priority pod is the victim.
	e.createPod(t, withPriority(gpuPod("high-cuda", "", map[string]string{"nvidia.com/gpu": "1"}), "high"))
	e.poll(t, "low-cuda to be preempted", func(ctx context.Context) (bool, error) {
		low, err := e.client.CoreV1().Pods("default").Get(ctx, "low-cuda", metav1.GetOptions{})
		return err == nil && low.DeletionTimestamp != nil, err
	})
	// No kubelet runs: finish the victim's termination as the kubelet would.
	zero := int64(0)
	if err := e.client.CoreV1().Pods("default").Delete(e.ctx, "low-cuda", metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
		t.Fatal(err)
	}
	if node := e.waitBound(t, "high-cuda"); node != "gpu-container" {
		t.Fatalf("high-cuda bound to %s, want gpu-container", node)
	}
}

// Scenario 8: pods without GPU requests stay off GPU nodes while CPU nodes fit.
func TestNonGPUPodsAvoidGPUNodes(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.seedNodes(t)
	createNode(e.ctx, t, e.client, "cpu-2", nil, nil)

	for i := range 8 {
		name := "web-" + string(rune('a'+i))
		e.createPod(t, gpuPod(name, "", map[string]string{"cpu": "1", "memory": "1Gi"}))
		if node := e.waitBound(t, name); node != "cpu-1" && node != "cpu-2" {
			t.Errorf("%s landed on GPU node %s while CPU nodes fit", name, node)
		}
	}
}

// An explanation longer than the API's 1,024-byte event note is cut, with
// its fix kept, instead of being rejected by the API server and lost.
func TestLongExplanationIsTruncated(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	e.seedNodes(t)
	requests := map[string]string{}
	for i := range 30 {
		requests[fmt.Sprintf("nvidia.com/GA102GL_MODEL_%02d_WITH_A_LONG_BOARD_NAME", i)] = "1"
	}
	e.createPod(t, gpuPod("virt-launcher-vm-many-x7k2p", "vm-many", requests))
	fix := " Fix: no node advertises nvidia.com/GA102GL_MODEL_00_WITH_A_LONG_BOARD_NAME and none has hardware known to; " +
		"request a passthrough GPU resource the cluster has free (nvidia.com/GA102GL_A10, 1 free), or add a node with this hardware."
	e.waitEventMatching(t, "virt-launcher-vm-many-x7k2p", "GPUWorkloadUnschedulable", "at most 1024 bytes, cut in the middle, ending with"+fix, func(message string) bool {
		return len(message) <= 1024 && strings.HasPrefix(message, "VirtualMachineInstance/default/vm-many (pod virt-launcher-vm-many-x7k2p) needs 1 x ") &&
			strings.HasSuffix(message, " ..."+fix)
	})
}
