package advisor

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func TestDemandRules(t *testing.T) {
	pod := func(change func(*v1.Pod)) *v1.Pod {
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "vm", Namespace: "tenant-a"}, Spec: v1.PodSpec{SchedulerName: "gpu-workload-scheduler"}}
		change(p)
		return p
	}
	rules := DefaultDemandRules()
	onlyTeamA := rules
	onlyTeamA.Namespace = func(ns string) bool { return ns == "team-a" }
	for _, tc := range []struct {
		name  string
		rules DemandRules
		pod   *v1.Pod
		want  string
	}{
		{"a pending pod of this scheduler", rules, pod(func(*v1.Pod) {}), ""},
		{"another scheduler's", rules, pod(func(p *v1.Pod) { p.Spec.SchedulerName = "default-scheduler" }),
			`its schedulerName "default-scheduler" is not one planned for (gpu-workload-scheduler)`},
		{"scheduling-gated", rules, pod(func(p *v1.Pod) { p.Spec.SchedulingGates = []v1.PodSchedulingGate{{Name: "kueue.x-k8s.io/admission"}} }),
			"it is held by scheduling gates (kueue.x-k8s.io/admission), not waiting for a node"},
		{"being deleted", rules, pod(func(p *v1.Pod) { p.DeletionTimestamp = &metav1.Time{} }), "it is being deleted"},
		{"expendable", rules, pod(func(p *v1.Pod) { p.Spec.Priority = ptr.To[int32](-11) }), "its priority -11 is below the cut-off -10"},
		{"at the cut-off", rules, pod(func(p *v1.Pod) { p.Spec.Priority = ptr.To[int32](-10) }), ""},
		{"a namespace not selected", onlyTeamA, pod(func(*v1.Pod) {}), "its namespace tenant-a is not selected"},
		{"a namespace selected", onlyTeamA, pod(func(p *v1.Pod) { p.Namespace = "team-a" }), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.rules.Excludes(tc.pod); got != tc.want {
				t.Errorf("Excludes = %q, want %q", got, tc.want)
			}
		})
	}
}
