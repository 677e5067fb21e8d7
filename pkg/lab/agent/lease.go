package agent

import (
	"context"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/klog/v2"
)

// The kubelet's node lease: it holds it for 40 s (--node-lease-duration-seconds)
// and renews it every quarter of that. The node-lifecycle controller reads
// the renewals as the node's heartbeats.
const (
	leaseDurationSeconds = 40
	leaseRenewInterval   = leaseDurationSeconds * time.Second / 4
)

// renewLeases is each node's kubelet heartbeat: its Lease in
// kube-node-lease, created as the kubelet creates it, renewed now.
func (a *agent) renewLeases(ctx context.Context) {
	nodes, err := a.nodes.List(labels.Everything())
	if err != nil {
		klog.FromContext(ctx).Error(err, "List nodes to renew their leases")
		return
	}
	for _, node := range nodes {
		if err := a.renewLease(ctx, node); err != nil {
			klog.FromContext(ctx).Error(err, "Renew the node's lease", "node", node.Name)
		}
	}
}

func (a *agent) renewLease(ctx context.Context, node *v1.Node) error {
	leases := a.client.CoordinationV1().Leases(v1.NamespaceNodeLease)
	now := metav1.NewMicroTime(time.Now())
	lease, err := leases.Get(ctx, node.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = leases.Create(ctx, &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: node.Name, Namespace: v1.NamespaceNodeLease,
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID}}},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: &node.Name, LeaseDurationSeconds: new(int32(leaseDurationSeconds)), RenewTime: &now},
		}, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return fmt.Errorf("get lease: %w", err)
	}
	lease.Spec.RenewTime = &now
	_, err = leases.Update(ctx, lease, metav1.UpdateOptions{})
	return err
}
