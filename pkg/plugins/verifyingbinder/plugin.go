// Package verifyingbinder implements the VerifyingBinder scheduler plugin:
// kube-scheduler's DefaultBinder, which, when the API server's answer to a
// binding is lost, reads the pod back before it reports the bind failed.
package verifyingbinder

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultbinder"
)

// Name is the plugin's name in the scheduler configuration.
const Name = "VerifyingBinder"

// A failed bind frees the pod's resources in the scheduler's cache at once.
// When the binding was stored and only its answer lost (an API server
// restart resets the connection), the next pod can then take the same GPUs
// and over-commit the node. So a bind whose outcome is unknown is resolved
// by reading the pod, until the API server answers or outcomeWait passes.
const (
	outcomeWait  = 30 * time.Second
	readInterval = 500 * time.Millisecond
)

// VerifyingBinder binds as the DefaultBinder does and resolves a bind whose
// outcome is unknown before it reports a failure.
type VerifyingBinder struct {
	binder  fwk.BindPlugin
	readPod func(ctx context.Context, namespace, name string) (*v1.Pod, error)
	// wait and interval bound the reads of a bind whose outcome is unknown.
	wait, interval time.Duration
}

var _ fwk.BindPlugin = &VerifyingBinder{}

// New wraps the DefaultBinder of the handle.
func New(ctx context.Context, _ runtime.Object, handle fwk.Handle) (fwk.Plugin, error) {
	binder, err := defaultbinder.New(ctx, nil, handle)
	if err != nil {
		return nil, err
	}
	client := handle.ClientSet()
	return &VerifyingBinder{
		binder: binder.(fwk.BindPlugin),
		readPod: func(ctx context.Context, namespace, name string) (*v1.Pod, error) {
			return client.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
		},
		wait: outcomeWait, interval: readInterval,
	}, nil
}

// Name returns the plugin name.
func (b *VerifyingBinder) Name() string { return Name }

// Bind binds the pod. When the binding fails without a definite answer, it
// reads the pod back: bound to nodeName is a success, unbound the failure
// it was; when no read succeeds within the wait, the bind fails as before.
func (b *VerifyingBinder) Bind(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	status := b.binder.Bind(ctx, state, pod, nodeName)
	if status.IsSuccess() || !outcomeUnknown(status.AsError()) {
		return status
	}
	logger := klog.FromContext(ctx)
	logger.Info("The binding's outcome is unknown: reading the pod back before freeing its resources", "pod", klog.KObj(pod), "node", nodeName, "err", status.AsError())
	var boundTo string
	err := wait.PollUntilContextTimeout(ctx, b.interval, b.wait, true, func(ctx context.Context) (bool, error) {
		current, err := b.readPod(ctx, pod.Namespace, pod.Name)
		switch {
		case apierrors.IsNotFound(err):
			return false, err
		case err != nil:
			logger.V(2).Info("Cannot read the pod yet", "pod", klog.KObj(pod), "err", err)
			return false, nil
		case current.UID != pod.UID:
			return false, fmt.Errorf("pod %s/%s was replaced (UID %s, scheduled %s)", pod.Namespace, pod.Name, current.UID, pod.UID)
		}
		boundTo = current.Spec.NodeName
		return true, nil
	})
	switch {
	case err != nil:
		logger.Error(err, "The binding's outcome is still unknown: the bind fails", "pod", klog.KObj(pod), "node", nodeName)
		return status
	case boundTo == nodeName:
		logger.Info("The pod is bound though the binding's answer was lost", "pod", klog.KObj(pod), "node", nodeName)
		return nil
	case boundTo == "":
		return status
	}
	return fwk.AsStatus(fmt.Errorf("pod %s/%s is bound to node %s, not %s: %w", pod.Namespace, pod.Name, boundTo, nodeName, status.AsError()))
}

// outcomeUnknown reports whether a binding error leaves open whether the
// binding was stored: no answer from the API server (a transport error),
// an answer from a server in trouble (5xx, timeouts), or a conflict, which
// a binding that was stored before its answer was lost also gets.
func outcomeUnknown(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return true
	}
	code := status.Status().Code
	return code >= http.StatusInternalServerError || code == http.StatusConflict || apierrors.IsTimeout(err) || apierrors.IsServerTimeout(err)
}
