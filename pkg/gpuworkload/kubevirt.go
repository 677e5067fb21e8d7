package gpuworkload

import (
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// KubeVirt coordinates.
const (
	KubeVirtGroup    = "kubevirt.io"
	KubeVirtVersion  = "v1"
	KubeVirtKind     = "KubeVirt"
	KubeVirtResource = "kubevirts"
	// VMIResource is the VirtualMachineInstance resource of the same group and version.
	VMIResource = "virtualmachineinstances"

	labelKubeVirtApp      = "kubevirt.io"
	virtLauncherAppValue  = "virt-launcher"
	labelCreatedBy        = "kubevirt.io/created-by"
	annotationDomain      = "kubevirt.io/domain"
	kindVirtualMachineVMI = "VirtualMachineInstance"
)

// PermittedDevice is one entry of permittedHostDevices.pciHostDevices or .mediatedDevices.
type PermittedDevice struct {
	ResourceName v1.ResourceName
	// External: an external device plugin (the sandbox device plugin) advertises it.
	External bool
}

// PermittedHostDevices is a KubeVirt CR's spec.configuration.permittedHostDevices.
type PermittedHostDevices struct {
	// Source names the KubeVirt CR: KubeVirt/<namespace>/<name>.
	Source          string
	PCIHostDevices  []PermittedDevice
	MediatedDevices []PermittedDevice
}

// Permits reports whether a VMI may use the resource. With no list at all
// (nil receiver) KubeVirt checks nothing, so everything is permitted.
func (p *PermittedHostDevices) Permits(name v1.ResourceName) bool {
	if p == nil {
		return true
	}
	for _, list := range [][]PermittedDevice{p.PCIHostDevices, p.MediatedDevices} {
		for _, d := range list {
			if d.ResourceName == name {
				return true
			}
		}
	}
	return false
}

// PermittedHostDevicesFromKubeVirt reads permittedHostDevices from a KubeVirt
// CR. It returns nil when the CR has no such list.
func PermittedHostDevicesFromKubeVirt(obj *unstructured.Unstructured) (*PermittedHostDevices, error) {
	source := fmt.Sprintf("KubeVirt/%s/%s", obj.GetNamespace(), obj.GetName())
	raw, found, err := unstructured.NestedMap(obj.Object, "spec", "configuration", "permittedHostDevices")
	if err != nil {
		return nil, fmt.Errorf("%s: spec.configuration.permittedHostDevices: %w; fix: make it an object with pciHostDevices and mediatedDevices lists", source, err)
	}
	if !found || raw == nil {
		return nil, nil
	}
	p := &PermittedHostDevices{Source: source}
	if p.PCIHostDevices, err = permittedList(raw, source, "pciHostDevices", "pciVendorSelector"); err != nil {
		return nil, err
	}
	if p.MediatedDevices, err = permittedList(raw, source, "mediatedDevices", "mdevNameSelector"); err != nil {
		return nil, err
	}
	return p, nil
}

func permittedList(raw map[string]interface{}, source, field, selectorField string) ([]PermittedDevice, error) {
	path := "spec.configuration.permittedHostDevices." + field
	items, found, err := unstructured.NestedSlice(raw, field)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w; fix: make it a list", source, path, err)
	}
	if !found {
		return nil, nil
	}
	out := make([]PermittedDevice, 0, len(items))
	for i, item := range items {
		entry, ok := item.(map[string]interface{})
		if !ok {
			return nil, fmt.Errorf("%s: %s[%d] is %T; fix: make each entry an object with %s and resourceName", source, path, i, item, selectorField)
		}
		name, _, err := unstructured.NestedString(entry, "resourceName")
		if err != nil || name == "" {
			return nil, fmt.Errorf("%s: %s[%d].resourceName is missing or not a string; fix: set it to the advertised resource, e.g. nvidia.com/GA102GL_A10", source, path, i)
		}
		if _, _, err := unstructured.NestedString(entry, selectorField); err != nil {
			return nil, fmt.Errorf("%s: %s[%d].%s: %w", source, path, i, selectorField, err)
		}
		external, _, err := unstructured.NestedBool(entry, "externalResourceProvider")
		if err != nil {
			return nil, fmt.Errorf("%s: %s[%d].externalResourceProvider: %w; fix: set it to true or false", source, path, i, err)
		}
		out = append(out, PermittedDevice{ResourceName: v1.ResourceName(name), External: external})
	}
	return out, nil
}

// VMIRef identifies the VirtualMachineInstance a virt-launcher pod runs.
type VMIRef struct {
	Namespace string
	Name      string
	UID       types.UID
}

func (r VMIRef) String() string { return "VirtualMachineInstance/" + r.Namespace + "/" + r.Name }

// VMIOf returns the VMI a virt-launcher pod belongs to, or nil for other pods.
func VMIOf(pod *v1.Pod) *VMIRef {
	if pod.Labels[labelKubeVirtApp] != virtLauncherAppValue {
		return nil
	}
	ref := &VMIRef{Namespace: pod.Namespace, Name: pod.Annotations[annotationDomain], UID: types.UID(pod.Labels[labelCreatedBy])}
	for _, owner := range pod.OwnerReferences {
		if owner.Kind == kindVirtualMachineVMI {
			if ref.Name == "" {
				ref.Name = owner.Name
			}
			if ref.UID == "" {
				ref.UID = owner.UID
			}
		}
	}
	return ref
}

// KubeVirt's feature gates that let a VMI take devices from ResourceClaims:
// gpus[] and hostDevices[] entries with a claimName.
const (
	GateGPUsWithDRA        = "GPUsWithDRA"
	GateHostDevicesWithDRA = "HostDevicesWithDRA"
)

// gpusWithDRABeta is the first KubeVirt minor version (1.x) with
// GPUsWithDRA on by default (beta).
const gpusWithDRABeta = 9

// KubeVirtDRAGates is what a KubeVirt CR says of its DRA feature gates.
type KubeVirtDRAGates struct {
	// GPUs and HostDevices say whether each gate is on.
	GPUs, HostDevices bool
	// GPUsKnown is false when the CR neither names GPUsWithDRA nor reports
	// the version its default depends on.
	GPUsKnown bool
}

// KubeVirtDRAGatesOf reads spec.configuration.developerConfiguration's
// featureGates and disabledFeatureGates, and status.observedKubeVirtVersion
// for GPUsWithDRA's default (on from v1.9). HostDevicesWithDRA is alpha:
// on only when listed.
func KubeVirtDRAGatesOf(obj *unstructured.Unstructured) (KubeVirtDRAGates, error) {
	source := fmt.Sprintf("KubeVirt/%s/%s", obj.GetNamespace(), obj.GetName())
	lists := map[string][]string{}
	for _, field := range []string{"featureGates", "disabledFeatureGates"} {
		list, _, err := unstructured.NestedStringSlice(obj.Object, "spec", "configuration", "developerConfiguration", field)
		if err != nil {
			return KubeVirtDRAGates{}, fmt.Errorf("%s: spec.configuration.developerConfiguration.%s: %w; fix: make it a list of gate names", source, field, err)
		}
		lists[field] = list
	}
	g := KubeVirtDRAGates{HostDevices: slices.Contains(lists["featureGates"], GateHostDevicesWithDRA) && !slices.Contains(lists["disabledFeatureGates"], GateHostDevicesWithDRA)}
	switch {
	case slices.Contains(lists["disabledFeatureGates"], GateGPUsWithDRA):
		g.GPUsKnown = true
	case slices.Contains(lists["featureGates"], GateGPUsWithDRA):
		g.GPUs, g.GPUsKnown = true, true
	default:
		version, _, _ := unstructured.NestedString(obj.Object, "status", "observedKubeVirtVersion")
		var minor int
		if _, err := fmt.Sscanf(version, "v1.%d", &minor); err == nil {
			g.GPUs, g.GPUsKnown = minor >= gpusWithDRABeta, true
		}
	}
	return g, nil
}

// CheckVMIClaims reports a VMI that takes GPUs or host devices from
// ResourceClaims while KubeVirt's gate for them is off: virt-controller then
// does not give the claims to the launcher pod, and the VM gets no device.
func CheckVMIClaims(gpuClaims, hostDeviceClaims bool, gates KubeVirtDRAGates, kubeVirt string) []Finding {
	var out []Finding
	if gpuClaims && gates.GPUsKnown && !gates.GPUs {
		out = append(out, newFinding(FindingVMIClaimsGateOff,
			fmt.Sprintf("enable %s in %s spec.configuration.developerConfiguration.featureGates (and remove it from disabledFeatureGates), or upgrade KubeVirt to v1.9, where it is on by default", GateGPUsWithDRA, kubeVirt),
			"spec.domain.devices.gpus takes devices from ResourceClaims, and feature gate %s is off in %s", GateGPUsWithDRA, kubeVirt))
	}
	if hostDeviceClaims && !gates.HostDevices {
		out = append(out, newFinding(FindingVMIClaimsGateOff,
			fmt.Sprintf("enable %s (alpha) in %s spec.configuration.developerConfiguration.featureGates", GateHostDevicesWithDRA, kubeVirt),
			"spec.domain.devices.hostDevices takes devices from ResourceClaims, and feature gate %s is off in %s", GateHostDevicesWithDRA, kubeVirt))
	}
	return out
}
