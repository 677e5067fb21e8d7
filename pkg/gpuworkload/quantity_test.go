package gpuworkload

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		quantity string
		want     int64
		err      string
	}{
		{quantity: "0", want: 0},
		{quantity: "4", want: 4},
		{quantity: "1k", want: 1000},
		{quantity: "65536", want: 65536},
		{quantity: "65537", err: "65537 is not a whole number of units from 0 to 65536"},
		{quantity: "-1", err: "-1 is not a whole number of units from 0 to 65536"},
		{quantity: "0.5", err: "500m is not a whole number of units from 0 to 65536"},
		{quantity: "0.9991", err: "999100u is not a whole number of units from 0 to 65536"},
		{quantity: "1001m", err: "1001m is not a whole number of units from 0 to 65536"},
		{quantity: "9223372036854775807", err: "9223372036854775807 is not a whole number of units from 0 to 65536"},
		{quantity: "9223372036854775808", err: "9223372036854775808 is not a whole number of units from 0 to 65536"},
		{quantity: "1e400", err: "10e399 is not a whole number of units from 0 to 65536"},
	} {
		t.Run(tc.quantity, func(t *testing.T) {
			got, err := Units(resource.MustParse(tc.quantity))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("Units(%s) = %d, %v; want error %q", tc.quantity, got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Units(%s) = %d, %v; want %d", tc.quantity, got, err, tc.want)
			}
		})
	}
}

func TestPodGPUResourceErrors(t *testing.T) {
	q := resource.MustParse
	container := func(requests, limits v1.ResourceList) v1.Container {
		return v1.Container{Name: "c", Resources: v1.ResourceRequirements{Requests: requests, Limits: limits}}
	}
	for _, tc := range []struct {
		name string
		spec v1.PodSpec
		want string
	}{
		{name: "limits only", spec: v1.PodSpec{Containers: []v1.Container{container(nil, v1.ResourceList{ResourceGPU: q("2")})}}},
		{name: "request equals limit", spec: v1.PodSpec{Containers: []v1.Container{container(v1.ResourceList{ResourceGPU: q("2")}, v1.ResourceList{ResourceGPU: q("2")})}}},
		{name: "fractional limit", spec: v1.PodSpec{Containers: []v1.Container{container(nil, v1.ResourceList{ResourceGPU: q("0.5")})}},
			want: `spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "500m": 500m is not a whole number of units from 0 to 65536`},
		{name: "request without limit", spec: v1.PodSpec{Containers: []v1.Container{container(v1.ResourceList{ResourceGPU: q("1")}, nil)}},
			want: "spec.containers[0].resources.limits[nvidia.com/gpu]: Required value: the API server requires a limit equal to the request (1) for an extended resource"},
		{name: "request above limit", spec: v1.PodSpec{Containers: []v1.Container{container(v1.ResourceList{ResourceGPU: q("2")}, v1.ResourceList{ResourceGPU: q("1")})}},
			want: `spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: "2": the API server requires an extended resource's request to equal its limit (1)`},
		{name: "2^63 in an init container", spec: v1.PodSpec{InitContainers: []v1.Container{container(nil, v1.ResourceList{ResourceGPU: q("9223372036854775808")})}},
			want: `spec.initContainers[0].resources.limits[nvidia.com/gpu]: Invalid value: "9223372036854775808": 9223372036854775808 is not a whole number of units from 0 to 65536`},
		{name: "pod-level GPU", spec: v1.PodSpec{Resources: &v1.ResourceRequirements{Limits: v1.ResourceList{ResourceGPU: q("1")}}, Containers: []v1.Container{container(nil, nil)}},
			want: "spec.resources.limits[nvidia.com/gpu]: Forbidden: the API server takes only cpu, memory and hugepages at pod level; put GPU resources in a container's resources"},
		{name: "CPU is not ours to judge", spec: v1.PodSpec{Containers: []v1.Container{container(v1.ResourceList{v1.ResourceCPU: q("2")}, v1.ResourceList{v1.ResourceCPU: q("1")})}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: tc.spec}
			got := ""
			if errs := PodGPUResourceErrors(pod); len(errs) > 0 {
				got = errs.ToAggregate().Error()
			}
			if got != tc.want {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// A zero with a huge exponent, which a file can hold, is 0: Units reads
// it without comparing it, which took 17 s of big-number arithmetic
// (found by FuzzUnits).
func TestUnitsOfHugeExponents(t *testing.T) {
	for s, want := range map[string]int64{"E55535556": 0, "0E55535556": 0, "1E55535556": -1} {
		units, err := Units(resource.MustParse(s))
		if want < 0 && err == nil || want >= 0 && (err != nil || units != want) {
			t.Errorf("Units(%s) = %d, %v; want %d (-1: an error)", s, units, err, want)
		}
	}
}
