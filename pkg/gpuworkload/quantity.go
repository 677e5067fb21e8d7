package gpuworkload

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// MaxUnits bounds the units of one GPU resource on a node or in a pod: far
// above any node (8 GPUs of 32 vGPUs each, or time-sliced replicas) and far
// below where sums of int64 counts could wrap.
const MaxUnits = 1 << 16

// Units reads a GPU resource quantity as a whole number of units from 0 to
// MaxUnits. Every count the tools take from a node or a pod goes through it,
// so that 500m, -1 or 1e400 is an error rather than a count that wraps.
func Units(q resource.Quantity) (int64, error) {
	// Zero first: a zero with a huge exponent (0E55535556, from a file)
	// takes AsInt64 and Cmp seconds of big-number arithmetic.
	if q.IsZero() {
		return 0, nil
	}
	// AsInt64 is exact: it fails for a fraction, where Value and MilliValue
	// round (0.9991 is not 1 GPU), and for what int64 cannot hold.
	if units, whole := q.AsInt64(); whole && units >= 0 && units <= MaxUnits {
		return units, nil
	}
	return 0, fmt.Errorf("%s is not a whole number of units from 0 to %d", q.String(), MaxUnits)
}

// PodGPUResourceErrors lists the pod's GPU resource fields that the API
// server would reject or that are out of Units' range, each with its field
// path. Pods read from files never met the API server's validation.
func PodGPUResourceErrors(pod *v1.Pod) field.ErrorList { return podGPUResourceErrors(pod, true) }

// PodGPUQuantityErrors lists the pod's GPU quantities out of Units' range,
// for a pod that met the API server's validation.
func PodGPUQuantityErrors(pod *v1.Pod) field.ErrorList { return podGPUResourceErrors(pod, false) }

// podGPUResourceErrors checks every GPU quantity of the pod with Units; with
// apiRules also what the API server enforces, which a pod the scheduler
// sees has met already.
func podGPUResourceErrors(pod *v1.Pod, apiRules bool) field.ErrorList {
	var errs field.ErrorList
	if r := pod.Spec.Resources; r != nil && apiRules {
		for _, list := range []struct {
			name string
			list v1.ResourceList
		}{{"requests", r.Requests}, {"limits", r.Limits}} {
			for name := range list.list {
				if strings.HasPrefix(string(name), hardware.ResourceDomain) {
					errs = append(errs, field.Forbidden(field.NewPath("spec", "resources", list.name).Key(string(name)),
						"the API server takes only cpu, memory and hugepages at pod level; put GPU resources in a container's resources"))
				}
			}
		}
	}
	for name, q := range pod.Spec.Overhead {
		if !strings.HasPrefix(string(name), hardware.ResourceDomain) {
			continue
		}
		if _, err := Units(q); err != nil {
			errs = append(errs, field.Invalid(field.NewPath("spec", "overhead").Key(string(name)), q.String(), err.Error()))
		}
	}
	for _, list := range []struct {
		name       string
		containers []v1.Container
	}{{"initContainers", pod.Spec.InitContainers}, {"containers", pod.Spec.Containers}} {
		for i := range list.containers {
			errs = append(errs, containerGPUResourceErrors(&list.containers[i].Resources, list.name, i, apiRules)...)
		}
	}
	return errs
}

// containerGPUResourceErrors checks the GPU requests and limits of
// spec.<kind>[index]; the path is built only for an error.
func containerGPUResourceErrors(r *v1.ResourceRequirements, kind string, index int, apiRules bool) field.ErrorList {
	path := func() *field.Path { return field.NewPath("spec", kind).Index(index).Child("resources") }
	var errs field.ErrorList
	for name, limit := range r.Limits {
		if !strings.HasPrefix(string(name), hardware.ResourceDomain) {
			continue
		}
		if _, err := Units(limit); err != nil {
			errs = append(errs, field.Invalid(path().Child("limits").Key(string(name)), limit.String(), err.Error()))
		}
	}
	for name, request := range r.Requests {
		if !strings.HasPrefix(string(name), hardware.ResourceDomain) {
			continue
		}
		limit, limited := r.Limits[name]
		switch _, err := Units(request); {
		case err != nil:
			errs = append(errs, field.Invalid(path().Child("requests").Key(string(name)), request.String(), err.Error()))
		case !apiRules:
		case !limited:
			errs = append(errs, field.Required(path().Child("limits").Key(string(name)),
				fmt.Sprintf("the API server requires a limit equal to the request (%s) for an extended resource", request.String())))
		case request.Cmp(limit) != 0:
			errs = append(errs, field.Invalid(path().Child("requests").Key(string(name)), request.String(),
				fmt.Sprintf("the API server requires an extended resource's request to equal its limit (%s)", limit.String())))
		}
	}
	return errs
}
