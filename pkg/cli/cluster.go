package cli

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/rest"
	resourcev1 "k8s.io/kubernetes/pkg/apis/resource/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterview"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// sourceFlags are the offline inputs shared by check and explain.
type sourceFlags struct {
	nodes, clusterPolicy, kubeVirt, dra string
}

const draWanted = "the output of 'kubectl get resourceslices,deviceclasses,resourceclaims -A -o json'"

// readDRA reads a dump of ResourceSlices, DeviceClasses and ResourceClaims.
func readDRA(path string, in inputSource) (clusterview.DRAObjects, error) {
	var out clusterview.DRAObjects
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
			err = appendConverted(&out.Slices, u)
		case "DeviceClass":
			err = appendConverted(&out.Classes, u)
		case "ResourceClaim":
			err = appendConverted(&out.Claims, u)
		default:
			return out, usageErrorf("%s: object %d is a %+q; want %s", displayName(path), i, u.GetKind(), draWanted)
		}
		if err != nil {
			return out, usageErrorf("%s: object %d (%s %s): %v", displayName(path), i, u.GetKind(), u.GetName(), err)
		}
	}
	// A hand-written dump lacks what the API server defaults, such as a
	// request's allocationMode, which the allocator needs.
	for _, slice := range out.Slices {
		resourcev1.SetObjectDefaults_ResourceSlice(slice)
	}
	for _, claim := range out.Claims {
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
	c := &cluster{clusterview.Cluster{Nodes: nodes, Read: time.Now(), ConversionTimeout: gpuworkload.DefaultConversionTimeout}}
	if src.clusterPolicy != "" {
		if c.ClusterPolicies, err = readObjectsOfKind(src.clusterPolicy, gpuworkload.ClusterPolicyKind, in); err != nil {
			return nil, err
		}
	}
	if err := c.ReadAs(clusterview.OperatorView()); err != nil {
		return nil, usageErrorf("%s: %v", displayName(src.clusterPolicy), err)
	}
	if src.clusterPolicy == "" {
		c.Policy.Source.Kind = gpuworkload.SourceAssumedDefault
	}
	if src.dra != "" {
		if c.DRA, err = readDRA(src.dra, in); err != nil {
			return nil, err
		}
	}
	if src.kubeVirt != "" {
		objs, err := readObjectsOfKind(src.kubeVirt, gpuworkload.KubeVirtKind, in)
		if err != nil {
			return nil, err
		}
		if err := c.ChooseKubeVirt(objs); err != nil {
			return nil, usageErrorf("%s: %v", displayName(src.kubeVirt), err)
		}
	}
	return c, nil
}

// loadLive reads the cluster the kubeconfig flags point at. Missing CRDs mean
// "not installed", not an error.
func loadLive(ctx context.Context, flags *genericclioptions.ConfigFlags, withVMIs bool) (*cluster, error) {
	config, err := flags.ToRESTConfig()
	if err != nil {
		return nil, usageErrorf("kubeconfig: %v", err)
	}
	c, err := clusterview.ReadLive(ctx, config, withVMIs)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, describeKubeconfig(flags, config))
	}
	return &cluster{*c}, nil
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

// cluster is the cluster check, explain, inventory and advise judge.
type cluster struct {
	clusterview.Cluster
}
