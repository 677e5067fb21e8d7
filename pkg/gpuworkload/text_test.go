package gpuworkload

import (
	"fmt"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// A node or pod with thousands of GPU resources gets messages a person can
// read and an event the API server takes: each names at most MaxListed
// items and counts the rest; a look-alike character in a label value is
// escaped, so that it does not read as the valid value.
func TestMessagesAreBounded(t *testing.T) {
	quantities := map[string]string{"nvidia.com/gpu": "1"}
	for i := range 10_000 {
		quantities[fmt.Sprintf("nvidia.com/NVIDIA_A10-%dQ", i)] = "1"
	}
	labels := merge(deployLabels(ModeContainer), map[string]string{LabelWorkloadConfig: "vm\u2010passthrough"})
	s := NewNodeState(testNode("many", labels, quantities), enabledPolicy(ModeContainer), nil)
	if len(s.Findings) == 0 {
		t.Fatal("no findings for a node of two classes with an invalid mode label")
	}
	for _, f := range s.Findings {
		if len(f.Message) > 2048 {
			t.Errorf("%s: %d characters: %.300s", f.Code, len(f.Message), f.Message)
		}
	}
	var foreign, invalid string
	for _, f := range s.Findings {
		switch {
		case strings.Contains(f.Message, "but the node advertises"):
			foreign = f.Message
		case f.Code == FindingInvalidModeLabel:
			invalid = f.Message
		}
	}
	if !strings.HasSuffix(foreign, " and 9,990 more") {
		t.Errorf("the resources of another mode: %.300q, want them counted past %d", foreign, MaxListed)
	}
	if !strings.Contains(invalid, `nvidia.com/gpu.workload.config="vm\u2010passthrough" is not one of`) {
		t.Errorf("invalid label: %q, want the look-alike hyphen escaped", invalid)
	}

	pod := &v1.Pod{Spec: v1.PodSpec{Containers: []v1.Container{{Resources: v1.ResourceRequirements{Limits: v1.ResourceList{}}}}}}
	for i := range 4_000 {
		pod.Spec.Containers[0].Resources.Limits[v1.ResourceName(fmt.Sprintf("nvidia.com/NVIDIA_A10-%dQ", i))] = resource.MustParse("1")
	}
	pod.Spec.Containers[0].Resources.Limits["nvidia.com/gpu"] = resource.MustParse("1")
	demand := NewPodDemand(pod, NewClassifier(ClassifierConfig{}, enabledPolicy(ModeContainer), nil))
	if modes := demand.RequestModes(); len(modes) > 1024 || !strings.HasSuffix(modes, " and 3,991 more") {
		t.Errorf("a pod of 4,001 requests: %d characters, %.200q ... %q", len(modes), modes, modes[max(0, len(modes)-40):])
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 9991: "9,991", 10485760: "10,485,760", -1234: "-1,234"} {
		if got := GroupDigits(n); got != want {
			t.Errorf("GroupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}
