package poddemand

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// container requests and limits the quantities, by resource name; nil
// leaves the list out.
func container(requests, limits map[string]string) v1.Container {
	c := v1.Container{Name: "c"}
	for lists, quantities := range map[*v1.ResourceList]map[string]string{&c.Resources.Requests: requests, &c.Resources.Limits: limits} {
		for name, q := range quantities {
			if *lists == nil {
				*lists = v1.ResourceList{}
			}
			(*lists)[v1.ResourceName(name)] = resource.MustParse(q)
		}
	}
	return c
}

func TestNewPodDemand(t *testing.T) {
	always := v1.ContainerRestartPolicyAlways
	sidecar := container(map[string]string{"nvidia.com/gpu": "1"}, nil)
	sidecar.RestartPolicy = &always
	for _, tc := range []struct {
		name  string
		spec  v1.PodSpec
		want  []ResourceRequest
		modes []gpuworkload.Mode
	}{
		{
			name: "no GPU",
			spec: v1.PodSpec{Containers: []v1.Container{container(map[string]string{"cpu": "1"}, nil)}},
		},
		{
			name: "NIC only is not GPU demand",
			spec: v1.PodSpec{Containers: []v1.Container{container(map[string]string{"nvidia.com/hostdev": "1"}, nil)}},
		},
		{
			name:  "container GPUs summed over containers",
			spec:  v1.PodSpec{Containers: []v1.Container{container(map[string]string{"nvidia.com/gpu": "1"}, nil), container(map[string]string{"nvidia.com/gpu": "2"}, nil)}},
			want:  []ResourceRequest{{Name: "nvidia.com/gpu", Class: gpuworkload.ClassContainerGPU, Count: 3}},
			modes: []gpuworkload.Mode{gpuworkload.ModeContainer},
		},
		{
			name: "init container takes the max",
			spec: v1.PodSpec{
				InitContainers: []v1.Container{container(map[string]string{"nvidia.com/gpu": "4"}, nil)},
				Containers:     []v1.Container{container(map[string]string{"nvidia.com/gpu": "1"}, nil)},
			},
			want:  []ResourceRequest{{Name: "nvidia.com/gpu", Class: gpuworkload.ClassContainerGPU, Count: 4}},
			modes: []gpuworkload.Mode{gpuworkload.ModeContainer},
		},
		{
			name: "sidecar adds to the containers",
			spec: v1.PodSpec{
				InitContainers: []v1.Container{sidecar},
				Containers:     []v1.Container{container(map[string]string{"nvidia.com/gpu": "1"}, nil)},
			},
			want:  []ResourceRequest{{Name: "nvidia.com/gpu", Class: gpuworkload.ClassContainerGPU, Count: 2}},
			modes: []gpuworkload.Mode{gpuworkload.ModeContainer},
		},
		{
			name: "overhead counts",
			spec: v1.PodSpec{
				Overhead:   v1.ResourceList{"nvidia.com/GA102GL_A10": resource.MustParse("1")},
				Containers: []v1.Container{container(map[string]string{"cpu": "1"}, nil)},
			},
			want:  []ResourceRequest{{Name: "nvidia.com/GA102GL_A10", Class: gpuworkload.ClassPassthroughGPU, Count: 1}},
			modes: []gpuworkload.Mode{gpuworkload.ModePassthrough},
		},
		{
			name:  "limits only, as in a manifest file",
			spec:  v1.PodSpec{Containers: []v1.Container{container(nil, map[string]string{"nvidia.com/NVIDIA_A10-12Q": "1"})}},
			want:  []ResourceRequest{{Name: "nvidia.com/NVIDIA_A10-12Q", Class: gpuworkload.ClassVGPUProfile, Count: 1}},
			modes: []gpuworkload.Mode{gpuworkload.ModeVGPU},
		},
		{
			name: "two modes conflict",
			spec: v1.PodSpec{Containers: []v1.Container{container(map[string]string{"nvidia.com/gpu": "1", "nvidia.com/GA102GL_A10": "1"}, nil)}},
			want: []ResourceRequest{
				{Name: "nvidia.com/GA102GL_A10", Class: gpuworkload.ClassPassthroughGPU, Count: 1},
				{Name: "nvidia.com/gpu", Class: gpuworkload.ClassContainerGPU, Count: 1},
			},
			modes: []gpuworkload.Mode{gpuworkload.ModeContainer, gpuworkload.ModePassthrough},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: tc.spec}
			before := pod.DeepCopy()
			d := NewPodDemand(pod, nil)
			if !slices.Equal(d.Requests, tc.want) || !slices.Equal(d.Modes, tc.modes) {
				t.Fatalf("got %+v modes %v, want %+v modes %v", d.Requests, d.Modes, tc.want, tc.modes)
			}
			if d.IsGPU() != (len(tc.want) > 0) || d.Conflict() != (len(tc.modes) > 1) {
				t.Fatalf("IsGPU %v Conflict %v", d.IsGPU(), d.Conflict())
			}
			if m, ok := d.Mode(); ok != (len(tc.modes) == 1) || (ok && m != tc.modes[0]) {
				t.Fatalf("Mode() = %s, %v", m, ok)
			}
			if pod.String() != before.String() {
				t.Fatal("NewPodDemand mutated the pod")
			}
		})
	}
}

func TestNewPodDemandCPUAndMemory(t *testing.T) {
	for _, tc := range []struct {
		name             string
		spec             v1.PodSpec
		milliCPU, memory int64
	}{
		{
			name: "GPU pod: effective requests, the init container's if larger",
			spec: v1.PodSpec{
				InitContainers: []v1.Container{container(map[string]string{"cpu": "6", "memory": "1Gi"}, nil)},
				Containers: []v1.Container{
					container(map[string]string{"nvidia.com/gpu": "1", "cpu": "2", "memory": "8Gi"}, nil),
					container(map[string]string{"cpu": "500m", "memory": "1Gi"}, nil),
				},
			},
			milliCPU: 6000, memory: 9 << 30,
		},
		{
			name:     "GPU limits only: CPU and memory requests as given",
			spec:     v1.PodSpec{Containers: []v1.Container{container(map[string]string{"cpu": "3"}, map[string]string{"nvidia.com/GA102GL_A10": "1", "cpu": "4"})}},
			milliCPU: 3000,
		},
		{
			name: "no nvidia.com resource: not computed",
			spec: v1.PodSpec{Containers: []v1.Container{container(map[string]string{"cpu": "2", "memory": "1Gi"}, nil)}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewPodDemand(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: tc.spec}, nil)
			if d.MilliCPU != tc.milliCPU || d.Memory != tc.memory {
				t.Fatalf("got %dm CPU and %d bytes, want %dm and %d", d.MilliCPU, d.Memory, tc.milliCPU, tc.memory)
			}
		})
	}
}

func TestVMIOf(t *testing.T) {
	launcher := &v1.Pod{ObjectMeta: metav1.ObjectMeta{
		Name: "virt-launcher-vm-a10-x7k2p", Namespace: "vms",
		Labels:          map[string]string{"kubevirt.io": "virt-launcher", "kubevirt.io/created-by": "uid-1", "vm.kubevirt.io/name": "vm-a10"},
		Annotations:     map[string]string{"kubevirt.io/domain": "vm-a10"},
		OwnerReferences: []metav1.OwnerReference{{Kind: "VirtualMachineInstance", Name: "vm-a10", UID: "uid-1"}},
	}}
	if got := gpuworkload.VMIOf(launcher); got == nil || *got != (gpuworkload.VMIRef{Namespace: "vms", Name: "vm-a10", UID: "uid-1"}) || got.String() != "VirtualMachineInstance/vms/vm-a10" {
		t.Fatalf("VMIOf = %+v", got)
	}
	ownerOnly := launcher.DeepCopy()
	ownerOnly.Annotations = nil
	ownerOnly.Labels = map[string]string{"kubevirt.io": "virt-launcher"}
	if got := gpuworkload.VMIOf(ownerOnly); got == nil || got.Name != "vm-a10" || got.UID != "uid-1" {
		t.Fatalf("VMIOf from owner reference = %+v", got)
	}
	plain := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{"kubevirt.io": "virt-handler"}}}
	if got := gpuworkload.VMIOf(plain); got != nil {
		t.Fatalf("VMIOf(non-launcher) = %+v", got)
	}
}

func TestHoldsGPU(t *testing.T) {
	limits := func(name v1.ResourceName) *v1.Pod {
		return &v1.Pod{Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{
			Limits: v1.ResourceList{name: resource.MustParse("1")}}}}}}
	}
	sharedNode := &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: map[string]string{gpuworkload.LabelWorkloadConfig: "container"}},
		Status:     v1.NodeStatus{Capacity: v1.ResourceList{"nvidia.com/gpu-shared": resource.MustParse("4")}},
	}
	observed := gpuworkload.NewClassifier(gpuworkload.ClassifierConfig{}, gpuworkload.SandboxPolicy{Enabled: true}, []*v1.Node{sharedNode})
	finished := limits(gpuworkload.ResourceGPU)
	finished.Status.Phase = v1.PodSucceeded
	withClaim := &v1.Pod{Spec: v1.PodSpec{ResourceClaims: []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("gpu")}}}}
	launcher := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"kubevirt.io": "virt-launcher"}, Annotations: map[string]string{"kubevirt.io/domain": "vm"}}}
	for _, tc := range []struct {
		name       string
		pod        *v1.Pod
		classifier *gpuworkload.Classifier
		want       bool
	}{
		{"a container GPU", limits(gpuworkload.ResourceGPU), nil, true},
		{"finished", finished, nil, false},
		{"a CPU pod", &v1.Pod{Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c"}}}}, nil, false},
		{"a NIC is not a GPU", limits("nvidia.com/hostdev"), nil, false},
		{"a renamed resource a container node advertises", limits("nvidia.com/gpu-shared"), observed, true},
		{"a renamed resource nothing places", limits("nvidia.com/gpu-shared"), nil, true},
		{"a ResourceClaim", withClaim, nil, true},
		{"a virt-launcher pod", launcher, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := HoldsGPU(tc.pod, tc.classifier); got != tc.want {
				t.Errorf("HoldsGPU = %v, want %v", got, tc.want)
			}
		})
	}
}

func BenchmarkNewPodDemand(b *testing.B) {
	pod := func(requests map[string]string) *v1.Pod {
		return &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"},
			Spec: v1.PodSpec{Containers: []v1.Container{
				container(requests, nil),
				container(map[string]string{"cpu": "100m", "memory": "64Mi"}, nil),
			}},
		}
	}
	for _, bc := range []struct {
		name string
		pod  *v1.Pod
	}{
		{"non-gpu", pod(map[string]string{"cpu": "2", "memory": "4Gi"})},
		{"container-gpu", pod(map[string]string{"cpu": "2", "memory": "4Gi", "nvidia.com/gpu": "1"})},
		{"passthrough", pod(map[string]string{"cpu": "2", "memory": "4Gi", "nvidia.com/GA102GL_A10": "1"})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewPodDemand(bc.pod, nil)
			}
		})
	}
}

func TestNewPodDemandRejectsUncountableRequests(t *testing.T) {
	for _, tc := range []struct {
		name       string
		containers []string
		want       string
	}{
		{name: "1e400", containers: []string{"1e400"},
			want: `spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "10e399": 10e399 is not a whole number of units from 0 to 65536`},
		{name: "each container in range, their sum not", containers: []string{"40000", "40000"},
			want: "the containers' requests of nvidia.com/gpu add up to more than a pod can ask: 80k is not a whole number of units from 0 to 65536"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}}
			for _, count := range tc.containers {
				pod.Spec.Containers = append(pod.Spec.Containers, v1.Container{Resources: v1.ResourceRequirements{Limits: v1.ResourceList{gpuworkload.ResourceGPU: resource.MustParse(count)}}})
			}
			d := NewPodDemand(pod, nil)
			if d.IsGPU() || d.Invalid == nil || d.Invalid.Error() != tc.want {
				t.Fatalf("demand %+v, Invalid %v; want no requests and %q", d.Requests, d.Invalid, tc.want)
			}
		})
	}
}

// The modes of a pod's requests are listed within a bound however many it
// asks for.
func TestRequestModesAreBounded(t *testing.T) {
	pod := &v1.Pod{Spec: v1.PodSpec{Containers: []v1.Container{{Resources: v1.ResourceRequirements{Limits: v1.ResourceList{}}}}}}
	for i := range 4_000 {
		pod.Spec.Containers[0].Resources.Limits[v1.ResourceName(fmt.Sprintf("nvidia.com/NVIDIA_A10-%dQ", i))] = resource.MustParse("1")
	}
	pod.Spec.Containers[0].Resources.Limits["nvidia.com/gpu"] = resource.MustParse("1")
	demand := NewPodDemand(pod, gpuworkload.NewClassifier(gpuworkload.ClassifierConfig{}, enabledPolicy(gpuworkload.ModeContainer), nil))
	if modes := demand.RequestModes(); len(modes) > 1024 || !strings.HasSuffix(modes, " and 3,991 more") {
		t.Errorf("a pod of 4,001 requests: %d characters, %.200q ... %q", len(modes), modes, modes[max(0, len(modes)-40):])
	}
}
