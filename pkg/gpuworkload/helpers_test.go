package gpuworkload

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func resourceList(quantities map[string]string) v1.ResourceList {
	list := v1.ResourceList{}
	for name, q := range quantities {
		list[v1.ResourceName(name)] = resource.MustParse(q)
	}
	return list
}

// testNode builds a node whose capacity and allocatable are both quantities.
func testNode(name string, labels map[string]string, quantities map[string]string) *v1.Node {
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Status:     v1.NodeStatus{Capacity: resourceList(quantities), Allocatable: resourceList(quantities)},
	}
}

func enabledPolicy(defaultWorkload Mode) SandboxPolicy {
	return SandboxPolicy{Enabled: true, DefaultWorkload: defaultWorkload, Runtime: RuntimeKubeVirt,
		Source: PolicySource{Kind: SourceClusterPolicy, Name: "cluster-policy"}}
}

func disabledPolicy() SandboxPolicy {
	p := enabledPolicy(ModeContainer)
	p.Enabled = false
	return p
}

func clusterPolicy(name string, sandbox map[string]interface{}) *unstructured.Unstructured {
	obj := map[string]interface{}{
		"apiVersion": "nvidia.com/v1",
		"kind":       "ClusterPolicy",
		"metadata":   map[string]interface{}{"name": name},
		"spec":       map[string]interface{}{},
	}
	if sandbox != nil {
		obj["spec"].(map[string]interface{})["sandboxWorkloads"] = sandbox
	}
	return &unstructured.Unstructured{Object: obj}
}

func merge(maps ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// deployLabels returns the labels the operator sets for a mode under kubevirt.
func deployLabels(mode Mode) map[string]string {
	out := map[string]string{}
	for _, key := range Operands().ExpectedDeployLabels(mode, RuntimeKubeVirt) {
		out[key] = "true"
	}
	return out
}
