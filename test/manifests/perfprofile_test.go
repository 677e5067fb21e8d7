package manifests

import (
	"os"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/utils/ptr"

	gwsconfig "github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpustranding"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
)

// The scheduler_perf profile is the shipped one: the same plugins in the
// same order with the same weights, the same args and node sampling. It may differ only
// where the harness needs it to: its scheduler name (scheduler_perf's pods
// use default-scheduler), no leader election, and sandbox workloads
// enabled in the args (the harness has no ClusterPolicy).
func TestPerfProfileIsTheShippedOne(t *testing.T) {
	shipped := schedulerConfig(t, build(t)).Profiles[0]
	data, err := os.ReadFile("../perf/config/gpuworkload.yaml")
	if err != nil {
		t.Fatal(err)
	}
	obj, _, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		t.Fatalf("test/perf/config/gpuworkload.yaml: %v", err)
	}
	perfConfig := obj.(*config.KubeSchedulerConfiguration)
	if len(perfConfig.Profiles) != 1 || perfConfig.LeaderElection.LeaderElect {
		t.Fatalf("test/perf/config/gpuworkload.yaml: %d profiles, leader election %v; want one, off", len(perfConfig.Profiles), perfConfig.LeaderElection.LeaderElect)
	}
	perf := perfConfig.Profiles[0]
	if !reflect.DeepEqual(perf.PercentageOfNodesToScore, shipped.PercentageOfNodesToScore) {
		t.Errorf("percentageOfNodesToScore %v differs from manifests/install/config.yaml's %v", ptr.Deref(perf.PercentageOfNodesToScore, 0), ptr.Deref(shipped.PercentageOfNodesToScore, 0))
	}
	if !reflect.DeepEqual(perf.Plugins, shipped.Plugins) {
		t.Errorf("plugins differ from manifests/install/config.yaml:\nperf    %+v\nshipped %+v", perf.Plugins, shipped.Plugins)
	}
	fitArgs := func(p config.KubeSchedulerProfile) *gwsconfig.GPUWorkloadFitArgs {
		a, err := gwsconfig.DecodeGPUWorkloadFitArgs(pluginArgs(p, gpuworkloadfit.Name))
		if err != nil {
			t.Fatal(err)
		}
		a.SandboxWorkloads = gwsconfig.SandboxWorkloadsArgs{}
		return a
	}
	strandingArgs := func(p config.KubeSchedulerProfile) *gwsconfig.GPUStrandingArgs {
		a, err := gwsconfig.DecodeGPUStrandingArgs(pluginArgs(p, gpustranding.Name))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if perfArgs, shippedArgs := fitArgs(perf), fitArgs(shipped); !reflect.DeepEqual(perfArgs, shippedArgs) {
		t.Errorf("%s args beyond sandboxWorkloads differ: perf %+v, shipped %+v", gpuworkloadfit.Name, perfArgs, shippedArgs)
	}
	if perfArgs, shippedArgs := strandingArgs(perf), strandingArgs(shipped); !reflect.DeepEqual(perfArgs, shippedArgs) {
		t.Errorf("%s args differ: perf %+v, shipped %+v", gpustranding.Name, perfArgs, shippedArgs)
	}
}

// pluginArgs are a plugin's args in the profile; nil (the defaults) when it has none.
func pluginArgs(p config.KubeSchedulerProfile, name string) runtime.Object {
	for _, pc := range p.PluginConfig {
		if pc.Name == name {
			return pc.Args
		}
	}
	return nil
}
