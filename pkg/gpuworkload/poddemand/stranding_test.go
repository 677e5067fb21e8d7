package poddemand

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

func TestStranded(t *testing.T) {
	const a10, gpu v1.ResourceName = "nvidia.com/GA102GL_A10", gpuworkload.ResourceGPU
	waiting := NewWaitingGPUPods()
	waiting.Add(a10, WaitingShape{Units: 2, MilliCPU: 8000, Memory: 16}, NodeConstraint{})
	waiting.Add(a10, WaitingShape{Units: 1, MilliCPU: 4000, Memory: 8}, NodeConstraint{})
	for _, tc := range []struct {
		name     string
		free     FreeOnNode
		kind     StrandedKind
		stranded bool
	}{
		{name: "a pod fits", free: FreeOnNode{Resource: a10, Units: 1, MilliCPU: 4000, Memory: 8}},
		{name: "nobody waits for the resource", free: FreeOnNode{Resource: gpu, Units: 4, MilliCPU: 64000, Memory: 64}, kind: StrandedMode, stranded: true},
		{name: "the units would do, the CPU not", free: FreeOnNode{Resource: a10, Units: 2, MilliCPU: 2000, Memory: 64}, kind: StrandedCPUMemory, stranded: true},
		{name: "every waiting pod wants more units", free: FreeOnNode{Resource: a10, Units: 0, MilliCPU: 64000, Memory: 64}},
		{name: "nothing advertised", free: FreeOnNode{Units: 4, MilliCPU: 64000, Memory: 64}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind, stranded := waiting.Stranded(tc.free)
			if stranded != tc.stranded || stranded && kind != tc.kind {
				t.Fatalf("Stranded = %s, %v; want %s, %v", StrandedKindNames[kind], stranded, StrandedKindNames[tc.kind], tc.stranded)
			}
		})
	}
	waiting.Remove(a10, WaitingShape{Units: 1, MilliCPU: 4000, Memory: 8}, NodeConstraint{})
	if kind, stranded := waiting.Stranded(FreeOnNode{Resource: a10, Units: 1, MilliCPU: 64000, Memory: 64}); !stranded || kind != StrandedFragmentation {
		t.Fatalf("one free A10 while a pod waits for two: %s, %v; want fragmentation", StrandedKindNames[kind], stranded)
	}
	waiting.Remove(a10, WaitingShape{Units: 2, MilliCPU: 8000, Memory: 16}, NodeConstraint{})
	if _, stranded := waiting.Stranded(FreeOnNode{Resource: gpu, Units: 4}); stranded || waiting.Total() != 0 {
		t.Fatal("free units are stranded only while GPU pods wait")
	}
}

// A pod pinned to a GPU product counts only for the nodes it accepts: free
// units elsewhere are not stranded for it, by mode or otherwise.
func TestStrandedCountsOnlyPodsThatAcceptTheNode(t *testing.T) {
	pinned := NodeConstraintOf(&v1.Pod{Spec: v1.PodSpec{NodeSelector: map[string]string{gpuworkload.LabelGPUProduct: "Tesla-T4"}}})
	node := func(product string) *v1.Node {
		return &v1.Node{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{gpuworkload.LabelGPUProduct: product}}}
	}
	waiting := NewWaitingGPUPods()
	waiting.Add(gpuworkload.ResourceGPU, WaitingShape{Units: 2}, pinned)
	for _, tc := range []struct {
		name     string
		free     FreeOnNode
		kind     StrandedKind
		stranded bool
	}{
		{name: "a T4 node with one free unit", free: FreeOnNode{Node: node("Tesla-T4"), Resource: gpuworkload.ResourceGPU, Units: 1}, kind: StrandedFragmentation, stranded: true},
		{name: "an A10 node with one free unit", free: FreeOnNode{Node: node("NVIDIA-A10"), Resource: gpuworkload.ResourceGPU, Units: 1}},
		{name: "an A10 passthrough node", free: FreeOnNode{Node: node("NVIDIA-A10"), Resource: "nvidia.com/GA102GL_A10", Units: 4}},
		{name: "a T4 passthrough node", free: FreeOnNode{Node: node("Tesla-T4"), Resource: "nvidia.com/TU104GL_TESLA_T4", Units: 4}, kind: StrandedMode, stranded: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind, stranded := waiting.Stranded(tc.free)
			if stranded != tc.stranded || stranded && kind != tc.kind {
				t.Fatalf("Stranded = %s, %v; want %s, %v", StrandedKindNames[kind], stranded, StrandedKindNames[tc.kind], tc.stranded)
			}
		})
	}
}
