package gpuworkload

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
)

// NodeConstraint agrees with kube-scheduler's NodeAffinity plugin on
// generated nodes and pods: on the node as it is, and on the node a
// conversion makes (its labels as ConvertedLabels gives them).
func TestNodeConstraintAgreesWithNodeAffinity(t *testing.T) {
	ctx := context.Background()
	plugin, err := nodeaffinity.New(ctx, &config.NodeAffinityArgs{}, nil, feature.Features{})
	if err != nil {
		t.Fatal(err)
	}
	pl := plugin.(*nodeaffinity.NodeAffinity)
	verdict := func(pod *v1.Pod, node *v1.Node) bool {
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
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(values ...string) string { return values[rng.IntN(len(values))] }
	products := []string{"Tesla-T4", "NVIDIA-A10", "NVIDIA-L4", ""}
	models := []string{"T4", "A10", "L4", "GA102GL_A10"}
	for i := range 3000 {
		labels := map[string]string{"topology.kubernetes.io/zone": pick("a", "b")}
		if p := pick(products...); p != "" {
			labels[LabelGPUProduct] = p
			labels[LabelGPUCount] = pick("1", "4", "8")
		}
		if m := pick("container", "vm-passthrough", "vm-vgpu", ""); m != "" {
			labels[LabelWorkloadConfig] = m
		}
		node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: pick("n1", "n2"), Labels: labels}}
		pod := &v1.Pod{}
		if rng.IntN(2) == 0 {
			pod.Spec.NodeSelector = map[string]string{pick(LabelGPUProduct, "topology.kubernetes.io/zone", LabelWorkloadConfig): pick("Tesla-T4", "NVIDIA-A10", "a", "container")}
		}
		if rng.IntN(2) == 0 {
			var terms []v1.NodeSelectorTerm
			for range 1 + rng.IntN(2) {
				term := v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{{
					Key:      pick(LabelGPUProduct, LabelGPUCount, LabelWorkloadConfig),
					Operator: []v1.NodeSelectorOperator{v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn, v1.NodeSelectorOpExists, v1.NodeSelectorOpDoesNotExist, v1.NodeSelectorOpGt}[rng.IntN(5)],
				}}}
				switch r := &term.MatchExpressions[0]; r.Operator {
				case v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn:
					r.Values = []string{pick("Tesla-T4", "NVIDIA-A10", "container"), pick("NVIDIA-L4", "4", "vm-passthrough")}
				case v1.NodeSelectorOpGt:
					r.Values = []string{pick("2", "x")}
				}
				if rng.IntN(4) == 0 {
					term.MatchFields = []v1.NodeSelectorRequirement{{Key: "metadata.name", Operator: v1.NodeSelectorOpIn, Values: []string{"n1"}}}
				}
				terms = append(terms, term)
			}
			pod.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: terms}}}
		}
		constraint := NodeConstraintOf(pod)
		if got, want := constraint.Accepts(node), verdict(pod, node); got != want {
			t.Fatalf("case %d: Accepts = %v, NodeAffinity says %v\nnode labels %v\nnodeSelector %v affinity %+v", i, got, want, labels, pod.Spec.NodeSelector, pod.Spec.Affinity)
		}
		inv, err := NewGPUInventory(2, pick(models...), "")
		if err != nil {
			t.Fatal(err)
		}
		mode := Modes[rng.IntN(len(Modes))]
		conversion, ok := inv.ConversionTo("", ResourceGPU)
		if mode != ModeContainer {
			r, _, err := inv.Advertisement(mode)
			if err != nil {
				continue
			}
			conversion, ok = inv.ConversionTo("", r)
		}
		if !ok {
			t.Fatalf("case %d: no conversion of %+v to %s", i, inv, mode)
		}
		converted := node.DeepCopy()
		converted.Labels = ConvertedLabels(node.Labels, conversion)
		if got, want := constraint.AcceptsAfter(node, conversion), verdict(pod, converted); got != want {
			t.Fatalf("case %d: AcceptsAfter(%s) = %v, NodeAffinity on the converted node says %v\nconverted labels %v\nnodeSelector %v affinity %+v", i, mode, got, want, converted.Labels, pod.Spec.NodeSelector, pod.Spec.Affinity)
		}
	}
}

// A container conversion labels what gpu-feature-discovery would: the
// card's product and the GPU count; a sandbox mode drops them.
func TestConvertedLabels(t *testing.T) {
	inv, err := NewGPUInventory(4, "TU104GL_TESLA_T4", "")
	if err != nil {
		t.Fatal(err)
	}
	toContainer, _ := inv.ConversionTo(ModePassthrough, ResourceGPU)
	labels := ConvertedLabels(map[string]string{LabelWorkloadConfig: "vm-passthrough", "zone": "a"}, toContainer)
	if labels[LabelGPUProduct] != "Tesla-T4" || labels[LabelGPUCount] != "4" || labels[LabelWorkloadConfig] != "container" || labels["zone"] != "a" {
		t.Fatalf("labels after converting a passthrough T4 node to container: %v", labels)
	}
	toVGPU, _ := inv.ConversionTo(ModeContainer, "nvidia.com/GRID_T4-4Q")
	labels = ConvertedLabels(map[string]string{LabelGPUProduct: "Tesla-T4", LabelGPUCount: "4"}, toVGPU)
	if _, ok := labels[LabelGPUProduct]; ok || labels[LabelVGPUConfig] != "T4-4Q" || labels[LabelWorkloadConfig] != "vm-vgpu" {
		t.Fatalf("labels after converting a container T4 node to vm-vgpu: %v", labels)
	}
}
