package sim

import (
	"fmt"
	"path/filepath"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
)

// scenarioFile is scenario.yaml; see docs/simulation.md.
type scenarioFile struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Nodes       string `json:"nodes"`
	Pods        string `json:"pods"`
	// SandboxWorkloads is the ClusterPolicy's; enabled unless it says otherwise.
	SandboxWorkloads *struct {
		Enabled         *bool  `json:"enabled"`
		DefaultWorkload string `json:"defaultWorkload"`
	} `json:"sandboxWorkloads,omitempty"`
	// Advisor turns the mode advisor on; unset timings take the defaults.
	Advisor *struct {
		Interval   *metav1.Duration `json:"interval"`
		Conversion *metav1.Duration `json:"conversion"`
	} `json:"advisor,omitempty"`
}

// LoadScenario reads a scenario.yaml and the node and pod files it names,
// relative to it, each up to limit bytes (inputlimit). The advisor options
// are nil unless the file sets them.
func LoadScenario(path string, limit int64) (*Scenario, *AdvisorOptions, error) {
	data, err := inputlimit.ReadFile(path, limit)
	if err != nil {
		return nil, nil, err
	}
	var f scenarioFile
	if err := yaml.UnmarshalStrict(data, &f); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Nodes == "" || f.Pods == "" {
		return nil, nil, fmt.Errorf("%s: nodes and pods are required: the node and pod files, relative to the scenario", path)
	}
	dir := filepath.Dir(path)
	s := &Scenario{Name: f.Name, Description: f.Description, Policy: EnabledSandboxPolicy()}
	if s.Name == "" {
		s.Name = filepath.Base(dir)
	}
	if sw := f.SandboxWorkloads; sw != nil {
		if sw.Enabled != nil {
			s.Policy.Enabled = *sw.Enabled
		}
		if sw.DefaultWorkload != "" {
			if s.Policy.DefaultWorkload, err = gpuworkload.ParseMode(sw.DefaultWorkload); err != nil {
				return nil, nil, fmt.Errorf("%s: sandboxWorkloads.defaultWorkload: %w", path, err)
			}
		}
	}
	if s.Nodes, err = LoadNodes(filepath.Join(dir, f.Nodes), limit); err != nil {
		return nil, nil, err
	}
	if s.Pods, err = LoadPods(filepath.Join(dir, f.Pods), limit); err != nil {
		return nil, nil, err
	}
	var advisor *AdvisorOptions
	if a := f.Advisor; a != nil {
		advisor = &AdvisorOptions{Interval: DefaultAdvisorInterval, Conversion: DefaultAdvisorConversion}
		if a.Interval != nil {
			advisor.Interval = a.Interval.Duration
		}
		if a.Conversion != nil {
			advisor.Conversion = a.Conversion.Duration
		}
		if err := advisor.Validate("advisor.interval", "advisor.conversion"); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return s, advisor, nil
}

// NewScenario is a scenario from node and pod files, each up to limit
// bytes, with sandbox workloads enabled.
func NewScenario(name, nodesPath, podsPath string, limit int64) (*Scenario, error) {
	nodes, err := LoadNodes(nodesPath, limit)
	if err != nil {
		return nil, err
	}
	pods, err := LoadPods(podsPath, limit)
	if err != nil {
		return nil, err
	}
	return &Scenario{Name: name, Nodes: nodes, Pods: pods, Policy: EnabledSandboxPolicy()}, nil
}

// EnabledSandboxPolicy is the ClusterPolicy a scenario runs with unless it
// says otherwise: sandbox workloads enabled, containers by default, KubeVirt.
func EnabledSandboxPolicy() gpuworkload.SandboxPolicy {
	return gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer, Runtime: gpuworkload.RuntimeKubeVirt}
}
