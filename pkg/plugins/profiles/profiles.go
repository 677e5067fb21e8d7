// Package profiles is the one registry of our plugins, and checks a
// KubeSchedulerConfiguration for what kube-scheduler does not: that our
// plugins are enabled at every extension point they need, in the order
// they need, and that each pluginConfig names a registered plugin. The
// scheduler runs the checks at startup and the simulator when it loads a
// profile, so that a broken profile stops both with field paths instead of
// failing every pod at runtime or losing args to a misspelt name.
package profiles

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	gwsconfig "github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpudynamicresources"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpustranding"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/verifyingbinder"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// Registry is our plugins, each handed the process's GPU cluster state as
// kube-scheduler hands its in-tree plugins the SharedDRAManager: the one
// list the scheduler, the simulator and scheduler_perf register. The plugins'
// New start nothing; once GPUWorkloadFit joined, the state starts
// following the cluster (once, and not at all offline).
func Registry(state *schedulerstate.Service) frameworkruntime.Registry {
	return frameworkruntime.Registry{
		gpuworkloadfit.Name: func(ctx context.Context, args runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
			pl, err := gpuworkloadfit.New(ctx, args, h, state)
			if err != nil {
				return nil, err
			}
			return pl, state.Start(ctx)
		},
		gpustranding.Name: func(ctx context.Context, args runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
			return gpustranding.New(ctx, args, h, state)
		},
		gpudynamicresources.Name: func(ctx context.Context, args runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
			return gpudynamicresources.New(ctx, args, h, state)
		},
		verifyingbinder.Name: verifyingbinder.New,
	}
}

// Validate checks every profile of a defaulted configuration.
func Validate(cfg *config.KubeSchedulerConfiguration) error {
	registered := slices.Collect(maps.Keys(Registry(nil)))
	for name := range plugins.NewInTreeRegistry() {
		registered = append(registered, name)
	}
	slices.Sort(registered)
	var errs field.ErrorList
	for i := range cfg.Profiles {
		errs = append(errs, validateProfile(&cfg.Profiles[i], field.NewPath("profiles").Index(i), registered)...)
	}
	errs = append(errs, validateOneState(cfg.Profiles)...)
	return errs.ToAggregate()
}

// validateOneState checks that the profiles that enable GPUWorkloadFit give
// it the same args: they configure the one GPU cluster state of the process
// (schedulerstate.Service.Join). Args that do not decode are left to the
// plugin, which stops startup with their own field paths.
func validateOneState(profiles []config.KubeSchedulerProfile) field.ErrorList {
	first, firstArgs := -1, ""
	for i := range profiles {
		p := &profiles[i]
		if p.Plugins == nil || !slices.Contains(enabledAt(p.Plugins, p.Plugins.PreFilter), gpuworkloadfit.Name) {
			continue
		}
		var raw runtime.Object
		path := field.NewPath("profiles").Index(i).Child("pluginConfig")
		for j, pc := range p.PluginConfig {
			if pc.Name == gpuworkloadfit.Name {
				raw, path = pc.Args, path.Index(j).Child("args")
			}
		}
		args, err := gwsconfig.DecodeGPUWorkloadFitArgs(raw)
		if err != nil {
			continue
		}
		encoded, err := json.Marshal(args)
		if err != nil {
			continue
		}
		switch {
		case first < 0:
			first, firstArgs = i, string(encoded)
		case string(encoded) != firstArgs:
			return field.ErrorList{field.Forbidden(path,
				fmt.Sprintf("differ from the %s args of profiles[%d]: a scheduler follows one GPU cluster state, so give every profile the same", gpuworkloadfit.Name, first))}
		}
	}
	return nil
}

func validateProfile(p *config.KubeSchedulerProfile, path *field.Path, registered []string) field.ErrorList {
	var errs field.ErrorList
	for i, pc := range p.PluginConfig {
		if !slices.Contains(registered, pc.Name) {
			errs = append(errs, field.Invalid(path.Child("pluginConfig").Index(i).Child("name"), pc.Name,
				fmt.Sprintf("no plugin of that name is registered, so its args would be ignored; did you mean %s?", closest(pc.Name, registered))))
		}
	}
	if p.Plugins == nil {
		return errs
	}
	pluginsPath := path.Child("plugins")
	preFilter := enabledAt(p.Plugins, p.Plugins.PreFilter)
	fit := slices.Index(preFilter, gpuworkloadfit.Name)
	if slices.Contains(enabledAt(p.Plugins, p.Plugins.Filter), gpuworkloadfit.Name) && fit < 0 {
		errs = append(errs, field.Required(pluginsPath.Child("preFilter", "enabled"),
			fmt.Sprintf("%s filters with what its PreFilter learns: enable it at preFilter too", gpuworkloadfit.Name)))
	}
	stranding := slices.Index(preFilter, gpustranding.Name)
	scored := slices.Contains(enabledAt(p.Plugins, p.Plugins.Score), gpustranding.Name)
	if !scored && stranding < 0 {
		return errs
	}
	if stranding < 0 {
		errs = append(errs, field.Required(pluginsPath.Child("preFilter", "enabled"),
			fmt.Sprintf("%s learns the pods' requests at preFilter: enable it there", gpustranding.Name)))
	}
	if fit < 0 {
		errs = append(errs, field.Required(pluginsPath.Child("preFilter", "enabled"),
			fmt.Sprintf("%s scores against the GPU cluster state %s builds: enable %s at preFilter and filter", gpustranding.Name, gpuworkloadfit.Name, gpuworkloadfit.Name)))
	}
	if !slices.Contains(enabledAt(p.Plugins, p.Plugins.PreScore), gpustranding.Name) {
		errs = append(errs, field.Required(pluginsPath.Child("preScore", "enabled"),
			fmt.Sprintf("%s reads the pod's demand once per cycle at preScore: enable it there", gpustranding.Name)))
	}
	if !scored {
		errs = append(errs, field.Required(pluginsPath.Child("score", "enabled"),
			fmt.Sprintf("%s scores nodes: enable it at score", gpustranding.Name)))
	}
	return errs
}

// enabledAt lists the plugins that run at one extension point, in the
// order the framework runs them (frameworkImpl.expandMultiPointPlugins):
// those enabled there that multiPoint enables too, then the other multiPoint
// ones the point does not disable, then the rest of those enabled there.
func enabledAt(all *config.Plugins, point config.PluginSet) []string {
	var specific []string
	for _, p := range point.Enabled {
		specific = append(specific, p.Name)
	}
	if slices.ContainsFunc(point.Disabled, func(p config.Plugin) bool { return p.Name == "*" }) {
		return specific
	}
	disabled := func(name string) bool {
		return slices.ContainsFunc(point.Disabled, func(p config.Plugin) bool { return p.Name == name })
	}
	var overrides, multiPoint []string
	for _, p := range all.MultiPoint.Enabled {
		switch {
		case disabled(p.Name):
		case slices.Contains(specific, p.Name):
			overrides = append(overrides, p.Name)
		default:
			multiPoint = append(multiPoint, p.Name)
		}
	}
	names := slices.DeleteFunc(slices.Clone(specific), func(name string) bool { return !slices.Contains(overrides, name) })
	names = append(names, multiPoint...)
	for _, name := range specific {
		if !slices.Contains(overrides, name) {
			names = append(names, name)
		}
	}
	return names
}

// closest is the registered name nearest to name: what was probably meant.
func closest(name string, registered []string) string {
	return slices.MinFunc(registered, func(a, b string) int { return editDistance(name, a) - editDistance(name, b) })
}

func editDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diagonal := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			diagonal, row[j] = row[j], min(row[j]+1, row[j-1]+1, diagonal+cost)
		}
	}
	return row[len(b)]
}
