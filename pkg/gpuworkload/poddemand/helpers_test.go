package poddemand

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

func resourceList(quantities map[string]string) v1.ResourceList {
	list := v1.ResourceList{}
	for name, q := range quantities {
		list[v1.ResourceName(name)] = resource.MustParse(q)
	}
	return list
}

func enabledPolicy(defaultWorkload gpuworkload.Mode) gpuworkload.SandboxPolicy {
	return gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: defaultWorkload, Runtime: gpuworkload.RuntimeKubeVirt,
		Source: gpuworkload.PolicySource{Kind: gpuworkload.SourceClusterPolicy, Name: "cluster-policy"}}
}
