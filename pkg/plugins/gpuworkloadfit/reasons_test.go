package gpuworkloadfit

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// docs/reasons.md is the public catalogue: every reason must appear there
// verbatim, in backticks.
func TestReasonsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/reasons.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, reason := range Reasons {
		if !strings.Contains(string(doc), "`"+reason+"`") {
			t.Errorf("docs/reasons.md lacks %q", reason)
		}
	}
}

// Every reason has a CamelCase code, no two the same, documented in the
// reason's row of docs/reasons.md.
func TestReasonCodes(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/reasons.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[ReasonCode]string{}
	for _, reason := range Reasons {
		if reason == EventReasonUnschedulable {
			continue
		}
		code, ok := ReasonCodes[reason]
		if !ok || !camelCase.MatchString(string(code)) {
			t.Errorf("reason %q has code %q, want a CamelCase code", reason, code)
		}
		if other, dup := seen[code]; dup {
			t.Errorf("code %s names both %q and %q", code, reason, other)
		}
		seen[code] = reason
		if row := "| `" + reason + "` | `" + string(code) + "` |"; !strings.Contains(string(doc), row) {
			t.Errorf("docs/reasons.md lacks the row start %q", row)
		}
	}
}

// A reason code is a check finding code only where both state the same
// fact (docs/reasons.md), so that a program can join them.
func TestReasonCodesSharedWithFindings(t *testing.T) {
	shared := map[ReasonCode]bool{ReasonCode(gpuworkload.FindingDRASiblingsAllocated): true}
	for _, finding := range gpuworkload.FindingCodes {
		code := ReasonCode(finding)
		isReasonCode := slices.Contains(slices.Collect(maps.Values(ReasonCodes)), code)
		if isReasonCode != shared[code] {
			t.Errorf("finding code %s: also a reason code %v, want %v", finding, isReasonCode, shared[code])
		}
	}
	if ReasonCodes[ReasonSiblingAllocated] != ReasonCode(gpuworkload.FindingDRASiblingsAllocated) {
		t.Errorf("two allocated siblings: reason code %s, check finding %s", ReasonCodes[ReasonSiblingAllocated], gpuworkload.FindingDRASiblingsAllocated)
	}
}

var camelCase = regexp.MustCompile(`^[A-Z][A-Za-z]+$`)

// A filled-in reason is traced back to its code, the longest template that
// fits winning.
func TestCodeOf(t *testing.T) {
	for message, want := range map[string]ReasonCode{
		"node has no NVIDIA GPUs": "NoGPUs",
		"node's GPU mode is container (advertises nvidia.com/gpu), pod needs vm-passthrough":                     "ModeMismatch",
		"insufficient free nvidia.com/GA102GL_A10":                                                               "Insufficient",
		"VirtualMachineInstance/vms/vm: no node advertises nvidia.com/AD102GL_L40S; the cluster advertises none": "NotAdvertised",
		"all 2 devices of DeviceClass gpu.nvidia.com on the node are allocated":                                  "DRAAllAllocated",
		"node's passthrough GPUs are another model":                                                              "OtherModel",
		"Insufficient cpu": "",
	} {
		if got := CodeOf(message); got != want {
			t.Errorf("CodeOf(%q) = %q, want %q", message, got, want)
		}
	}
}

func TestReasonsAreNodeIndependent(t *testing.T) {
	nodes := testNodes()
	for i, n := range nodes {
		n.Name = fmt.Sprintf("worker-%d", i)
	}
	pl := newPlugin(t, enabled(), nodes)
	for _, n := range nodes {
		for _, reason := range pl.tracker.Entry(n).ModeMismatch {
			if strings.Contains(reason, n.Name) {
				t.Errorf("reason %q names node %s", reason, n.Name)
			}
		}
	}
}
