package gpuworkloadfit

import (
	"context"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	st "k8s.io/kubernetes/pkg/scheduler/testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/explanation"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand/constrainttest"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// A pod pinned to a GPU model: the explanation counts units only on nodes
// its nodeSelector or required node affinity accepts, and the fix converts
// only a node that it accepts once converted (gpu-feature-discovery labels
// the product in container mode).
func TestExplainCountsOnlyNodesThePodAccepts(t *testing.T) {
	t4 := v1.ResourceName("nvidia.com/TU104GL_TESLA_T4")
	nodes := []*v1.Node{
		withProduct(gpuNode("t4-c1", "container", map[v1.ResourceName]string{gpu: "1"}), "Tesla-T4"),
		withProduct(gpuNode("a10-c1", "container", map[v1.ResourceName]string{gpu: "2"}), "NVIDIA-A10"),
		gpuNode("a10-pt-01", "vm-passthrough", map[v1.ResourceName]string{a10: "1"}),
		gpuNode("t4-pt-01", "vm-passthrough", map[v1.ResourceName]string{t4: "1"}),
	}
	running := []*v1.Pod{
		st.MakePod().Name("on-t4").Namespace("ns").UID("on-t4").Node("t4-c1").Req(map[v1.ResourceName]string{gpu: "1"}).Obj(),
		st.MakePod().Name("on-a10").Namespace("ns").UID("on-a10").Node("a10-c1").Req(map[v1.ResourceName]string{gpu: "1"}).Obj(),
	}
	pinned := func(product string) *v1.Pod {
		pod := podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"})
		pod.Spec.NodeSelector = map[string]string{gpuworkload.LabelGPUProduct: product}
		return pod
	}
	notA10 := podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"})
	notA10.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{
		NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{{Key: gpuworkload.LabelGPUProduct, Operator: v1.NodeSelectorOpIn, Values: []string{"Tesla-T4", "NVIDIA-L4"}}}}},
	}}}
	convertT4 := "kubectl label node t4-pt-01 nvidia.com/gpu.workload.config=container --overwrite"
	for _, tc := range []struct {
		name, counts, fix string
		pod               *v1.Pod
		commands          []string
		code              reasons.Code
	}{
		{
			name: "the T4 is busy; the idle T4 converts, not the A10", pod: pinned("Tesla-T4"),
			counts: "nvidia.com/gpu: 0 free of 1 on 1 node(s) its nodeSelector nvidia.com/gpu.product=Tesla-T4 accepts (1 free on 1 node(s) it excludes).",
			fix: "free units on the nodes its nodeSelector nvidia.com/gpu.product=Tesla-T4 accepts are used up (1 free on nodes it excludes); " +
				"let running GPU pods finish, let preemption make room for a higher priority, or convert idle node t4-pt-01, which has this hardware: " + convertT4,
			commands: []string{convertT4}, code: "Insufficient",
		},
		{
			name: "required node affinity over two products", pod: notA10,
			counts: "nvidia.com/gpu: 0 free of 1 on 1 node(s) its required node affinity accepts (1 free on 1 node(s) it excludes).",
			fix: "free units on the nodes its required node affinity accepts are used up (1 free on nodes it excludes); " +
				"let running GPU pods finish, let preemption make room for a higher priority, or convert idle node t4-pt-01, which has this hardware: " + convertT4,
			commands: []string{convertT4}, code: "Insufficient",
		},
		{
			// The pod fits the A10 node's GPUs: CPU, memory or taints keep it
			// waiting, which the units would not say.
			name: "a GPU of its card is free", pod: pinned("NVIDIA-A10"),
			counts: "nvidia.com/gpu: 1 free of 2 on 1 node(s) its nodeSelector nvidia.com/gpu.product=NVIDIA-A10 accepts (0 free on 1 node(s) it excludes).",
			fix: "the requested units are free on 1 node(s) its nodeSelector nvidia.com/gpu.product=NVIDIA-A10 accepts; " +
				"the FailedScheduling message says what else rejects those nodes, such as CPU, memory, taints or a pod nominated there.",
			code: "GPUsFree",
		},
		{
			name: "a product the cluster lacks", pod: pinned("NVIDIA-H100-PCIe"),
			counts: "nvidia.com/gpu: 0 free of 0 on 0 node(s) its nodeSelector nvidia.com/gpu.product=NVIDIA-H100-PCIe accepts (1 free on 2 node(s) it excludes).",
			fix: "no node its nodeSelector nvidia.com/gpu.product=NVIDIA-H100-PCIe accepts advertises nvidia.com/gpu, and none it accepts has hardware known to; " +
				"2 node(s) it excludes advertise it and 2 more have the hardware: change the pod's nodeSelector nvidia.com/gpu.product=NVIDIA-H100-PCIe, or add a node with this hardware that it accepts.",
			code: "NotAdvertised",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl := newPlugin(t, enabled(), nodes)
			infos, err := cache.NewSnapshot(running, nodes).NodeInfos().List()
			if err != nil {
				t.Fatal(err)
			}
			state := framework.NewCycleState()
			if _, status := pl.PreFilter(context.Background(), state, tc.pod, infos); !status.IsSuccess() {
				t.Fatalf("PreFilter: %v", status)
			}
			data, err := readCycleData(state)
			if err != nil {
				t.Fatal(err)
			}
			explanation := explanation.Explain(context.Background(), tc.pod, data.demand, pl.profile.Tracker(), explanation.NewNodeInfoIndex(infos))
			message, fix, _ := strings.Cut(explanation.Message, " Fix: ")
			if !strings.HasSuffix(message, " "+tc.counts) || fix != tc.fix {
				t.Fatalf("explanation\n%s\nwant it to end with\n%s Fix: %s", explanation.Message, tc.counts, tc.fix)
			}
			if !slices.Equal(explanation.FixCommands, tc.commands) || explanation.ReasonCode != tc.code {
				t.Fatalf("commands %q, code %s; want %q, %s", explanation.FixCommands, explanation.ReasonCode, tc.commands, tc.code)
			}
		})
	}
}

// The explanation counts a node's units for a pod exactly where
// kube-scheduler's NodeAffinity would let the pod run, over generated
// nodes (a container node whose one GPU is in use) and constraints.
func TestExplainCountsAgreeWithNodeAffinity(t *testing.T) {
	verdict := constrainttest.NodeAffinityVerdict(t)
	g := constrainttest.NewGenerator(5)
	for i := range 500 {
		generated := g.Node()
		node := gpuNode(generated.Name, "container", map[v1.ResourceName]string{gpu: "1"})
		for key, value := range generated.Labels {
			if key != gpuworkload.LabelWorkloadConfig {
				node.Labels[key] = value
			}
		}
		running := st.MakePod().Name("running").Namespace("ns").UID("running").Node(node.Name).Req(map[v1.ResourceName]string{gpu: "1"}).Obj()
		pod := g.Constrain(podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"}))
		pl := newPlugin(t, enabled(), []*v1.Node{node})
		infos, err := cache.NewSnapshot([]*v1.Pod{running}, []*v1.Node{node}).NodeInfos().List()
		if err != nil {
			t.Fatal(err)
		}
		state := framework.NewCycleState()
		if _, status := pl.PreFilter(context.Background(), state, pod, infos); !status.IsSuccess() {
			t.Fatalf("case %d: PreFilter: %v", i, status)
		}
		data, err := readCycleData(state)
		if err != nil {
			t.Fatal(err)
		}
		message := explanation.Explain(context.Background(), pod, data.demand, pl.profile.Tracker(), explanation.NewNodeInfoIndex(infos)).Message
		if counted, want := strings.Contains(message, "0 free of 1 on 1 node(s)"), verdict(pod, node); counted != want {
			t.Fatalf("case %d: the node counted: %v, NodeAffinity says the pod may run there: %v\n%s\nnode labels %v\nnodeSelector %v affinity %+v",
				i, counted, want, message, node.Labels, pod.Spec.NodeSelector, pod.Spec.Affinity)
		}
	}
}
