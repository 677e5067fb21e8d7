// Package kubecontrollers runs the upstream controllers that make the lab
// behave like a cluster where the mode controller drains nodes: the
// disruption controller, which computes the PodDisruptionBudget status the
// Eviction API reads; the Deployment and ReplicaSet controllers, which make
// a Deployment's pods and recreate the pods a drain evicts; and the node-lifecycle controller, which turns a node whose
// kubelet (the lab's agent) stops renewing its lease Unknown and taints it.
// They are kube-controller-manager's own packages, vendored, run with its
// defaults.
package kubecontrollers

import (
	"context"
	"fmt"

	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/scale"
	"k8s.io/klog/v2"
	kubectrlmgrconfigv1alpha1 "k8s.io/kube-controller-manager/config/v1alpha1"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"k8s.io/kubernetes/pkg/controller/disruption"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	nodelifecycleconfigv1alpha1 "k8s.io/kubernetes/pkg/controller/nodelifecycle/config/v1alpha1"
	"k8s.io/kubernetes/pkg/controller/replicaset"
)

// workers is kube-controller-manager's default for the Deployment and
// ReplicaSet controllers (--concurrent-deployment-syncs,
// --concurrent-replicaset-syncs; the disruption controller runs one).
const workers = 5

// kube-controller-manager's defaults for the node-lifecycle flags its
// configuration's defaulting leaves to the command line.
const (
	nodeEvictionRate          = 0.1  // --node-eviction-rate
	secondaryNodeEvictionRate = 0.01 // --secondary-node-eviction-rate
	largeClusterSizeThreshold = 50   // --large-cluster-size-threshold
	unhealthyZoneThreshold    = 0.55 // --unhealthy-zone-threshold
)

// Run runs the controllers until ctx ends.
func Run(ctx context.Context, config *rest.Config) error {
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client.Discovery()))
	scales, err := scale.NewForConfig(config, mapper, dynamic.LegacyAPIPathResolverFunc, scale.NewDiscoveryScaleKindResolver(client.Discovery()))
	if err != nil {
		return fmt.Errorf("scale client: %w", err)
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	disruptions := disruption.NewDisruptionController(ctx,
		factory.Core().V1().Pods(), factory.Policy().V1().PodDisruptionBudgets(), factory.Core().V1().ReplicationControllers(),
		factory.Apps().V1().ReplicaSets(), factory.Apps().V1().Deployments(), factory.Apps().V1().StatefulSets(),
		client, mapper, scales, client.Discovery())
	deployments, err := deployment.NewDeploymentController(ctx, factory.Apps().V1().Deployments(), factory.Apps().V1().ReplicaSets(), factory.Core().V1().Pods(), client)
	if err != nil {
		return fmt.Errorf("deployment controller: %w", err)
	}
	replicaSets := replicaset.NewReplicaSetController(ctx, factory.Apps().V1().ReplicaSets(), factory.Core().V1().Pods(), client, replicaset.BurstReplicas)
	var lifecycle kubectrlmgrconfigv1alpha1.NodeLifecycleControllerConfiguration
	nodelifecycleconfigv1alpha1.RecommendedDefaultNodeLifecycleControllerConfiguration(&lifecycle)
	nodes, err := nodelifecycle.NewNodeLifecycleController(ctx, factory.Coordination().V1().Leases(), factory.Core().V1().Pods(),
		factory.Core().V1().Nodes(), factory.Apps().V1().DaemonSets(), client,
		lifecycle.NodeMonitorPeriod.Duration, lifecycle.NodeStartupGracePeriod.Duration, lifecycle.NodeMonitorGracePeriod.Duration,
		nodeEvictionRate, secondaryNodeEvictionRate, largeClusterSizeThreshold, unhealthyZoneThreshold)
	if err != nil {
		return fmt.Errorf("node-lifecycle controller: %w", err)
	}
	factory.Start(ctx.Done())
	klog.FromContext(ctx).Info("Running the disruption, Deployment, ReplicaSet and node-lifecycle controllers")
	go disruptions.Run(ctx, 1)
	go deployments.Run(ctx, workers)
	go nodes.Run(ctx)
	replicaSets.Run(ctx, workers)
	factory.Shutdown()
	return nil
}
