// Package constrainttest generates pods pinned to GPU hardware and the nodes
// they may land on, for property tests that hold every consumer of
// poddemand.NodeConstraint to kube-scheduler's own NodeAffinity verdict.
package constrainttest

import (
	"context"
	"math/rand/v2"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Verdict is kube-scheduler's NodeAffinity plugin deciding, by its PreFilter
// and Filter, whether the pod may run on the node.
type Verdict func(pod *v1.Pod, node *v1.Node) bool

// NodeAffinityVerdict builds the plugin once.
func NodeAffinityVerdict(t testing.TB) Verdict {
	t.Helper()
	ctx := context.Background()
	plugin, err := nodeaffinity.New(ctx, &config.NodeAffinityArgs{}, nil, feature.Features{})
	if err != nil {
		t.Fatal(err)
	}
	pl := plugin.(*nodeaffinity.NodeAffinity)
	return func(pod *v1.Pod, node *v1.Node) bool {
		state := framework.NewCycleState()
		ni := framework.NewNodeInfo()
		ni.SetNode(node)
		result, status := pl.PreFilter(ctx, state, pod, nil)
		if status.IsSkip() {
			return true
		}
		if !status.IsSuccess() {
			return false
		}
		if result != nil && !result.AllNodes() && !result.NodeNames.Has(node.Name) {
			return false
		}
		return pl.Filter(ctx, state, pod, ni).IsSuccess()
	}
}

// Generator draws nodes with GPU feature discovery's labels and pods with
// nodeSelectors and required node affinity over them.
type Generator struct{ rng *rand.Rand }

// NewGenerator draws from a seeded source, so that a failure repeats.
func NewGenerator(seed uint64) *Generator { return &Generator{rng: rand.New(rand.NewPCG(seed, 2))} }

// Pick draws one of the values.
func (g *Generator) Pick(values ...string) string { return values[g.rng.IntN(len(values))] }

// Intn draws from [0, n).
func (g *Generator) Intn(n int) int { return g.rng.IntN(n) }

// Node draws a node named n1 or n2 with a zone and, at random, a GPU
// product and count and a workload mode.
func (g *Generator) Node() *v1.Node {
	labels := map[string]string{"topology.kubernetes.io/zone": g.Pick("a", "b")}
	if p := g.Pick("Tesla-T4", "NVIDIA-A10", "NVIDIA-L4", ""); p != "" {
		labels[gpuworkload.LabelGPUProduct] = p
		labels[gpuworkload.LabelGPUCount] = g.Pick("1", "4", "8")
	}
	if m := g.Pick("container", "vm-passthrough", "vm-vgpu", ""); m != "" {
		labels[gpuworkload.LabelWorkloadConfig] = m
	}
	return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: g.Pick("n1", "n2"), Labels: labels}}
}

// Constrain gives the pod, at random, a nodeSelector, required node
// affinity of one or two terms (every operator, a field selector on the
// node's name at times), both or neither.
func (g *Generator) Constrain(pod *v1.Pod) *v1.Pod {
	if g.rng.IntN(2) == 0 {
		pod.Spec.NodeSelector = map[string]string{g.Pick(gpuworkload.LabelGPUProduct, "topology.kubernetes.io/zone", gpuworkload.LabelWorkloadConfig): g.Pick("Tesla-T4", "NVIDIA-A10", "a", "container")}
	}
	if g.rng.IntN(2) == 0 {
		var terms []v1.NodeSelectorTerm
		for range 1 + g.rng.IntN(2) {
			term := v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{{
				Key:      g.Pick(gpuworkload.LabelGPUProduct, gpuworkload.LabelGPUCount, gpuworkload.LabelWorkloadConfig),
				Operator: []v1.NodeSelectorOperator{v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn, v1.NodeSelectorOpExists, v1.NodeSelectorOpDoesNotExist, v1.NodeSelectorOpGt}[g.rng.IntN(5)],
			}}}
			switch r := &term.MatchExpressions[0]; r.Operator {
			case v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn:
				r.Values = []string{g.Pick("Tesla-T4", "NVIDIA-A10", "container"), g.Pick("NVIDIA-L4", "4", "vm-passthrough")}
			case v1.NodeSelectorOpGt:
				r.Values = []string{g.Pick("2", "x")}
			}
			if g.rng.IntN(4) == 0 {
				term.MatchFields = []v1.NodeSelectorRequirement{{Key: "metadata.name", Operator: v1.NodeSelectorOpIn, Values: []string{"n1"}}}
			}
			terms = append(terms, term)
		}
		pod.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: terms}}}
	}
	return pod
}
