package cli

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	resourcev1 "k8s.io/kubernetes/pkg/apis/resource/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// cluster is what check and explain judge: read from a live cluster or from dumps.
type cluster struct {
	nodes []*v1.Node
	// clusterPolicies are the ClusterPolicy objects found; policy is the one
	// in force as the current view reads them.
	clusterPolicies []*unstructured.Unstructured
	policy          gpuworkload.SandboxPolicy
	// classes are the scheduler's configured resource classes, in the scheduler's view.
	classes   map[v1.ResourceName]gpuworkload.ResourceClass
	permitted *gpuworkload.PermittedHostDevices
	// kubeVirt names the KubeVirt CR in use, "" if none; kubeVirtGates are
	// its DRA feature gates, nil without a CR.
	kubeVirt      string
	kubeVirtGates *gpuworkload.KubeVirtDRAGates
	// dra is what the DRA driver publishes and the claims that use it;
	// draDriver names the driver, as the current view reads it.
	dra       draObjects
	draDriver string
	// Live only: pods bound to nodes, VMIs and their FailedCreate events.
	assigned []*v1.Pod
	vmis     []*unstructured.Unstructured
	live     bool
	client   kubernetes.Interface
	dynamic  dynamic.Interface
	// read is when the cluster was read; a node unsettled for
	// conversionTimeout by then is mismatched (gpuworkload.NodeState.Settle).
	read              time.Time
	conversionTimeout time.Duration
}

// sourceFlags are the offline inputs shared by check and explain.
type sourceFlags struct {
	nodes, clusterPolicy, kubeVirt, dra string
}

// draObjects are the DRA objects check and explain read.
type draObjects struct {
	slices  []*resourceapi.ResourceSlice
	classes []*resourceapi.DeviceClass
	claims  []*resourceapi.ResourceClaim
}

const draWanted = "the output of 'kubectl get resourceslices,deviceclasses,resourceclaims -A -o json'"

// readDRA reads a dump of ResourceSlices, DeviceClasses and ResourceClaims.
func readDRA(path string, in inputSource) (draObjects, error) {
	var out draObjects
	data, err := readInput(path, in)
	if err != nil {
		return out, err
	}
	objs, err := decodeObjects(data, path, draWanted)
	if err != nil {
		return out, err
	}
	for i, u := range objs {
		switch u.GetKind() {
		case "ResourceSlice":
			err = appendConverted(&out.slices, u)
		case "DeviceClass":
			err = appendConverted(&out.classes, u)
		case "ResourceClaim":
			err = appendConverted(&out.claims, u)
		default:
			return out, usageErrorf("%s: object %d is a %+q; want %s", displayName(path), i, u.GetKind(), draWanted)
		}
		if err != nil {
			return out, usageErrorf("%s: object %d (%s %s): %v", displayName(path), i, u.GetKind(), u.GetName(), err)
		}
	}
	// A hand-written dump lacks what the API server defaults, such as a
	// request's allocationMode, which the allocator needs.
	for _, slice := range out.slices {
		resourcev1.SetObjectDefaults_ResourceSlice(slice)
	}
	for _, claim := range out.claims {
		resourcev1.SetObjectDefaults_ResourceClaim(claim)
	}
	return out, nil
}

// appendConverted converts an object to T and appends it.
func appendConverted[T any](list *[]*T, u *unstructured.Unstructured) error {
	typed := new(T)
	if err := convert(u, typed); err != nil {
		return err
	}
	*list = append(*list, typed)
	return nil
}

// listDRA reads the DRA objects of a live cluster; a cluster that does not
// serve resource.k8s.io/v1 has none.
func listDRA(ctx context.Context, client kubernetes.Interface) (draObjects, error) {
	var out draObjects
	slices, err := client.ResourceV1().ResourceSlices().List(ctx, metav1.ListOptions{})
	if apierrors.IsNotFound(err) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("list resourceslices: %w", err)
	}
	for i := range slices.Items {
		out.slices = append(out.slices, &slices.Items[i])
	}
	classes, err := client.ResourceV1().DeviceClasses().List(ctx, metav1.ListOptions{})
	if err != nil {
		return out, fmt.Errorf("list deviceclasses: %w", err)
	}
	for i := range classes.Items {
		out.classes = append(out.classes, &classes.Items[i])
	}
	claims, err := client.ResourceV1().ResourceClaims("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return out, fmt.Errorf("list resourceclaims: %w", err)
	}
	for i := range claims.Items {
		out.claims = append(out.claims, &claims.Items[i])
	}
	return out, nil
}

// Get reads a claim of the dump or of the live cluster, for GPUWorkloadFit.
func (d draObjects) Get(namespace, name string) (*resourceapi.ResourceClaim, error) {
	for _, c := range d.claims {
		if c.Namespace == namespace && c.Name == name {
			return c, nil
		}
	}
	return nil, apierrors.NewNotFound(resourceapi.Resource("resourceclaims"), namespace+"/"+name)
}

// draNodes groups the driver's devices by node.
func (d draObjects) draNodes(driver string) map[string]*gpuworkload.DRANode {
	devices := map[string][]gpuworkload.DRADevice{}
	for _, s := range d.slices {
		if node, ds := gpuworkload.DRADevicesOf(s, driver); node != "" {
			devices[node] = append(devices[node], ds...)
		}
	}
	out := make(map[string]*gpuworkload.DRANode, len(devices))
	for node, ds := range devices {
		out[node] = gpuworkload.NewDRANode(ds)
	}
	return out
}

// loadOffline reads dumps. Without a ClusterPolicy the GPU Operator's
// defaults are assumed, and every message that names the policy says so.
func loadOffline(src sourceFlags, in inputSource) (*cluster, error) {
	var fromStdin []string
	for flag, path := range map[string]string{"-f": src.nodes, "--cluster-policy": src.clusterPolicy, "--kubevirt": src.kubeVirt, "--dra": src.dra} {
		if path == "-" {
			fromStdin = append(fromStdin, flag)
		}
	}
	if len(fromStdin) > 1 {
		slices.Sort(fromStdin)
		return nil, usageErrorf("%s all read standard input, which can be read once; give all but one of them as files", strings.Join(fromStdin, ", "))
	}
	nodes, err := readNodes(src.nodes, in)
	if err != nil {
		return nil, err
	}
	c := &cluster{nodes: nodes, read: time.Now(), conversionTimeout: gpuworkload.DefaultConversionTimeout}
	if src.clusterPolicy != "" {
		if c.clusterPolicies, err = readObjectsOfKind(src.clusterPolicy, gpuworkload.ClusterPolicyKind, in); err != nil {
			return nil, err
		}
	}
	if err := c.readAs(operatorView()); err != nil {
		return nil, usageErrorf("%s: %v", displayName(src.clusterPolicy), err)
	}
	if src.clusterPolicy == "" {
		c.policy.Source.Kind = gpuworkload.SourceAssumedDefault
	}
	if src.dra != "" {
		if c.dra, err = readDRA(src.dra, in); err != nil {
			return nil, err
		}
	}
	if src.kubeVirt != "" {
		objs, err := readObjectsOfKind(src.kubeVirt, gpuworkload.KubeVirtKind, in)
		if err != nil {
			return nil, err
		}
		if err := c.chooseKubeVirt(objs); err != nil {
			return nil, usageErrorf("%s: %v", displayName(src.kubeVirt), err)
		}
	}
	return c, nil
}

// view is how the cluster's objects are read: as the GPU Operator reads
// them (check, advise) or as the deployed scheduler does (explain).
type view struct {
	// fallback is the policy while no ClusterPolicy is chosen.
	fallback gpuworkload.SandboxPolicy
	// clusterPolicyName chooses a ClusterPolicy; "" chooses the oldest.
	clusterPolicyName string
	classes           map[v1.ResourceName]gpuworkload.ResourceClass
	// conversionTimeout is the scheduler's, in its view; 0 keeps the cluster's.
	conversionTimeout time.Duration
	// draDriver names the DRA driver that publishes the GPUs.
	draDriver string
}

func operatorView() view {
	return view{fallback: gpuworkload.DefaultPolicy(), draDriver: gpuworkload.DRADriver}
}

// readAs picks the ClusterPolicy the view follows. An invalid one is an
// error here: the user asked to judge it.
func (c *cluster) readAs(v view) error {
	c.policy, c.classes, c.draDriver = v.fallback, v.classes, v.draDriver
	if v.conversionTimeout > 0 {
		c.conversionTimeout = v.conversionTimeout
	}
	chosen := clusterstate.ChooseClusterPolicy(clusterstate.OldestFirst(toAny(c.clusterPolicies)), v.clusterPolicyName)
	if chosen == nil {
		return nil
	}
	policy, err := gpuworkload.PolicyFromClusterPolicy(chosen)
	if err != nil {
		return err
	}
	c.policy = policy
	return nil
}

func (c *cluster) chooseKubeVirt(objs []*unstructured.Unstructured) error {
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
	c.permitted = permitted
	c.kubeVirt = fmt.Sprintf("KubeVirt/%s/%s", sorted[0].GetNamespace(), sorted[0].GetName())
	c.kubeVirtGates = &gates
	return nil
}

func toAny(objs []*unstructured.Unstructured) []any {
	out := make([]any, len(objs))
	for i, o := range objs {
		out[i] = o
	}
	return out
}

// loadLive reads the cluster the kubeconfig flags point at. Missing CRDs mean
// "not installed", not an error.
func loadLive(ctx context.Context, flags *genericclioptions.ConfigFlags, withVMIs bool) (*cluster, error) {
	config, err := flags.ToRESTConfig()
	if err != nil {
		return nil, usageErrorf("kubeconfig: %v", err)
	}
	c, err := readLive(ctx, config, withVMIs)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, describeKubeconfig(flags, config))
	}
	return c, nil
}

// describeKubeconfig says which API server a failed call went to and why
// that one: the context and the kubeconfig files, or that there were none.
func describeKubeconfig(flags *genericclioptions.ConfigFlags, config *rest.Config) string {
	loader := flags.ToRawKubeConfigLoader()
	var found []string
	for _, path := range loader.ConfigAccess().GetLoadingPrecedence() {
		if _, err := os.Stat(path); err == nil {
			found = append(found, path)
		}
	}
	switch {
	case flags.APIServer != nil && *flags.APIServer != "":
		return fmt.Sprintf("server %s from --server", config.Host)
	case len(found) == 0 && os.Getenv("KUBERNETES_SERVICE_HOST") != "":
		return fmt.Sprintf("server %s from the in-cluster configuration", config.Host)
	case len(found) == 0:
		return fmt.Sprintf("server %s: no kubeconfig found in %s; give one with --kubeconfig or KUBECONFIG",
			config.Host, strings.Join(loader.ConfigAccess().GetLoadingPrecedence(), ", "))
	}
	context := ""
	if raw, err := loader.RawConfig(); err == nil {
		context = raw.CurrentContext
	}
	if flags.Context != nil && *flags.Context != "" {
		context = *flags.Context
	}
	return fmt.Sprintf("server %s of context %q in kubeconfig %s", config.Host, context, strings.Join(found, ", "))
}

// readLive reads the cluster through config.
func readLive(ctx context.Context, config *rest.Config, withVMIs bool) (*cluster, error) {
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
	c := &cluster{live: true, client: client, dynamic: dyn, read: time.Now(), conversionTimeout: gpuworkload.DefaultConversionTimeout}
	for i := range nodeList.Items {
		c.nodes = append(c.nodes, &nodeList.Items[i])
	}
	if c.clusterPolicies, err = listIfServed(ctx, dyn, clusterstate.ClusterPolicyGVR); err != nil {
		return nil, err
	}
	if err := c.readAs(operatorView()); err != nil {
		return nil, err
	}
	kubevirts, err := listIfServed(ctx, dyn, clusterstate.KubeVirtGVR)
	if err != nil {
		return nil, err
	}
	if err := c.chooseKubeVirt(kubevirts); err != nil {
		return nil, err
	}
	if c.dra, err = listDRA(ctx, client); err != nil {
		return nil, err
	}
	podList, err := client.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName!="})
	if err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	for i := range podList.Items {
		if p := &podList.Items[i]; p.Status.Phase != v1.PodSucceeded && p.Status.Phase != v1.PodFailed {
			c.assigned = append(c.assigned, p)
		}
	}
	if withVMIs {
		if c.vmis, err = listIfServed(ctx, dyn, clusterstate.VMIGVR); err != nil {
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

// states computes every node's GPU state with the cluster's policy and
// classifier, each timed from its managed fields (a dump without them
// leaves every unsettled node converting).
func (c *cluster) states() ([]*gpuworkload.NodeState, *gpuworkload.Classifier) {
	classifier := gpuworkload.NewClassifier(gpuworkload.ClassifierConfig{Configured: c.classes, Permitted: c.permitted}, c.policy, c.nodes)
	draNodes := c.dra.draNodes(c.draDriver)
	states := make([]*gpuworkload.NodeState, len(c.nodes))
	for i, n := range c.nodes {
		states[i] = gpuworkload.NewNodeState(n, c.policy, classifier)
		if draNodes[n.Name] != nil {
			states[i].PublishedByDRA()
		}
		states[i].Settle(gpuworkload.UnsettledSince(n, time.Time{}), c.read, c.conversionTimeout)
	}
	slices.SortFunc(states, func(a, b *gpuworkload.NodeState) int { return strings.Compare(a.Name, b.Name) })
	return states, classifier
}
