package poddemand_test

import (
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand/constrainttest"
)

// NodeConstraint agrees with kube-scheduler's NodeAffinity plugin on
// generated nodes and pods: on the node as it is, and on the node a
// conversion makes (its labels as gpuworkload.LabelsInMode gives them). So does the
// waiting-pod count that stranding is measured against: a pod that wants
// more units than the node has free strands them only where it may run.
// One count serves every case, so its remembered verdicts meet nodes of a
// name they were made on another object of (the generator has two names).
func TestNodeConstraintAgreesWithNodeAffinity(t *testing.T) {
	verdict := constrainttest.NodeAffinityVerdict(t)
	g := constrainttest.NewGenerator(1)
	models := []string{"T4", "A10", "L4", "GA102GL_A10"}
	waiting := poddemand.NewWaitingGPUPods()
	for i := range 3000 {
		node := g.Node()
		labels := node.Labels
		pod := g.Constrain(&v1.Pod{})
		constraint := poddemand.NodeConstraintOf(pod)
		want := verdict(pod, node)
		if got := constraint.Accepts(node); got != want {
			t.Fatalf("case %d: Accepts = %v, NodeAffinity says %v\nnode labels %v\nnodeSelector %v affinity %+v", i, got, want, labels, pod.Spec.NodeSelector, pod.Spec.Affinity)
		}
		waiting.Add(gpuworkload.ResourceGPU, poddemand.WaitingShape{Units: 2}, constraint)
		if _, stranded := waiting.Stranded(poddemand.FreeOnNode{Node: node, Resource: gpuworkload.ResourceGPU, Units: 1}); stranded != want {
			t.Fatalf("case %d: one free unit stranded for a pod waiting for two: %v, NodeAffinity says the pod may run there: %v\nnode labels %v\nnodeSelector %v affinity %+v",
				i, stranded, want, labels, pod.Spec.NodeSelector, pod.Spec.Affinity)
		}
		waiting.Remove(gpuworkload.ResourceGPU, poddemand.WaitingShape{Units: 2}, constraint)
		inv, err := gpuworkload.NewGPUInventory(2, g.Pick(models...), "")
		if err != nil {
			t.Fatal(err)
		}
		mode := gpuworkload.Modes[g.Intn(len(gpuworkload.Modes))]
		conversion, ok := inv.ConversionTo("", gpuworkload.ResourceGPU)
		if mode != gpuworkload.ModeContainer {
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
		converted.Labels = gpuworkload.LabelsInMode(node.Labels, conversion.Mode, conversion.Served)
		if got, want := constraint.AcceptsAfter(node, conversion), verdict(pod, converted); got != want {
			t.Fatalf("case %d: AcceptsAfter(%s) = %v, NodeAffinity on the converted node says %v\nconverted labels %v\nnodeSelector %v affinity %+v", i, mode, got, want, converted.Labels, pod.Spec.NodeSelector, pod.Spec.Affinity)
		}
	}
}
