package cli

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/conversionplan"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
)

// Refit replays a drained node's GPU pods and VMs on the other nodes with
// the shipped profile: the mode controller drains only where they fit.
func TestRefit(t *testing.T) {
	data := func(dir, name string) string { return filepath.Join(testdata, dir, name) }
	c, err := loadOffline(sourceFlags{nodes: data("advise", "nodes.json"), clusterPolicy: data("check", "clusterpolicy-enabled.yaml")}, inputSource{stdin: strings.NewReader(""), limit: inputlimit.Default})
	if err != nil {
		t.Fatal(err)
	}
	pods, err := readPods(data("advise", "pods-running.json"), inputSource{stdin: strings.NewReader(""), limit: inputlimit.Default})
	if err != nil {
		t.Fatal(err)
	}
	report, err := conversionplan.Advise(t.Context(), &c.Cluster, pods, advisor.Narrowing{Demand: advisor.DefaultDemandRules()}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, node string
		converting []string
		want       string
	}{
		{"a training pod fits on another container node", "a10-c3", nil, ""},
		{"nothing runs there", "a10-c1", nil, ""},
		{"the other container nodes convert", "a10-c3", []string{"a10-c1", "a10-c2"},
			"1 of the 1 GPU pods and VMs it runs (lab/train-1) would fit on no other node (simulated with the shipped profile, the nodes being converted left out)"},
		{"two VMs and no other passthrough node", "a10-pt1", nil,
			"2 of the 2 GPU pods and VMs it runs (lab/vm-pt-1, lab/vm-pt-2) would fit on no other node (simulated with the shipped profile, the nodes being converted left out)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := report.Refit(t.Context(), tc.node, tc.converting)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Refit(%s, %v) = %q, want %q", tc.node, tc.converting, got, tc.want)
			}
		})
	}
}
