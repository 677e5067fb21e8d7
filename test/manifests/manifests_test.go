// Package manifests tests the shipped manifests: the kustomization builds,
// and the scheduler configuration is valid and orders our plugins right.
package manifests

import (
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/component-base/metrics"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	gwsconfig "github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inventory"
	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpustranding"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// build runs kustomize over manifests/install and returns its objects by kind/name.
func build(t *testing.T) map[string][]byte {
	t.Helper()
	return buildDir(t, "manifests/install")
}

// buildDir runs kustomize over a directory of the repository.
func buildDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), "../../"+dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	objects := map[string][]byte{}
	for _, r := range resources.Resources() {
		data, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		objects[r.GetKind()+"/"+r.GetName()] = data
	}
	return objects
}

func decode[T any](t *testing.T, objects map[string][]byte, key string) *T {
	t.Helper()
	data, ok := objects[key]
	if !ok {
		t.Fatalf("kustomize output lacks %s", key)
	}
	var out T
	if err := yaml.UnmarshalStrict(data, &out); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return &out
}

func TestInstallKustomizationBuilds(t *testing.T) {
	objects := build(t)
	for _, key := range []string{
		"Namespace/gpu-workload-scheduler", "ServiceAccount/gpu-workload-scheduler",
		"ClusterRole/gpu-workload-scheduler", "ClusterRoleBinding/gpu-workload-scheduler",
		"Role/gpu-workload-scheduler-leader-election", "RoleBinding/gpu-workload-scheduler-leader-election",
		"RoleBinding/gpu-workload-scheduler-authentication-reader",
		"ConfigMap/gpu-workload-scheduler-config", "Deployment/gpu-workload-scheduler",
		"ServiceAccount/gpu-workload-controller", "ClusterRole/gpu-workload-controller", "ClusterRoleBinding/gpu-workload-controller",
		"Role/gpu-workload-controller-leader-election", "RoleBinding/gpu-workload-controller-leader-election", "Deployment/gpu-workload-controller",
	} {
		if _, ok := objects[key]; !ok {
			t.Errorf("kustomize output lacks %s", key)
		}
	}
	// Delegated authentication reads a ConfigMap in kube-system: the binding must live there.
	binding := decode[rbacv1.RoleBinding](t, objects, "RoleBinding/gpu-workload-scheduler-authentication-reader")
	if binding.Namespace != "kube-system" {
		t.Errorf("authentication reader binding in namespace %q, want kube-system", binding.Namespace)
	}
	for _, key := range []string{"ServiceAccount/gpu-workload-scheduler", "ConfigMap/gpu-workload-scheduler-config", "Deployment/gpu-workload-scheduler", "RoleBinding/gpu-workload-scheduler-leader-election"} {
		var obj struct {
			Metadata struct {
				Namespace string `json:"namespace"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal(objects[key], &obj); err != nil || obj.Metadata.Namespace != "gpu-workload-scheduler" {
			t.Errorf("%s in namespace %q, want gpu-workload-scheduler", key, obj.Metadata.Namespace)
		}
	}
}

func schedulerConfig(t *testing.T, objects map[string][]byte) *config.KubeSchedulerConfiguration {
	t.Helper()
	cm := decode[v1.ConfigMap](t, objects, "ConfigMap/gpu-workload-scheduler-config")
	obj, _, err := scheme.Codecs.UniversalDecoder().Decode([]byte(cm.Data["config.yaml"]), nil, nil)
	if err != nil {
		t.Fatalf("ConfigMap data config.yaml: %v", err)
	}
	cfg, ok := obj.(*config.KubeSchedulerConfiguration)
	if !ok {
		t.Fatalf("config.yaml decodes to %T", obj)
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		t.Fatalf("invalid KubeSchedulerConfiguration: %v", err)
	}
	return cfg
}

func names(set config.PluginSet) []string {
	var out []string
	for _, p := range set.Enabled {
		out = append(out, p.Name)
	}
	return out
}

func TestSchedulerConfiguration(t *testing.T) {
	cfg := schedulerConfig(t, build(t))
	if !cfg.LeaderElection.LeaderElect || cfg.LeaderElection.ResourceNamespace != "gpu-workload-scheduler" {
		t.Errorf("leader election %+v, want on, in namespace gpu-workload-scheduler", cfg.LeaderElection)
	}
	if len(cfg.Profiles) != 1 || cfg.Profiles[0].SchedulerName != "gpu-workload-scheduler" {
		t.Fatalf("profiles %+v, want one named gpu-workload-scheduler", cfg.Profiles)
	}
	plugins := cfg.Profiles[0].Plugins
	filter := names(plugins.Filter)
	if fit, ours := slices.Index(filter, "NodeResourcesFit"), slices.Index(filter, gpuworkloadfit.Name); ours < 0 || fit < ours {
		t.Errorf("filter order %v: %s must run before NodeResourcesFit so that its reasons replace Insufficient nvidia.com/...", filter, gpuworkloadfit.Name)
	}
	postFilter := names(plugins.PostFilter)
	if preempt, ours := slices.Index(postFilter, "DefaultPreemption"), slices.Index(postFilter, gpuworkloadfit.Name); ours < 0 || preempt < ours {
		t.Errorf("postFilter order %v: %s must explain before DefaultPreemption runs", postFilter, gpuworkloadfit.Name)
	}
	if !slices.Contains(names(plugins.PreFilter), gpuworkloadfit.Name) || !slices.Contains(names(plugins.PreScore), gpustranding.Name) || !slices.Contains(names(plugins.Score), gpustranding.Name) {
		t.Errorf("plugins %+v lack our preFilter, preScore or score", plugins)
	}
	for _, pc := range cfg.Profiles[0].PluginConfig {
		var err error
		switch pc.Name {
		case gpuworkloadfit.Name:
			_, err = gwsconfig.DecodeGPUWorkloadFitArgs(pc.Args)
		case gpustranding.Name:
			_, err = gwsconfig.DecodeGPUStrandingArgs(pc.Args)
		}
		if err != nil {
			t.Errorf("pluginConfig %s: %v", pc.Name, err)
		}
	}
}

func TestShippedArgsStopStartupWhenInvalid(t *testing.T) {
	args := &runtime.Unknown{Raw: []byte(`{"sandboxWorkloads":{"defaultWorkload":"vm"}}`), ContentType: runtime.ContentTypeJSON}
	_, err := gpuworkloadfit.New(context.Background(), args, nil, schedulerstate.NewOffline())
	if err == nil || !strings.Contains(err.Error(), "sandboxWorkloads.defaultWorkload") {
		t.Fatalf("New with invalid args: %v, want an error naming sandboxWorkloads.defaultWorkload", err)
	}
}

// Both Deployments run hardened, with HTTPS probes on their secure ports.
func TestDeploymentIsHardened(t *testing.T) {
	objects := build(t)
	for _, name := range []string{"gpu-workload-scheduler", "gpu-workload-controller"} {
		t.Run(name, func(t *testing.T) {
			d := decode[appsv1.Deployment](t, objects, "Deployment/"+name)
			if d.Spec.Replicas == nil || *d.Spec.Replicas != 2 {
				t.Errorf("replicas %v, want 2", d.Spec.Replicas)
			}
			pod := d.Spec.Template.Spec
			if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot ||
				pod.SecurityContext.SeccompProfile == nil || pod.SecurityContext.SeccompProfile.Type != v1.SeccompProfileTypeRuntimeDefault {
				t.Errorf("pod security context %+v, want non-root with seccomp RuntimeDefault", pod.SecurityContext)
			}
			c := pod.Containers[0]
			sc := c.SecurityContext
			if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
				t.Errorf("container security context %+v, want a read-only root and no privilege escalation", sc)
			}
			if c.LivenessProbe == nil || c.ReadinessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Scheme != v1.URISchemeHTTPS {
				t.Errorf("probes %+v %+v, want HTTPS probes on the secure port", c.LivenessProbe, c.ReadinessProbe)
			}
			if c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
				t.Errorf("resources %+v, want requests and a memory limit", c.Resources)
			}
		})
	}
}

// The scheduler never writes nodes; the mode controller writes nodes,
// evicts pods (never deletes them) and deletes nothing.
func TestOnlyTheControllerWritesNodes(t *testing.T) {
	objects := build(t)
	writes := func(role string) map[string][]string {
		out := map[string][]string{}
		for _, r := range decode[rbacv1.ClusterRole](t, objects, "ClusterRole/"+role).Rules {
			for _, verb := range r.Verbs {
				if verb != "get" && verb != "list" && verb != "watch" {
					for _, res := range r.Resources {
						out[res] = append(out[res], verb)
					}
				}
			}
		}
		return out
	}
	if w := writes("gpu-workload-scheduler"); w["nodes"] != nil {
		t.Errorf("the scheduler's ClusterRole writes nodes: %v", w["nodes"])
	}
	want := map[string][]string{"nodes": {"patch"}, "pods/eviction": {"create"}, "events": {"create", "patch"}, "virtualmachineinstancemigrations": {"create"},
		// The secure port's reviews, which the API server answers and stores nowhere.
		"tokenreviews": {"create"}, "subjectaccessreviews": {"create"}}
	if w := writes("gpu-workload-controller"); !reflect.DeepEqual(w, want) {
		t.Errorf("the controller's ClusterRole writes %v, want %v", w, want)
	}
}

func TestClusterRoleReadsOurCustomResources(t *testing.T) {
	role := decode[rbacv1.ClusterRole](t, build(t), "ClusterRole/gpu-workload-scheduler")
	for _, want := range []struct{ group, resource string }{{"nvidia.com", "clusterpolicies"}, {"kubevirt.io", "kubevirts"}} {
		found := false
		for _, r := range role.Rules {
			if slices.Contains(r.APIGroups, want.group) && slices.Contains(r.Resources, want.resource) {
				found = slices.Equal(r.Verbs, []string{"get", "list", "watch"})
			}
		}
		if !found {
			t.Errorf("ClusterRole lacks exactly get/list/watch on %s.%s", want.resource, want.group)
		}
	}
}

// The monitoring component builds with the installation; its dashboard's
// queries use only metrics the scheduler and the mode controller serve, and
// each of those has a panel.
func TestMonitoringComponent(t *testing.T) {
	objects := buildDir(t, "manifests/examples/monitoring")
	for _, key := range []string{"Service/gpu-workload-scheduler-metrics", "ServiceMonitor/gpu-workload-scheduler", "ClusterRole/gpu-workload-scheduler-metrics-reader",
		"ClusterRoleBinding/gpu-workload-scheduler-metrics-reader", "ConfigMap/gpu-workload-scheduler-dashboard", "Deployment/gpu-workload-scheduler",
		"Service/gpu-workload-controller-metrics", "ServiceMonitor/gpu-workload-controller", "Deployment/gpu-workload-controller"} {
		if _, ok := objects[key]; !ok {
			t.Errorf("kustomize output lacks %s", key)
		}
	}
	// Each Service selects its component's pods and names their port.
	for service, deployment := range map[string]string{"gpu-workload-scheduler-metrics": "gpu-workload-scheduler", "gpu-workload-controller-metrics": "gpu-workload-controller"} {
		svc := decode[v1.Service](t, objects, "Service/"+service)
		dep := decode[appsv1.Deployment](t, objects, "Deployment/"+deployment)
		for k, v := range svc.Spec.Selector {
			if dep.Spec.Template.Labels[k] != v {
				t.Errorf("Service %s selector %s=%s does not select the pods of %s (%v)", service, k, v, deployment, dep.Spec.Template.Labels)
			}
		}
		if !slices.ContainsFunc(dep.Spec.Template.Spec.Containers[0].Ports, func(p v1.ContainerPort) bool { return p.Name == svc.Spec.Ports[0].TargetPort.StrVal }) {
			t.Errorf("Service %s targets port %q, which the container of %s does not name", service, svc.Spec.Ports[0].TargetPort.StrVal, deployment)
		}
	}

	dashboard := decode[v1.ConfigMap](t, objects, "ConfigMap/gpu-workload-scheduler-dashboard")
	var board struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal([]byte(dashboard.Data["gpu-workload-scheduler.json"]), &board); err != nil {
		t.Fatalf("dashboard JSON: %v", err)
	}
	served := servedMetrics()
	used := map[string]bool{}
	for _, p := range board.Panels {
		for _, target := range p.Targets {
			names := metricName.FindAllString(histogramSeries.ReplaceAllString(target.Expr, ""), -1)
			if len(names) == 0 {
				t.Errorf("panel %q: query %q names no gpu_workload_ metric", p.Title, target.Expr)
			}
			for _, name := range names {
				if !served[name] {
					t.Errorf("panel %q: query %q uses %s, which the scheduler does not serve", p.Title, target.Expr, name)
				}
				used[name] = true
			}
		}
	}
	for name := range served {
		if !used[name] {
			t.Errorf("no dashboard panel shows %s", name)
		}
	}
}

// servedMetrics are the names of the metrics the scheduler's and the
// controller's binaries register, read from the collectors as each binary
// registers them.
func servedMetrics() map[string]bool {
	served := map[string]bool{}
	register := func(ms ...metrics.Registerable) {
		for _, m := range ms {
			served[m.FQName()] = true
		}
	}
	customRegister := func(cs ...metrics.StableCollector) {
		for _, c := range cs {
			descs := make(chan *metrics.Desc)
			go func() {
				c.DescribeWithStability(descs)
				close(descs)
			}()
			for d := range descs {
				served[descName.FindStringSubmatch(d.String())[1]] = true
			}
		}
	}
	inventory.NewMetrics().Register(register, customRegister)
	modecontroller.NewMetrics().Register(register)
	return served
}

// descName is the name in a metric description's text.
var descName = regexp.MustCompile(`fqName: "([^"]+)"`)

// histogramSeries are the suffixes of a histogram's series.
var histogramSeries = regexp.MustCompile(`_(bucket|sum|count)\b`)

var metricName = regexp.MustCompile(`gpu_workload_[a-z_]+`)
