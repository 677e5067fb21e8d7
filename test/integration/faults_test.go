package integration

import (
	"context"
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// kube-apiserver is killed while the scheduler binds and restarted at once:
// bindings whose answer is lost are read back before their GPUs are freed
// (VerifyingBinder), so no node ends up with more VMs than GPUs, and every
// pod that waits carries its condition.
func TestAPIServerRestartDuringBinding(t *testing.T) {
	const nodes, gpusPerNode, vms = 20, 2, 60
	e := newClusterWithPolicy(t, true)
	for i := range nodes {
		createNode(e.ctx, t, e.client, fmt.Sprintf("pt-%02d", i), map[string]string{gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: "vm-passthrough"},
			map[string]string{a10: fmt.Sprint(gpusPerNode)})
	}
	for i := range vms {
		e.createPod(t, gpuPod(fmt.Sprintf("virt-launcher-vm-%02d-x7k2p", i), fmt.Sprintf("vm-%02d", i), map[string]string{a10: "1"}))
	}
	e.poll(t, "binding to start", func(ctx context.Context) (bool, error) {
		pods, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName!="})
		return err == nil && len(pods.Items) > 0, nil
	})
	if err := e.cp.RestartAPIServer(e.ctx); err != nil {
		t.Fatalf("restart kube-apiserver: %v", err)
	}
	var pods []v1.Pod
	e.poll(t, fmt.Sprintf("all %d GPUs taken and the other VMs waiting with a condition", nodes*gpusPerNode), func(ctx context.Context) (bool, error) {
		list, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		pods = list.Items
		bound := 0
		for i := range pods {
			if pods[i].Spec.NodeName != "" {
				bound++
			} else if message, err := e.podMessage(ctx, pods[i].Name); err != nil || message == "" {
				return false, nil
			}
		}
		return bound >= nodes*gpusPerNode, nil
	})
	perNode := map[string]int{}
	for i := range pods {
		if node := pods[i].Spec.NodeName; node != "" {
			perNode[node]++
		}
	}
	for node, n := range perNode {
		if n > gpusPerNode {
			t.Errorf("node %s holds %d VMs for %d GPUs", node, n, gpusPerNode)
		}
	}
}
