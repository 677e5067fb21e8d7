package config

import (
	"cmp"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

func raw(s string) runtime.Object {
	return &runtime.Unknown{Raw: []byte(s), ContentType: runtime.ContentTypeJSON}
}

func TestDecodeGPUWorkloadFitArgs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    runtime.Object
		policy  gpuworkload.SandboxPolicy
		classes map[v1.ResourceName]gpuworkload.ResourceClass
		// timeout is conversionTimeout, 0 for its default.
		timeout time.Duration
		wantErr string
	}{
		{
			name:   "no args: the GPU Operator's defaults",
			policy: gpuworkload.SandboxPolicy{DefaultWorkload: gpuworkload.ModeContainer, Runtime: gpuworkload.RuntimeKubeVirt, Source: gpuworkload.PolicySource{Kind: gpuworkload.SourcePluginArgs}},
		},
		{
			name:   "empty args",
			args:   raw(`{}`),
			policy: gpuworkload.SandboxPolicy{DefaultWorkload: gpuworkload.ModeContainer, Runtime: gpuworkload.RuntimeKubeVirt, Source: gpuworkload.PolicySource{Kind: gpuworkload.SourcePluginArgs}},
		},
		{
			name: "full args in YAML with kind and apiVersion",
			args: &runtime.Unknown{ContentType: runtime.ContentTypeYAML, Raw: []byte(`
apiVersion: gpuworkload.scheduling.nvidia.io/v1
kind: GPUWorkloadFitArgs
sandboxWorkloads: {enabled: true, defaultWorkload: vm-passthrough, mode: kata}
clusterPolicyName: cluster-policy
resourceClasses: {nvidia.com/hostdev_gpu: passthrough-gpu}
`)},
			policy:  gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModePassthrough, Runtime: gpuworkload.RuntimeKata, Source: gpuworkload.PolicySource{Kind: gpuworkload.SourcePluginArgs}},
			classes: map[v1.ResourceName]gpuworkload.ResourceClass{"nvidia.com/hostdev_gpu": gpuworkload.ClassPassthroughGPU},
		},
		{
			name:    "invalid values name their field paths",
			args:    raw(`{"kind":"GPUStrandingArgs","sandboxWorkloads":{"defaultWorkload":"vm","mode":"xen"},"resourceClasses":{"nvidia.com/x":"gpu"}}`),
			wantErr: `GPUWorkloadFitArgs: [kind: Invalid value: "GPUStrandingArgs": must be GPUWorkloadFitArgs, sandboxWorkloads.defaultWorkload: Unsupported value: "vm": supported values: "container", "vm-passthrough", "vm-vgpu", sandboxWorkloads.mode: Unsupported value: "xen": supported values: "kubevirt", "kata", resourceClasses[nvidia.com/x]: Unsupported value: "gpu": supported values: "not-gpu", "container-gpu", "passthrough-gpu", "vgpu-profile"]`,
		},
		{
			name: "resource class keys that are no extended resource name",
			args: raw(`{"resourceClasses":{"GA102GL_A10":"passthrough-gpu","cpu":"not-gpu","kubernetes.io/x":"container-gpu","nvidia.com/a b":"container-gpu"}}`),
			wantErr: `GPUWorkloadFitArgs: [resourceClasses[GA102GL_A10]: Invalid value: "GA102GL_A10": must have a domain prefix outside kubernetes.io and must not start with requests.; a key is an extended resource name such as nvidia.com/GA102GL_A10, ` +
				`resourceClasses[cpu]: Invalid value: "cpu": must have a domain prefix outside kubernetes.io and must not start with requests.; a key is an extended resource name such as nvidia.com/GA102GL_A10, ` +
				`resourceClasses[kubernetes.io/x]: Invalid value: "kubernetes.io/x": must have a domain prefix outside kubernetes.io and must not start with requests.; a key is an extended resource name such as nvidia.com/GA102GL_A10, ` +
				`resourceClasses[nvidia.com/a b]: Invalid value: "nvidia.com/a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'); a key is an extended resource name such as nvidia.com/GA102GL_A10]`,
		},
		{
			name:    "misspelt field",
			args:    raw(`{"sandboxWorkload":{"enabled":true}}`),
			wantErr: `GPUWorkloadFitArgs: unknown field "sandboxWorkload"`,
		},
		{
			name:    "misspelt nested field, with its path",
			args:    raw(`{"sandboxWorkloads":{"enabeld":true}}`),
			wantErr: `GPUWorkloadFitArgs: unknown field "sandboxWorkloads.enabeld"`,
		},
		{
			name:    "field names are case-sensitive",
			args:    raw(`{"ClusterPolicyName":"other"}`),
			wantErr: `GPUWorkloadFitArgs: unknown field "ClusterPolicyName"`,
		},
		{
			name:    "a ClusterPolicy name the API would refuse",
			args:    raw(`{"clusterPolicyName":"Cluster Policy!"}`),
			wantErr: `GPUWorkloadFitArgs: clusterPolicyName: Invalid value: "Cluster Policy!": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'); name a ClusterPolicy as kubectl get clusterpolicies shows it, e.g. cluster-policy, or leave it empty for the oldest`,
		},
		{
			name:    "wrong apiVersion",
			args:    raw(`{"apiVersion":"v1"}`),
			wantErr: `GPUWorkloadFitArgs: apiVersion: Invalid value: "v1": must be gpuworkload.scheduling.nvidia.io/v1 or omitted`,
		},
		{
			name:    "a conversion timeout",
			args:    raw(`{"conversionTimeout": "90s"}`),
			policy:  gpuworkload.SandboxPolicy{DefaultWorkload: gpuworkload.ModeContainer, Runtime: gpuworkload.RuntimeKubeVirt, Source: gpuworkload.PolicySource{Kind: gpuworkload.SourcePluginArgs}},
			timeout: 90 * time.Second,
		},
		{
			name:    "a conversion timeout in the wrong unit",
			args:    raw(`{"conversionTimeout": "20ms"}`),
			wantErr: `GPUWorkloadFitArgs: conversionTimeout: Invalid value: "20ms": must be at least 1s: the mode controller's --conversion-timeout, e.g. 20m`,
		},
		{
			name:    "already typed args",
			args:    &v1.Pod{},
			wantErr: "GPUWorkloadFitArgs: want args as raw YAML or JSON, got *v1.Pod",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, err := DecodeGPUWorkloadFitArgs(tc.args)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error\n%v\nwant\n%s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := args.Policy(); got != tc.policy {
				t.Fatalf("policy %+v, want %+v", got, tc.policy)
			}
			if want := cmp.Or(tc.timeout, gpuworkload.DefaultConversionTimeout); args.Timeout() != want || args.ConversionTimeout.Duration != want {
				t.Fatalf("conversion timeout %v, want %v", args.ConversionTimeout, want)
			}
			got := args.Classes()
			if len(got) != len(tc.classes) {
				t.Fatalf("classes %v, want %v", got, tc.classes)
			}
			for k, v := range tc.classes {
				if got[k] != v {
					t.Fatalf("classes %v, want %v", got, tc.classes)
				}
			}
		})
	}
}

func TestDecodeGPUStrandingArgs(t *testing.T) {
	args, err := DecodeGPUStrandingArgs(nil)
	if err != nil || *args.EmptyNodePenalty != DefaultEmptyNodePenalty || *args.NonGPUPodPenalty != DefaultNonGPUPodPenalty {
		t.Fatalf("defaults: %+v, %v", args, err)
	}
	args, err = DecodeGPUStrandingArgs(raw(`{"emptyNodePenalty":0,"nonGPUPodPenalty":100}`))
	if err != nil || *args.EmptyNodePenalty != 0 || *args.NonGPUPodPenalty != 100 {
		t.Fatalf("explicit: %+v, %v", args, err)
	}
	_, err = DecodeGPUStrandingArgs(raw(`{"emptyNodePenalty":-1,"nonGPUPodPenalty":101}`))
	want := "GPUStrandingArgs: [emptyNodePenalty: Invalid value: -1: must be between 0 and 100, nonGPUPodPenalty: Invalid value: 101: must be between 0 and 100]"
	if err == nil || err.Error() != want {
		t.Fatalf("error\n%v\nwant\n%s", err, want)
	}
}

func TestDecodeGPUDynamicResourcesArgs(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       runtime.Object
		wantDriver string
		wantFilter time.Duration
		wantErr    string
	}{
		{name: "none: DynamicResources' defaults and the NVIDIA driver", wantDriver: "gpu.nvidia.com", wantFilter: 10 * time.Second},
		{name: "set", args: raw(`{"filterTimeout": "3s", "draDriverName": "gpu.example.com"}`), wantDriver: "gpu.example.com", wantFilter: 3 * time.Second},
		{name: "an unknown field", args: raw(`{"filterTimout": "3s"}`), wantErr: `GPUDynamicResourcesArgs: unknown field "filterTimout"`},
		{name: "a driver that is no DNS subdomain", args: raw(`{"draDriverName": "GPU Driver"}`), wantErr: `GPUDynamicResourcesArgs: draDriverName: Invalid value: "GPU Driver"`},
		{name: "another kind", args: raw(`{"kind": "DynamicResourcesArgs"}`), wantErr: `GPUDynamicResourcesArgs: kind: Invalid value: "DynamicResourcesArgs": must be GPUDynamicResourcesArgs`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, inTree, err := DecodeGPUDynamicResourcesArgs(tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if args.DRADriverName != tc.wantDriver || inTree.FilterTimeout == nil || inTree.FilterTimeout.Duration != tc.wantFilter {
				t.Errorf("driver %q, filterTimeout %v; want %q, %v", args.DRADriverName, inTree.FilterTimeout, tc.wantDriver, tc.wantFilter)
			}
		})
	}
}
