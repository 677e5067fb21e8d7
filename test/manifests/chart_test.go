package manifests

import (
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/yaml"

	gwsconfig "github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/installchart"
)

const chartDir = "../../" + installchart.Dir

// nonDefaultValues are the chart's ci/non-default-values.yaml, as
// chart-testing installs a chart with each file of its ci/ folder.
func nonDefaultValues(t *testing.T) map[string]any {
	t.Helper()
	values, err := installchart.NonDefaultValues(chartDir)
	if err != nil {
		t.Fatal(err)
	}
	return values
}

// renderObjects renders the chart and returns its objects by kind/name.
func renderObjects(t *testing.T, namespace string, values map[string]any) map[string][]byte {
	t.Helper()
	c, err := installchart.Load(chartDir)
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := installchart.Render(c, namespace, values)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := installchart.Documents(rendered)
	if err != nil {
		t.Fatal(err)
	}
	objects := map[string][]byte{}
	for _, doc := range docs {
		var meta struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			t.Fatal(err)
		}
		objects[meta.Kind+"/"+meta.Metadata.Name] = []byte(doc)
	}
	return objects
}

func TestChartLints(t *testing.T) {
	for name, values := range map[string]map[string]any{"default": nil, "non-default": nonDefaultValues(t), "monitoring": installchart.ManifestValues()} {
		if err := installchart.Lint(chartDir, values); err != nil {
			t.Errorf("%s values: %v", name, err)
		}
	}
}

// Every value reaches the object it configures, and the scheduler's own
// validation accepts the configuration rendered from them.
func TestChartRendersNonDefaultValues(t *testing.T) {
	objects := renderObjects(t, "gpus", nonDefaultValues(t))
	cfg := schedulerConfig(t, objects)
	if cfg.LeaderElection.LeaderElect || cfg.LeaderElection.ResourceNamespace != "gpus" {
		t.Errorf("leader election %+v, want off, in namespace gpus", cfg.LeaderElection)
	}
	if len(cfg.Profiles) != 1 || cfg.Profiles[0].SchedulerName != "gpu-vm-scheduler" || *cfg.Profiles[0].PercentageOfNodesToScore != 20 {
		t.Fatalf("profiles %+v, want gpu-vm-scheduler scoring 20%% of the nodes", cfg.Profiles)
	}
	args := map[string]bool{}
	for _, pc := range cfg.Profiles[0].PluginConfig {
		args[pc.Name] = true
		switch pc.Name {
		case "GPUWorkloadFit":
			fit, err := gwsconfig.DecodeGPUWorkloadFitArgs(pc.Args)
			if err != nil {
				t.Fatal(err)
			}
			if fit.ClusterPolicyName != "gpu-cluster-policy" || fit.DRADriverName != "gpu.example.com" || fit.ConversionTimeout.Duration.Minutes() != 30 ||
				fit.SandboxWorkloads.DefaultWorkload != "vm-passthrough" || fit.ResourceClasses["nvidia.com/bluefield"] != "not-gpu" || fit.ResourceClasses["example.com/gpu"] != "container-gpu" {
				t.Errorf("GPUWorkloadFit args %+v, not the values'", fit)
			}
		case "GPUStranding":
			stranding, err := gwsconfig.DecodeGPUStrandingArgs(pc.Args)
			if err != nil {
				t.Fatal(err)
			}
			if *stranding.EmptyNodePenalty != 60 || *stranding.NonGPUPodPenalty != 20 {
				t.Errorf("GPUStranding args %+v, not the values'", stranding)
			}
		}
	}
	if !args["GPUWorkloadFit"] || !args["GPUStranding"] || !args["GPUDynamicResources"] {
		t.Errorf("pluginConfig of %v, want GPUWorkloadFit, GPUStranding and GPUDynamicResources", args)
	}

	image := "gpu/gpu-workload-scheduler@sha256:" + strings.Repeat("ab", 32)
	for name, want := range map[string][]string{
		"gpu-workload-scheduler":  {"--v=4"},
		"gpu-workload-controller": {"--operation=idleOnly", "--scheduler-name=gpu-vm-scheduler", "--conversion-timeout=30m", "--max-conversions=1", "--window=2h", "--v=2"},
	} {
		d := decode[appsv1.Deployment](t, objects, "Deployment/"+name)
		pod := d.Spec.Template.Spec
		c := pod.Containers[0]
		if *d.Spec.Replicas != 1 || c.Image != image || c.ImagePullPolicy != "Always" || len(pod.ImagePullSecrets) != 1 {
			t.Errorf("%s: replicas %d, image %s (%s), pull secrets %v; want 1, %s (Always), one secret", name, *d.Spec.Replicas, c.Image, c.ImagePullPolicy, pod.ImagePullSecrets, image)
		}
		for _, arg := range want {
			if !slices.Contains(c.Args, arg) {
				t.Errorf("%s: args %v lack %s", name, c.Args, arg)
			}
		}
		if name == "gpu-workload-scheduler" && (pod.PriorityClassName != "" || len(pod.Tolerations) != 1 || len(pod.NodeSelector) != 1 || c.Resources.Requests.Cpu().String() != "200m") {
			t.Errorf("scheduler pod: priority class %q, tolerations %v, node selector %v, resources %v; not the values'", pod.PriorityClassName, pod.Tolerations, pod.NodeSelector, c.Resources)
		}
	}
	for key := range objects {
		if strings.HasPrefix(key, "ValidatingAdmissionPolicy") || strings.HasPrefix(key, "ServiceMonitor/") {
			t.Errorf("%s rendered with admissionPolicies and monitoring off", key)
		}
	}

	// null drops a plugin's entry, as Helm drops a null value.
	dropped := map[string]any{"scheduler": map[string]any{"profile": map[string]any{"pluginConfig": map[string]any{"GPUStranding": nil}}}}
	for _, pc := range schedulerConfig(t, renderObjects(t, "gpus", dropped)).Profiles[0].PluginConfig {
		if pc.Name == "GPUStranding" {
			t.Errorf("GPUStranding args %v rendered with pluginConfig.GPUStranding null", pc.Args)
		}
	}

	withoutController := nonDefaultValues(t)
	withoutController["controller"] = map[string]any{"enabled": false}
	for key := range renderObjects(t, "gpus", withoutController) {
		if strings.Contains(key, "gpu-workload-controller") {
			t.Errorf("%s rendered with controller.enabled false", key)
		}
	}
}

// A value the chart does not take is refused before anything renders, with
// the path of the value, as helm install refuses it.
func TestChartRefusesBadValues(t *testing.T) {
	c, err := installchart.Load(chartDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		values map[string]any
		want   string
	}{
		{map[string]any{"controller": map[string]any{"operation": "delete"}}, "/controller/operation"},
		{map[string]any{"controler": map[string]any{"operation": "drain"}}, "controler"},
		{map[string]any{"image": map[string]any{"digest": "latest"}}, "/image/digest"},
		{map[string]any{"scheduler": map[string]any{"replicas": 0}}, "/scheduler/replicas"},
		{map[string]any{"scheduler": map[string]any{"profile": map[string]any{"pluginConfig": map[string]any{"GPUStranding": "high"}}}}, "/scheduler/profile/pluginConfig/GPUStranding"},
	} {
		_, err := installchart.Render(c, installchart.Namespace, tc.values)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("values %v: error %v, want one naming %s", tc.values, err, tc.want)
		}
	}
}
