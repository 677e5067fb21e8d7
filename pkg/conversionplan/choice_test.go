package conversionplan_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterview"
	"github.com/gpu-workload-scheduler/scheduler/pkg/conversionplan"
	"github.com/gpu-workload-scheduler/scheduler/pkg/explanation"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// A10 resources by mode and vGPU profile, with a node's units of each.
var a10Resources = []struct {
	mode    gpuworkload.Mode
	profile string
	name    v1.ResourceName
	units   int64
}{
	{gpuworkload.ModeContainer, "", "nvidia.com/gpu", 4},
	{gpuworkload.ModePassthrough, "", "nvidia.com/GA102GL_A10", 4},
	{gpuworkload.ModeVGPU, "A10-4Q", "nvidia.com/NVIDIA_A10-4Q", 24},
	{gpuworkload.ModeVGPU, "A10-12Q", "nvidia.com/NVIDIA_A10-12Q", 8},
}

// TestEveryToolConvertsTheSameNode generates clusters of A10 nodes in
// every mode, some running GPU pods, and one pending GPU pod whose
// resource no node has free. For it, the scheduler's explanation, advise
// and the mode controller's dry run choose the same conversion: the fix's
// idle node and command are the first relabel advise plans, which the
// controller announces; the node the advisor keeps for its own pods is the
// one the fix names as kept, and nothing is announced; the busy node the
// fix would drain is the first advise lists to drain first.
func TestEveryToolConvertsTheSameNode(t *testing.T) {
	ctx := klog.NewContext(t.Context(), logr.Discard())
	rng := rand.New(rand.NewPCG(11, 0))
	seen := map[string]int{}
	for trial := range 300 {
		nodes, pods := generateCluster(rng)
		want := a10Resources[rng.IntN(len(a10Resources))]
		count := 1 + rng.Int64N(2)
		pending := gpuPod("pending", "", want.name, count)
		pods = append(pods, pending)
		if !slices.ContainsFunc(nodes, func(n *v1.Node) bool { return serves(n, want.name) && freeUnits(n, want.name, pods) >= count }) {
			t.Run(fmt.Sprintf("trial %d", trial), func(t *testing.T) {
				seen[checkOneChoice(ctx, t, nodes, pods, pending)]++
			})
		}
	}
	t.Logf("outcomes: %v", seen)
	for _, outcome := range []string{"relabel", "kept", "drain first"} {
		if seen[outcome] == 0 {
			t.Errorf("no trial ended in %s (%v): the generator tests less than it should", outcome, seen)
		}
	}
}

// checkOneChoice compares the three tools on one cluster and says which
// outcome the advisor planned.
func checkOneChoice(ctx context.Context, t *testing.T, nodes []*v1.Node, pods []*v1.Pod, pending *v1.Pod) string {
	t.Helper()
	policy := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer,
		Source: gpuworkload.PolicySource{Kind: gpuworkload.SourceClusterPolicy, Name: "cluster-policy"}}

	tracker := clusterstate.NewTracker(policy, nil, reasons.ModeMismatchOf, clusterstate.TrackerOptions{})
	byNode := map[string][]*v1.Pod{}
	for _, p := range pods {
		byNode[p.Spec.NodeName] = append(byNode[p.Spec.NodeName], p)
	}
	infos := make([]fwk.NodeInfo, len(nodes))
	for i, n := range nodes {
		tracker.UpsertNode(n)
		infos[i] = framework.NewNodeInfo(byNode[n.Name]...)
		infos[i].SetNode(n)
	}
	demand := poddemand.NewPodDemand(pending, tracker.Classifier())
	why := explanation.Explain(ctx, pending, &demand, tracker, explanation.NewNodeInfoIndex(infos))

	c := &clusterview.Cluster{Nodes: nodes, ClusterPolicies: []*unstructured.Unstructured{clusterPolicy()}, Read: time.Now(), ConversionTimeout: gpuworkload.DefaultConversionTimeout}
	if err := c.ReadAs(clusterview.OperatorView()); err != nil {
		t.Fatal(err)
	}
	report, err := conversionplan.Advise(ctx, c, pods, advisor.Narrowing{Demand: advisor.DefaultDemandRules()}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	announced := dryRun(ctx, t, c, nodes, pods)

	describe := func() string {
		return fmt.Sprintf("explanation %q %q\nadvise relabels %+v kept %+v drain first %+v withdrawn %+v\ncontroller announced %v", why.Message, why.FixCommands,
			report.Relabels, report.Kept, report.DrainFirst, report.Withdrawn, announced)
	}
	switch {
	case len(report.Relabels) > 0:
		first := report.Relabels[0]
		if !slices.Equal(why.FixCommands, []string{first.Command}) || !strings.Contains(why.Message, "convert idle node "+first.Node+",") || !slices.Contains(announced, first.Node) {
			t.Fatalf("advise converts %s first (%s); the explanation and the controller should too:\n%s", first.Node, first.Command, describe())
		}
		return "relabel"
	case len(report.Withdrawn) > 0:
		t.Fatalf("the simulation withdrew a relabel that places the one pending pod:\n%s", describe())
	case len(report.Kept) > 0:
		kept := report.Kept[0]
		if !slices.Equal(why.FixCommands, []string{kept.Command}) || !strings.Contains(why.Message, "idle node "+kept.Node+" has this hardware, but") || len(announced) > 0 {
			t.Fatalf("advise keeps %s for its own pods; the explanation should say so and the controller convert nothing:\n%s", kept.Node, describe())
		}
		return "kept"
	case len(report.DrainFirst) > 0:
		drain := report.DrainFirst[0]
		if !strings.Contains(why.Message, "node "+drain.Node+" has this hardware but runs") || len(announced) > 0 {
			t.Fatalf("advise would drain %s first; the explanation should name it and the dry run convert nothing:\n%s", drain.Node, describe())
		}
		return "drain first"
	}
	if len(announced) > 0 || strings.Contains(why.Message, "convert idle node") {
		t.Fatalf("advise converts nothing; neither should the others:\n%s", describe())
	}
	return "nothing"
}

// dryRun runs one pass of the mode controller in dry run over the cluster,
// planning as gpu-workload-controller does, and returns the nodes it would
// convert.
func dryRun(ctx context.Context, t *testing.T, c *clusterview.Cluster, nodes []*v1.Node, pods []*v1.Pod) []string {
	t.Helper()
	var objects []runtime.Object
	for _, n := range nodes {
		objects = append(objects, n)
	}
	for _, p := range pods {
		objects = append(objects, p)
	}
	client := fake.NewClientset(objects...)
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		clusterstate.ClusterPolicyGVR: "ClusterPolicyList", clusterstate.KubeVirtGVR: "KubeVirtList", clusterstate.VMIGVR: "VirtualMachineInstanceList",
		clusterstate.VMIMigrationGVR: "VirtualMachineInstanceMigrationList",
	}, clusterPolicy())
	planner := func(ctx context.Context, narrowing advisor.Narrowing) (modecontroller.Plan, error) {
		report, err := conversionplan.Advise(ctx, c, pods, narrowing, io.Discard)
		if err != nil {
			return modecontroller.Plan{}, err
		}
		return modecontroller.Plan{Plan: report.Plan, Refit: report.Refit}, nil
	}
	opts := modecontroller.Defaults()
	opts.IdleFor, opts.DemandWait = 0, 0
	recorder := events.NewFakeRecorder(100)
	controller, err := modecontroller.New(client, dyn, planner, opts, clocktesting.NewFakePassiveClock(time.Now()), recorder, modecontroller.NewMetrics())
	if err != nil {
		t.Fatal(err)
	}
	if err := controller.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	var announced []string
	for len(recorder.Events) > 0 {
		event := <-recorder.Events
		if node, ok := strings.CutPrefix(event, "Normal WouldConvert dry run: would convert node "); ok {
			announced = append(announced, strings.Fields(node)[0])
		}
	}
	return announced
}

// generateCluster is two to six A10 nodes, each of a random mode and
// profile, half of them running one or two GPU pods of its resource.
func generateCluster(rng *rand.Rand) ([]*v1.Node, []*v1.Pod) {
	var nodes []*v1.Node
	var pods []*v1.Pod
	for i := range 2 + rng.IntN(5) {
		r := a10Resources[rng.IntN(len(a10Resources))]
		name := fmt.Sprintf("a10-%d", i)
		labels := map[string]string{
			gpuworkload.LabelWorkloadConfig: string(r.mode), gpuworkload.LabelGPUPresent: "true",
			gpuworkload.LabelGPUProduct: "NVIDIA-A10", gpuworkload.LabelGPUCount: "4",
		}
		if r.profile != "" {
			labels[gpuworkload.LabelVGPUConfig] = r.profile
		}
		capacity := v1.ResourceList{
			v1.ResourceCPU: resource.MustParse("64"), v1.ResourceMemory: resource.MustParse("256Gi"), v1.ResourcePods: resource.MustParse("110"),
			r.name: *resource.NewQuantity(r.units, resource.DecimalSI),
		}
		nodes = append(nodes, &v1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels, ResourceVersion: "1"},
			Status: v1.NodeStatus{Capacity: capacity, Allocatable: capacity,
				Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}}},
		})
		if rng.IntN(2) == 0 {
			for j := range 1 + rng.IntN(2) {
				pods = append(pods, gpuPod(fmt.Sprintf("%s-pod-%d", name, j), name, r.name, 1+rng.Int64N(2)))
			}
		}
	}
	return nodes, pods
}

// gpuPod is a container pod, or a virt-launcher pod for a VM resource, of
// the gpu-workload-scheduler, on node or pending.
func gpuPod(name, node string, r v1.ResourceName, count int64) *v1.Pod {
	requests := v1.ResourceList{v1.ResourceCPU: resource.MustParse("1"), r: *resource.NewQuantity(count, resource.DecimalSI)}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "work", UID: types.UID("uid-" + name), CreationTimestamp: metav1.NewTime(time.Now().Add(-time.Hour))},
		Spec: v1.PodSpec{SchedulerName: "gpu-workload-scheduler", NodeName: node,
			Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Requests: requests, Limits: v1.ResourceList{r: requests[r]}}}}},
	}
	if r != "nvidia.com/gpu" {
		pod.Labels = map[string]string{"kubevirt.io": "virt-launcher", "kubevirt.io/created-by": "uid-vmi-" + name}
		pod.Annotations = map[string]string{"kubevirt.io/domain": name}
	}
	if node == "" {
		pod.Status.Conditions = []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionFalse, Reason: v1.PodReasonUnschedulable}}
	}
	return pod
}

// serves says the node advertises the resource.
func serves(n *v1.Node, r v1.ResourceName) bool {
	q, ok := n.Status.Allocatable[r]
	return ok && !q.IsZero()
}

// freeUnits are the node's units of r that no pod on it requests.
func freeUnits(n *v1.Node, r v1.ResourceName, pods []*v1.Pod) int64 {
	free := n.Status.Allocatable.Name(r, resource.DecimalSI).Value()
	for _, p := range pods {
		if p.Spec.NodeName == n.Name {
			free -= p.Spec.Containers[0].Resources.Requests.Name(r, resource.DecimalSI).Value()
		}
	}
	return free
}

// clusterPolicy enables sandbox workloads and lets the operands tolerate
// the mode controller's conversion taint, which it requires.
func clusterPolicy() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy", "metadata": map[string]any{"name": "cluster-policy"},
		"spec": map[string]any{
			"sandboxWorkloads": map[string]any{"enabled": true},
			"daemonsets": map[string]any{"tolerations": []any{
				map[string]any{"key": modecontroller.TaintKey, "operator": "Exists", "effect": "NoSchedule"},
			}},
		},
	}}
}
