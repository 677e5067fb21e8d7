package profiles

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/rest"
	k8smetrics "k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/gpu-workload-scheduler/scheduler/pkg/inventory"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpudynamicresources"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpustranding"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/verifyingbinder"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

const header = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: gpu-workload-scheduler
`

// shipped is the plugins section of manifests/install/config.yaml.
const shipped = `  plugins:
    preFilter:
      enabled: [{name: GPUWorkloadFit}, {name: GPUStranding}]
    filter:
      disabled: [{name: NodeResourcesFit}, {name: DynamicResources}]
      enabled: [{name: GPUWorkloadFit}, {name: NodeResourcesFit}, {name: DynamicResources}]
    reserve:
      enabled: [{name: GPUWorkloadFit}]
    preScore:
      enabled: [{name: GPUStranding}]
    score:
      enabled: [{name: GPUStranding, weight: 5}]
`

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name, config, want string
	}{
		{name: "the shipped profile", config: shipped},
		{name: "the default profile", config: ""},
		{name: "GPUWorkloadFit alone", config: `  plugins:
    preFilter: {enabled: [{name: GPUWorkloadFit}]}
    filter: {enabled: [{name: GPUWorkloadFit}]}
    reserve: {enabled: [{name: GPUWorkloadFit}]}
`},
		{name: "both through multiPoint, in order", config: `  plugins:
    multiPoint: {enabled: [{name: GPUWorkloadFit}, {name: GPUStranding}]}
`},
		{name: "GPUStranding without GPUWorkloadFit", config: `  plugins:
    multiPoint: {enabled: [{name: GPUStranding}]}
`, want: "profiles[0].plugins.preFilter.enabled: Required value: GPUStranding scores against the GPU cluster state GPUWorkloadFit builds: enable GPUWorkloadFit at preFilter and filter"},
		{name: "GPUStranding before GPUWorkloadFit: the demand is the cycle's, computed by the first that asks", config: `  plugins:
    multiPoint: {enabled: [{name: GPUStranding}, {name: GPUWorkloadFit}]}
`},
		{name: "GPUStranding scoring only", config: `  plugins:
    preFilter: {enabled: [{name: GPUWorkloadFit}]}
    score: {enabled: [{name: GPUStranding}]}
`, want: "[profiles[0].plugins.preFilter.enabled: Required value: GPUStranding learns the pods' requests at preFilter: enable it there, profiles[0].plugins.preScore.enabled: Required value: GPUStranding reads the pod's demand once per cycle at preScore: enable it there]"},
		{name: "GPUWorkloadFit filtering without its PreFilter", config: `  plugins:
    filter: {enabled: [{name: GPUWorkloadFit}]}
    reserve: {enabled: [{name: GPUWorkloadFit}]}
`, want: "profiles[0].plugins.preFilter.enabled: Required value: GPUWorkloadFit filters with what its PreFilter learns: enable it at preFilter too"},
		{name: "a second profile with the same GPUWorkloadFit args", config: shipped + `  pluginConfig:
  - name: GPUWorkloadFit
    args: {conversionTimeout: 10m}
- schedulerName: gpu-workload-scheduler-packed
` + shipped + `  pluginConfig:
  - name: GPUWorkloadFit
    args: {conversionTimeout: 600s}
`},
		{name: "a second profile with other GPUWorkloadFit args", config: shipped + `- schedulerName: gpu-workload-scheduler-b
` + shipped + `  pluginConfig:
  - name: GPUWorkloadFit
    args: {draDriverName: example.com}
`, want: "profiles[1].pluginConfig[0].args: Forbidden: differ from the GPUWorkloadFit args of profiles[0]: a scheduler follows one GPU cluster state, so give every profile the same"},
		{name: "a misspelt pluginConfig name", config: shipped + `  pluginConfig:
  - name: GPUStrandng
    args: {emptyNodePenalty: 0}
`, want: "profiles[0].pluginConfig[0].name: Invalid value: \"GPUStrandng\": no plugin of that name is registered, so its args would be ignored; did you mean GPUStranding?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj, _, err := scheme.Codecs.UniversalDecoder().Decode([]byte(header+tc.config), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := Validate(obj.(*config.KubeSchedulerConfiguration)); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// clusterHandle is a handle of a scheduler that follows a cluster: a
// kubeconfig, a client and informers, as kube-scheduler's.
type clusterHandle struct {
	fwk.Handle
	client  *fake.Clientset
	factory informers.SharedInformerFactory
}

func (h *clusterHandle) KubeConfig() *rest.Config                               { return &rest.Config{Host: "https://127.0.0.1:1"} }
func (h *clusterHandle) ClientSet() kubernetes.Interface                        { return h.client }
func (h *clusterHandle) SharedInformerFactory() informers.SharedInformerFactory { return h.factory }
func (h *clusterHandle) SharedDRAManager() fwk.SharedDRAManager                 { return nil }
func (h *clusterHandle) ProfileName() string                                    { return "gpu-workload-scheduler" }

// Each plugin's New only joins the process's state: it starts no goroutine
// and registers no metric, even with a handle that reaches a cluster; the
// registry starts the state, once, after GPUWorkloadFit joined.
func TestNewStartsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := fake.NewClientset()
	handle := &clusterHandle{client: client, factory: informers.NewSharedInformerFactory(client, 0)}
	metrics := inventory.NewMetrics()
	registry := k8smetrics.NewKubeRegistry()
	metrics.Register(registry.MustRegister, registry.CustomMustRegister)
	state := schedulerstate.New(metrics)
	servedBefore := served(t, legacyregistry.DefaultGatherer)
	before := runtime.NumGoroutine()
	for name, newPlugin := range map[string]frameworkruntime.PluginFactory{
		gpuworkloadfit.Name: func(ctx context.Context, args k8sruntime.Object, h fwk.Handle) (fwk.Plugin, error) {
			return gpuworkloadfit.New(ctx, args, h, state)
		},
		gpustranding.Name: func(ctx context.Context, args k8sruntime.Object, h fwk.Handle) (fwk.Plugin, error) {
			return gpustranding.New(ctx, args, h, state)
		},
		gpudynamicresources.Name: func(ctx context.Context, args k8sruntime.Object, h fwk.Handle) (fwk.Plugin, error) {
			return gpudynamicresources.New(ctx, args, h, state)
		},
		verifyingbinder.Name: verifyingbinder.New,
	} {
		if _, err := newPlugin(ctx, nil, handle); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if got := served(t, legacyregistry.DefaultGatherer); !slices.Equal(got, servedBefore) {
		t.Errorf("New registered metrics: served %v, before %v", got, servedBefore)
	}
	if got := served(t, registry); len(got) != 0 {
		t.Errorf("the GPU gauges count before the state started: %v", got)
	}
	// Goroutines of others may end meanwhile; one New started never does.
	settled := func() bool { return runtime.NumGoroutine() <= before }
	if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 5*time.Second, true, func(context.Context) (bool, error) { return settled(), nil }); err != nil {
		t.Fatalf("%d goroutines after the plugins' New, %d before", runtime.NumGoroutine(), before)
	}

	if _, err := Registry(state)[gpuworkloadfit.Name](ctx, nil, handle); err != nil {
		t.Fatal(err)
	}
	if settled() {
		t.Error("the registry did not start the state: no goroutine follows the cluster")
	}
	if got := served(t, registry); !slices.Contains(got, inventory.MetricNodes) {
		t.Errorf("the started state's gauges are not counted: served %v", got)
	}
}

// served lists the gpu_workload_ metric families the gatherer serves.
func served(t *testing.T, gatherer k8smetrics.Gatherer) []string {
	t.Helper()
	families, err := gatherer.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range families {
		if strings.HasPrefix(f.GetName(), "gpu_workload_") {
			names = append(names, f.GetName())
		}
	}
	return names
}
