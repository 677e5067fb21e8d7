// Package advisor proposes which GPU nodes to relabel, or to give another
// vGPU profile, so that pending GPU demand can be served: from pending demand
// per resource and the nodes that are empty in a mode or profile nobody is
// waiting for. The kubectl plugin prints its plan; the simulator applies it.
package advisor

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// Node is a GPU node as the advisor sees it.
type Node struct {
	Name      string
	Mode      gpuworkload.Mode
	Inventory gpuworkload.GPUInventory
	// Resource and Units are what the node advertises now.
	Resource  v1.ResourceName
	Units     int64
	UsedUnits int64
	GPUPods   int
	VMs       int
	// Displaced names the GPU pods (namespace/name) and VMs ("VM
	// namespace/name") it runs, which emptying it displaces; nil where the
	// caller does not know them.
	Displaced  []string
	Converting bool
	// RelabelledFor is the resource the advisor last converted the node
	// for, when known: while pods requesting it wait, the node is not
	// converted away from it, whatever the scoring did with it meanwhile.
	RelabelledFor v1.ResourceName
	// Held keeps the node in its mode: it serves as it is and is never
	// proposed (the mode controller's guardrails and hysteresis hold nodes).
	Held bool
	// Object is the node, whose labels the pods' constraints match; nil
	// where no pod has a constraint.
	Object *v1.Node
}

// NodeOf is the advisor's view of a GPU node that the device plugins serve,
// from its object, its state, its inventory (gpuworkload.NodeState.Inventory) and
// the pods bound to it: advise, the mode controller and the scheduler's
// explanations build it alike, so that they choose the same node.
func NodeOf(node *v1.Node, state *gpuworkload.NodeState, inventory gpuworkload.GPUInventory, pods []*v1.Pod, classifier *gpuworkload.Classifier) Node {
	n := Node{
		Name: state.Name, Mode: state.Mode.Mode, Inventory: inventory, Converting: state.Unsettled(), Object: node,
		RelabelledFor: v1.ResourceName(node.Annotations[gpuworkload.AnnotationConvertedFor]),
	}
	if len(state.Resources) > 0 {
		n.Resource, n.Units = state.Resources[0].Name, state.Resources[0].Allocatable
	}
	for _, p := range pods {
		if !poddemand.HoldsGPU(p, classifier) {
			continue
		}
		n.GPUPods++
		for _, r := range poddemand.NewPodDemand(p, classifier).Requests {
			if r.Name == n.Resource {
				n.UsedUnits += r.Count
			}
		}
		if vmi := gpuworkload.VMIOf(p); vmi != nil {
			n.VMs++
			n.Displaced = append(n.Displaced, "VM "+vmi.Namespace+"/"+vmi.Name)
		} else {
			n.Displaced = append(n.Displaced, p.Namespace+"/"+p.Name)
		}
	}
	return n
}

// PendingPod is a GPU pod waiting for a node.
type PendingPod struct {
	Name     string
	Resource v1.ResourceName
	Count    int64
	// Constraint is the pod's nodeSelector and required node affinity: only
	// nodes it accepts serve it, as they are or once converted.
	Constraint poddemand.NodeConstraint
}

// Input is the cluster the advisor looks at.
type Input struct {
	Policy  gpuworkload.SandboxPolicy
	Nodes   []Node
	Pending []PendingPod
}

// Narrowing is what a caller that carries out plans keeps out of them. The
// mode controller holds nodes its guardrails or hysteresis protect, and
// counts only pods that have waited long enough.
type Narrowing struct {
	// Demand says which pending pods count at all; the pods it leaves out
	// are reported with the reason.
	Demand DemandRules
	// Waiting keeps a pending pod in the demand; nil keeps every one.
	Waiting func(*v1.Pod) bool
	// Held says a node keeps its mode (Node.Held); nil holds none.
	Held func(*v1.Node) bool
}

// Relabel is one proposed change of a node's mode, vGPU profile, or both.
type Relabel struct {
	Node string           `json:"node"`
	From gpuworkload.Mode `json:"from"`
	To   gpuworkload.Mode `json:"to"`
	// Profile is the nvidia.com/vgpu.config value the node needs for the
	// resource, when it differs from the node's: a profile change, within
	// vm-vgpu mode or with the relabel.
	Profile  string          `json:"profile,omitempty"`
	Resource v1.ResourceName `json:"resource"`
	Units    int64           `json:"units"`
	Command  string          `json:"command"`
	// At is when a simulation applied it.
	At time.Duration `json:"at,omitempty"`
}

// DrainFirst is a node that could serve waiting demand after a relabel but
// runs GPU pods or VMs: the advisor never proposes it, and says so. Relabel
// is the conversion once it is empty (the mode controller's drain).
type DrainFirst struct {
	Relabel
	GPUPods int    `json:"gpuPods"`
	VMs     int    `json:"vms"`
	Advice  string `json:"advice"`
}

// Shortfall is demand the plan leaves unserved.
type Shortfall struct {
	Resource v1.ResourceName `json:"resource"`
	Units    int64           `json:"units"`
	// Constraint names the waiting pods' nodeSelector or node affinity, when they have one.
	Constraint string `json:"constraint,omitempty"`
}

// Unservable is a pending pod no relabel can help, and why.
type Unservable struct {
	Pod string `json:"pod"`
	Why string `json:"why"`
}

// Plan is the advisor's proposal.
type Plan struct {
	// Prerequisite is a change needed before any relabel takes effect.
	Prerequisite string       `json:"prerequisite,omitempty"`
	Relabels     []Relabel    `json:"relabels"`
	DrainFirst   []DrainFirst `json:"drainFirst,omitempty"`
	Unserved     []Shortfall  `json:"unserved,omitempty"`
	// Kept are empty nodes that could serve waiting demand after a relabel
	// but hold their own resource's last free units beyond its reserve
	// (pool.reserve): the advisor leaves them as they are, and says so.
	Kept []Relabel `json:"kept,omitempty"`
	// Unservable pods are left out of the demand the plan serves.
	Unservable []Unservable `json:"unservable,omitempty"`
}

// demand is pending work for one resource, of pods with one constraint.
type demand struct {
	resource   v1.ResourceName
	constraint poddemand.NodeConstraint
	units      int64
	smallest   int64
}

// Advise proposes relabels. For each resource GPU pods wait for, largest
// shortfall first, it takes empty nodes whose own resource nobody waits for
// (or whose peers have enough free to cover what waits) and that advertise
// the wanted resource in its mode, until the shortfall is covered. Of the
// nodes that would serve a demand it takes last those another waiting
// demand cannot do without (needsOf), so that work any card serves does not
// take the last nodes of a card that pinned work waits for.
func Advise(in Input) Plan {
	plan := Plan{Relabels: []Relabel{}}
	var servable []PendingPod
	largestOf := map[v1.ResourceName]int64{}
	for _, p := range in.Pending {
		largest, ok := largestOf[p.Resource]
		if !ok {
			largest = largestNode(in.Nodes, p.Resource)
			largestOf[p.Resource] = largest
		}
		if largest > 0 && p.Count > largest {
			plan.Unservable = append(plan.Unservable, Unservable{Pod: p.Name,
				Why: fmt.Sprintf("asks for %d x %s; no node has more than %d, nor would after a relabel: split the request or add a node with more GPUs", p.Count, p.Resource, largest)})
			continue
		}
		servable = append(servable, p)
	}
	demands := pendingDemand(servable)
	if len(demands) == 0 {
		return plan
	}
	wanted := map[v1.ResourceName]int64{}
	for _, d := range demands {
		wanted[d.resource] += d.units
	}
	// leaving counts the units of relabelled nodes, which their old pool loses.
	leaving := map[v1.ResourceName]int64{}
	pools := poolsOf(in.Nodes)
	surplus := func(r v1.ResourceName) int64 { return pools[r].free - wanted[r] - leaving[r] }
	taken := map[string]bool{} // proposed, or listed under DrainFirst
	kept := map[string]bool{}
	shorts := make([]int64, len(demands))
	options := make([][]candidate, len(demands))
	for i, d := range demands {
		shorts[i] = d.units - usableFree(in.Nodes, d)
		if shorts[i] > 0 {
			options[i] = candidates(in.Nodes, d)
		}
	}
	needed := needsOf(demands, shorts, options)
	for i, d := range demands {
		short := shorts[i]
		if short <= 0 {
			continue
		}
		mode, ok := classMode(d.resource, in.Nodes)
		if ok && mode.IsSandbox() && !in.Policy.Enabled {
			plan.Prerequisite = gpuworkload.EnableSandboxFix(in.Policy)
		}
		if !ok {
			plan.Unserved = append(plan.Unserved, Shortfall{Resource: d.resource, Units: short, Constraint: d.constraint.Description})
			continue
		}
		for _, c := range needed.ordered(i, options[i]) {
			if short <= 0 {
				break
			}
			n := c.node
			if taken[n.Name] || c.conversion.Units() < d.smallest || n.RelabelledFor != "" && n.RelabelledFor != d.resource && wanted[n.RelabelledFor] > 0 {
				continue
			}
			if n.GPUPods > 0 || n.VMs > 0 {
				taken[n.Name] = true
				plan.DrainFirst = append(plan.DrainFirst, drainFirst(c, d.resource))
				continue
			}
			if n.Resource != "" && surplus(n.Resource) < n.Units+pools[n.Resource].reserve() {
				if !kept[n.Name] {
					kept[n.Name] = true
					plan.Kept = append(plan.Kept, relabel(c, d.resource))
				}
				continue
			}
			taken[n.Name] = true
			r := relabel(c, d.resource)
			short -= r.Units
			plan.Relabels = append(plan.Relabels, r)
			leaving[n.Resource] += n.Units
		}
		if short > 0 {
			plan.Unserved = append(plan.Unserved, Shortfall{Resource: d.resource, Units: short, Constraint: d.constraint.Description})
		}
	}
	return plan
}

// largestNode is the most units of r one node advertises, or would after a relabel.
func largestNode(nodes []Node, r v1.ResourceName) int64 {
	var largest int64
	for _, n := range nodes {
		if n.Resource == r {
			largest = max(largest, n.Units)
		}
		if mode, served, ok := n.Inventory.Serving(r); ok {
			if _, units, err := served.Advertisement(mode); err == nil {
				largest = max(largest, units)
			}
		}
	}
	return largest
}

// pendingDemand sums the pending pods by resource and constraint, largest
// demand first.
func pendingDemand(pending []PendingPod) []demand {
	type key struct {
		resource   v1.ResourceName
		constraint string
	}
	index := map[key]int{}
	var out []demand
	for _, p := range pending {
		k := key{p.Resource, p.Constraint.Key}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, demand{resource: p.Resource, constraint: p.Constraint, smallest: p.Count})
		}
		out[i].units += p.Count
		out[i].smallest = min(out[i].smallest, p.Count)
	}
	slices.SortStableFunc(out, func(a, b demand) int {
		return cmp.Or(cmp.Compare(b.units, a.units), cmp.Compare(a.resource, b.resource), cmp.Compare(a.constraint.Key, b.constraint.Key))
	})
	return out
}

// usableFree counts free units of the resource on nodes the demand's
// constraint accepts where at least the smallest waiting request fits, and
// units still to come from conversions.
func usableFree(nodes []Node, d demand) int64 {
	var free int64
	for _, n := range nodes {
		if !d.constraint.Accepts(n.Object) {
			continue
		}
		if n.Converting {
			if name, units, err := n.Inventory.Advertisement(n.Mode); err == nil && name == d.resource {
				free += units
			}
			continue
		}
		if n.Resource == d.resource && n.Units-n.UsedUnits >= d.smallest {
			free += n.Units - n.UsedUnits
		}
	}
	return free
}

// pool is the units of one resource across the nodes advertising it.
type pool struct{ free, used int64 }

// poolsOf sums the free and used units of each advertised resource.
func poolsOf(nodes []Node) map[v1.ResourceName]pool {
	out := map[v1.ResourceName]pool{}
	for _, n := range nodes {
		if n.Resource == "" {
			continue
		}
		p := out[n.Resource]
		p.free += n.Units - n.UsedUnits
		p.used += n.UsedUnits
		out[n.Resource] = p
	}
	return out
}

// reserve is how many free units a resource keeps beyond what waits for it
// when one of its nodes is relabelled: half the square root of its units in
// use, the safety margin of square-root staffing. Without it a relabel made
// for one resource's burst leaves the node's own resource short when its next
// arrivals come, and the node, busy again, cannot come back for hours.
func (p pool) reserve() int64 {
	return int64(math.Ceil(math.Sqrt(float64(p.used)) / 2))
}

// classMode is the mode in which some node would advertise the resource.
func classMode(r v1.ResourceName, nodes []Node) (gpuworkload.Mode, bool) {
	for _, n := range nodes {
		if mode, _, ok := n.Inventory.Serving(r); ok {
			return mode, true
		}
	}
	return "", false
}

// candidate is a node that would advertise a resource after a conversion.
type candidate struct {
	node       *Node
	conversion gpuworkload.Conversion
}

// candidates are the nodes that do not advertise the demand's resource but
// would in another mode or with another vGPU profile, and that its
// constraint accepts then.
func candidates(nodes []Node, d demand) []candidate {
	var out []candidate
	for i := range nodes {
		n := &nodes[i]
		if n.Converting || n.Held || n.Resource == d.resource {
			continue
		}
		if c, ok := n.Inventory.ConversionTo(n.Mode, d.resource); ok && d.constraint.AcceptsAfter(n.Object, c) {
			out = append(out, candidate{node: n, conversion: c})
		}
	}
	return out
}

// needs counts, per node, the waiting demands that cannot do without it:
// those whose candidates give them no more units than they are short of, as
// pods pinned to a card with few idle nodes, or VMs of its vGPU profile,
// are. It is GPUStranding's worth to pinned demand (scoring.md, "Scarce
// cards") at its limit, for conversions: another demand takes such a node
// only when nothing else serves it.
type needs map[string][]bool

func needsOf(demands []demand, shorts []int64, options [][]candidate) needs {
	out := needs{}
	for i, d := range demands {
		var serving []candidate
		var supply int64
		for _, o := range options[i] {
			if units := o.conversion.Units(); units >= d.smallest {
				serving = append(serving, o)
				supply += units
			}
		}
		if shorts[i] <= 0 || supply > shorts[i] {
			continue
		}
		for _, o := range serving {
			if out[o.node.Name] == nil {
				out[o.node.Name] = make([]bool, len(demands))
			}
			out[o.node.Name][i] = true
		}
	}
	return out
}

// ordered sorts demand i's candidates: fewest GPU pods and VMs first (each
// one to drain delays the conversion), then those fewest other demands
// cannot do without, then by name.
func (n needs) ordered(i int, options []candidate) []candidate {
	byOthers := func(o candidate) int {
		count := 0
		for j, needed := range n[o.node.Name] {
			if needed && j != i {
				count++
			}
		}
		return count
	}
	// Node names are unique: the order is total, and an unstable sort keeps it.
	slices.SortFunc(options, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.node.GPUPods+a.node.VMs, b.node.GPUPods+b.node.VMs), cmp.Compare(byOthers(a), byOthers(b)), cmp.Compare(a.node.Name, b.node.Name))
	})
	return options
}

// relabel proposes the node's new mode, and its vGPU profile when that changes.
func relabel(c candidate, r v1.ResourceName) Relabel {
	n := c.node
	out := Relabel{Node: n.Name, From: n.Mode, To: c.conversion.Mode, Resource: r, Units: c.conversion.Units(), Command: c.conversion.Command(n.Name)}
	if c.conversion.ProfileChange {
		out.Profile = c.conversion.Served.VGPU.Name()
	}
	return out
}

// drainFirst says what emptying the node displaces. A GPU VM rarely
// live-migrates (a passthrough device pins it), so for a node with VMs the
// advice says that they must stop or move and gives no drain command.
func drainFirst(c candidate, r v1.ResourceName) DrainFirst {
	n := c.node
	runs := fmt.Sprintf("runs %d GPU pod(s), %d of them VMs", n.GPUPods, n.VMs)
	if len(n.Displaced) > 0 {
		runs += " (" + strings.Join(n.Displaced, ", ") + ")"
	}
	advice := fmt.Sprintf("%s: drain it first (kubectl drain %s --ignore-daemonsets; evictions, so PodDisruptionBudgets hold), then convert it and uncordon it: %s; kubectl uncordon %s",
		runs, n.Name, c.conversion.Command(n.Name), n.Name)
	if n.VMs > 0 {
		advice = fmt.Sprintf("%s: converting it means stopping its VMs, or live-migrating those whose eviction strategy and devices allow it, which advise does not do; once they are gone: %s",
			runs, c.conversion.Command(n.Name))
	}
	return DrainFirst{Relabel: relabel(c, r), GPUPods: n.GPUPods, VMs: n.VMs, Advice: advice}
}
