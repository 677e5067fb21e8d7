package sim

import (
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpustranding"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// ScoringPolicy is a scoring configuration derived from the shipped profile. Every
// policy filters with the shipped filters, GPUWorkloadFit included, so that
// they differ only in where they place what fits.
type ScoringPolicy struct {
	Name        string
	Description string
	profile     func(base *schedconfig.KubeSchedulerProfile, scenario *Scenario, state *schedulerstate.Service) (*schedconfig.KubeSchedulerProfile, frameworkruntime.Registry, error)
}

// ScoringPolicies are the policies a comparison runs, in report order.
var ScoringPolicies = []ScoringPolicy{
	{
		Name:        "default",
		Description: "kube-scheduler's default scoring: NodeResourcesFit LeastAllocated on cpu and memory, no GPUStranding",
		profile: func(base *schedconfig.KubeSchedulerProfile, _ *Scenario, _ *schedulerstate.Service) (*schedconfig.KubeSchedulerProfile, frameworkruntime.Registry, error) {
			return withoutStranding(base), nil, nil
		},
	},
	{
		Name:        "most-allocated",
		Description: "NodeResourcesFit MostAllocated on the scenario's GPU resources, at GPUStranding's weight; no GPUStranding",
		profile:     mostAllocatedProfile,
	},
	{
		Name:        "fgd",
		Description: "fragmentation gradient descent (Weng et al., ATC '23): the placement that least raises expected fragmentation under the scenario's request distribution, at GPUStranding's weight",
		profile:     fgdProfile,
	},
	{
		Name:        GPUStrandingPolicy,
		Description: "the shipped profile: GPUStranding",
		profile: func(base *schedconfig.KubeSchedulerProfile, _ *Scenario, _ *schedulerstate.Service) (*schedconfig.KubeSchedulerProfile, frameworkruntime.Registry, error) {
			return base.DeepCopy(), nil, nil
		},
	},
}

// analysisPolicies run only when named: variants that explain a result
// rather than baselines every comparison needs.
var analysisPolicies = []ScoringPolicy{
	{
		Name:        "fgd-online",
		Description: "fgd without the advance knowledge: its task classes and their shares learned from scheduling attempts with GPUStranding's decay",
		profile: func(base *schedconfig.KubeSchedulerProfile, _ *Scenario, state *schedulerstate.Service) (*schedconfig.KubeSchedulerProfile, frameworkruntime.Registry, error) {
			p := withFragmentationGradient(base)
			p.Plugins.PreFilter.Enabled = append(p.Plugins.PreFilter.Enabled, schedconfig.Plugin{Name: FragmentationGradientName})
			return p, frameworkruntime.Registry{FragmentationGradientName: newOnlineFragmentationGradient(state)}, nil
		},
	},
}

// GPUStrandingPolicy is the shipped profile's policy: the one the others are measured against.
const GPUStrandingPolicy = "gpu-stranding"

// IndexOfPolicy is the index of the policy's result, run with or without the
// advisor, or -1.
func IndexOfPolicy(results []*Result, policy string) int {
	return slices.IndexFunc(results, func(r *Result) bool {
		return r.Policy == policy || r.Policy == policy+advisorSuffix
	})
}

// ScoringPoliciesByName resolves a comma-separated list; empty means all.
func ScoringPoliciesByName(list string) ([]ScoringPolicy, error) {
	if list == "" {
		return ScoringPolicies, nil
	}
	var out []ScoringPolicy
	known := slices.Concat(ScoringPolicies, analysisPolicies)
	for _, name := range strings.Split(list, ",") {
		i := slices.IndexFunc(known, func(p ScoringPolicy) bool { return p.Name == strings.TrimSpace(name) })
		if i < 0 {
			return nil, fmt.Errorf("--policies: unknown policy %+q; valid policies are %s", name, policyNames())
		}
		out = append(out, known[i])
	}
	return out, nil
}

func policyNames() string {
	var names []string
	for _, p := range ScoringPolicies {
		names = append(names, p.Name)
	}
	for _, p := range analysisPolicies {
		names = append(names, p.Name+" (by name only)")
	}
	return strings.Join(names, ", ")
}

// strandingWeight is GPUStranding's score weight in the shipped profile; the
// baselines' GPU scorers get the same so that the comparison is of policies.
func strandingWeight(p *schedconfig.KubeSchedulerProfile) int32 {
	for _, pl := range p.Plugins.Score.Enabled {
		if pl.Name == gpustranding.Name {
			return pl.Weight
		}
	}
	return 1
}

func withoutStranding(base *schedconfig.KubeSchedulerProfile) *schedconfig.KubeSchedulerProfile {
	p := base.DeepCopy()
	drop := func(set *schedconfig.PluginSet) {
		set.Enabled = slices.DeleteFunc(set.Enabled, func(pl schedconfig.Plugin) bool { return pl.Name == gpustranding.Name })
	}
	drop(&p.Plugins.PreFilter)
	drop(&p.Plugins.PreScore)
	drop(&p.Plugins.Score)
	drop(&p.Plugins.MultiPoint)
	p.PluginConfig = slices.DeleteFunc(p.PluginConfig, func(c schedconfig.PluginConfig) bool { return c.Name == gpustranding.Name })
	return p
}

func mostAllocatedProfile(base *schedconfig.KubeSchedulerProfile, scenario *Scenario, _ *schedulerstate.Service) (*schedconfig.KubeSchedulerProfile, frameworkruntime.Registry, error) {
	p := withoutStranding(base)
	var resources []schedconfig.ResourceSpec
	for _, name := range scenarioGPUResources(scenario) {
		resources = append(resources, schedconfig.ResourceSpec{Name: string(name), Weight: 1})
	}
	if len(resources) == 0 {
		return nil, nil, fmt.Errorf("policy most-allocated: the scenario has no GPU resources to score")
	}
	found := false
	for i := range p.PluginConfig {
		if args, ok := p.PluginConfig[i].Args.(*schedconfig.NodeResourcesFitArgs); ok {
			args.ScoringStrategy = &schedconfig.ScoringStrategy{Type: schedconfig.MostAllocated, Resources: resources}
			found = true
		}
	}
	if !found {
		return nil, nil, fmt.Errorf("policy most-allocated: the profile has no %s args to change", names.NodeResourcesFit)
	}
	p.Plugins.Score.Enabled = append(p.Plugins.Score.Enabled, schedconfig.Plugin{Name: names.NodeResourcesFit, Weight: strandingWeight(base)})
	return p, nil, nil
}

func fgdProfile(base *schedconfig.KubeSchedulerProfile, scenario *Scenario, state *schedulerstate.Service) (*schedconfig.KubeSchedulerProfile, frameworkruntime.Registry, error) {
	target, err := targetWorkload(scenario.Pods, scenario.Nodes)
	if err != nil {
		return nil, nil, err
	}
	registry := frameworkruntime.Registry{FragmentationGradientName: newFragmentationGradient(target, state)}
	return withFragmentationGradient(base), registry, nil
}

func withFragmentationGradient(base *schedconfig.KubeSchedulerProfile) *schedconfig.KubeSchedulerProfile {
	p := withoutStranding(base)
	p.Plugins.PreScore.Enabled = append(p.Plugins.PreScore.Enabled, schedconfig.Plugin{Name: FragmentationGradientName})
	p.Plugins.Score.Enabled = append(p.Plugins.Score.Enabled, schedconfig.Plugin{Name: FragmentationGradientName, Weight: strandingWeight(base)})
	return p
}

// scenarioGPUResources lists the GPU resources nodes can advertise in any
// mode, sorted: the mode advisor may relabel them.
func scenarioGPUResources(scenario *Scenario) []v1.ResourceName {
	var out []v1.ResourceName
	for _, n := range scenario.Nodes {
		for _, mode := range gpuworkload.Modes {
			if name, count, err := n.Inventory.Advertisement(mode); err == nil && count > 0 && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}
