package cli

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/manifests/install"
	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterview"
)

const schedulerConfigWanted = "a KubeSchedulerConfiguration, or the ConfigMap that holds it under data.config.yaml"

// deployedArgs reads GPUWorkloadFit's args as the deployed scheduler has
// them: from path when given, else from the installed ConfigMap of a live
// cluster, else (offline, or not installed) the shipped configuration. source
// says which, for the report.
func deployedArgs(ctx context.Context, client kubernetes.Interface, path string, in inputSource) (*config.GPUWorkloadFitArgs, string, error) {
	if path == "" {
		return clusterview.DeployedArgs(ctx, client)
	}
	source := displayName(path)
	data, err := readInput(path, in)
	if err != nil {
		return nil, "", err
	}
	var meta metav1.TypeMeta
	if err := yaml.Unmarshal(data, &meta); err != nil {
		return nil, "", usageErrorf("%s: %v; want %s", source, err, schedulerConfigWanted)
	}
	if meta.Kind == "ConfigMap" {
		if data, err = install.SchedulerConfigurationOf(data, source); err != nil {
			return nil, "", usageErrorf("%v", err)
		}
	}
	args, err := clusterview.ArgsOf(data, source)
	if err != nil {
		return nil, "", usageErrorf("%v", err)
	}
	return args, source, nil
}
