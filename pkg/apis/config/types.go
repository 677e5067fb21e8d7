package config

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// APIVersion is the apiVersion args may declare; it is optional.
const APIVersion = "gpuworkload.scheduling.nvidia.io/v1"

// GPUWorkloadFitArgs configure the GPUWorkloadFit plugin.
type GPUWorkloadFitArgs struct {
	metav1.TypeMeta `json:",inline"`

	// SandboxWorkloads applies while no ClusterPolicy is visible. Defaults
	// match the GPU Operator: enabled false, defaultWorkload container,
	// mode kubevirt.
	SandboxWorkloads SandboxWorkloadsArgs `json:"sandboxWorkloads"`

	// ClusterPolicyName selects the ClusterPolicy to follow when several
	// exist. Empty means the oldest one.
	ClusterPolicyName string `json:"clusterPolicyName,omitempty"`

	// ResourceClasses classifies extended resources explicitly, overriding
	// KubeVirt's permittedHostDevices and the naming rules. Values:
	// container-gpu, passthrough-gpu, vgpu-profile, not-gpu.
	ResourceClasses map[string]string `json:"resourceClasses,omitempty"`

	// DRADriverName is the DRA driver whose ResourceSlices publish GPUs
	// (spec.driver, and the domain of its device attributes). Default:
	// gpu.nvidia.com, the NVIDIA DRA driver's name.
	DRADriverName string `json:"draDriverName,omitempty"`

	// ConversionTimeout is how long a conversion takes at most: a node whose
	// mode, advertisement and vGPU configuration disagree for longer is
	// mismatched, not converting. Set it to the mode controller's
	// --conversion-timeout; kubectl gpu-workload reads it from here.
	// Default 20m.
	ConversionTimeout *metav1.Duration `json:"conversionTimeout,omitempty"`
}

// SandboxWorkloadsArgs mirror ClusterPolicy spec.sandboxWorkloads.
type SandboxWorkloadsArgs struct {
	Enabled         *bool  `json:"enabled,omitempty"`
	DefaultWorkload string `json:"defaultWorkload,omitempty"`
	Mode            string `json:"mode,omitempty"`
}

// GPUStrandingArgs configure the GPUStranding plugin. Scores are on the
// framework's 0-100 scale; see docs/scoring.md.
type GPUStrandingArgs struct {
	metav1.TypeMeta `json:",inline"`

	// EmptyNodePenalty is the percentage of a GPU node's drain units (its
	// own units for a relabel, the largest node's for keeping it whole; see
	// docs/scoring.md) that placing a GPU pod on an empty node costs, so
	// that empty GPU nodes stay empty and convertible between modes; on a
	// node with n GPU pods, 1/(n+1) of it, the delay the pod adds to the
	// node's draining. Default 100.
	EmptyNodePenalty *int64 `json:"emptyNodePenalty,omitempty"`

	// NonGPUPodPenalty is the percentage of a GPU node's free units that a pod
	// without GPU requests costs there, in proportion to the share of the
	// node's CPU or memory it takes. Default 50.
	NonGPUPodPenalty *int64 `json:"nonGPUPodPenalty,omitempty"`
}

// GPUDynamicResourcesArgs configure the GPUDynamicResources plugin:
// kube-scheduler's DynamicResources args, and the driver whose gpu and vfio
// devices of one GPU exclude each other.
type GPUDynamicResourcesArgs struct {
	metav1.TypeMeta `json:",inline"`

	// FilterTimeout and BindingTimeout are DynamicResources' args, with its
	// defaults (filterTimeout 10s while the DRASchedulerFilterTimeout gate
	// is on; bindingTimeout 10m while device binding conditions are).
	FilterTimeout  *metav1.Duration `json:"filterTimeout,omitempty"`
	BindingTimeout *metav1.Duration `json:"bindingTimeout,omitempty"`

	// DRADriverName is the driver that publishes a GPU as a gpu and a vfio
	// device. Default: gpu.nvidia.com.
	DRADriverName string `json:"draDriverName,omitempty"`
}
