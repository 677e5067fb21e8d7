package drasiblings

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
)

// The label of the DeviceTaintRules earlier versions of the scheduler
// wrote: the only rules it deletes, and the only ones the admission policy
// in manifests/install/rbac.yaml lets it delete.
const (
	ManagedByLabel = "app.kubernetes.io/managed-by"
	ManagedBy      = "gpu-workload-scheduler"
)

// DeleteEarlierRules deletes the DeviceTaintRules an earlier version of the
// scheduler wrote: they would keep every scheduler's allocator away from
// devices that are free. Each is deleted only while it is the rule listed
// (UID precondition); one deleted meanwhile is not an error.
func DeleteEarlierRules(ctx context.Context, client kubernetes.Interface) (deleted int, err error) {
	rules := client.ResourceV1().DeviceTaintRules()
	list, err := rules.List(ctx, metav1.ListOptions{LabelSelector: labels.SelectorFromSet(labels.Set{ManagedByLabel: ManagedBy}).String()})
	if err != nil {
		return 0, fmt.Errorf("list the DeviceTaintRules labelled %s=%s: %w", ManagedByLabel, ManagedBy, err)
	}
	for _, rule := range list.Items {
		err := rules.Delete(ctx, rule.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: ptr.To(rule.UID)}})
		switch {
		case err == nil:
			deleted++
			klog.FromContext(ctx).V(2).Info("Deleted a DeviceTaintRule of an earlier version", "deviceTaintRule", klog.KObj(&rule))
		case apierrors.IsNotFound(err) || apierrors.IsConflict(err):
		default:
			return deleted, fmt.Errorf("delete DeviceTaintRule %s: %w", rule.Name, err)
		}
	}
	return deleted, nil
}
