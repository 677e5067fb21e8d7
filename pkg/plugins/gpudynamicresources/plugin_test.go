package gpudynamicresources

import (
	"context"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// Past the attempt's deadline no node is tried: each is unresolvable for
// this attempt with the reason that says why, and DynamicResources is not
// called (the plugin here has none to call).
func TestFilterPastTheAttemptsDeadline(t *testing.T) {
	pl := &GPUDynamicResources{cycleTimeout: 10 * time.Second}
	state := framework.NewCycleState()
	state.Write(cycleDeadlineKey, &cycleDeadline{at: time.Now().Add(-time.Millisecond)})
	node := framework.NewNodeInfo()
	node.SetNode(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}})
	status := pl.Filter(context.Background(), state, &v1.Pod{}, node)
	want := "the scheduling attempt's 10s to allocate devices on all nodes passed before this node was tried to the end"
	if status.Code() != fwk.UnschedulableAndUnresolvable || status.Message() != want {
		t.Errorf("Filter past the deadline: %s %q, want %s %q", status.Code(), status.Message(), fwk.UnschedulableAndUnresolvable, want)
	}
}
