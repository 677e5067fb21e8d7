// Package draguard keeps two DRA devices of one physical GPU out of two
// claims. The NVIDIA DRA driver publishes a GPU as gpu-N and, with its
// PassthroughSupport gate, as gpu-vfio-N, without shared counters: the
// scheduler's allocator treats them as independent, and the second claim
// then fails on the node. The guard taints the sibling of every allocated
// device with a NoSchedule DeviceTaintRule, which the allocator honours, and
// the GPUWorkloadFit plugin rejects at Reserve an allocation that the rules
// do not cover yet. See docs/dra.md.
package draguard

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// Labels and the taint of the DeviceTaintRules the guard owns. It changes
// and deletes only rules with ManagedByLabel=ManagedBy.
const (
	ManagedByLabel = "app.kubernetes.io/managed-by"
	ManagedBy      = "gpu-workload-scheduler"
	// TaintKey marks a device whose physical GPU is in use through a sibling;
	// the value names the sibling.
	TaintKey = "gpu.workload.scheduling.nvidia.io/sibling-in-use"
	// rulePrefix starts every rule name; a hash of the device completes it.
	rulePrefix = "gpu-workload-sibling-"
)

// Allocation is one device of the driver that a claim holds (Written), or
// that the scheduler has allocated and not yet written to a claim.
type Allocation struct {
	// Claim is namespace/name of the claim, for a written allocation.
	Claim        string
	Written      bool
	Pool, Device string
}

func (a Allocation) String() string {
	if a.Claim == "" {
		return a.Device
	}
	return a.Device + " (claim " + a.Claim + ")"
}

// AllocationsOf lists the driver's devices in the claims' written allocations.
func AllocationsOf(claims []*resourceapi.ResourceClaim, driver string) []Allocation {
	var out []Allocation
	for _, c := range claims {
		if c.Status.Allocation == nil {
			continue
		}
		for _, r := range c.Status.Allocation.Devices.Results {
			if r.Driver == driver {
				out = append(out, Allocation{Claim: c.Namespace + "/" + c.Name, Written: true, Pool: r.Pool, Device: r.Device})
			}
		}
	}
	return out
}

// SiblingLookup returns a device's node and the other devices of its GPU.
type SiblingLookup func(pool, device string) (node string, siblings []gpuworkload.DRADevice)

// Conflict is a physical GPU allocated twice, through two sibling devices.
type Conflict struct {
	Node     string
	A, B     Allocation
	PCIBusID string
}

func (c Conflict) String() string {
	if c.Node == "" {
		return fmt.Sprintf("DRA devices %s and %s are one physical GPU (PCI %s)", c.A, c.B, c.PCIBusID)
	}
	return fmt.Sprintf("DRA devices %s and %s of node %s are one physical GPU (PCI %s)", c.A, c.B, c.Node, c.PCIBusID)
}

// Conflicts finds the physical GPUs whose sibling devices are both allocated.
func Conflicts(allocs []Allocation, siblings SiblingLookup) []Conflict {
	held := make(map[[2]string]Allocation, len(allocs))
	for _, a := range allocs {
		held[[2]string{a.Pool, a.Device}] = a
	}
	var out []Conflict
	for _, a := range allocs {
		node, sibs := siblings(a.Pool, a.Device)
		for _, s := range sibs {
			// Each pair once: from the device that sorts first.
			if b, ok := held[[2]string{s.Pool, s.Name}]; ok && a.Device < s.Name {
				out = append(out, Conflict{Node: node, A: a, B: b, PCIBusID: s.PCIBusID})
			}
		}
	}
	return out
}

// DesiredRules are the rules that should exist: one per sibling of an
// allocated device, unless a claim holds that sibling too: the pair exists
// already, the allocator does not hand the sibling out again, and a taint
// would only stop its own claim's pods. An allocation not yet written that conflicts with a
// sibling's is about to be rejected at Reserve; it taints nothing, so that
// no rule outlives it and blocks both halves of its GPU.
func DesiredRules(allocs []Allocation, siblings SiblingLookup, driver string) map[string]*resourceapi.DeviceTaintRule {
	// written tells, for each allocated device, whether a claim holds it.
	written := make(map[[2]string]bool, len(allocs))
	for _, a := range allocs {
		written[[2]string{a.Pool, a.Device}] = a.Written
	}
	isHeld := func(s gpuworkload.DRADevice) bool {
		_, held := written[[2]string{s.Pool, s.Name}]
		return held
	}
	out := map[string]*resourceapi.DeviceTaintRule{}
	for _, a := range allocs {
		_, sibs := siblings(a.Pool, a.Device)
		if !a.Written && slices.ContainsFunc(sibs, isHeld) {
			continue
		}
		for _, s := range sibs {
			if written[[2]string{s.Pool, s.Name}] {
				continue
			}
			rule := siblingRule(driver, s, a.Device)
			out[rule.Name] = rule
		}
	}
	return out
}

// siblingRule taints one device, NoSchedule only: a running workload on it
// is never evicted by this guard.
func siblingRule(driver string, device gpuworkload.DRADevice, inUse string) *resourceapi.DeviceTaintRule {
	return &resourceapi.DeviceTaintRule{
		ObjectMeta: metav1.ObjectMeta{
			Name:   ruleName(driver, device),
			Labels: map[string]string{ManagedByLabel: ManagedBy},
			Annotations: map[string]string{
				"gpu.workload.scheduling.nvidia.io/device": device.Pool + "/" + device.Name,
				"gpu.workload.scheduling.nvidia.io/reason": fmt.Sprintf("the same physical GPU (PCI %s) is allocated as %s", device.PCIBusID, inUse),
			},
		},
		Spec: resourceapi.DeviceTaintRuleSpec{
			DeviceSelector: &resourceapi.DeviceTaintSelector{Driver: ptr.To(driver), Pool: ptr.To(device.Pool), Device: ptr.To(device.Name)},
			Taint:          resourceapi.DeviceTaint{Key: TaintKey, Value: inUse, Effect: resourceapi.DeviceTaintEffectNoSchedule},
		},
	}
}

// ruleName is the name of the rule on a device: fixed, so that a new
// leader finds the rules of the old one.
func ruleName(driver string, device gpuworkload.DRADevice) string {
	sum := sha256.Sum256([]byte(driver + "/" + device.Pool + "/" + device.Name))
	return rulePrefix + hex.EncodeToString(sum[:])[:16]
}

// sameRule compares what a rule does.
func sameRule(a, b *resourceapi.DeviceTaintRule) bool {
	sa, sb := a.Spec.DeviceSelector, b.Spec.DeviceSelector
	return sa != nil && sb != nil && ptr.Deref(sa.Driver, "") == ptr.Deref(sb.Driver, "") && ptr.Deref(sa.Pool, "") == ptr.Deref(sb.Pool, "") &&
		ptr.Deref(sa.Device, "") == ptr.Deref(sb.Device, "") && a.Spec.Taint.Key == b.Spec.Taint.Key && a.Spec.Taint.Value == b.Spec.Taint.Value &&
		a.Spec.Taint.Effect == b.Spec.Taint.Effect
}

// sortedNames lists a rule map's names, for a stable order of API calls.
func sortedNames(rules map[string]*resourceapi.DeviceTaintRule) []string {
	names := make([]string, 0, len(rules))
	for name := range rules {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
