package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterview"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices/dratest"
)

// A bound pod is judged as the scheduler judged it while pending: its own
// requests and the claims only it uses are free; a claim it shares stays
// allocated; the cluster read is not changed.
func TestAsIfPending(t *testing.T) {
	claimRef := func(name string) resourceapi.ResourceClaimConsumerReference {
		return resourceapi.ResourceClaimConsumerReference{Resource: "pods", Name: name}
	}
	allocated := func(name string, users ...string) *resourceapi.ResourceClaim {
		claim := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
			Status: resourceapi.ResourceClaimStatus{Allocation: &resourceapi.AllocationResult{}}}
		for _, u := range users {
			claim.Status.ReservedFor = append(claim.Status.ReservedFor, claimRef(u))
		}
		return claim
	}
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "vm", Namespace: "default"}, Spec: v1.PodSpec{NodeName: "n1",
		ResourceClaims: []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("own")}, {Name: "shared", ResourceClaimName: ptr.To("shared")}}}}
	other := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "other", Namespace: "default"}, Spec: v1.PodSpec{NodeName: "n1"}}
	c := &cluster{clusterview.Cluster{Assigned: []*v1.Pod{pod, other}, DRA: clusterview.DRAObjects{Claims: []*resourceapi.ResourceClaim{
		allocated("own", "vm"), allocated("shared", "vm", "other"), allocated("unrelated", "other")}}}}

	got := c.asIfPending(pod)
	if len(got.Assigned) != 1 || got.Assigned[0] != other {
		t.Errorf("bound pods %v, want only the other pod", got.Assigned)
	}
	for i, want := range []bool{false, true, true} {
		if claim := got.DRA.Claims[i]; (claim.Status.Allocation != nil) != want {
			t.Errorf("claim %s allocated: %v, want %v", claim.Name, claim.Status.Allocation != nil, want)
		}
	}
	if len(c.Assigned) != 2 || c.DRA.Claims[0].Status.Allocation == nil {
		t.Error("the cluster read was changed")
	}
	pending := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "vm", Namespace: "default"}}
	if c.asIfPending(pending) != c {
		t.Error("a pending pod's cluster was copied")
	}
}

// A claim whose selector the API server would refuse (an estimated cost
// over its limit) is an input error: exit 2, naming the claim, the field and
// the fix; one within the limit is explained.
func TestExplainSelectorOverTheCostLimit(t *testing.T) {
	for _, tc := range []struct {
		name     string
		selector resourceapi.DeviceSelector
		code     int
		stderr   string
	}{
		{"over the limit", dratest.OverCostSelector(), ExitUsage,
			"ResourceClaim vms/vm-costly-gpu: spec.devices.requests[0].exactly.selectors[0].cel.expression is too complex"},
		{"within the limit", dratest.CostlySelector(), ExitFindings, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Run(context.Background(), selectorExplainArgs(t, 1, tc.selector), nil, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d saying %q", code, stderr.String(), tc.code, tc.stderr)
			}
		})
	}
}
