package poddemand

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Three VMs bound to a node with two passthrough A10s: the finding names
// the node's resource, the counts and the pods; finished pods hold nothing.
func TestOverCommitFindings(t *testing.T) {
	const a10 v1.ResourceName = "nvidia.com/GA102GL_A10"
	list := v1.ResourceList{a10: resource.MustParse("2")}
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "pt-08", Labels: map[string]string{gpuworkload.LabelGPUPresent: "true", gpuworkload.LabelWorkloadConfig: string(gpuworkload.ModePassthrough)}},
		Status: v1.NodeStatus{Capacity: list, Allocatable: list}}
	policy := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer}
	state := gpuworkload.NewNodeState(node, policy, nil)
	vm := func(name string, phase v1.PodPhase) *v1.Pod {
		requests := v1.ResourceList{a10: resource.MustParse("1")}
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "vms", Name: name}, Spec: v1.PodSpec{NodeName: "pt-08",
			Containers: []v1.Container{{Name: "compute", Resources: v1.ResourceRequirements{Requests: requests, Limits: requests}}}}, Status: v1.PodStatus{Phase: phase}}
	}
	pods := []*v1.Pod{vm("virt-launcher-a", v1.PodRunning), vm("virt-launcher-b", v1.PodRunning), vm("virt-launcher-done", v1.PodSucceeded)}
	if got := OverCommitFindings(state, pods, nil); len(got) != 0 {
		t.Fatalf("findings for a node whose pods fit: %v", got)
	}
	got := OverCommitFindings(state, append(pods, vm("virt-launcher-c", v1.PodPending)), nil)
	want := "3 units of nvidia.com/GA102GL_A10 are bound to the node, which has 2 allocatable: vms/virt-launcher-a (1), vms/virt-launcher-b (1), vms/virt-launcher-c (1)"
	if len(got) != 1 || got[0].Code != gpuworkload.FindingOverCommitted || got[0].Severity != gpuworkload.SeverityError || got[0].Message != want {
		t.Fatalf("findings %+v, want one OverCommitted error: %s", got, want)
	}
}

// GPU pods another scheduler bound are reported per scheduler, with the
// units they hold, device-plugin resources and claimed DRA devices alike;
// our pods, CPU pods and finished pods are not.
func TestOtherSchedulerFindings(t *testing.T) {
	pod := func(name, scheduler string, phase v1.PodPhase, gpus string) *v1.Pod {
		limits := v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}
		if gpus != "" {
			limits[gpuworkload.ResourceGPU] = resource.MustParse(gpus)
		}
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ml", Name: name, UID: types.UID(name)}, Spec: v1.PodSpec{NodeName: "n1", SchedulerName: scheduler,
			Containers: []v1.Container{{Name: "main", Resources: v1.ResourceRequirements{Requests: limits, Limits: limits}}}}, Status: v1.PodStatus{Phase: phase}}
	}
	pods := []*v1.Pod{
		pod("ours", "gpu-workload-scheduler", v1.PodRunning, "4"),
		pod("train", "default-scheduler", v1.PodRunning, "2"),
		pod("claims", "default-scheduler", v1.PodRunning, ""),
		pod("cpu", "default-scheduler", v1.PodRunning, ""),
		pod("done", "default-scheduler", v1.PodSucceeded, "1"),
		pod("gang", "volcano", v1.PodPending, "1"),
	}
	got := OtherSchedulerFindings(pods, nil, "gpu-workload-scheduler", map[types.UID]int64{"claims": 1})
	want := []string{
		"2 GPU pod(s) bound by scheduler default-scheduler hold 2 nvidia.com/gpu, 1 DRA device(s) through claims: ml/train, ml/claims",
		"1 GPU pod(s) bound by scheduler volcano hold 1 nvidia.com/gpu: ml/gang",
	}
	if len(got) != len(want) {
		t.Fatalf("findings %+v, want %d", got, len(want))
	}
	for i, f := range got {
		if f.Code != gpuworkload.FindingOtherSchedulerGPUPods || f.Severity != gpuworkload.SeverityInfo || f.Message != want[i] {
			t.Errorf("finding %d: %+v, want an OtherSchedulerGPUPods info: %s", i, f, want[i])
		}
	}
}
