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
	// VMResource is the VirtualMachine resource, whose VMI has its name.
	VMResource = "virtualmachines"
	// VMIMigrationResource and VMIMigrationKind are the live migration of a VMI.
	VMIMigrationResource = "virtualmachineinstancemigrations"
	VMIMigrationKind     = "VirtualMachineInstanceMigration"

	labelKubeVirtApp      = "kubevirt.io"
	virtLauncherAppValue  = "virt-launcher"
	labelCreatedBy        = "kubevirt.io/created-by"
	annotationDomain      = "kubevirt.io/domain"
	kindVirtualMachineVMI = "VirtualMachineInstance"
)

// LauncherPodSelector selects a VMI's virt-launcher pods: KubeVirt labels
// them with the VMI's UID.
func LauncherPodSelector(vmi types.UID) string { return labelCreatedBy + "=" + string(vmi) }

// PermittedDevice is one entry of permittedHostDevices.pciHostDevices or .mediatedDevices.
type PermittedDevice struct {
	ResourceName v1.ResourceName
	// Selector is the entry's pciVendorSelector (10DE:2236) or mdevNameSelector (NVIDIA A10-12Q).
	Selector string
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
		selector, _, err := unstructured.NestedString(entry, selectorField)
		if err != nil {
			return nil, fmt.Errorf("%s: %s[%d].%s: %w", source, path, i, selectorField, err)
		}
		external, _, err := unstructured.NestedBool(entry, "externalResourceProvider")
		if err != nil {
			return nil, fmt.Errorf("%s: %s[%d].externalResourceProvider: %w; fix: set it to true or false", source, path, i, err)
		}
		out = append(out, PermittedDevice{ResourceName: v1.ResourceName(name), Selector: selector, External: external})
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

// draGatesBeta is the first KubeVirt minor version (1.x) in which both
// gates are beta, on unless disabled (v1.9.0,
// pkg/virt-config/featuregate/active.go).
const draGatesBeta = 9

// KubeVirtGate is what a KubeVirt CR says of one feature gate.
type KubeVirtGate struct {
	On bool
	// Known is false when the CR neither names the gate nor reports the
	// version its default depends on.
	Known bool
}

// KubeVirtDRAGates is what a KubeVirt CR says of its DRA feature gates.
type KubeVirtDRAGates struct {
	GPUs, HostDevices KubeVirtGate
}

// KubeVirtDRAGatesOf reads spec.configuration.developerConfiguration's
// featureGates and disabledFeatureGates, and, for a gate named in neither,
// status.observedKubeVirtVersion: both gates are on by default from v1.9.
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
	version, _, _ := unstructured.NestedString(obj.Object, "status", "observedKubeVirtVersion")
	gate := func(name string) KubeVirtGate {
		switch {
		case slices.Contains(lists["disabledFeatureGates"], name):
			return KubeVirtGate{Known: true}
		case slices.Contains(lists["featureGates"], name):
			return KubeVirtGate{On: true, Known: true}
		}
		var minor int
		if _, err := fmt.Sscanf(version, "v1.%d", &minor); err == nil {
			return KubeVirtGate{On: minor >= draGatesBeta, Known: true}
		}
		return KubeVirtGate{}
	}
	return KubeVirtDRAGates{GPUs: gate(GateGPUsWithDRA), HostDevices: gate(GateHostDevicesWithDRA)}, nil
}

// CheckVMIClaims reports a VMI that takes GPUs or host devices from
// ResourceClaims while KubeVirt's gate for them is off: virt-controller then
// does not give the claims to the launcher pod, and the VM gets no device.
func CheckVMIClaims(gpuClaims, hostDeviceClaims bool, gates KubeVirtDRAGates, kubeVirt string) []Finding {
	var out []Finding
	for _, g := range []struct {
		claims bool
		gate   KubeVirtGate
		name   string
		field  string
	}{
		{gpuClaims, gates.GPUs, GateGPUsWithDRA, "gpus"},
		{hostDeviceClaims, gates.HostDevices, GateHostDevicesWithDRA, "hostDevices"},
	} {
		if g.claims && g.gate.Known && !g.gate.On {
			out = append(out, NewFinding(FindingVMIClaimsGateOff,
				fmt.Sprintf("enable %s in %s spec.configuration.developerConfiguration.featureGates (and remove it from disabledFeatureGates), or upgrade KubeVirt to v1.9, where it is on by default", g.name, kubeVirt),
				"spec.domain.devices.%s takes devices from ResourceClaims, and feature gate %s is off in %s", g.field, g.name, kubeVirt))
		}
	}
	return out
}
