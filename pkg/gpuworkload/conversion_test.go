package gpuworkload

import (
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// A conversion is timed from the last write of the mode or vGPU
// configuration label; other writes, and entries without a time, say nothing.
func TestUnsettledSince(t *testing.T) {
	seen := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	at := func(hour int) *metav1.Time {
		t := metav1.NewTime(time.Date(2026, 12, 5, hour, 0, 0, 0, time.UTC))
		return &t
	}
	owns := func(fields string, when *metav1.Time) metav1.ManagedFieldsEntry {
		return metav1.ManagedFieldsEntry{Manager: "m", Operation: metav1.ManagedFieldsOperationUpdate, Time: when, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)}}
	}
	modeLabel := `{"f:metadata":{"f:labels":{"f:nvidia.com/gpu.workload.config":{}}}}`
	vgpuLabel := `{"f:metadata":{"f:labels":{"f:nvidia.com/vgpu.config":{},"f:team":{}}}}`
	otherLabel := `{"f:metadata":{"f:labels":{"f:team":{}}}}`
	status := `{"f:status":{"f:capacity":{"f:nvidia.com/gpu":{}}}}`
	for _, tc := range []struct {
		name    string
		entries []metav1.ManagedFieldsEntry
		want    time.Time
	}{
		{"no managed fields", nil, seen},
		{"the mode label's write", []metav1.ManagedFieldsEntry{owns(modeLabel, at(9)), owns(status, at(11))}, at(9).Time},
		{"the later of the two labels' writes", []metav1.ManagedFieldsEntry{owns(modeLabel, at(8)), owns(vgpuLabel, at(10))}, at(10).Time},
		{"other labels only", []metav1.ManagedFieldsEntry{owns(otherLabel, at(9))}, seen},
		{"no time", []metav1.ManagedFieldsEntry{owns(modeLabel, nil)}, seen},
		{"not JSON", []metav1.ManagedFieldsEntry{owns(`{"f:metadata":`, at(9))}, seen},
	} {
		t.Run(tc.name, func(t *testing.T) {
			node := &v1.Node{ObjectMeta: metav1.ObjectMeta{ManagedFields: tc.entries}}
			if got := UnsettledSince(node, seen); !got.Equal(tc.want) {
				t.Fatalf("UnsettledSince = %s, want %s", got, tc.want)
			}
			kept := &v1.Node{ObjectMeta: metav1.ObjectMeta{ManagedFields: ConversionLabelWrites(tc.entries)}}
			if got := UnsettledSince(kept, seen); !got.Equal(tc.want) {
				t.Fatalf("after ConversionLabelWrites: %s, want %s", got, tc.want)
			}
		})
	}
}

// An unsettled node is converting for conversionTimeout from its start,
// then mismatched with a finding of its own; a settled node is neither.
func TestSettle(t *testing.T) {
	const timeout = 20 * time.Minute
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	broken := func() *NodeState {
		return NewNodeState(testNode("gpu-broken", map[string]string{LabelWorkloadConfig: "vm-passthrough"}, map[string]string{"nvidia.com/gpu": "1"}), enabledPolicy(ModeContainer), nil)
	}
	healthy := func() *NodeState {
		return NewNodeState(testNode("gpu-a10", merge(deployLabels(ModePassthrough), map[string]string{LabelWorkloadConfig: "vm-passthrough"}),
			map[string]string{"nvidia.com/GA102GL_A10": "1"}), enabledPolicy(ModeContainer), nil)
	}
	for _, tc := range []struct {
		name                   string
		state                  *NodeState
		since                  time.Time
		converting, mismatched bool
	}{
		{"unsettled for less than the timeout", broken(), now.Add(-timeout + time.Second), true, false},
		{"unsettled for the timeout", broken(), now.Add(-timeout), false, true},
		{"unsettled since a time not known", broken(), time.Time{}, true, false},
		{"settled long ago", healthy(), now.Add(-24 * time.Hour), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(tc.state.Findings)
			tc.state.Settle(tc.since, now, timeout)
			tc.state.Settle(tc.since, now, timeout)
			if tc.state.Converting() != tc.converting || tc.state.Mismatched != tc.mismatched {
				t.Fatalf("converting %v, mismatched %v; want %v, %v", tc.state.Converting(), tc.state.Mismatched, tc.converting, tc.mismatched)
			}
			if got := tc.state.HasFinding(FindingMismatchedNode); got != tc.mismatched || tc.mismatched && len(tc.state.Findings) != before+1 {
				t.Fatalf("findings %+v", tc.state.Findings)
			}
		})
	}
	s := broken()
	s.Settle(time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC), now, timeout)
	want := "the node's other findings have held since 2026-11-30T14:00:00Z or earlier, longer than a conversion takes (20m0s): it is mismatched, not converting, and its GPUs are not free"
	if got := s.Findings[len(s.Findings)-1].Message; got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
}
