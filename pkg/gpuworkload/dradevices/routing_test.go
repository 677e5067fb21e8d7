package dradevices

import (
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/test/upstream"
)

// compileNameRule compiles GPUResourceNameCEL in the API server's base CEL
// environment, as an admission policy's expression is compiled.
func compileNameRule(t testing.TB) cel.Program {
	t.Helper()
	env, err := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0),
		EnvOptions:        []cel.EnvOption{cel.Variable("name", cel.StringType)},
	})
	if err != nil {
		t.Fatal(err)
	}
	ast, issues := env.StoredExpressionsEnv().Compile(GPUResourceNameCEL("name"))
	if issues.Err() != nil {
		t.Fatalf("GPUResourceNameCEL does not compile: %v", issues.Err())
	}
	program, err := env.StoredExpressionsEnv().Program(ast)
	if err != nil {
		t.Fatal(err)
	}
	return program
}

func evalNameRule(t testing.TB, program cel.Program, name string) bool {
	t.Helper()
	out, _, err := program.Eval(map[string]any{"name": name})
	if err != nil {
		t.Fatalf("%q: %v", name, err)
	}
	return out.Value().(bool)
}

// The routing policy's CEL decides every name as IsGPUResourceName does:
// the name rules of each mode, the names that are not GPUs, the driver's
// implicit DeviceClass names, and every vGPU type of the GPU Operator's
// vGPU device manager configuration.
func TestGPUResourceNameCELIsTheClassifiersRule(t *testing.T) {
	program := compileNameRule(t)
	names := map[string]bool{
		"nvidia.com/gpu": true, "nvidia.com/gpu.shared": true, "nvidia.com/mig-1g.5gb": true,
		"nvidia.com/mig-1c.2g.10gb.shared": true, "nvidia.com/GA102GL_A10": true, "nvidia.com/26b5": true,
		"nvidia.com/NVIDIA_A10-12Q": true, "nvidia.com/pgpu": true, "nvidia.com/renamed-gpu": true, "nvidia.com/": true,
		"nvidia.com/mlnxnics": false, "nvidia.com/hostdev_a": false, "nvidia.com/rdma_shared_device_a": false,
		"nvidia.com/sriov_net": false, "nvidia.com/nvswitch": false,
		"deviceclass.resource.kubernetes.io/gpu.nvidia.com": true, "deviceclass.resource.kubernetes.io/mig.nvidia.com": true,
		"deviceclass.resource.kubernetes.io/vfio.gpu.nvidia.com": true, "deviceclass.resource.kubernetes.io/fpga.example.com": false,
		"cpu": false, "memory": false, "hugepages-1Gi": false, "devices.kubevirt.io/kvm": false, "example.com/gpu": false,
		"nvidia.com.evil/gpu": false, "xnvidia.com/gpu": false,
	}
	var cm struct {
		Data map[string]string `json:"data"`
	}
	if err := yaml.Unmarshal(upstream.Read(t, "NVIDIA+gpu-operator/assets/state-vgpu-device-manager/0500_configmap.yaml"), &cm); err != nil {
		t.Fatal(err)
	}
	var config struct {
		VGPUConfigs map[string]any `json:"vgpu-configs"`
	}
	if err := yaml.Unmarshal([]byte(cm.Data["config.yaml"]), &config); err != nil {
		t.Fatal(err)
	}
	for profile := range config.VGPUConfigs {
		names["nvidia.com/NVIDIA_"+profile] = true
	}
	for name, want := range names {
		if got := IsGPUResourceName(v1.ResourceName(name)); got != want {
			t.Errorf("IsGPUResourceName(%q) = %v, want %v", name, got, want)
		}
		if got := evalNameRule(t, program, name); got != want {
			t.Errorf("GPUResourceNameCEL on %q = %v, want %v", name, got, want)
		}
	}
}

func FuzzGPUResourceNameCEL(f *testing.F) {
	for _, seed := range []string{"nvidia.com/gpu", "nvidia.com/rdma_a", "deviceclass.resource.kubernetes.io/gpu.nvidia.com", "cpu", "nvidia.com/NVIDIA_A10-12Q"} {
		f.Add(seed)
	}
	program := compileNameRule(f)
	f.Fuzz(func(t *testing.T, name string) {
		if !strings.Contains(name, "/") && len(name) > 0 {
			name = "nvidia.com/" + name
		}
		if got, want := evalNameRule(t, program, name), IsGPUResourceName(v1.ResourceName(name)); got != want {
			t.Errorf("GPUResourceNameCEL on %q = %v, IsGPUResourceName %v", name, got, want)
		}
	})
}
