// Package inventory counts a live cluster's GPU units by mode and resource:
// allocatable, allocated, free and stranded by kind, with GPU nodes by
// state, empty GPU nodes and the GPU pods that wait. The scheduler's
// metrics and `kubectl gpu-workload inventory` both report it, so that they
// agree; stranding is poddemand.WaitingGPUPods', the simulator's too.
package inventory

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/dynamic-resource-allocation/resourceclaim"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// Node states, as metric labels and reports give them.
const (
	NodeReady      = "ready"
	NodeConverting = "converting"
	NodeMismatched = "mismatched"
)

// ModeDRA is the mode row of the nodes whose GPUs a DRA driver publishes:
// they run no one mode, each device serves its own (docs/dra.md).
const ModeDRA gpuworkload.Mode = "dra"

// Resource is one GPU resource's units on the nodes of one mode, the
// devices a DeviceClass of a DRA driver selects (DRA; resource the
// DeviceClass's name, or <driver>/<type> for devices no DeviceClass
// selects), by the mode they serve, or the physical GPUs of a DRA driver's
// nodes (mode ModeDRA, resource the driver's name).
type Resource struct {
	Mode        gpuworkload.Mode `json:"mode"`
	Resource    v1.ResourceName  `json:"resource"`
	DRA         bool             `json:"dra,omitempty"`
	Allocatable int64            `json:"allocatable"`
	Allocated   int64            `json:"allocated"`
	Free        int64            `json:"free"`
	// OverCommitted is what bound pods hold above a node's allocatable,
	// summed over the nodes (allocated counts it too): the kubelet fails
	// such pods, and a node's free units are never below zero.
	OverCommitted int64 `json:"overCommitted,omitempty"`
	// HeldByOtherSchedulers is what pods another scheduler bound hold
	// (allocated counts it too): ours sees their placements only once they
	// are bound, and may race them for the node's last units.
	HeldByOtherSchedulers int64 `json:"heldByOtherSchedulers,omitempty"`
	// Tainted and SiblingInUse are DRA devices neither allocated nor free:
	// tainted, or the other device of a GPU in use (dradevices.DRANode.DeviceStates).
	Tainted      int64 `json:"tainted,omitempty"`
	SiblingInUse int64 `json:"siblingInUse,omitempty"`
	// Unavailable are the units of converting or mismatched nodes that no
	// pod holds: the scheduler places nothing there, so they are not free.
	Unavailable int64 `json:"unavailable,omitempty"`
	// Stranded counts free units by kind of stranding
	// (poddemand.StrandedKindNames); nil for DRA devices: a free DRA GPU
	// is one free device of each type, so it is counted on its GPU's row.
	Stranded map[string]int64 `json:"stranded"`
}

// StateOverCommitted is the metrics' state of the units bound pods hold
// above their nodes' allocatable; StateUnavailable of Resource.Unavailable;
// StateHeldByOtherSchedulers of Resource.HeldByOtherSchedulers.
const (
	StateOverCommitted         = "over-committed"
	StateUnavailable           = "unavailable"
	StateHeldByOtherSchedulers = "held-by-other-schedulers"
)

// DRAResource is the resource name devices of a DRA device type that no
// DeviceClass selects are reported under: the driver's name and the type,
// e.g. gpu.nvidia.com/vfio.
func DRAResource(driver, deviceType string) v1.ResourceName {
	return v1.ResourceName(driver + "/" + deviceType)
}

// Mode is one mode's GPU nodes by state, and its empty GPU nodes.
type Mode struct {
	Mode       gpuworkload.Mode `json:"mode"`
	Ready      int              `json:"ready"`
	Converting int              `json:"converting"`
	Mismatched int              `json:"mismatched"`
	Empty      int              `json:"empty"`
}

// Pending is the GPU pods that wait for one resource, with one node
// constraint, for one reason.
type Pending struct {
	Mode gpuworkload.Mode `json:"mode"`
	// Resource is what the pods ask for: the extended resource of their
	// first request, or the DeviceClass of their first claim's.
	Resource v1.ResourceName `json:"resource"`
	// Constraint names the pods' nodeSelector or required node affinity
	// (poddemand.NodeConstraint), empty for none.
	Constraint string `json:"constraint,omitempty"`
	// Reason is the code of the scheduler's explanation (docs/reasons.md),
	// or Unexplained when it has given none.
	Reason string `json:"reason"`
	Pods   int    `json:"pods"`
	Units  int64  `json:"units"`
}

// Card is the device-plugin GPU nodes of one card, the units bound pods
// without a node constraint hold there, and the GPU pods that wait kept by
// their constraint to nodes that include this card's: what pinned demand
// needs of the card, and what holds it that could have run elsewhere.
type Card struct {
	// Card is the nodes' product (hardware.Card.Product: the
	// nvidia.com/gpu.product label GFD sets, else pci.ids' name of the
	// card), else what is known of the card (hardware.Card.String).
	Card  string `json:"card"`
	Nodes int    `json:"nodes"`
	// Allocatable and HeldByUnpinned are in the nodes' units: GPUs, vGPU
	// instances on vm-vgpu nodes. HeldByUnpinned is what bound pods hold
	// that have neither nodeSelector nor required node affinity.
	Allocatable    int64 `json:"allocatable"`
	HeldByUnpinned int64 `json:"heldByUnpinned"`
	// PinnedPodsWaiting and PinnedUnitsWaiting are the GPU pods without a
	// node whose node constraint accepts a node of the card; a pod whose
	// constraint accepts several cards counts under each.
	PinnedPodsWaiting  int   `json:"pinnedPodsWaiting"`
	PinnedUnitsWaiting int64 `json:"pinnedUnitsWaiting"`
}

// Unexplained is the reason of a waiting GPU pod the scheduler has not
// explained (not tried yet, or rejected by other plugins only).
const Unexplained = "Unexplained"

// Report is the inventory, each list sorted.
type Report struct {
	Resources []Resource `json:"resources"`
	Modes     []Mode     `json:"modes"`
	Pending   []Pending  `json:"pending"`
	Cards     []Card     `json:"cards"`
}

// Input is what the inventory is counted from.
type Input struct {
	Nodes []*v1.Node
	// State is a node's GPU state, as the scheduler's tracker holds it.
	State func(*v1.Node) *gpuworkload.NodeState
	// Pods are every pod; those bound to a node count as allocated there,
	// the GPU pods without a node as waiting.
	Pods []*v1.Pod
	// Demand is the pod's GPU demand, with the requests of its pending
	// ResourceClaims where the caller reads them.
	Demand func(*v1.Pod) poddemand.PodDemand
	// ReasonOf is the reason code of a waiting pod's latest explanation, "" for none.
	ReasonOf func(*v1.Pod) string
	// DRADevices are the devices a DRA node publishes, with their states,
	// and which of them (by index) each DeviceClass selects; DRADriver
	// names the driver. DRAServes says whether a DeviceClass of the driver
	// serves an extended resource (nil: none does).
	DRADevices func(node string) ([]dradevices.DRADeviceState, map[string][]int)
	DRADriver  string
	DRAServes  func(v1.ResourceName) bool
	// Bound, when set, keeps what bound pods use from one count to the
	// next, as long as Classifier, which Demand classifies with, stays.
	Bound      *BoundPods
	Classifier *gpuworkload.Classifier
	// OurSchedulers are the scheduler names of our profiles: a bound pod
	// that names another counts as held by other schedulers.
	OurSchedulers []string
}

// BoundPods keeps what each pod bound to a node uses, by UID and
// resourceVersion: a count recomputes only the pods that changed since the
// last, so that a scrape of a stable cluster allocates little. Pods gone
// since the last count are forgotten.
type BoundPods struct {
	mu   sync.Mutex
	pods map[types.UID]boundPod
	// classifier classified the cached demands; another drops them.
	classifier *gpuworkload.Classifier
}

type boundPod struct {
	resourceVersion  string
	node             string
	milliCPU, memory int64
	requests         []poddemand.ResourceRequest
	// pinned is set when a node constraint keeps the pod to some nodes.
	pinned bool
}

// NewBoundPods is an empty cache.
func NewBoundPods() *BoundPods { return &BoundPods{pods: map[types.UID]boundPod{}} }

// use is the pod's use, from the cache or, when it changed, from demand.
func (c *BoundPods) use(pod *v1.Pod, demand func(*v1.Pod) poddemand.PodDemand, seen map[types.UID]boundPod) boundPod {
	if c != nil {
		if b, ok := c.pods[pod.UID]; ok && b.resourceVersion == pod.ResourceVersion && b.node == pod.Spec.NodeName {
			seen[pod.UID] = b
			return b
		}
	}
	requests := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	b := boundPod{resourceVersion: pod.ResourceVersion, node: pod.Spec.NodeName, milliCPU: requests.Cpu().MilliValue(), memory: requests.Memory().Value(),
		requests: demand(pod).Requests, pinned: poddemand.NodeConstraintOf(pod).Constrains()}
	if c != nil {
		seen[pod.UID] = b
	}
	return b
}

type nodeUse struct {
	units map[v1.ResourceName]int64
	// otherUnits are the units of pods another scheduler bound.
	otherUnits       map[v1.ResourceName]int64
	milliCPU, memory int64
	// unpinnedUnits are the GPU units of pods without a node constraint.
	unpinnedUnits int64
}

// pinnedWaiting is the GPU pods that wait under one node constraint.
type pinnedWaiting struct {
	constraint poddemand.NodeConstraint
	pods       int
	units      int64
}

// Compute counts the inventory in four steps: what the bound pods hold on
// each node and which GPU pods wait (countPods), each GPU node's units by
// state with the free ones stranded against the waiting pods (countNodes),
// the pinned waiting pods under the cards they accept (countPinned), and the
// sorted report.
func Compute(ctx context.Context, in Input) Report {
	c := &count{
		in: in, used: map[string]*nodeUse{}, waiting: poddemand.NewWaitingGPUPods(), pending: map[Pending]*Pending{},
		pinned: map[string]*pinnedWaiting{}, otherClaims: map[string]bool{},
		resources: map[[2]string]*Resource{}, cards: map[string]*Card{}, cardNodes: map[string][]*v1.Node{},
		modes: map[gpuworkload.Mode]*Mode{ModeDRA: {Mode: ModeDRA}},
	}
	for _, m := range gpuworkload.Modes {
		c.modes[m] = &Mode{Mode: m}
	}
	c.countPods(ctx)
	c.countNodes()
	c.countPinned()
	return c.report()
}

// count is one Compute's tallies.
type count struct {
	in Input
	// used is what the bound pods hold, by node.
	used map[string]*nodeUse
	// waiting, pending and pinned are the GPU pods without a node: by shape
	// for stranding, by row of the report, and by node constraint.
	waiting *poddemand.WaitingGPUPods
	pending map[Pending]*Pending
	pinned  map[string]*pinnedWaiting
	// otherClaims are the claims (namespace/name) of pods another
	// scheduler bound, whose devices they hold.
	otherClaims map[string]bool
	resources   map[[2]string]*Resource
	cards       map[string]*Card
	cardNodes   map[string][]*v1.Node
	modes       map[gpuworkload.Mode]*Mode
}

// countPods counts the running pods: a bound pod's use on its node (from
// in.Bound's cache when it did not change), a GPU pod without a node as
// waiting.
func (c *count) countPods(ctx context.Context) {
	var seen map[types.UID]boundPod
	if bound := c.in.Bound; bound != nil {
		bound.mu.Lock()
		defer bound.mu.Unlock()
		if bound.classifier != c.in.Classifier {
			bound.pods, bound.classifier = map[types.UID]boundPod{}, c.in.Classifier
		}
		seen = make(map[types.UID]boundPod, len(bound.pods))
		defer func() { bound.pods = seen }()
	}
	for _, pod := range c.in.Pods {
		switch {
		case pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed:
		case pod.Spec.NodeName != "":
			c.countBound(pod, c.in.Bound.use(pod, c.in.Demand, seen))
		default:
			c.countWaiting(ctx, pod)
		}
	}
}

// countBound adds what a bound pod uses to its node's use.
func (c *count) countBound(pod *v1.Pod, b boundPod) {
	u := c.used[pod.Spec.NodeName]
	if u == nil {
		u = &nodeUse{units: map[v1.ResourceName]int64{}, otherUnits: map[v1.ResourceName]int64{}}
		c.used[pod.Spec.NodeName] = u
	}
	u.milliCPU += b.milliCPU
	u.memory += b.memory
	other := !slices.Contains(c.in.OurSchedulers, pod.Spec.SchedulerName)
	for _, r := range b.requests {
		u.units[r.Name] += r.Count
		if other {
			u.otherUnits[r.Name] += r.Count
		}
		if !b.pinned {
			u.unpinnedUnits += r.Count
		}
	}
	if other {
		addClaimsOf(pod, c.otherClaims)
	}
}

// countWaiting counts a GPU pod without a node: under its report row (the
// mode and resource of its first request or claim, its node constraint and
// its reason), under its constraint when it has one, and by its shape
// against which free units strand.
func (c *count) countWaiting(ctx context.Context, pod *v1.Pod) {
	demand := c.in.Demand(pod)
	if demand.Invalid != nil || !demand.IsGPU() && len(demand.Claims) == 0 {
		return
	}
	mode, _ := demand.Mode()
	var resource v1.ResourceName
	if demand.IsGPU() {
		resource = demand.Requests[0].Name
	} else {
		mode, _ = demand.Claims[0].Class.Mode()
		resource = v1.ResourceName(demand.Claims[0].DeviceClass)
	}
	reason := cmp.Or(c.in.ReasonOf(pod), Unexplained)
	constraint := poddemand.NodeConstraintOf(pod)
	if len(demand.Claims) > 0 && c.in.DRADevices != nil {
		constraint = constraint.WithClaimSelectors(demand.Claims, func(node string) bool {
			devices, selected := c.in.DRADevices(node)
			return dradevices.DRAPublishesFor(ctx, devices, selected, demand.Claims)
		})
	}
	key := Pending{Mode: mode, Resource: resource, Constraint: constraint.Description, Reason: reason}
	p := c.pending[key]
	if p == nil {
		p = &key
		c.pending[key] = p
	}
	units := int64(0)
	for _, r := range demand.Requests {
		units += r.Count
	}
	for _, claim := range demand.Claims {
		units += claim.Count
	}
	p.Pods++
	p.Units += units
	if constraint.Constrains() {
		w := c.pinned[constraint.Key]
		if w == nil {
			w = &pinnedWaiting{constraint: constraint}
			c.pinned[constraint.Key] = w
		}
		w.pods++
		w.units += units
	}
	requests := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	shape := poddemand.WaitingShape{MilliCPU: requests.Cpu().MilliValue(), Memory: requests.Memory().Value()}
	if !demand.IsGPU() {
		for _, claim := range demand.Claims {
			shape.Units += claim.Count
		}
		c.waiting.Add(dradevices.DRAGPUs(c.in.DRADriver), shape, constraint)
		return
	}
	first := demand.Requests[0]
	shape.Units = first.Count
	c.waiting.Add(first.Name, shape, constraint)
	if c.in.DRAServes != nil && c.in.DRAServes(first.Name) {
		c.waiting.Add(dradevices.DRAGPUs(c.in.DRADriver), shape, constraint)
	}
}

// countNodes counts each GPU node: a DRA node by its devices and GPUs, a
// device-plugin node by its mode's state and its resources' units, free
// ones stranded against the waiting pods, and under its card.
func (c *count) countNodes() {
	for _, node := range c.in.Nodes {
		state := c.in.State(node)
		if !state.GPUNode {
			continue
		}
		u := c.used[node.Name]
		if u == nil {
			u = &nodeUse{}
		}
		freeCPU, freeMemory := node.Status.Allocatable.Cpu().MilliValue()-u.milliCPU, node.Status.Allocatable.Memory().Value()-u.memory
		if state.DRA {
			devices, selected := c.in.DRADevices(node.Name)
			countDRANode(c.modes[ModeDRA], c.resources, state, devices, selected, c.in.DRADriver, c.otherClaims)
			countDRAGPUs(c.resources, node, devices, c.in.DRADriver, c.otherClaims, c.waiting, freeCPU, freeMemory)
			continue
		}
		c.countDevicePluginNode(node, state, u, freeCPU, freeMemory)
	}
}

// countDevicePluginNode counts a device-plugin GPU node under its mode, its
// resources' units by state, and its card.
func (c *count) countDevicePluginNode(node *v1.Node, state *gpuworkload.NodeState, u *nodeUse, freeCPU, freeMemory int64) {
	m := c.modes[state.Mode.Mode]
	unsettled := state.Unsettled()
	switch {
	case state.Converting():
		m.Converting++
	case hasError(state):
		m.Mismatched++
	default:
		m.Ready++
	}
	allocatedHere := int64(0)
	for _, r := range state.Resources {
		allocated := u.units[r.Name]
		allocatedHere += allocated
		key := [2]string{string(state.Mode.Mode), string(r.Name)}
		row := c.resources[key]
		if row == nil {
			row = newResource(state.Mode.Mode, r.Name)
			c.resources[key] = row
		}
		free := max(r.Allocatable-allocated, 0)
		row.Allocatable += r.Allocatable
		row.Allocated += allocated
		row.HeldByOtherSchedulers += u.otherUnits[r.Name]
		row.OverCommitted += max(allocated-r.Allocatable, 0)
		if unsettled {
			row.Unavailable += free
			continue
		}
		row.Free += free
		if kind, ok := c.waiting.Stranded(poddemand.FreeOnNode{Node: node, Resource: r.Name, Units: free, MilliCPU: freeCPU, Memory: freeMemory}); ok {
			row.Stranded[poddemand.StrandedKindNames[kind]] += free
		}
	}
	if allocatedHere == 0 && !unsettled {
		m.Empty++
	}
	name := cmp.Or(state.Product, state.Card.String())
	card := c.cards[name]
	if card == nil {
		card = &Card{Card: name}
		c.cards[name] = card
	}
	card.Nodes++
	for _, r := range state.Resources {
		card.Allocatable += r.Allocatable
	}
	card.HeldByUnpinned += u.unpinnedUnits
	c.cardNodes[name] = append(c.cardNodes[name], node)
}

// countPinned counts the pods waiting under each node constraint under
// every card one of whose nodes the constraint accepts.
func (c *count) countPinned() {
	for _, w := range c.pinned {
		for card, nodes := range c.cardNodes {
			if slices.ContainsFunc(nodes, w.constraint.Accepts) {
				c.cards[card].PinnedPodsWaiting += w.pods
				c.cards[card].PinnedUnitsWaiting += w.units
			}
		}
	}
}

// report is the tallies as the Report, each list sorted.
func (c *count) report() Report {
	var r Report
	for _, row := range c.resources {
		r.Resources = append(r.Resources, *row)
	}
	slices.SortFunc(r.Resources, func(a, b Resource) int {
		return cmp.Or(cmp.Compare(a.Mode, b.Mode), cmp.Compare(a.Resource, b.Resource))
	})
	for _, m := range gpuworkload.Modes {
		r.Modes = append(r.Modes, *c.modes[m])
	}
	r.Modes = append(r.Modes, *c.modes[ModeDRA])
	for _, p := range c.pending {
		r.Pending = append(r.Pending, *p)
	}
	slices.SortFunc(r.Pending, func(a, b Pending) int {
		return cmp.Or(cmp.Compare(a.Mode, b.Mode), cmp.Compare(a.Resource, b.Resource), cmp.Compare(a.Constraint, b.Constraint), cmp.Compare(a.Reason, b.Reason))
	})
	for _, name := range slices.Sorted(maps.Keys(c.cards)) {
		r.Cards = append(r.Cards, *c.cards[name])
	}
	return r
}

func newResource(mode gpuworkload.Mode, name v1.ResourceName) *Resource {
	row := &Resource{Mode: mode, Resource: name, Stranded: map[string]int64{}}
	for _, kind := range poddemand.StrandedKindNames {
		row.Stranded[kind] = 0
	}
	return row
}

// countDRAGPUs counts a DRA node's physical GPUs: allocated when a claim
// holds any of its devices, free when all of them are free. A free GPU
// can become any of its devices, so its stranding is counted once, per
// GPU, against the pods waiting for a device of the driver (a claim, or an
// extended resource a DeviceClass of the driver serves): by mode when none
// waits, as in a device-plugin mode.
func countDRAGPUs(resources map[[2]string]*Resource, node *v1.Node, devices []dradevices.DRADeviceState, driver string, otherClaims map[string]bool, waiting *poddemand.WaitingGPUPods, freeCPU, freeMemory int64) {
	gpus := map[string]string{}
	heldByOthers := map[string]bool{}
	for _, d := range devices {
		gpu := cmp.Or(d.PCIBusID, d.Pool+"/"+d.Name)
		switch current := gpus[gpu]; {
		case d.State == dradevices.DRADeviceAllocated || d.State == dradevices.DRADeviceSiblingInUse:
			gpus[gpu] = dradevices.DRADeviceAllocated
			heldByOthers[gpu] = heldByOthers[gpu] || otherClaims[d.Claim]
		case current == "" || d.State == dradevices.DRADeviceTainted && current == dradevices.DRADeviceFree:
			gpus[gpu] = d.State
		}
	}
	if len(gpus) == 0 {
		return
	}
	key := [2]string{string(ModeDRA), driver}
	row := resources[key]
	if row == nil {
		row = newResource(ModeDRA, dradevices.DRAGPUs(driver))
		resources[key] = row
	}
	free := int64(0)
	for gpu, state := range gpus {
		row.Allocatable++
		switch state {
		case dradevices.DRADeviceAllocated:
			row.Allocated++
			if heldByOthers[gpu] {
				row.HeldByOtherSchedulers++
			}
		case dradevices.DRADeviceFree:
			free++
		}
	}
	row.Free += free
	if kind, ok := waiting.Stranded(poddemand.FreeOnNode{Node: node, Resource: dradevices.DRAGPUs(driver), Units: free, MilliCPU: freeCPU, Memory: freeMemory}); ok {
		row.Stranded[poddemand.StrandedKindNames[kind]] += free
	}
}

// countDRANode counts a DRA node and its devices by DeviceClass and state,
// as claims see them: a device every class that selects it counts once,
// under the mode it serves; a device no class selects counts under its
// type. The node is empty when none of its devices is allocated.
func countDRANode(m *Mode, resources map[[2]string]*Resource, state *gpuworkload.NodeState, devices []dradevices.DRADeviceState, selected map[string][]int, driver string, otherClaims map[string]bool) {
	if hasError(state) {
		m.Mismatched++
	} else {
		m.Ready++
	}
	count := func(d dradevices.DRADeviceState, name v1.ResourceName) {
		mode, _ := d.Class.Mode()
		key := [2]string{string(mode), string(name)}
		row := resources[key]
		if row == nil {
			row = &Resource{Mode: mode, Resource: name, DRA: true}
			resources[key] = row
		}
		row.Allocatable++
		switch d.State {
		case dradevices.DRADeviceAllocated:
			row.Allocated++
			if otherClaims[d.Claim] {
				row.HeldByOtherSchedulers++
			}
		case dradevices.DRADeviceTainted:
			row.Tainted++
		case dradevices.DRADeviceSiblingInUse:
			row.SiblingInUse++
		default:
			row.Free++
		}
	}
	inAClass := make([]bool, len(devices))
	for deviceClass, indices := range selected {
		for _, i := range indices {
			count(devices[i], v1.ResourceName(deviceClass))
			inAClass[i] = true
		}
	}
	empty := true
	for i, d := range devices {
		if !inAClass[i] {
			count(d, DRAResource(driver, d.Type))
		}
		empty = empty && d.State != dradevices.DRADeviceAllocated
	}
	if empty {
		m.Empty++
	}
}

// addClaimsOf adds the claims the pod names (namespace/name) to claims; a
// claim of a template not yet made is left out.
func addClaimsOf(pod *v1.Pod, claims map[string]bool) {
	for i := range pod.Spec.ResourceClaims {
		if name, _, err := resourceclaim.Name(pod, &pod.Spec.ResourceClaims[i]); err == nil && name != nil {
			claims[pod.Namespace+"/"+*name] = true
		}
	}
}

// hasError says whether a check finding of error severity stands against
// the node: its labels and advertisement disagree.
func hasError(state *gpuworkload.NodeState) bool {
	return slices.ContainsFunc(state.Findings, func(f gpuworkload.Finding) bool { return f.Code.Severity() == gpuworkload.SeverityError })
}
