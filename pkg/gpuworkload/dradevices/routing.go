package dradevices

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// driverClassResources are the extended resources the driver's GPU
// DeviceClasses serve implicitly, whatever their extendedResourceName
// (KEP-5004): deviceclass.resource.kubernetes.io/<class>.
var driverClassResources = func() []string {
	names := make([]string, 0, len(draClassTypes))
	for _, class := range slices.Sorted(maps.Keys(draClassTypes)) {
		names = append(names, resourceapi.ResourceDeviceClassPrefix+class)
	}
	return names
}()

// IsGPUResourceName says whether a pod that requests the resource asks for a
// GPU, by names alone, as an admission policy must decide before any node,
// KubeVirt CR or DeviceClass is read: a name the name rules may take for a
// GPU (Classifier.MayBeGPU of a nil Classifier) or one the driver's GPU
// DeviceClasses serve implicitly.
func IsGPUResourceName(name v1.ResourceName) bool {
	var names *gpuworkload.Classifier
	return names.MayBeGPU(name) || slices.Contains(driverClassResources, string(name))
}

// GPUResourceNameCEL is IsGPUResourceName as a CEL expression over the
// string variable named by variable: the chart's routing policy is
// generated from it.
func GPUResourceNameCEL(variable string) string {
	quoted := make([]string, len(driverClassResources))
	for i, name := range driverClassResources {
		quoted[i] = fmt.Sprintf("%q", name)
	}
	return fmt.Sprintf("(%s) || %s in [%s]", gpuworkload.MayBeGPUNameCEL(variable), variable, strings.Join(quoted, ", "))
}
