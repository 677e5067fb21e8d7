package config

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	configv1 "k8s.io/kube-scheduler/config/v1"
	v1helper "k8s.io/kubernetes/pkg/apis/core/v1/helper"
	schedulerconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	schedulerconfigv1 "k8s.io/kubernetes/pkg/scheduler/apis/config/v1"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// Kinds of the args, which the scheduler convention names <PluginName>Args.
const (
	KindGPUWorkloadFitArgs      = "GPUWorkloadFitArgs"
	KindGPUStrandingArgs        = "GPUStrandingArgs"
	KindGPUDynamicResourcesArgs = "GPUDynamicResourcesArgs"
)

// decodeStrict fills into from a pluginConfig args object. Unknown fields are
// errors: a misspelt field would otherwise be silently ignored.
func decodeStrict(obj runtime.Object, kind string, into any) error {
	if obj == nil {
		return nil
	}
	unknown, ok := obj.(*runtime.Unknown)
	if !ok {
		return fmt.Errorf("%s: want args as raw YAML or JSON, got %T", kind, obj)
	}
	if len(unknown.Raw) == 0 {
		return nil
	}
	data, err := yaml.YAMLToJSON(unknown.Raw)
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	// Case-sensitive, as the API server decodes: EMPTYNODEPENALTY is not
	// emptyNodePenalty. Strict errors carry the field's path.
	strict, err := sigsjson.UnmarshalStrict(data, into)
	if err != nil {
		return fmt.Errorf("%s: %w", kind, err)
	}
	if len(strict) > 0 {
		return fmt.Errorf("%s: %w", kind, errors.Join(strict...))
	}
	return nil
}

func checkTypeMeta(kind, gotKind, gotAPIVersion string) field.ErrorList {
	var errs field.ErrorList
	if gotKind != "" && gotKind != kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), gotKind, "must be "+kind))
	}
	if gotAPIVersion != "" && gotAPIVersion != APIVersion {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), gotAPIVersion, "must be "+APIVersion+" or omitted"))
	}
	return errs
}

// DecodeGPUWorkloadFitArgs decodes, defaults and validates GPUWorkloadFit's args.
func DecodeGPUWorkloadFitArgs(obj runtime.Object) (*GPUWorkloadFitArgs, error) {
	args := &GPUWorkloadFitArgs{}
	if err := decodeStrict(obj, KindGPUWorkloadFitArgs, args); err != nil {
		return nil, err
	}
	SetDefaultsGPUWorkloadFitArgs(args)
	if errs := ValidateGPUWorkloadFitArgs(args); len(errs) > 0 {
		return nil, fmt.Errorf("%s: %w", KindGPUWorkloadFitArgs, errs.ToAggregate())
	}
	return args, nil
}

// DecodeGPUStrandingArgs decodes, defaults and validates GPUStranding's args.
func DecodeGPUStrandingArgs(obj runtime.Object) (*GPUStrandingArgs, error) {
	args := &GPUStrandingArgs{}
	if err := decodeStrict(obj, KindGPUStrandingArgs, args); err != nil {
		return nil, err
	}
	SetDefaultsGPUStrandingArgs(args)
	if errs := ValidateGPUStrandingArgs(args); len(errs) > 0 {
		return nil, fmt.Errorf("%s: %w", KindGPUStrandingArgs, errs.ToAggregate())
	}
	return args, nil
}

// DecodeGPUDynamicResourcesArgs decodes, defaults and validates
// GPUDynamicResources' args, and gives DynamicResources' own args from them.
func DecodeGPUDynamicResourcesArgs(obj runtime.Object) (*GPUDynamicResourcesArgs, *schedulerconfig.DynamicResourcesArgs, error) {
	args := &GPUDynamicResourcesArgs{}
	if err := decodeStrict(obj, KindGPUDynamicResourcesArgs, args); err != nil {
		return nil, nil, err
	}
	upstream := configv1.DynamicResourcesArgs{FilterTimeout: args.FilterTimeout, BindingTimeout: args.BindingTimeout}
	schedulerconfigv1.SetDefaults_DynamicResourcesArgs(&upstream)
	args.FilterTimeout, args.BindingTimeout = upstream.FilterTimeout, upstream.BindingTimeout
	if args.DRADriverName == "" {
		args.DRADriverName = dradevices.DRADriver
	}
	errs := checkTypeMeta(KindGPUDynamicResourcesArgs, args.Kind, args.APIVersion)
	for _, msg := range validation.IsDNS1123Subdomain(args.DRADriverName) {
		errs = append(errs, field.Invalid(field.NewPath("draDriverName"), args.DRADriverName, msg+"; a DRA driver name is a DNS subdomain such as gpu.nvidia.com"))
	}
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("%s: %w", KindGPUDynamicResourcesArgs, errs.ToAggregate())
	}
	inTree := &schedulerconfig.DynamicResourcesArgs{}
	if err := schedulerconfigv1.Convert_v1_DynamicResourcesArgs_To_config_DynamicResourcesArgs(&upstream, inTree, nil); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", KindGPUDynamicResourcesArgs, err)
	}
	return args, inTree, nil
}

// SetDefaultsGPUWorkloadFitArgs applies the GPU Operator's defaults.
func SetDefaultsGPUWorkloadFitArgs(args *GPUWorkloadFitArgs) {
	if args.SandboxWorkloads.Enabled == nil {
		enabled := false
		args.SandboxWorkloads.Enabled = &enabled
	}
	if args.SandboxWorkloads.DefaultWorkload == "" {
		args.SandboxWorkloads.DefaultWorkload = string(gpuworkload.ModeContainer)
	}
	if args.SandboxWorkloads.Mode == "" {
		args.SandboxWorkloads.Mode = string(gpuworkload.RuntimeKubeVirt)
	}
	if args.DRADriverName == "" {
		args.DRADriverName = dradevices.DRADriver
	}
	if args.ConversionTimeout == nil {
		args.ConversionTimeout = &metav1.Duration{Duration: gpuworkload.DefaultConversionTimeout}
	}
}

// Defaults of GPUStrandingArgs.
const (
	DefaultEmptyNodePenalty int64 = 100
	DefaultNonGPUPodPenalty int64 = 50
)

// SetDefaultsGPUStrandingArgs fills unset scores.
func SetDefaultsGPUStrandingArgs(args *GPUStrandingArgs) {
	if args.EmptyNodePenalty == nil {
		v := DefaultEmptyNodePenalty
		args.EmptyNodePenalty = &v
	}
	if args.NonGPUPodPenalty == nil {
		v := DefaultNonGPUPodPenalty
		args.NonGPUPodPenalty = &v
	}
}

// ValidateGPUWorkloadFitArgs reports every invalid field with its path.
func ValidateGPUWorkloadFitArgs(args *GPUWorkloadFitArgs) field.ErrorList {
	errs := checkTypeMeta(KindGPUWorkloadFitArgs, args.Kind, args.APIVersion)
	sandbox := field.NewPath("sandboxWorkloads")
	if _, err := gpuworkload.ParseMode(args.SandboxWorkloads.DefaultWorkload); err != nil {
		errs = append(errs, field.NotSupported(sandbox.Child("defaultWorkload"), args.SandboxWorkloads.DefaultWorkload, gpuworkload.ModeNames()))
	}
	switch gpuworkload.SandboxRuntime(args.SandboxWorkloads.Mode) {
	case gpuworkload.RuntimeKubeVirt, gpuworkload.RuntimeKata:
	default:
		errs = append(errs, field.NotSupported(sandbox.Child("mode"), args.SandboxWorkloads.Mode,
			[]string{string(gpuworkload.RuntimeKubeVirt), string(gpuworkload.RuntimeKata)}))
	}
	for _, msg := range validation.IsDNS1123Subdomain(args.DRADriverName) {
		errs = append(errs, field.Invalid(field.NewPath("draDriverName"), args.DRADriverName, msg+"; a DRA driver name is a DNS subdomain such as gpu.nvidia.com"))
	}
	if args.ClusterPolicyName != "" {
		// The API server names a ClusterPolicy so: any other name matches none.
		for _, msg := range validation.IsDNS1123Subdomain(args.ClusterPolicyName) {
			errs = append(errs, field.Invalid(field.NewPath("clusterPolicyName"), args.ClusterPolicyName, msg+"; name a ClusterPolicy as kubectl get clusterpolicies shows it, e.g. cluster-policy, or leave it empty for the oldest"))
		}
	}
	// Under a second is a wrong unit, and would call every conversion mismatched.
	if d := args.ConversionTimeout; d != nil && d.Duration < time.Second {
		errs = append(errs, field.Invalid(field.NewPath("conversionTimeout"), d.Duration.String(), "must be at least 1s: the mode controller's --conversion-timeout, e.g. 20m"))
	}
	classes := field.NewPath("resourceClasses")
	for _, name := range slices.Sorted(maps.Keys(args.ResourceClasses)) {
		if msg := extendedResourceNameError(name); msg != "" {
			errs = append(errs, field.Invalid(classes.Key(name), name, msg))
		}
		if class := args.ResourceClasses[name]; !slices.Contains(gpuworkload.ResourceClassNames(), class) {
			errs = append(errs, field.NotSupported(classes.Key(name), class, gpuworkload.ResourceClassNames()))
		}
	}
	return errs
}

// ValidateGPUStrandingArgs reports every invalid field with its path.
func ValidateGPUStrandingArgs(args *GPUStrandingArgs) field.ErrorList {
	errs := checkTypeMeta(KindGPUStrandingArgs, args.Kind, args.APIVersion)
	for _, f := range []struct {
		name  string
		value int64
	}{
		{"emptyNodePenalty", *args.EmptyNodePenalty},
		{"nonGPUPodPenalty", *args.NonGPUPodPenalty},
	} {
		if f.value < 0 || f.value > 100 {
			errs = append(errs, field.Invalid(field.NewPath(f.name), f.value, "must be between 0 and 100"))
		}
	}
	return errs
}

// extendedResourceNameError says why name cannot be an extended resource
// name, as the API server's validation of a node's capacity would.
func extendedResourceNameError(name string) string {
	const fix = "; a key is an extended resource name such as nvidia.com/GA102GL_A10"
	if msgs := validation.IsQualifiedName(name); len(msgs) > 0 {
		return strings.Join(msgs, "; ") + fix
	}
	if !v1helper.IsExtendedResourceName(v1.ResourceName(name)) {
		return "must have a domain prefix outside kubernetes.io and must not start with requests." + fix
	}
	return ""
}

// Policy is the sandbox policy the args describe, used while no
// ClusterPolicy is visible.
func (args *GPUWorkloadFitArgs) Policy() gpuworkload.SandboxPolicy {
	mode, _ := gpuworkload.ParseMode(args.SandboxWorkloads.DefaultWorkload)
	return gpuworkload.SandboxPolicy{
		Enabled:         args.SandboxWorkloads.Enabled != nil && *args.SandboxWorkloads.Enabled,
		DefaultWorkload: mode,
		Runtime:         gpuworkload.SandboxRuntime(args.SandboxWorkloads.Mode),
		Source:          gpuworkload.PolicySource{Kind: gpuworkload.SourcePluginArgs},
	}
}

// Timeout is conversionTimeout, its default when unset.
func (args *GPUWorkloadFitArgs) Timeout() time.Duration {
	if args.ConversionTimeout == nil {
		return gpuworkload.DefaultConversionTimeout
	}
	return args.ConversionTimeout.Duration
}

// Classes are the explicit resource classes, already validated.
func (args *GPUWorkloadFitArgs) Classes() map[v1.ResourceName]gpuworkload.ResourceClass {
	out := make(map[v1.ResourceName]gpuworkload.ResourceClass, len(args.ResourceClasses))
	for name, class := range args.ResourceClasses {
		c, _ := gpuworkload.ParseResourceClass(class)
		out[v1.ResourceName(name)] = c
	}
	return out
}
