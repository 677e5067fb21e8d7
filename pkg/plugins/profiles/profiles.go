// Package profiles checks a KubeSchedulerConfiguration for what kube-scheduler
// does not: that our plugins are enabled at every extension point they need,
// in the order they need, and that each pluginConfig names a registered
// plugin. The scheduler runs it at startup and the simulator when it loads a
// profile, so that a broken profile stops both with field paths instead of
// failing every pod at runtime or losing args to a misspelt name.
package profiles

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"

	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpudynamicresources"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpustranding"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/verifyingbinder"
)

// Validate checks every profile of a defaulted configuration.
func Validate(cfg *config.KubeSchedulerConfiguration) error {
	registered := []string{gpuworkloadfit.Name, gpustranding.Name, verifyingbinder.Name, gpudynamicresources.Name}
	for name := range plugins.NewInTreeRegistry() {
		registered = append(registered, name)
	}
	slices.Sort(registered)
	var errs field.ErrorList
	for i := range cfg.Profiles {
		errs = append(errs, validateProfile(&cfg.Profiles[i], field.NewPath("profiles").Index(i), registered)...)
	}
	return errs.ToAggregate()
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
			fmt.Sprintf("%s learns the pods' requests at preFilter: enable it there, after %s", gpustranding.Name, gpuworkloadfit.Name)))
	} else if fit < 0 || fit > stranding {
		ours := slices.DeleteFunc(slices.Clone(preFilter), func(name string) bool { return name != gpuworkloadfit.Name && name != gpustranding.Name })
		errs = append(errs, field.Invalid(pluginsPath.Child("preFilter", "enabled"), strings.Join(ours, ", "),
			fmt.Sprintf("%s reads the demand %s's PreFilter computes: enable %s before it at preFilter", gpustranding.Name, gpuworkloadfit.Name, gpuworkloadfit.Name)))
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
