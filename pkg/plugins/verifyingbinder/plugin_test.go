package verifyingbinder

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// binderFunc is a BindPlugin that answers with a fixed error.
type binderFunc func() error

func (f binderFunc) Name() string { return "fake" }
func (f binderFunc) Bind(context.Context, fwk.CycleState, *v1.Pod, string) *fwk.Status {
	return fwk.AsStatus(f())
}

func TestBindResolvesUnknownOutcomes(t *testing.T) {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "vms", Name: "virt-launcher-vm", UID: "uid-1"}}
	bound := func(node string) *v1.Pod {
		p := pod.DeepCopy()
		p.Spec.NodeName = node
		return p
	}
	reset := &net{err: syscall.ECONNRESET}
	invalid := apierrors.NewInvalid(schema.GroupKind{Kind: "Binding"}, pod.Name, nil)
	conflict := apierrors.NewConflict(schema.GroupResource{Resource: "pods"}, pod.Name, errors.New("pod is already assigned to node pt-08"))
	for _, tc := range []struct {
		name    string
		bindErr error
		// reads answer the reads in order; the last repeats.
		reads   []read
		success bool
	}{
		{name: "bound", bindErr: nil, success: true},
		{name: "an answer that says no", bindErr: invalid},
		{name: "answer lost, the pod is bound to the node", bindErr: reset, reads: []read{{pod: bound("pt-08")}}, success: true},
		{name: "answer lost, the pod is unbound", bindErr: reset, reads: []read{{pod: bound("")}}},
		{name: "answer lost, the API server back after two reads", bindErr: reset, reads: []read{{err: reset}, {err: reset}, {pod: bound("pt-08")}}, success: true},
		{name: "already assigned: by the binding whose answer was lost", bindErr: conflict, reads: []read{{pod: bound("pt-08")}}, success: true},
		{name: "already assigned to another node", bindErr: conflict, reads: []read{{pod: bound("pt-09")}}},
		{name: "answer lost, a pod of the same name replaced it", bindErr: reset, reads: []read{{pod: &v1.Pod{ObjectMeta: metav1.ObjectMeta{UID: types.UID("uid-2")}}}}},
		{name: "answer lost, the pod is gone", bindErr: reset, reads: []read{{err: apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, pod.Name)}}},
		{name: "answer lost, the API server stays away", bindErr: reset, reads: []read{{err: reset}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			b := &VerifyingBinder{
				binder: binderFunc(func() error { return tc.bindErr }),
				readPod: func(context.Context, string, string) (*v1.Pod, error) {
					r := tc.reads[min(calls, len(tc.reads)-1)]
					calls++
					return r.pod, r.err
				},
				wait: 50 * time.Millisecond, interval: time.Millisecond,
			}
			status := b.Bind(context.Background(), framework.NewCycleState(), pod, "pt-08")
			if status.IsSuccess() != tc.success {
				t.Fatalf("status %v, want success %v", status, tc.success)
			}
			if len(tc.reads) == 0 && calls != 0 {
				t.Fatalf("%d reads of the pod after a definite answer", calls)
			}
		})
	}
}

type read struct {
	pod *v1.Pod
	err error
}

// net is a transport error, as a reset connection gives.
type net struct{ err error }

func (n *net) Error() string { return "read tcp 127.0.0.1:6443: " + n.err.Error() }
func (n *net) Unwrap() error { return n.err }
