package integration

import (
	"context"
	"fmt"
	"maps"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// A control-plane component fails while the scheduler binds 60 VMs to 40
// GPUs and is started again at once. Afterwards no node holds more VMs than
// GPUs, no pod was bound twice, and every VM that waits carries its
// PodScheduled condition and its explanation event.
//   - kube-apiserver: bindings whose answer is lost are read back before
//     their GPUs are freed (VerifyingBinder);
//   - etcd, on its data directory: the API server reconnects;
//   - the scheduler, killed: a new one takes the lease once it expires.
func TestControlPlaneFaults(t *testing.T) {
	for _, fault := range []struct {
		name   string
		inject func(t *testing.T, e *env, s *controlplane.Scheduler)
	}{
		{name: "kube-apiserver restarted", inject: func(t *testing.T, e *env, _ *controlplane.Scheduler) {
			if err := e.cp.RestartAPIServer(e.ctx); err != nil {
				t.Fatalf("restart kube-apiserver: %v", err)
			}
		}},
		{name: "etcd restarted", inject: func(t *testing.T, e *env, _ *controlplane.Scheduler) {
			if err := e.cp.RestartEtcd(e.ctx); err != nil {
				t.Fatalf("restart etcd: %v", err)
			}
		}},
		{name: "scheduler killed and started again", inject: func(t *testing.T, e *env, s *controlplane.Scheduler) {
			if err := s.Kill(); err != nil {
				t.Fatalf("kill the scheduler: %v", err)
			}
			e.startScheduler(t, "scheduler-restarted")
		}},
	} {
		t.Run(fault.name, func(t *testing.T) {
			const nodes, gpusPerNode, vms = 20, 2, 60
			e, auditLog := newEnvWithBindingAudit(t)
			e.installCRDs(t)
			e.applyClusterPolicy(t, "cluster-policy", true)
			scheduler := e.startScheduler(t, "scheduler")
			e.createA10VMs(t, nodes, gpusPerNode, vms)
			e.waitBindingStarted(t)
			fault.inject(t, e, scheduler)
			var pods []v1.Pod
			var bound int
			var noCondition, unexplained []string
			defer func() {
				if t.Failed() {
					t.Logf("last seen: %d bound; waiting without a condition %v, without an explanation %v", bound, noCondition, unexplained)
				}
			}()
			e.poll(t, fmt.Sprintf("all %d GPUs taken and the other VMs waiting with a condition and an explanation", nodes*gpusPerNode), func(ctx context.Context) (bool, error) {
				list, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
				if err != nil {
					return false, nil
				}
				events, err := e.client.CoreV1().Events("default").List(ctx, metav1.ListOptions{FieldSelector: "reason=" + reasons.EventReasonUnschedulable})
				if err != nil {
					return false, nil
				}
				explained := map[string]bool{}
				for _, ev := range events.Items {
					explained[ev.InvolvedObject.Name] = true
				}
				pods, bound, noCondition, unexplained = list.Items, 0, nil, nil
				for i := range pods {
					name := pods[i].Name
					switch {
					case pods[i].Spec.NodeName != "":
						bound++
					case unschedulableMessage(&pods[i]) == "":
						noCondition = append(noCondition, name)
					case !explained[name]:
						unexplained = append(unexplained, name)
					}
				}
				return bound >= nodes*gpusPerNode && noCondition == nil && unexplained == nil, nil
			})
			for node, n := range overCommitted(pods, gpusPerNode) {
				t.Errorf("node %s holds %d VMs for %d GPUs", node, n, gpusPerNode)
			}
			for pod, codes := range bindingCodes(t, auditLog) {
				created := 0
				for _, code := range codes {
					if code == 201 {
						created++
					}
				}
				if created > 1 {
					t.Errorf("pod %s bound %d times (binding responses %v)", pod, created, codes)
				}
			}
		})
	}
}

// createA10VMs creates passthrough nodes of gpusPerNode A10s each and a VM
// launcher pod per vm, each asking for one.
func (e *env) createA10VMs(t *testing.T, nodes, gpusPerNode, vms int) {
	t.Helper()
	for i := range nodes {
		createNode(e.ctx, t, e.client, fmt.Sprintf("pt-%02d", i), map[string]string{gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: "vm-passthrough"},
			map[string]string{a10: fmt.Sprint(gpusPerNode)})
	}
	for i := range vms {
		e.createPod(t, gpuPod(fmt.Sprintf("virt-launcher-vm-%03d-x7k2p", i), fmt.Sprintf("vm-%03d", i), map[string]string{a10: "1"}))
	}
}

// waitBindingStarted waits until some pod is bound.
func (e *env) waitBindingStarted(t *testing.T) {
	t.Helper()
	e.poll(t, "binding to start", func(ctx context.Context) (bool, error) {
		n, err := e.boundPods(ctx)
		return err == nil && n > 0, nil
	})
}

// overCommitted are the nodes the pods hold more than gpusPerNode of, with
// how many they hold.
func overCommitted(pods []v1.Pod, gpusPerNode int) map[string]int {
	perNode := map[string]int{}
	for i := range pods {
		if node := pods[i].Spec.NodeName; node != "" {
			perNode[node]++
		}
	}
	maps.DeleteFunc(perNode, func(_ string, n int) bool { return n <= gpusPerNode })
	return perNode
}
