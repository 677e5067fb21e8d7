package gpuworkload

import (
	"fmt"
	"strings"
	"testing"
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
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 9991: "9,991", 10485760: "10,485,760", -1234: "-1,234"} {
		if got := GroupDigits(n); got != want {
			t.Errorf("GroupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}
