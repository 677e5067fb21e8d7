package lab

import "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

// clusterPolicyRequired are the component sections the GPU Operator's
// ClusterPolicy CRD requires in spec; an object without them is rejected
// by a real API server.
var clusterPolicyRequired = []string{"daemonsets", "dcgm", "dcgmExporter", "devicePlugin", "driver", "gfd", "nodeStatusExporter", "operator", "toolkit"}

// ClusterPolicy is the smallest ClusterPolicy the GPU Operator's CRD
// accepts, with the given spec.sandboxWorkloads.
func ClusterPolicy(name string, sandboxWorkloads map[string]any) *unstructured.Unstructured {
	spec := map[string]any{"sandboxWorkloads": sandboxWorkloads}
	for _, section := range clusterPolicyRequired {
		spec[section] = map[string]any{}
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy",
		"metadata": map[string]any{"name": name},
		"spec":     spec,
	}}
}
