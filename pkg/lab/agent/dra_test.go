package agent

import (
	"context"
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices/dratest"
)

// sliceOf is the node's slice: its device names and pool generation.
func sliceOf(t *testing.T, a *agent) ([]string, int64) {
	t.Helper()
	slice, err := a.client.ResourceV1().ResourceSlices().Get(context.Background(), "n1-slice", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range slice.Spec.Devices {
		names = append(names, d.Name)
	}
	slices.Sort(names)
	return names, slice.Spec.Pool.Generation
}

// As the driver does: a VM's vfio claim prepared withdraws the GPU's
// container device from the node's slice, a new generation, until the pod
// is gone; a container claim's device withdraws nothing.
func TestPrepareDRAWithdrawsTheContainerDevice(t *testing.T) {
	pod := func(name, claim string) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}, Spec: v1.PodSpec{NodeName: "n1",
			ResourceClaims: []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To(claim)}}}}
	}
	vm, cuda := pod("vm", "vm-claim"), pod("cuda", "cuda-claim")
	client := fake.NewClientset(dradevices.DriverSlice("n1", 2),
		dratest.AllocatedClaim("ns", "vm-claim", "n1", dradevices.DRAVFIODevice(0)),
		dratest.AllocatedClaim("ns", "cuda-claim", "n1", dradevices.DRAGPUDevice(1)))
	a := &agent{client: client, prepared: map[string][]withdrawnDevice{}}
	ctx := context.Background()
	for _, p := range []*v1.Pod{vm, cuda} {
		if err := a.prepareDRA(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if names, generation := sliceOf(t, a); !slices.Equal(names, []string{"gpu-1", "gpu-vfio-0", "gpu-vfio-1"}) || generation != 1 {
		t.Fatalf("prepared: devices %v, generation %d; want gpu-0 withdrawn in generation 1", names, generation)
	}
	for _, key := range []string{"ns/cuda", "ns/vm"} {
		if err := a.unprepareDRA(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	if names, generation := sliceOf(t, a); !slices.Equal(names, []string{"gpu-0", "gpu-1", "gpu-vfio-0", "gpu-vfio-1"}) || generation != 2 {
		t.Fatalf("unprepared: devices %v, generation %d; want gpu-0 published again in generation 2", names, generation)
	}
}
