// Package installchart renders the Helm chart charts/gpu-workload-scheduler as
// `helm template` does, with Helm's own engine, so that manifests/install and
// manifests/monitoring are the chart's render and the tests judge what
// `helm install` would apply.
package installchart

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/lint"
	"helm.sh/helm/v4/pkg/chart/v2/lint/support"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/engine"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

const (
	// Dir is the chart, relative to the repository root.
	Dir = "charts/gpu-workload-scheduler"
	// ReleaseName and Namespace are what manifests/install is rendered for.
	ReleaseName = "gpu-workload-scheduler"
	Namespace   = "gpu-workload-scheduler"
)

// KubeVersion is the Kubernetes version the chart is rendered and linted for:
// the one the project builds against.
var KubeVersion = common.KubeVersion{Version: "v1.37.2", Major: "1", Minor: "37"}

// Load reads the chart in dir.
func Load(dir string) (*chart.Chart, error) {
	c, err := loader.LoadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", dir, err)
	}
	return c, nil
}

// Render renders c for the release in namespace, values over the chart's
// own, and returns each non-empty template output by its path in the chart
// (templates/...). Values are checked against values.schema.json first, as
// helm install checks them.
func Render(c *chart.Chart, namespace string, values map[string]any) (map[string]string, error) {
	caps := common.DefaultCapabilities.Copy()
	caps.KubeVersion = KubeVersion
	renderValues, err := util.ToRenderValues(c, values, common.ReleaseOptions{Name: ReleaseName, Namespace: namespace, IsInstall: true}, caps)
	if err != nil {
		return nil, fmt.Errorf("chart %s: values: %w", c.Name(), err)
	}
	rendered, err := engine.Render(c, renderValues)
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", c.Name(), err)
	}
	out := map[string]string{}
	for name, text := range rendered {
		if path.Ext(name) != ".yaml" || strings.TrimSpace(text) == "" {
			continue
		}
		out[strings.TrimPrefix(name, c.Name()+"/")] = text
	}
	return out, nil
}

// Documents splits rendered templates into their objects' YAML documents,
// in template name order, leaving out documents that hold only comments.
func Documents(rendered map[string]string) ([]string, error) {
	var docs []string
	for _, template := range slices.Sorted(maps.Keys(rendered)) {
		reader := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(rendered[template])))
		for {
			doc, err := reader.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", template, err)
			}
			var meta struct {
				Kind string `json:"kind"`
			}
			if err := yaml.Unmarshal(doc, &meta); err != nil {
				return nil, fmt.Errorf("%s: %w", template, err)
			}
			if meta.Kind != "" {
				docs = append(docs, string(doc))
			}
		}
	}
	return docs, nil
}

// Lint runs helm lint's rules on the chart in dir with values over its own and
// returns every message of warning severity or worse as one error.
func Lint(dir string, values map[string]any) error {
	result := lint.RunAll(dir, values, Namespace, lint.WithKubeVersion(&KubeVersion))
	var problems []string
	for _, m := range result.Messages {
		if m.Severity >= support.WarningSev {
			problems = append(problems, m.Error())
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("helm lint %s:\n%s", dir, strings.Join(problems, "\n"))
	}
	return nil
}

// Manifests are the files of manifests/ rendered from the chart, by the
// template each is rendered from; the kustomizations beside them are written
// by hand.
var Manifests = map[string]string{
	"templates/rbac.yaml":                      "manifests/install/rbac.yaml",
	"templates/config.yaml":                    "manifests/install/config.yaml",
	"templates/deployment.yaml":                "manifests/install/deployment.yaml",
	"templates/controller.yaml":                "manifests/install/controller.yaml",
	"templates/routing.yaml":                   "manifests/install/routing.yaml",
	"templates/monitoring/service.yaml":        "manifests/monitoring/service.yaml",
	"templates/monitoring/servicemonitor.yaml": "manifests/monitoring/servicemonitor.yaml",
	"templates/monitoring/rbac.yaml":           "manifests/monitoring/rbac.yaml",
	"templates/monitoring/dashboard.yaml":      "manifests/monitoring/dashboard.yaml",
}

// GPUResourceNameTemplate defines the routing policy's rule for a requested
// resource name: dradevices.GPUResourceNameCEL, written into the chart by
// make manifests so that the policy decides by the classifier's own rule.
const GPUResourceNameTemplate = "templates/_gpu_resource_name.tpl"

func gpuResourceNameTemplate() []byte {
	return fmt.Appendf(nil, `{{/* Generated by make manifests from dradevices.GPUResourceNameCEL: edit the Go, not this file. */}}
{{- define "gpu-workload-scheduler.gpuResourceName" -}}
%s
{{- end -}}
`, dradevices.GPUResourceNameCEL("name"))
}

// ManifestValues are the values manifests/ is rendered with: the chart's
// defaults, with the monitoring objects that manifests/monitoring holds.
func ManifestValues() map[string]any {
	return map[string]any{"monitoring": map[string]any{"enabled": true}}
}

// NonDefaultValues reads the chart's ci/non-default-values.yaml: a value of
// every kind the chart takes, none at its default, which the tests render,
// lint and apply as chart-testing installs each file of ci/.
func NonDefaultValues(dir string) (map[string]any, error) {
	data, err := os.ReadFile(filepath.Join(dir, "ci", "non-default-values.yaml"))
	if err != nil {
		return nil, err
	}
	var values map[string]any
	if err := yaml.Unmarshal(data, &values); err != nil {
		return nil, fmt.Errorf("%s/ci/non-default-values.yaml: %w", dir, err)
	}
	return values, nil
}

// GenerateManifests renders the chart in dir as manifests/ holds it and
// returns each file's content by its path in the repository.
func GenerateManifests(dir string) (map[string][]byte, error) {
	c, err := Load(dir)
	if err != nil {
		return nil, err
	}
	ruleTemplate := gpuResourceNameTemplate()
	for _, t := range c.Templates {
		if t.Name == GPUResourceNameTemplate {
			t.Data = ruleTemplate
		}
	}
	rendered, err := Render(c, Namespace, ManifestValues())
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{path.Join(Dir, GPUResourceNameTemplate): ruleTemplate}
	for _, template := range slices.Sorted(maps.Keys(Manifests)) {
		text, ok := rendered[template]
		if !ok {
			return nil, fmt.Errorf("chart %s: %s renders nothing with the manifests' values", dir, template)
		}
		header := fmt.Sprintf("# Generated by `make manifests` from %s/%s: edit the chart, not this file.\n", Dir, template)
		files[Manifests[template]] = []byte(header + strings.TrimLeft(text, "\n"))
	}
	for template := range rendered {
		if _, ok := Manifests[template]; !ok {
			return nil, fmt.Errorf("chart %s: %s renders objects that no file of manifests/ holds; add it to installchart.Manifests", dir, template)
		}
	}
	return files, nil
}
