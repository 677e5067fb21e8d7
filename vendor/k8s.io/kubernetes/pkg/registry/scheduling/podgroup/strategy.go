/*
Copyright The Kubernetes Authors.

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

package podgroup

import (
	"context"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// podGroupStrategy implements behavior for PodGroup objects.
type podGroupStrategy struct {
	rest.DeclarativeValidation
	names.NameGenerator
}

// NewStrategy is the default logic that applies when creating and updating PodGroup objects.
func NewStrategy() *podGroupStrategy {
	return &podGroupStrategy{
		rest.DeclarativeValidation{Scheme: legacyscheme.Scheme},
		names.SimpleNameGenerator,
	}
}

func (*podGroupStrategy) NamespaceScoped() bool {
	return true
}

// GetResetFields returns the set of fields that get reset by the strategy and
// should not be modified by the user. For a new PodGroup that is the status.
func (*podGroupStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	fields := map[fieldpath.APIVersion]*fieldpath.Set{
		"scheduling.k8s.io/v1beta1": fieldpath.NewSet(
			fieldpath.MakePathOrDie("status"),
		),
		"scheduling.k8s.io/v1alpha3": fieldpath.NewSet(
			fieldpath.MakePathOrDie("status"),
		),
	}

	return fields
}

func (*podGroupStrategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	podGroup := obj.(*scheduling.PodGroup)
	// Status must not be set by user on create.
	podGroup.Status = scheduling.PodGroupStatus{}
	dropDisabledPodGroupFields(podGroup, nil)
}

func (*podGroupStrategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	podGroup := obj.(*scheduling.PodGroup)
	return validation.ValidatePodGroup(podGroup)
}

// DeclarativeValidationConfig declares the options referenced by this type's tags,
// mapped to whether each is enabled.
func (*podGroupStrategy) DeclarativeValidationConfig(ctx context.Context, obj, oldObj runtime.Object) rest.DeclarativeValidationConfig {
	return rest.DeclarativeValidationConfig{Options: map[string]bool{
		string(features.TopologyAwareWorkloadScheduling): utilfeature.DefaultFeatureGate.Enabled(features.TopologyAwareWorkloadScheduling),
		string(features.DRAWorkloadResourceClaims):       utilfeature.DefaultFeatureGate.Enabled(features.DRAWorkloadResourceClaims),
		string(features.PodGroupPreemptionPolicy):        utilfeature.DefaultFeatureGate.Enabled(features.PodGroupPreemptionPolicy),
		string(features.CompositePodGroup):               utilfeature.DefaultFeatureGate.Enabled(features.CompositePodGroup),
	}}
}

func (*podGroupStrategy) WarningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	return nil
}

func (*podGroupStrategy) Canonicalize(obj runtime.Object) {}

func (*podGroupStrategy) AllowCreateOnUpdate(ctx context.Context) bool {
	return false
}

func (*podGroupStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	newPodGroup := obj.(*scheduling.PodGroup)
	oldPodGroup := old.(*scheduling.PodGroup)
	newPodGroup.Status = oldPodGroup.Status
	dropDisabledPodGroupFields(newPodGroup, oldPodGroup)
}

func (*podGroupStrategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	newPodGroup := obj.(*scheduling.PodGroup)
	oldPodGroup := old.(*scheduling.PodGroup)
	return validation.ValidatePodGroupUpdate(newPodGroup, oldPodGroup)
}

func (*podGroupStrategy) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	return nil
}

func (*podGroupStrategy) AllowUnconditionalUpdate(ctx context.Context) bool {
	return false
}

type podGroupStatusStrategy struct {
	*podGroupStrategy
}

// NewStatusStrategy creates a strategy for operating the status object.
func NewStatusStrategy(podGroupStrategy *podGroupStrategy) *podGroupStatusStrategy {
	return &podGroupStatusStrategy{podGroupStrategy}
}

// GetResetFields returns the set of fields that get reset by the strategy and
// should not be modified by the user. For a status update that is the spec.
func (*podGroupStatusStrategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	fields := map[fieldpath.APIVersion]*fieldpath.Set{
		"scheduling.k8s.io/v1beta1": fieldpath.NewSet(
			fieldpath.MakePathOrDie("metadata"),
			fieldpath.MakePathOrDie("spec"),
		),
		"scheduling.k8s.io/v1alpha3": fieldpath.NewSet(
			fieldpath.MakePathOrDie("metadata"),
			fieldpath.MakePathOrDie("spec"),
		),
	}

	return fields
}

func (*podGroupStatusStrategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	newPodGroup := obj.(*scheduling.PodGroup)
	oldPodGroup := old.(*scheduling.PodGroup)
	newPodGroup.Spec = oldPodGroup.Spec
	metav1.ResetObjectMetaForStatus(&newPodGroup.ObjectMeta, &oldPodGroup.ObjectMeta)
	dropDisabledPodGroupStatusFields(newPodGroup, oldPodGroup)
}

func (r *podGroupStatusStrategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	newPodGroup := obj.(*scheduling.PodGroup)
	oldPodGroup := old.(*scheduling.PodGroup)
	return validation.ValidatePodGroupStatusUpdate(newPodGroup, oldPodGroup)
}

// WarningsOnUpdate returns warnings for the given update.
func (*podGroupStatusStrategy) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	return nil
}

// dropDisabledPodGroupFields removes fields which are covered by a feature gate.
func dropDisabledPodGroupFields(podGroup, oldPodGroup *scheduling.PodGroup) {
	var podGroupSpec, oldPodGroupSpec *scheduling.PodGroupSpec
	if podGroup != nil {
		podGroupSpec = &podGroup.Spec
	}
	if oldPodGroup != nil {
		oldPodGroupSpec = &oldPodGroup.Spec
	}
	dropDisabledPodGroupSpecFields(podGroupSpec, oldPodGroupSpec)
}

func dropDisabledPodGroupSpecFields(podGroupSpec, oldPodGroupSpec *scheduling.PodGroupSpec) {
	dropDisabledSchedulingConstraintsFields(podGroupSpec, oldPodGroupSpec)
	dropDisabledDRAWorkloadResourceClaimsFields(podGroupSpec, oldPodGroupSpec)
	dropDisabledPreemptionPolicyField(podGroupSpec, oldPodGroupSpec)
	dropDisabledParentCompositePodGroupNameField(podGroupSpec, oldPodGroupSpec)
}

func dropDisabledPodGroupStatusFields(newPodGroup, oldPodGroup *scheduling.PodGroup) {
	var oldPodGroupSpec *scheduling.PodGroupSpec
	if oldPodGroup != nil {
		oldPodGroupSpec = &oldPodGroup.Spec
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.DRAWorkloadResourceClaims) || draWorkloadResourceClaimsInUse(oldPodGroupSpec) {
		// No need to drop anything.
		return
	}
	newPodGroup.Status.ResourceClaimStatuses = nil
}

// dropDisabledSchedulingConstraintsFields drops the SchedulingConstraints field
// from the new PodGroup if the TopologyAwareWorkloadScheduling feature gate is disabled
// and it was not used in the old PodGroup.
func dropDisabledSchedulingConstraintsFields(podGroupSpec, oldPodGroupSpec *scheduling.PodGroupSpec) {
	if utilfeature.DefaultFeatureGate.Enabled(features.TopologyAwareWorkloadScheduling) || schedulingConstraintsInUse(oldPodGroupSpec) {
		// No need to drop anything.
		return
	}
	podGroupSpec.SchedulingConstraints = nil
}

// dropDisabledDRAWorkloadResourceClaimsFields removes resource claim references
// unless they are already used by the old PodGroup spec.
func dropDisabledDRAWorkloadResourceClaimsFields(podGroupSpec, oldPodGroupSpec *scheduling.PodGroupSpec) {
	if utilfeature.DefaultFeatureGate.Enabled(features.DRAWorkloadResourceClaims) || draWorkloadResourceClaimsInUse(oldPodGroupSpec) {
		// No need to drop anything.
		return
	}
	podGroupSpec.ResourceClaims = nil
}

// dropDisabledPreemptionPolicyField removes the PreemptionPolicy field unless it is
// already used in the old PodGroup spec.
func dropDisabledPreemptionPolicyField(podGroupSpec, oldPodGroupSpec *scheduling.PodGroupSpec) {
	if utilfeature.DefaultFeatureGate.Enabled(features.PodGroupPreemptionPolicy) || preemptionPolicyInUse(oldPodGroupSpec) {
		// No need to drop anything.
		return
	}
	podGroupSpec.PreemptionPolicy = nil
}

func schedulingConstraintsInUse(podGroupSpec *scheduling.PodGroupSpec) bool {
	return podGroupSpec != nil && podGroupSpec.SchedulingConstraints != nil
}

func draWorkloadResourceClaimsInUse(podGroupSpec *scheduling.PodGroupSpec) bool {
	return podGroupSpec != nil && len(podGroupSpec.ResourceClaims) > 0
}

func preemptionPolicyInUse(podGroupSpec *scheduling.PodGroupSpec) bool {
	return podGroupSpec != nil && podGroupSpec.PreemptionPolicy != nil
}

func parentCompositePodGroupNameInUse(podGroupSpec *scheduling.PodGroupSpec) bool {
	return podGroupSpec != nil && podGroupSpec.ParentCompositePodGroupName != nil
}

// dropDisabledParentCompositePodGroupNameField removes the ParentCompositePodGroupName field
// unless it is already used in the old PodGroup spec.
func dropDisabledParentCompositePodGroupNameField(podGroupSpec, oldPodGroupSpec *scheduling.PodGroupSpec) {
	if utilfeature.DefaultFeatureGate.Enabled(features.CompositePodGroup) || parentCompositePodGroupNameInUse(oldPodGroupSpec) {
		// No need to drop anything.
		return
	}
	podGroupSpec.ParentCompositePodGroupName = nil
}
