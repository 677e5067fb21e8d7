package poddemand

import (
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

func enabledPolicy(defaultWorkload gpuworkload.Mode) gpuworkload.SandboxPolicy {
	return gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: defaultWorkload, Runtime: gpuworkload.RuntimeKubeVirt,
		Source: gpuworkload.PolicySource{Kind: gpuworkload.SourceClusterPolicy, Name: "cluster-policy"}}
}
