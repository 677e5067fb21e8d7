package gpuworkload

import (
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// Advertisement is what the cluster's nodes advertise: per GPU resource, its
// class and how many nodes offer a non-zero amount.
type Advertisement map[v1.ResourceName]AdvertisedBy

// AdvertisedBy is one resource's class and number of advertising nodes.
type AdvertisedBy struct {
	Class ResourceClass
	Nodes int
}

// AdvertisementOf sums the node states' GPU resources.
func AdvertisementOf(states []*NodeState) Advertisement {
	out := Advertisement{}
	for _, s := range states {
		for _, r := range s.Resources {
			a := out[r.Name]
			a.Class = r.Class
			a.Nodes++
			out[r.Name] = a
		}
	}
	return out
}

// CheckPermittedHostDevices compares KubeVirt's allowlist with what the
// nodes advertise: every advertised passthrough GPU and vGPU profile must be
// permitted as an external resource, and every permitted NVIDIA name should
// be advertised somewhere (a typo otherwise strands every VMI that uses it).
// While the policy disables sandbox workloads no node advertises VM GPUs:
// those names are not KubeVirt's fault, and PolicyFindings reports them.
// What nodes advertise is evidence before any prediction from pci.ids; a
// name no node advertises that a node's GPUs would advertise in another
// mode is not a typo, and the fix is that node's conversion.
func CheckPermittedHostDevices(p *PermittedHostDevices, policy SandboxPolicy, advertised Advertisement, gpus []NodeGPUs) []Finding {
	if p == nil {
		return nil
	}
	var out []Finding
	names := make([]v1.ResourceName, 0, len(advertised))
	for name := range advertised {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		a := advertised[name]
		list, example := "pciHostDevices", "pciVendorSelector: 10DE:<device ID>"
		switch a.Class {
		case ClassPassthroughGPU:
			if devices := hardware.IdentifyCard(hardware.CardEvidence{PassthroughName: strings.TrimPrefix(string(name), hardware.ResourceDomain)}).Devices; len(devices) == 1 {
				example = "pciVendorSelector: 10DE:" + strings.ToUpper(devices[0].ID)
			}
		case ClassVGPUProfile:
			list, example = "mediatedDevices", fmt.Sprintf("mdevNameSelector: %+q", mdevName(name))
		default:
			continue
		}
		if !p.Permits(name) {
			out = append(out, NewFinding(FindingResourceNotPermitted,
				fmt.Sprintf("add to spec.configuration.permittedHostDevices.%s of %s: {%s, resourceName: %s, externalResourceProvider: true}", list, p.Source, example, name),
				"%s is advertised by %d node(s) but not permitted: KubeVirt creates no launcher pod for a VMI that requests it (FailedCreate)", name, a.Nodes))
		}
	}
	for _, d := range append(slices.Clone(p.PCIHostDevices), p.MediatedDevices...) {
		if !strings.HasPrefix(string(d.ResourceName), hardware.ResourceDomain) {
			continue
		}
		_, isAdvertised := advertised[d.ResourceName]
		name, ok := sandboxPluginName(d)
		idName, byID := deviceIDName(d)
		if _, seen := advertised[idName]; byID && seen {
			name = idName
		}
		if ok && name != d.ResourceName && !isAdvertised && d.ResourceName != idName {
			out = append(out, NewFinding(FindingPermittedNameMismatch,
				fmt.Sprintf("set resourceName: %s on that entry of %s", name, p.Source),
				"the entry selecting %+q permits %s, but the sandbox device plugin advertises that device as %s: a VMI asking for either is never scheduled", d.Selector, d.ResourceName, name))
			continue
		}
		if isAdvertised || !policy.Enabled {
			// Without the sandbox device plugin, KubeVirt's own is the provider.
			if isAdvertised && !d.External && !policy.NoSandboxDevicePlugin {
				out = append(out, NewFinding(FindingPermittedNotExternal,
					fmt.Sprintf("set externalResourceProvider: true on the %s entry of %s", d.ResourceName, p.Source),
					"%s is permitted without externalResourceProvider: virt-handler starts its own device plugin for it beside the GPU Operator's sandbox device plugin", d.ResourceName))
			}
			continue
		}
		if node, conversion, ok := ConvertibleTo(gpus, d.ResourceName); ok {
			out = append(out, NewFinding(FindingPermittedNotAdvertised, "to serve it, convert the node: "+conversion.Command(node.Node),
				"%s is permitted but not advertised now: node %s has that card in %s mode; VMIs requesting it stay Pending", d.ResourceName, node.Node, node.Mode))
			continue
		}
		fix := fmt.Sprintf("correct the resourceName in %s to one the nodes advertise, or remove the entry", p.Source)
		if suggestion, ok := didYouMean(d.ResourceName, names); ok {
			fix = fmt.Sprintf("did you mean %s? Correct the resourceName in %s", suggestion, p.Source)
		}
		out = append(out, NewFinding(FindingPermittedNotAdvertised, fix,
			"%s is permitted but no node advertises it: VMIs requesting it stay Pending", d.ResourceName))
	}
	return out
}

// deviceIDName is the name by device ID of what an entry's NVIDIA
// pciVendorSelector selects (nvidia.com/26b5 for 10DE:26B5): what a sandbox
// device plugin whose pci.ids predates the card advertises.
func deviceIDName(d PermittedDevice) (v1.ResourceName, bool) {
	vendor, id, isPCI := strings.Cut(strings.ToLower(d.Selector), ":")
	if !isPCI || vendor != hardware.NVIDIAVendorID || !hardware.IsPCIDeviceID(id) {
		return "", false
	}
	return v1.ResourceName(hardware.ResourceDomain + id), true
}

// sandboxPluginName is the resource the sandbox device plugin advertises
// for the devices an external entry selects: a PCI device ID's pci.ids
// name (kubevirt-gpu-device-plugin getDeviceName), or the mdev type name
// with whitespace runs as '_'. ok is false for entries it does not
// advertise: KubeVirt's own plugin serves the entry's resourceName as given.
func sandboxPluginName(d PermittedDevice) (v1.ResourceName, bool) {
	if !d.External || d.Selector == "" {
		return "", false
	}
	vendor, id, isPCI := strings.Cut(strings.ToLower(d.Selector), ":")
	switch {
	case !isPCI:
		return v1.ResourceName(hardware.ResourceDomain + strings.Join(strings.Fields(d.Selector), "_")), true
	case vendor != hardware.NVIDIAVendorID || !hardware.IsPCIDeviceID(id):
		return "", false
	}
	if name, known := hardware.PassthroughNameOfID(id); known {
		return v1.ResourceName(hardware.ResourceDomain + name), true
	}
	return v1.ResourceName(hardware.ResourceDomain + id), true
}

// PolicyFindings are what the sandbox policy itself causes: with sandbox
// workloads disabled, the VM GPUs KubeVirt permits are advertised by no node.
func PolicyFindings(policy SandboxPolicy, p *PermittedHostDevices, advertised Advertisement) []Finding {
	if policy.Enabled || p == nil {
		return nil
	}
	var missing []string
	for _, d := range append(slices.Clone(p.PCIHostDevices), p.MediatedDevices...) {
		if _, ok := advertised[d.ResourceName]; !ok && strings.HasPrefix(string(d.ResourceName), hardware.ResourceDomain) {
			missing = append(missing, string(d.ResourceName))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return []Finding{NewFinding(FindingPermittedNeedsSandbox, EnableSandboxFix(policy),
		"sandboxWorkloads is disabled, so the GPU Operator prepares every GPU node for containers and no node advertises the %d VM GPU resource(s) %s permits: %s",
		len(missing), p.Source, JoinBounded(missing, ", "))}
}

// mdevName guesses the mdev type name behind a vGPU resource (NVIDIA_A10-12Q -> "NVIDIA A10-12Q").
func mdevName(name v1.ResourceName) string {
	if p, err := hardware.ParseVGPUTypeName(string(name)); err == nil {
		return p.Prefix + " " + p.Name()
	}
	return strings.TrimPrefix(string(name), hardware.ResourceDomain)
}

// CheckVMIDevices reports the devices a VMI requests that KubeVirt does not
// permit or no node advertises.
func CheckVMIDevices(deviceNames []v1.ResourceName, p *PermittedHostDevices, advertised Advertisement, gpus []NodeGPUs) []Finding {
	var out []Finding
	for _, name := range deviceNames {
		if !p.Permits(name) {
			out = append(out, NewFinding(FindingVMIDeviceNotPermitted,
				fmt.Sprintf("permit %s in %s, or request a permitted device", name, p.Source),
				"requests %s, which permittedHostDevices does not list: KubeVirt refuses to create its launcher pod", name))
		}
		if _, ok := advertised[name]; !ok {
			if node, conversion, ok := ConvertibleTo(gpus, name); ok {
				out = append(out, NewFinding(FindingVMIDeviceNotAdvertised, "to serve it, convert the node: "+conversion.Command(node.Node),
					"requests %s, which no node advertises now: node %s has that card in %s mode; its launcher pod cannot be scheduled", name, node.Node, node.Mode))
				continue
			}
			fix := "request a device the nodes advertise, or prepare a node that has it"
			names := make([]v1.ResourceName, 0, len(advertised))
			for n := range advertised {
				names = append(names, n)
			}
			slices.Sort(names)
			if suggestion, ok := didYouMean(name, names); ok {
				fix = fmt.Sprintf("did you mean %s? %s", suggestion, fix)
			}
			out = append(out, NewFinding(FindingVMIDeviceNotAdvertised, fix,
				"requests %s, which no node advertises: its launcher pod cannot be scheduled", name))
		}
	}
	return out
}

// didYouMean finds the candidate that differs from name only in case and in
// '-' versus '_', or else by at most two edits, among the names of the
// hardware name names: GA102GL_A40 is a card, not a typo of GA102GL_A10.
func didYouMean(name v1.ResourceName, candidates []v1.ResourceName) (v1.ResourceName, bool) {
	fold := func(s v1.ResourceName) string {
		return strings.ReplaceAll(strings.ToLower(string(s)), "-", "_")
	}
	devices := namedDevices(name)
	sameHardware := func(c v1.ResourceName) bool {
		return len(devices) == 0 || slices.ContainsFunc(namedDevices(c), func(d hardware.PCIDevice) bool { return slices.Contains(devices, d) })
	}
	for _, c := range candidates {
		if fold(c) == fold(name) && sameHardware(c) {
			return c, true
		}
	}
	for _, c := range candidates {
		if editDistance(string(c), string(name)) <= 2 && sameHardware(c) {
			return c, true
		}
	}
	return "", false
}

// namedDevices are the PCI devices a GPU resource name names: a
// passthrough name or device ID of pci.ids, or a vGPU type of a family the
// vGPU configuration knows; none for a name that names no known device.
func namedDevices(name v1.ResourceName) []hardware.PCIDevice {
	bare := strings.TrimPrefix(string(name), hardware.ResourceDomain)
	if p, err := hardware.ParseVGPUTypeName(bare); err == nil {
		return hardware.IdentifyCard(hardware.CardEvidence{VGPUType: p}).Devices
	}
	if !hardware.KnownPassthroughName(bare) {
		return nil
	}
	return hardware.IdentifyCard(hardware.CardEvidence{PassthroughName: bare}).Devices
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
