// Package drasiblings finds physical GPUs allocated twice through DRA. The
// NVIDIA DRA driver publishes a GPU as gpu-N and, with its
// PassthroughSupport gate, as gpu-vfio-N, without shared counters: an
// allocator that knows nothing of it can give the two to two claims, and
// the second then fails on the node. This scheduler's allocator never does
// (GPUDynamicResources); another scheduler, or this one before it ran, may
// have, and `check` and the sibling-conflict metric report such pairs.
// It also deletes the DeviceTaintRules that earlier versions of this
// scheduler wrote to keep the allocator away from siblings. See docs/dra.md.
package drasiblings

import (
	"fmt"

	resourceapi "k8s.io/api/resource/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
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
type SiblingLookup func(pool, device string) (node string, siblings []dradevices.DRADevice)

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
