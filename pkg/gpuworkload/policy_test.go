package gpuworkload

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
	"github.com/gpu-workload-scheduler/scheduler/test/upstream"
)

func TestPolicyFromClusterPolicy(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sandbox map[string]interface{}
		want    SandboxPolicy
		wantErr string
	}{
		{
			name: "no sandboxWorkloads means disabled, container default",
			want: SandboxPolicy{DefaultWorkload: ModeContainer, Runtime: RuntimeKubeVirt},
		},
		{
			name:    "enabled nil is false",
			sandbox: map[string]interface{}{"enabled": nil, "defaultWorkload": "vm-vgpu"},
			want:    SandboxPolicy{DefaultWorkload: ModeVGPU, Runtime: RuntimeKubeVirt},
		},
		{
			name:    "enabled with passthrough default and kata",
			sandbox: map[string]interface{}{"enabled": true, "defaultWorkload": "vm-passthrough", "mode": "kata"},
			want:    SandboxPolicy{Enabled: true, DefaultWorkload: ModePassthrough, Runtime: RuntimeKata},
		},
		{
			name:    "invalid defaultWorkload behaves like the operator and is reported",
			sandbox: map[string]interface{}{"enabled": true, "defaultWorkload": "vm"},
			want:    SandboxPolicy{Enabled: true, DefaultWorkload: ModeContainer, Runtime: RuntimeKubeVirt},
			wantErr: `ClusterPolicy cluster-policy: spec.sandboxWorkloads.defaultWorkload: invalid GPU workload mode "vm": valid values are "container", "vm-passthrough", "vm-vgpu"; the GPU Operator uses "container" instead; fix: set it to one of the valid values`,
		},
		{
			name:    "enabled of the wrong type",
			sandbox: map[string]interface{}{"enabled": "yes"},
			want:    SandboxPolicy{DefaultWorkload: ModeContainer, Runtime: RuntimeKubeVirt},
			wantErr: "ClusterPolicy cluster-policy: spec.sandboxWorkloads.enabled is yes (string); fix: set it to true or false",
		},
		{
			name:    "unknown runtime mode",
			sandbox: map[string]interface{}{"enabled": true, "mode": "firecracker"},
			want:    SandboxPolicy{Enabled: true, DefaultWorkload: ModeContainer, Runtime: RuntimeKubeVirt},
			wantErr: `ClusterPolicy cluster-policy: spec.sandboxWorkloads.mode is "firecracker"; fix: set it to "kubevirt" or "kata"`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PolicyFromClusterPolicy(clusterPolicy("cluster-policy", tc.sandbox))
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			tc.want.Source = PolicySource{Kind: SourceClusterPolicy, Name: "cluster-policy"}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestEffectiveMode(t *testing.T) {
	for _, tc := range []struct {
		name        string
		policy      SandboxPolicy
		labels      map[string]string
		want        Mode
		reason      ModeReason
		ignored     bool
		explanation string
	}{
		{
			name: "label honoured", policy: enabledPolicy(ModeContainer),
			labels: map[string]string{LabelWorkloadConfig: "vm-passthrough"},
			want:   ModePassthrough, reason: ReasonLabelHonoured,
			explanation: "nvidia.com/gpu.workload.config=vm-passthrough",
		},
		{
			name: "sandbox disabled ignores the label", policy: disabledPolicy(),
			labels: map[string]string{LabelWorkloadConfig: "vm-passthrough"},
			want:   ModeContainer, reason: ReasonSandboxDisabled, ignored: true,
			explanation: "label nvidia.com/gpu.workload.config=vm-passthrough ignored: sandboxWorkloads disabled in ClusterPolicy cluster-policy",
		},
		{
			name: "sandbox disabled with a container label ignores nothing that matters", policy: disabledPolicy(),
			labels: map[string]string{LabelWorkloadConfig: "container"},
			want:   ModeContainer, reason: ReasonSandboxDisabled,
			explanation: "label nvidia.com/gpu.workload.config=container ignored: sandboxWorkloads disabled in ClusterPolicy cluster-policy",
		},
		{
			name: "sandbox disabled without label", policy: disabledPolicy(),
			want: ModeContainer, reason: ReasonSandboxDisabled,
			explanation: "sandboxWorkloads disabled in ClusterPolicy cluster-policy",
		},
		{
			name: "label missing uses defaultWorkload", policy: enabledPolicy(ModeVGPU),
			want: ModeVGPU, reason: ReasonLabelMissing,
			explanation: "no nvidia.com/gpu.workload.config label: defaultWorkload vm-vgpu from ClusterPolicy cluster-policy",
		},
		{
			name: "label invalid uses defaultWorkload", policy: enabledPolicy(ModePassthrough),
			labels: map[string]string{LabelWorkloadConfig: "passthrough"},
			want:   ModePassthrough, reason: ReasonLabelInvalid,
			explanation: `invalid nvidia.com/gpu.workload.config="passthrough": defaultWorkload vm-passthrough from ClusterPolicy cluster-policy`,
		},
		{
			name: "empty label value is invalid", policy: enabledPolicy(ModeContainer),
			labels: map[string]string{LabelWorkloadConfig: ""},
			want:   ModeContainer, reason: ReasonLabelInvalid,
			explanation: `invalid nvidia.com/gpu.workload.config="": defaultWorkload container from ClusterPolicy cluster-policy`,
		},
		{
			name: "operator defaults when nothing is configured", policy: DefaultPolicy(),
			labels: map[string]string{LabelWorkloadConfig: "vm-vgpu"},
			want:   ModeContainer, reason: ReasonSandboxDisabled, ignored: true,
			explanation: "label nvidia.com/gpu.workload.config=vm-vgpu ignored: sandboxWorkloads disabled in the GPU Operator defaults",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.policy.EffectiveMode(tc.labels)
			if d.Mode != tc.want || d.Reason != tc.reason || d.LabelIgnored() != tc.ignored {
				t.Fatalf("got %+v (ignored %v), want %s/%s (ignored %v)", d, d.LabelIgnored(), tc.want, tc.reason, tc.ignored)
			}
			if got := d.Explain(tc.policy); got != tc.explanation {
				t.Fatalf("Explain() = %q, want %q", got, tc.explanation)
			}
		})
	}
}

func TestPolicySourceNamesArgs(t *testing.T) {
	p := SandboxPolicy{Source: PolicySource{Kind: SourcePluginArgs}}
	if got := p.EffectiveMode(nil).Explain(p); !strings.Contains(got, "the scheduler's plugin args") {
		t.Fatalf("Explain() = %q, want it to name the plugin args", got)
	}
}

// The operand settings that change what a node advertises: the vgpu.config
// an unlabelled vGPU node gets, and whether the sandbox device plugin runs.
func TestPolicyReadsOperandSettings(t *testing.T) {
	obj := clusterPolicy("cluster-policy", map[string]interface{}{"enabled": true})
	obj.Object["spec"].(map[string]interface{})["vgpuDeviceManager"] = map[string]interface{}{"config": map[string]interface{}{"name": "custom", "default": "A10-4Q"}}
	obj.Object["spec"].(map[string]interface{})["sandboxDevicePlugin"] = map[string]interface{}{"enabled": false}
	p, err := PolicyFromClusterPolicy(obj)
	if err != nil {
		t.Fatal(err)
	}
	if !p.NoSandboxDevicePlugin || p.VGPUConfigOf("") != "A10-4Q" || p.VGPUConfigOf("A10-12Q") != "A10-12Q" {
		t.Fatalf("policy %+v: want no sandbox device plugin and A10-4Q for an unlabelled node", p)
	}
	if got := DefaultPolicy().VGPUConfigOf(""); got != hardware.VGPUConfigDefault {
		t.Fatalf("without the setting an unlabelled node gets %q, want %q", got, hardware.VGPUConfigDefault)
	}
	obj.Object["spec"].(map[string]interface{})["sandboxDevicePlugin"] = map[string]interface{}{"enabled": "no"}
	if _, err := PolicyFromClusterPolicy(obj); err == nil || !strings.Contains(err.Error(), "spec.sandboxDevicePlugin.enabled is no (string)") {
		t.Fatalf("error %v, want one naming spec.sandboxDevicePlugin.enabled", err)
	}
}

// The operator's sample ClusterPolicy reads as the operator's defaults:
// sandbox workloads off, vgpu.config default, the sandbox device plugin on.
func TestPolicyOfTheUpstreamSample(t *testing.T) {
	var obj unstructured.Unstructured
	if err := yaml.Unmarshal(upstream.Read(t, "NVIDIA+gpu-operator/config/samples/v1_clusterpolicy.yaml"), &obj.Object); err != nil {
		t.Fatal(err)
	}
	p, err := PolicyFromClusterPolicy(&obj)
	if err != nil {
		t.Fatal(err)
	}
	if p.Enabled || p.DefaultWorkload != ModeContainer || p.Runtime != RuntimeKubeVirt || p.NoSandboxDevicePlugin || p.VGPUConfigOf("") != hardware.VGPUConfigDefault {
		t.Fatalf("sample ClusterPolicy read as %+v", p)
	}
}
