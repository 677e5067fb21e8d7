package gpuworkload

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// ResourceGPU is what the container device plugin advertises.
const ResourceGPU v1.ResourceName = "nvidia.com/gpu"

// ResourceKataPassthroughGPU is what passthrough GPUs are advertised as
// when ClusterPolicy sandboxWorkloads.mode is kata.
const ResourceKataPassthroughGPU v1.ResourceName = "nvidia.com/pgpu"

// ResourceClass tells which kind of GPU inventory an extended resource is.
type ResourceClass uint8

const (
	// ClassNotGPU: not a GPU resource, or not recognisable as one.
	ClassNotGPU ResourceClass = iota
	// ClassContainerGPU: nvidia.com/gpu, MIG names, .shared names.
	ClassContainerGPU
	// ClassPassthroughGPU: a PCI device model name, e.g. nvidia.com/GA102GL_A10.
	ClassPassthroughGPU
	// ClassVGPUProfile: a vGPU type name, e.g. nvidia.com/NVIDIA_A10-12Q.
	ClassVGPUProfile
)

var classNames = [...]string{"not-gpu", "container-gpu", "passthrough-gpu", "vgpu-profile"}

// ResourceClasses is how many resource classes there are, for arrays
// indexed by ResourceClass.
const ResourceClasses = len(classNames)

func (c ResourceClass) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("ResourceClass(%d)", c)
}

// Describe is the class in words for messages.
func (c ResourceClass) Describe() string {
	switch c {
	case ClassContainerGPU:
		return "container GPU"
	case ClassPassthroughGPU:
		return "passthrough GPU"
	case ClassVGPUProfile:
		return "vGPU profile"
	}
	return "not a GPU"
}

// ResourceClassNames are the classes' names, as configuration spells them.
func ResourceClassNames() []string { return classNames[:] }

// ParseResourceClass is the inverse of String, for configuration.
func ParseResourceClass(s string) (ResourceClass, error) {
	for i, name := range classNames {
		if s == name {
			return ResourceClass(i), nil
		}
	}
	return ClassNotGPU, fmt.Errorf("invalid resource class %+q: valid values are %+q", s, classNames[:])
}

// IsGPU reports whether the class is GPU inventory.
func (c ResourceClass) IsGPU() bool { return c != ClassNotGPU && int(c) < len(classNames) }

// GPUClasses are the classes of GPU inventory, in order.
var GPUClasses = [...]ResourceClass{ClassContainerGPU, ClassPassthroughGPU, ClassVGPUProfile}

// modeOfClass is the mode whose nodes advertise each class: the one table
// ResourceClass.Mode and Mode.ResourceClass read.
var modeOfClass = [ResourceClasses]Mode{ClassContainerGPU: ModeContainer, ClassPassthroughGPU: ModePassthrough, ClassVGPUProfile: ModeVGPU}

// Mode is the workload mode whose nodes advertise this class.
func (c ResourceClass) Mode() (Mode, bool) {
	if !c.IsGPU() {
		return "", false
	}
	return modeOfClass[c], true
}

// ClassifierConfig is the explicit evidence a Classifier starts from.
type ClassifierConfig struct {
	// Configured classes win over everything else.
	Configured map[v1.ResourceName]ResourceClass
	// Permitted is the KubeVirt CR's permittedHostDevices, nil when unknown.
	Permitted *PermittedHostDevices
}

// Classifier classifies extended resource names. Build it once per change of
// its inputs; Classify is then a map lookup or a few byte comparisons.
type Classifier struct {
	known map[v1.ResourceName]ResourceClass
}

// NewClassifier combines the evidence in order: configuration, KubeVirt
// permittedHostDevices, what nodes of a known mode advertise, name rules.
//
// Node observations only place names the name rules do not recognise: a
// recognisable name advertised by a node of another mode is a stale or
// foreign advertisement, which is what node findings report, not a reason to
// reclassify the name.
func NewClassifier(cfg ClassifierConfig, policy SandboxPolicy, nodes []*v1.Node) *Classifier {
	c := &Classifier{known: map[v1.ResourceName]ResourceClass{}}
	observed := map[v1.ResourceName]ResourceClass{}
	conflicting := map[v1.ResourceName]bool{}
	for _, node := range nodes {
		decision := policy.EffectiveMode(node.Labels)
		if decision.Reason != ReasonLabelHonoured {
			continue
		}
		class := decision.Mode.ResourceClass()
		for name, q := range node.Status.Capacity {
			if q.IsZero() || !strings.HasPrefix(string(name), hardware.ResourceDomain) {
				continue
			}
			if _, recognised := classifyByName(name); recognised {
				continue
			}
			if prev, seen := observed[name]; seen && prev != class {
				conflicting[name] = true
			}
			observed[name] = class
		}
	}
	for name, class := range observed {
		if !conflicting[name] {
			c.known[name] = class
		}
	}
	if p := cfg.Permitted; p != nil {
		for _, d := range p.PCIHostDevices {
			c.known[d.ResourceName] = ClassPassthroughGPU
		}
		for _, d := range p.MediatedDevices {
			c.known[d.ResourceName] = ClassVGPUProfile
		}
	}
	if policy.Runtime == RuntimeKata {
		c.known[ResourceKataPassthroughGPU] = ClassPassthroughGPU
	}
	for name, class := range cfg.Configured {
		c.known[name] = class
	}
	return c
}

// Classify returns the class of an extended resource name. A nil Classifier
// uses name rules only.
func (c *Classifier) Classify(name v1.ResourceName) ResourceClass {
	if c != nil {
		if known, ok := c.known[name]; ok {
			return known
		}
	}
	class, _ := classifyByName(name)
	return class
}

// MayBeGPU says whether the name may be GPU inventory: a GPU class, or an
// nvidia.com/ name that neither the classifier's evidence nor the name
// rules place (a renamed time-slicing resource no node of a known mode
// advertises yet). What must not run under a conversion, or stay
// advertised after one, is judged by it.
func (c *Classifier) MayBeGPU(name v1.ResourceName) bool {
	if c != nil {
		if known, ok := c.known[name]; ok {
			return known.IsGPU()
		}
	}
	class, recognised := classifyByName(name)
	return class.IsGPU() || !recognised
}

// MayBeGPUNameCEL is MayBeGPU of a nil Classifier (the name rules alone)
// as a CEL expression over the string variable named by variable, for
// admission policies that must decide as the scheduler does: an nvidia.com/
// name that no rule places as something other than a GPU.
func MayBeGPUNameCEL(variable string) string {
	notGPU := make([]string, len(notGPUPrefixes))
	for i, prefix := range notGPUPrefixes {
		notGPU[i] = fmt.Sprintf("%s.startsWith(%q)", variable, hardware.ResourceDomain+prefix)
	}
	return fmt.Sprintf("%s.startsWith(%q) && !(%s)", variable, hardware.ResourceDomain, strings.Join(notGPU, " || "))
}

// classifyByName applies the naming rules of the NVIDIA device plugins.
// recognised is false for nvidia.com/ names that fit no rule.
func classifyByName(name v1.ResourceName) (class ResourceClass, recognised bool) {
	bare, ok := strings.CutPrefix(string(name), hardware.ResourceDomain)
	if !ok {
		return ClassNotGPU, true
	}
	switch {
	case bare == "gpu" || bare == "gpu.shared" || isMIGResource(bare):
		return ClassContainerGPU, true
	case isNotGPUResource(bare):
		return ClassNotGPU, true
	case hardware.IsVGPUTypeName(bare):
		return ClassVGPUProfile, true
	case isPCIDeviceName(bare) || hardware.IsPCIDeviceID(bare):
		return ClassPassthroughGPU, true
	}
	return ClassNotGPU, false
}

// isMIGResource matches the mixed MIG strategy's names: mig-<g>g.<mem>gb,
// optionally with a compute-instance prefix <c>c. and a .shared suffix.
func isMIGResource(bare string) bool {
	rest, ok := strings.CutPrefix(bare, "mig-")
	if !ok {
		return false
	}
	rest = strings.TrimSuffix(rest, ".shared")
	parts := strings.Split(rest, ".")
	if len(parts) == 3 {
		if !digitsThen(parts[0], "c") {
			return false
		}
		parts = parts[1:]
	}
	return len(parts) == 2 && digitsThen(parts[0], "g") && digitsThen(parts[1], "gb")
}

func digitsThen(s, suffix string) bool {
	digits, ok := strings.CutSuffix(s, suffix)
	if !ok || digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if !isDecimalDigit(digits[i]) {
			return false
		}
	}
	return true
}

// notGPUPrefixes are the nvidia.com/ resources that are not GPUs: the
// Network Operator's SR-IOV NICs (mlnxnics and the usual hostdev, rdma and
// sriov names) and the Kata sandbox device plugin's NVSwitches.
var notGPUPrefixes = []string{"mlnxnics", "hostdev", "rdma", "sriov", "nvswitch"}

func isNotGPUResource(bare string) bool {
	for _, prefix := range notGPUPrefixes {
		if strings.HasPrefix(bare, prefix) {
			return true
		}
	}
	return false
}

// isPCIDeviceName matches the sandbox device plugin's names for pci.ids
// entries: upper case letters, digits and '_', with at least one letter.
func isPCIDeviceName(bare string) bool {
	letter := false
	for i := 0; i < len(bare); i++ {
		c := bare[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case isDecimalDigit(c) || c == '_':
		default:
			return false
		}
	}
	return letter
}

// RecognisedName reports whether the naming rules place the name, as opposed
// to an nvidia.com/ name that fits none of them.
func RecognisedName(name v1.ResourceName) bool {
	_, recognised := classifyByName(name)
	return recognised
}

func isDecimalDigit(c byte) bool { return c >= '0' && c <= '9' }
