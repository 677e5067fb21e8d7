package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/installchart"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
)

// RoutingManifest is the chart's routing policies as manifests/install holds
// them, relative to the repository root.
const RoutingManifest = "manifests/install/routing.yaml"

// routingTimeout bounds the wait for the API server to load the policies.
const routingTimeout = time.Minute

// WaitForRouting waits until the API server routes to scheduler a GPU pod
// that names no scheduler and, in each of claimNamespaces (labelled to opt
// in), a pod with a claim: dry-run creates of them come back with that
// name. Each policy takes effect once the API server's informer has it and
// its binding, some time after their creates returned.
func WaitForRouting(ctx context.Context, client kubernetes.Interface, scheduler string, timeout time.Duration, claimNamespaces ...string) error {
	probes := []*v1.Pod{{
		ObjectMeta: metav1.ObjectMeta{Name: "routing-probe", Namespace: "default"},
		Spec: v1.PodSpec{Containers: []v1.Container{{Name: "probe", Image: "probe", Resources: v1.ResourceRequirements{
			Limits: v1.ResourceList{gpuworkload.ResourceGPU: resource.MustParse("1")}}}}},
	}}
	for _, namespace := range claimNamespaces {
		probes = append(probes, &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "routing-probe", Namespace: namespace},
			Spec: v1.PodSpec{Containers: []v1.Container{{Name: "probe", Image: "probe"}},
				ResourceClaims: []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("routing-probe")}}},
		})
	}
	for _, probe := range probes {
		var last string
		err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
			got, err := client.CoreV1().Pods(probe.Namespace).Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			if err != nil {
				return false, err
			}
			last = got.Spec.SchedulerName
			return last == scheduler, nil
		})
		if err != nil {
			return fmt.Errorf("a pod like %s/%s is still given %q, not %q, %s after the routing policies were applied: %w", probe.Namespace, probe.Name, last, scheduler, timeout, err)
		}
	}
	return nil
}

// applyRouting creates the chart's routing policies and their bindings and
// waits until the API server applies them.
func (l *lab) applyRouting() error {
	data, err := os.ReadFile(filepath.Join(l.Repo, RoutingManifest))
	if err != nil {
		return err
	}
	docs, err := installchart.Documents(map[string]string{RoutingManifest: string(data)})
	if err != nil {
		return err
	}
	for _, doc := range docs {
		var obj unstructured.Unstructured
		if err := yaml.Unmarshal([]byte(doc), &obj.Object); err != nil {
			return fmt.Errorf("%s: %w", RoutingManifest, err)
		}
		if err := l.create(&obj); err != nil {
			return fmt.Errorf("%s: %s %s: %w", RoutingManifest, obj.GetKind(), obj.GetName(), err)
		}
	}
	return WaitForRouting(l.ctx, l.client, placement.ProfileName, routingTimeout)
}

// startDefaultScheduler runs kube-scheduler as it ships beside ours, as a
// cluster does: our binary with only the default plugins, under
// default-scheduler.
func (l *lab) startDefaultScheduler(cp *controlplane.ControlPlane) error {
	_, err := cp.StartScheduler(l.ctx, controlplane.SchedulerOptions{Binary: filepath.Join(l.Bin, "gpu-workload-scheduler"),
		Config: controlplane.DefaultSchedulerConfig(l.kubeconfig()), Name: controlplane.DefaultSchedulerName,
		Supervisor: []string{filepath.Join(l.Bin, "gpu-workload-lab"), "supervise", "--"}})
	return err
}

// reportRouting lists the scenario's pods that named no scheduler, with the
// scheduler admission gave them.
func (l *lab) reportRouting(s *Scenario) {
	fmt.Fprintln(l.Out, "\n== Routed by admission (scenario pods that name no scheduler)")
	listed := 0
	for _, p := range s.Pods() {
		if named, _, _ := unstructured.NestedString(p.Object, "spec", "schedulerName"); named != "" && named != controlplane.DefaultSchedulerName {
			continue
		}
		pod, err := l.client.CoreV1().Pods(p.GetNamespace()).Get(l.ctx, p.GetName(), metav1.GetOptions{})
		if err != nil {
			fmt.Fprintf(l.Out, "%s: %v\n", podKey(p.GetNamespace(), p.GetName()), err)
			continue
		}
		verdict := "routed to " + pod.Spec.SchedulerName
		if pod.Spec.SchedulerName == controlplane.DefaultSchedulerName {
			verdict = "left to " + controlplane.DefaultSchedulerName
		}
		fmt.Fprintf(l.Out, "%s: %s\n", podKey(pod.Namespace, pod.Name), verdict)
		listed++
	}
	if listed == 0 {
		fmt.Fprintln(l.Out, "(none)")
	}
}
