package gpuworkload

import (
	"testing"

	v1 "k8s.io/api/core/v1"
)

func TestStranded(t *testing.T) {
	const a10, gpu v1.ResourceName = "nvidia.com/GA102GL_A10", ResourceGPU
	waiting := NewWaitingGPUPods()
	waiting.Add(a10, WaitingShape{Units: 2, MilliCPU: 8000, Memory: 16})
	waiting.Add(a10, WaitingShape{Units: 1, MilliCPU: 4000, Memory: 8})
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
	waiting.Remove(a10, WaitingShape{Units: 1, MilliCPU: 4000, Memory: 8})
	if kind, stranded := waiting.Stranded(FreeOnNode{Resource: a10, Units: 1, MilliCPU: 64000, Memory: 64}); !stranded || kind != StrandedFragmentation {
		t.Fatalf("one free A10 while a pod waits for two: %s, %v; want fragmentation", StrandedKindNames[kind], stranded)
	}
	waiting.Remove(a10, WaitingShape{Units: 2, MilliCPU: 8000, Memory: 16})
	if _, stranded := waiting.Stranded(FreeOnNode{Resource: gpu, Units: 4}); stranded || waiting.Total() != 0 {
		t.Fatal("free units are stranded only while GPU pods wait")
	}
}
