// Package clusterview reads the objects that decide a cluster's GPUs (nodes,
// ClusterPolicy, KubeVirt, DRA) from a live cluster, as the GPU Operator
// reads them or as the deployed scheduler does, for the kubectl plugin and
// the mode controller; the kubectl plugin also fills a Cluster from dumps.
package clusterview

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// Cluster is what check, explain, advise and the mode controller judge:
// read from a live cluster, or from dumps.
type Cluster struct {
	Nodes []*v1.Node
	// ClusterPolicies are the ClusterPolicy objects found; Policy is the one
	// in force as the current view reads them.
	ClusterPolicies []*unstructured.Unstructured
	Policy          gpuworkload.SandboxPolicy
	// Classes are the scheduler's configured resource classes, in the scheduler's view.
	Classes   map[v1.ResourceName]gpuworkload.ResourceClass
	Permitted *gpuworkload.PermittedHostDevices
	// KubeVirt names the KubeVirt CR in use, "" if none; KubeVirtGates are
	// its DRA feature gates, nil without a CR.
	KubeVirt      string
	KubeVirtGates *gpuworkload.KubeVirtDRAGates
	// DRA is what the DRA driver publishes and the claims that use it;
	// DRADriver names the driver, as the current view reads it.
	DRA       DRAObjects
	DRADriver string
	// Live only: pods bound to nodes, VMIs and their FailedCreate events.
	Assigned []*v1.Pod
	VMIs     []*unstructured.Unstructured
	Live     bool
	Client   kubernetes.Interface
	Dynamic  dynamic.Interface
	// Read is when the cluster was read; a node unsettled for
	// ConversionTimeout by then is mismatched (gpuworkload.NodeState.Settle).
	Read              time.Time
	ConversionTimeout time.Duration
}

// DRAObjects are the DRA objects a Cluster holds.
type DRAObjects struct {
	Slices  []*resourceapi.ResourceSlice
	Classes []*resourceapi.DeviceClass
	Claims  []*resourceapi.ResourceClaim
}

// ListDRA reads the DRA objects of a live cluster; a cluster that does not
// serve resource.k8s.io/v1 has none.
func ListDRA(ctx context.Context, client kubernetes.Interface) (DRAObjects, error) {
	var out DRAObjects
	slices, err := client.ResourceV1().ResourceSlices().List(ctx, metav1.ListOptions{})
	if apierrors.IsNotFound(err) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("list resourceslices: %w", err)
	}
	for i := range slices.Items {
		out.Slices = append(out.Slices, &slices.Items[i])
	}
	classes, err := client.ResourceV1().DeviceClasses().List(ctx, metav1.ListOptions{})
	if err != nil {
		return out, fmt.Errorf("list deviceclasses: %w", err)
	}
	for i := range classes.Items {
		out.Classes = append(out.Classes, &classes.Items[i])
	}
	claims, err := client.ResourceV1().ResourceClaims("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return out, fmt.Errorf("list resourceclaims: %w", err)
	}
	for i := range claims.Items {
		out.Claims = append(out.Claims, &claims.Items[i])
	}
	return out, nil
}

// Get reads a claim of the dump or of the live cluster, for GPUWorkloadFit.
func (d DRAObjects) Get(namespace, name string) (*resourceapi.ResourceClaim, error) {
	for _, c := range d.Claims {
		if c.Namespace == namespace && c.Name == name {
			return c, nil
		}
	}
	return nil, apierrors.NewNotFound(resourceapi.Resource("resourceclaims"), namespace+"/"+name)
}

// Nodes groups the driver's devices by node.
func (d DRAObjects) Nodes(driver string) map[string]*dradevices.DRANode {
	devices := map[string][]dradevices.DRADevice{}
	for _, s := range d.Slices {
		if node, ds := dradevices.DRADevicesOf(s, driver); node != "" {
			devices[node] = append(devices[node], ds...)
		}
	}
	out := make(map[string]*dradevices.DRANode, len(devices))
	for node, ds := range devices {
		out[node] = dradevices.NewDRANode(dradevices.WithWithdrawnSiblings(ds))
	}
	return out
}

// View is how the cluster's objects are read: as the GPU Operator reads
// them (check, advise, the mode controller) or as the deployed scheduler
// does (explain, inventory).
type View struct {
	// Fallback is the policy while no ClusterPolicy is chosen.
	Fallback gpuworkload.SandboxPolicy
	// ClusterPolicyName chooses a ClusterPolicy; "" chooses the oldest.
	ClusterPolicyName string
	Classes           map[v1.ResourceName]gpuworkload.ResourceClass
	// ConversionTimeout is the scheduler's, in its view; 0 keeps the cluster's.
	ConversionTimeout time.Duration
	// DRADriver names the DRA driver that publishes the GPUs.
	DRADriver string
}

// OperatorView reads the cluster as the GPU Operator does, with the DRA
// driver's default name.
func OperatorView() View {
	return View{Fallback: gpuworkload.DefaultPolicy(), DRADriver: dradevices.DRADriver}
}

// ReadAs picks the ClusterPolicy the view follows. An invalid one is an
// error here: the user asked to judge it.
func (c *Cluster) ReadAs(v View) error {
	c.Policy, c.Classes, c.DRADriver = v.Fallback, v.Classes, v.DRADriver
	if v.ConversionTimeout > 0 {
		c.ConversionTimeout = v.ConversionTimeout
	}
	chosen := clusterstate.ChooseClusterPolicy(clusterstate.OldestFirst(toAny(c.ClusterPolicies)), v.ClusterPolicyName)
	if chosen == nil {
		return nil
	}
	policy, err := gpuworkload.PolicyFromClusterPolicy(chosen)
	if err != nil {
		return err
	}
	c.Policy = policy
	return nil
}

// ChooseKubeVirt takes the oldest KubeVirt CR as the one in use.
func (c *Cluster) ChooseKubeVirt(objs []*unstructured.Unstructured) error {
	sorted := clusterstate.OldestFirst(toAny(objs))
	if len(sorted) == 0 {
		return nil
	}
	permitted, err := gpuworkload.PermittedHostDevicesFromKubeVirt(sorted[0])
	if err != nil {
		return err
	}
	gates, err := gpuworkload.KubeVirtDRAGatesOf(sorted[0])
	if err != nil {
		return err
	}
	c.Permitted = permitted
	c.KubeVirt = fmt.Sprintf("KubeVirt/%s/%s", sorted[0].GetNamespace(), sorted[0].GetName())
	c.KubeVirtGates = &gates
	return nil
}

// toAny lists the objects for clusterstate's ordering.
func toAny(objs []*unstructured.Unstructured) []any {
	out := make([]any, len(objs))
	for i, o := range objs {
		out[i] = o
	}
	return out
}

// ReadLive reads the cluster through config. Missing CRDs mean "not
// installed", not an error.
func ReadLive(ctx context.Context, config *rest.Config, withVMIs bool) (*Cluster, error) {
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(config)
	if err != nil {
		return nil, err
	}
	nodeList, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("list nodes: %w", err)
	}
	c := &Cluster{Live: true, Client: client, Dynamic: dyn, Read: time.Now(), ConversionTimeout: gpuworkload.DefaultConversionTimeout}
	for i := range nodeList.Items {
		c.Nodes = append(c.Nodes, &nodeList.Items[i])
	}
	if c.ClusterPolicies, err = listIfServed(ctx, dyn, clusterstate.ClusterPolicyGVR); err != nil {
		return nil, err
	}
	if err := c.ReadAs(OperatorView()); err != nil {
		return nil, err
	}
	kubevirts, err := listIfServed(ctx, dyn, clusterstate.KubeVirtGVR)
	if err != nil {
		return nil, err
	}
	if err := c.ChooseKubeVirt(kubevirts); err != nil {
		return nil, err
	}
	if c.DRA, err = ListDRA(ctx, client); err != nil {
		return nil, err
	}
	podList, err := client.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName!="})
	if err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	for i := range podList.Items {
		if p := &podList.Items[i]; p.Status.Phase != v1.PodSucceeded && p.Status.Phase != v1.PodFailed {
			c.Assigned = append(c.Assigned, p)
		}
	}
	if withVMIs {
		if c.VMIs, err = listIfServed(ctx, dyn, clusterstate.VMIGVR); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func listIfServed(ctx context.Context, dyn dynamic.Interface, gvr schema.GroupVersionResource) ([]*unstructured.Unstructured, error) {
	list, err := dyn.Resource(gvr).List(ctx, metav1.ListOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", gvr.GroupResource(), err)
	}
	out := make([]*unstructured.Unstructured, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out, nil
}

// States computes every node's GPU state with the cluster's policy and
// classifier, each timed from its managed fields (a dump without them
// leaves every unsettled node converting).
func (c *Cluster) States() ([]*gpuworkload.NodeState, *gpuworkload.Classifier) {
	classifier := gpuworkload.NewClassifier(gpuworkload.ClassifierConfig{Configured: c.Classes, Permitted: c.Permitted}, c.Policy, c.Nodes)
	draNodes := c.DRA.Nodes(c.DRADriver)
	states := make([]*gpuworkload.NodeState, len(c.Nodes))
	for i, n := range c.Nodes {
		states[i] = gpuworkload.NewNodeState(n, c.Policy, classifier)
		if draNodes[n.Name] != nil {
			states[i].PublishedByDRA()
		}
		states[i].Settle(gpuworkload.UnsettledSince(n, time.Time{}), c.Read, c.ConversionTimeout)
	}
	slices.SortFunc(states, func(a, b *gpuworkload.NodeState) int { return strings.Compare(a.Name, b.Name) })
	return states, classifier
}

// ListPods lists every pod of the live cluster.
func (c *Cluster) ListPods(ctx context.Context) ([]*v1.Pod, error) {
	list, err := c.Client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	out := make([]*v1.Pod, len(list.Items))
	for i := range list.Items {
		out[i] = &list.Items[i]
	}
	return out, nil
}
