/*
Copyright 2025 The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package workload

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	"k8s.io/kubernetes/pkg/apis/scheduling/validation"
	"k8s.io/kubernetes/pkg/features"
)

// workloadStrategy implements behavior for Workload objects.
type workloadStrategy struct {
	rest.DeclarativeValidation
	names.NameGenerator
}

// Strategy is the default logic that applies when creating and updating Workload objects.
var Strategy = workloadStrategy{rest.DeclarativeValidation{Scheme: legacyscheme.Scheme}, names.SimpleNameGenerator}

func (workloadStrategy) NamespaceScoped() bool {
	return true
}

func (workloadStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	dropDisabledWorkloadFields(obj.(*scheduling.Workload), nil)
}

func (workloadStrategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	workloadScheduling := obj.(*scheduling.Workload)
	return validation.ValidateWorkload(workloadScheduling)
}

// DeclarativeValidationConfig declares the options referenced by this type's tags,
// mapped to whether each is enabled.
func (workloadStrategy) DeclarativeValidationConfig(ctx context.Context, obj, oldObj runtime.Object) rest.DeclarativeValidationConfig {
	return rest.DeclarativeValidationConfig{Options: map[string]bool{
		string(features.TopologyAwareWorkloadScheduling): utilfeature.DefaultFeatureGate.Enabled(features.TopologyAwareWorkloadScheduling),
		string(features.DRAWorkloadResourceClaims):       utilfeature.DefaultFeatureGate.Enabled(features.DRAWorkloadResourceClaims),
		string(features.PodGroupPreemptionPolicy):        utilfeature.DefaultFeatureGate.Enabled(features.PodGroupPreemptionPolicy),
		string(features.CompositePodGroup):               utilfeature.DefaultFeatureGate.Enabled(features.CompositePodGroup),
	}}
}

func (workloadStrategy) WarningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	return nil
}

func (workloadStrategy) Canonicalize(obj runtime.Object) {}

func (workloadStrategy) AllowCreateOnUpdate(ctx context.Context) bool {
	return false
}

func (workloadStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	dropDisabledWorkloadFields(obj.(*scheduling.Workload), old.(*scheduling.Workload))
}

func (workloadStrategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	return validation.ValidateWorkloadUpdate(obj.(*scheduling.Workload), old.(*scheduling.Workload))
}

func (workloadStrategy) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	return nil
}

func (workloadStrategy) AllowUnconditionalUpdate(ctx context.Context) bool {
	return false
}

// dropDisabledWorkloadFields removes fields which are covered by a feature gate.
func dropDisabledWorkloadFields(workload, oldWorkload *scheduling.Workload) {
	var workloadSpec, oldWorkloadSpec *scheduling.WorkloadSpec
	if workload != nil {
		workloadSpec = &workload.Spec
	}
	if oldWorkload != nil {
		oldWorkloadSpec = &oldWorkload.Spec
	}
	dropDisabledWorkloadSpecFields(workloadSpec, oldWorkloadSpec)
}

func dropDisabledWorkloadSpecFields(workloadSpec, oldWorkloadSpec *scheduling.WorkloadSpec) {
	var templates, oldTemplates []scheduling.PodGroupTemplate
	if workloadSpec != nil {
		templates = workloadSpec.PodGroupTemplates
	}
	if oldWorkloadSpec != nil {
		oldTemplates = oldWorkloadSpec.PodGroupTemplates
	}
	dropDisabledPodGroupTemplatesFields(templates, oldTemplates)

	var cpgTemplates, oldCpgTemplates []scheduling.CompositePodGroupTemplate
	if workloadSpec != nil {
		cpgTemplates = workloadSpec.CompositePodGroupTemplates
	}
	if oldWorkloadSpec != nil {
		oldCpgTemplates = oldWorkloadSpec.CompositePodGroupTemplates
	}
	if !utilfeature.DefaultFeatureGate.Enabled(features.CompositePodGroup) {
		if oldWorkloadSpec == nil || len(oldWorkloadSpec.CompositePodGroupTemplates) == 0 {
			if workloadSpec != nil {
				workloadSpec.CompositePodGroupTemplates = nil
			}
		}
	}
	dropDisabledCompositePodGroupTemplatesFields(cpgTemplates, oldCpgTemplates)
}

func dropDisabledPodGroupTemplatesFields(templates, oldTemplates []scheduling.PodGroupTemplate) {
	m := len(oldTemplates)
	for i := range templates {
		var oldTemplate *scheduling.PodGroupTemplate
		if i < m {
			oldTemplate = &oldTemplates[i]
		}
		template := &templates[i]
		dropDisabledSchedulingConstraintsFields(template, oldTemplate)
		dropDisabledDRAWorkloadResourceClaimsFields(template, oldTemplate)
		dropDisabledPGPreemptionPolicyFields(template, oldTemplate)
	}
}

func dropDisabledCompositePodGroupTemplatesFields(templates, oldTemplates []scheduling.CompositePodGroupTemplate) {
	oldTemplatesMap := make(map[string]*scheduling.CompositePodGroupTemplate)
	for i := range oldTemplates {
		oldTemplatesMap[oldTemplates[i].Name] = &oldTemplates[i]
	}
	for i := range templates {
		template := &templates[i]
		oldTemplate := oldTemplatesMap[template.Name]

		dropDisabledCPGPreemptionPolicyFields(template, oldTemplate)

		var cpgTemplates, oldCpgTemplates []scheduling.CompositePodGroupTemplate
		cpgTemplates = template.CompositePodGroupTemplates
		if oldTemplate != nil {
			oldCpgTemplates = oldTemplate.CompositePodGroupTemplates
		}
		if !utilfeature.DefaultFeatureGate.Enabled(features.CompositePodGroup) {
			if oldTemplate == nil || len(oldTemplate.CompositePodGroupTemplates) == 0 {
				template.CompositePodGroupTemplates = nil
			}
		}
		dropDisabledCompositePodGroupTemplatesFields(cpgTemplates, oldCpgTemplates)

		var pgTemplates, oldPgTemplates []scheduling.PodGroupTemplate
		pgTemplates = template.PodGroupTemplates
		if oldTemplate != nil {
			oldPgTemplates = oldTemplate.PodGroupTemplates
		}
		dropDisabledPodGroupTemplatesFields(pgTemplates, oldPgTemplates)
	}
}

// dropDisabledSchedulingConstraintsFields drops the SchedulingConstraints field
// from the PodGroupTemplate if the TopologyAwareWorkloadScheduling feature gate is disabled.
func dropDisabledSchedulingConstraintsFields(template, oldTemplate *scheduling.PodGroupTemplate) {
	if utilfeature.DefaultFeatureGate.Enabled(features.TopologyAwareWorkloadScheduling) || schedulingConstraintsInUse(oldTemplate) {
		return
	}
	template.SchedulingConstraints = nil
}

// dropDisabledDRAWorkloadResourceClaimsFields removes resource claim references from
// podGroupTemplates unless they are already used by the old Workload spec.
func dropDisabledDRAWorkloadResourceClaimsFields(template, oldTemplate *scheduling.PodGroupTemplate) {
	if utilfeature.DefaultFeatureGate.Enabled(features.DRAWorkloadResourceClaims) || draWorkloadResourceClaimsInUse(oldTemplate) {
		return
	}
	template.ResourceClaims = nil
}

// dropDisabledPGPreemptionPolicyFields removes the PreemptionPolicy field
// from the PodGroupTemplate if the PodGroupPreemptionPolicy feature gate is disabled,
// unless the field already used in the old PodGroupTemplate.
func dropDisabledPGPreemptionPolicyFields(template, oldTemplate *scheduling.PodGroupTemplate) {
	if utilfeature.DefaultFeatureGate.Enabled(features.PodGroupPreemptionPolicy) || preemptionPolicyInUse(oldTemplate) {
		return
	}
	template.PreemptionPolicy = nil
}

func schedulingConstraintsInUse(pgt *scheduling.PodGroupTemplate) bool {
	return pgt != nil && pgt.SchedulingConstraints != nil
}

func draWorkloadResourceClaimsInUse(pgt *scheduling.PodGroupTemplate) bool {
	return pgt != nil && len(pgt.ResourceClaims) > 0
}

func preemptionPolicyInUse(pgt *scheduling.PodGroupTemplate) bool {
	return pgt != nil && pgt.PreemptionPolicy != nil
}

// dropDisabledCPGPreemptionPolicyFields removes the PreemptionPolicy field
// from the CompositePodGroupTemplate if the PodGroupPreemptionPolicy feature gate is disabled,
// unless the field already used in the old CompositePodGroupTemplate.
func dropDisabledCPGPreemptionPolicyFields(template, oldTemplate *scheduling.CompositePodGroupTemplate) {
	if utilfeature.DefaultFeatureGate.Enabled(features.PodGroupPreemptionPolicy) || cpgPreemptionPolicyInUse(oldTemplate) {
		return
	}
	template.PreemptionPolicy = nil
}

func cpgPreemptionPolicyInUse(cpgt *scheduling.CompositePodGroupTemplate) bool {
	return cpgt != nil && cpgt.PreemptionPolicy != nil
}
