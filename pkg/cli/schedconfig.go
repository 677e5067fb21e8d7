package cli

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/manifests/install"
	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterview"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
)

const schedulerConfigWanted = "a KubeSchedulerConfiguration, or the ConfigMap that holds it under data.config.yaml"

// deployedArgs reads GPUWorkloadFit's args as the deployed scheduler has
// them: from path when given, else from the installed ConfigMap of a live
// cluster, else (offline, or not installed) the shipped configuration. source
// says which, for the report.
func deployedArgs(ctx context.Context, client kubernetes.Interface, path string, in inputSource) (args *config.GPUWorkloadFitArgs, source string, err error) {
	var data []byte
	switch {
	case path != "":
		source = displayName(path)
		raw, err := readInput(path, in)
		if err != nil {
			return nil, "", err
		}
		var meta metav1.TypeMeta
		if err := yaml.Unmarshal(raw, &meta); err != nil {
			return nil, "", usageErrorf("%s: %v; want %s", source, err, schedulerConfigWanted)
		}
		data = raw
		if meta.Kind == "ConfigMap" {
			if data, err = install.SchedulerConfigurationOf(raw, source); err != nil {
				return nil, "", usageErrorf("%v", err)
			}
		}
	case client != nil:
		namespace, name, err := install.ConfigMapRef()
		if err != nil {
			return nil, "", err
		}
		cm, err := client.CoreV1().ConfigMaps(namespace).Get(ctx, name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			return shippedArgs()
		case err != nil:
			return nil, "", fmt.Errorf("read the scheduler's configuration (ConfigMap %s/%s; --scheduler-config reads a file instead): %w", namespace, name, err)
		}
		source = fmt.Sprintf("ConfigMap %s/%s", namespace, name)
		raw, ok := cm.Data["config.yaml"]
		if !ok {
			return nil, "", fmt.Errorf("%s has no data key config.yaml", source)
		}
		data = []byte(raw)
	default:
		return shippedArgs()
	}
	args, err = argsOf(data, source)
	if err != nil && path != "" {
		err = usageErrorf("%v", err)
	}
	return args, source, err
}

func shippedArgs() (*config.GPUWorkloadFitArgs, string, error) {
	data, err := install.SchedulerConfiguration()
	if err != nil {
		return nil, "", err
	}
	args, err := argsOf(data, install.ConfigMapFile)
	return args, "the shipped " + install.ConfigMapFile, err
}

// argsOf decodes the configuration as kube-scheduler does and returns the
// args of the gpu-workload-scheduler profile's GPUWorkloadFit, defaulted.
func argsOf(data []byte, source string) (*config.GPUWorkloadFitArgs, error) {
	profile, _, err := placement.LoadProfile(data, source)
	if err != nil {
		return nil, err
	}
	for _, pc := range profile.PluginConfig {
		if pc.Name == gpuworkloadfit.Name {
			args, err := config.DecodeGPUWorkloadFitArgs(pc.Args)
			if err != nil {
				return nil, fmt.Errorf("%s: profiles[%s].pluginConfig[%s]: %w", source, placement.ProfileName, gpuworkloadfit.Name, err)
			}
			return args, nil
		}
	}
	return config.DecodeGPUWorkloadFitArgs(nil)
}

// schedulerView reads the cluster as the scheduler with these args does.
func schedulerView(args *config.GPUWorkloadFitArgs) clusterview.View {
	return clusterview.View{Fallback: args.Policy(), ClusterPolicyName: args.ClusterPolicyName, Classes: args.Classes(), ConversionTimeout: args.Timeout(),
		DRADriver: args.DRADriverName}
}
