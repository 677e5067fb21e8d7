package gpuworkload

import (
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
)

func TestStaleConversionFindings(t *testing.T) {
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	tainted := func(value string) *v1.Node {
		return &v1.Node{Spec: v1.NodeSpec{Taints: []v1.Taint{{Key: TaintConverting, Value: value, Effect: v1.TaintEffectNoSchedule}}}}
	}
	for _, tc := range []struct {
		name string
		node *v1.Node
		want string
	}{
		{"no taint", &v1.Node{}, ""},
		{"a conversion within its timeout", tainted("20261205T114100Z"), ""},
		{"older than the timeout", tainted("20261205T114000Z"),
			"the taint gpu-workload.io/converting was set at 2026-12-05T11:40:00Z, more than the conversion timeout 20m0s ago: no mode controller is ending this conversion"},
		{"no start time", tainted(""), `the taint gpu-workload.io/converting="" carries no start time the mode controller wrote`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			findings := StaleConversionFindings(tc.node, now, 20*time.Minute)
			got := ""
			if len(findings) > 0 {
				got = findings[0].Message
				if findings[0].Code != FindingStaleConversionTaint || len(findings) != 1 {
					t.Errorf("findings %+v, want one %s", findings, FindingStaleConversionTaint)
				}
			}
			if got != tc.want {
				t.Errorf("message %q, want %q", got, tc.want)
			}
		})
	}
}
