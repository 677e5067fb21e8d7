package gpuworkloadfit

import (
	"fmt"
	"os"
	"strings"
	"testing"
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
