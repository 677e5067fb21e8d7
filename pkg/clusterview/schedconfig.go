package clusterview

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/gpu-workload-scheduler/scheduler/manifests/install"
	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
)

// DeployedArgs reads GPUWorkloadFit's args as the deployed scheduler has
// them: from its installed ConfigMap on a live cluster (client), else, offline
// or not installed, from the shipped configuration. source says which.
func DeployedArgs(ctx context.Context, client kubernetes.Interface) (args *config.GPUWorkloadFitArgs, source string, err error) {
	if client == nil {
		return shippedArgs()
	}
	namespace, name, err := install.ConfigMapRef()
	if err != nil {
		return nil, "", err
	}
	cm, err := client.CoreV1().ConfigMaps(namespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return shippedArgs()
	case err != nil:
		return nil, "", fmt.Errorf("read the scheduler's configuration, ConfigMap %s/%s, for its GPUWorkloadFit args: %w", namespace, name, err)
	}
	source = fmt.Sprintf("ConfigMap %s/%s", namespace, name)
	raw, ok := cm.Data["config.yaml"]
	if !ok {
		return nil, "", fmt.Errorf("%s has no data key config.yaml", source)
	}
	args, err = ArgsOf([]byte(raw), source)
	return args, source, err
}

func shippedArgs() (*config.GPUWorkloadFitArgs, string, error) {
	data, err := install.SchedulerConfiguration()
	if err != nil {
		return nil, "", err
	}
	args, err := ArgsOf(data, install.ConfigMapFile)
	return args, "the shipped " + install.ConfigMapFile, err
}

// ArgsOf decodes the configuration as kube-scheduler does and returns the
// args of the gpu-workload-scheduler profile's GPUWorkloadFit, defaulted.
func ArgsOf(data []byte, source string) (*config.GPUWorkloadFitArgs, error) {
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

// SchedulerView reads the cluster as the scheduler with these args does.
func SchedulerView(args *config.GPUWorkloadFitArgs) View {
	return View{Fallback: args.Policy(), ClusterPolicyName: args.ClusterPolicyName, Classes: args.Classes(), ConversionTimeout: args.Timeout(),
		DRADriver: args.DRADriverName}
}

// FollowScheduler takes the conversion timeout and the DRA driver from the
// scheduler's args whatever the view: the GPU Operator has neither, and a
// node the scheduler sees as a DRA node, or as mismatched, is one to every
// tool.
func (c *Cluster) FollowScheduler(args *config.GPUWorkloadFitArgs) {
	c.ConversionTimeout, c.DRADriver = args.Timeout(), args.DRADriverName
}
