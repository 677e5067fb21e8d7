// Package placement places pods on a described cluster one at a time as a
// scheduler profile would: the real scheduler framework, with our plugins
// and kube-scheduler's, built from a KubeSchedulerConfiguration, without an
// API server. The simulator (pkg/sim) replays timed workloads on it; advise
// and the mode controller (pkg/conversionplan) ask it where pods would go,
// as cluster-autoscaler's scale-down asks the scheduler framework whether a
// node's pods fit elsewhere.
package placement

import (
	"context"
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// Options are the scheduler configuration a Cluster runs.
type Options struct {
	// Profile and Percentage come from LoadProfile.
	Profile    *schedconfig.KubeSchedulerProfile
	Percentage *int32
	// KeepIdlePlugins, FilterEveryNode and FilterEveryTime turn off the
	// engine's three shortcuts, each of which changes no placement and
	// saves most of a large run's time: leaving out the plugins that
	// decide nothing here (idlePlugins), looking only at the nodes that
	// serve a GPU pod's resource, and remembering Filter's verdicts on
	// unchanged nodes. gpu-workload-sim --no-shortcuts turns all three off.
	KeepIdlePlugins, FilterEveryNode, FilterEveryTime bool
}

// Config is a cluster to place pods on.
type Config struct {
	Options
	Nodes []NodeSpec
	// Policy is the ClusterPolicy's sandboxWorkloads the cluster runs with.
	Policy gpuworkload.SandboxPolicy
	// Registry holds the plugins the profile names besides ours and
	// kube-scheduler's; State is the scheduler state they share with ours.
	Registry frameworkruntime.Registry
	State    *schedulerstate.Service
	// Claims says some pods have ResourceClaims, which DynamicResources
	// allocates.
	Claims bool
}

// Cluster is a cluster's nodes and the pods placed on them.
type Cluster struct {
	ctx    context.Context
	logger klog.Logger
	engine *engine
	opts   Options
	policy gpuworkload.SandboxPolicy
	dra    draServing
	// claims, when pods have claims, runs their allocation.
	claims *claimEngine
	// cel compiles the VMs' claim selectors once per expression.
	cel    *dradevices.CELCache
	nodes  []*Node
	byName map[string]*Node
	// listed is the scheduler's node list that atPosition (the node at each
	// position, so that the Filter path looks up no names) and servingAt
	// (per GPU resource, the positions of the nodes that serve it) were
	// made for. A node object replaced drops them, and a new list remakes
	// them.
	listed     []fwk.NodeInfo
	atPosition []*Node
	servingAt  map[v1.ResourceName][]int
	// unplaceable are the shapes that found no node since capacity was last
	// freed: placements only fill nodes, so they find none until then.
	unplaceable map[shape]bool
	// shapeNumbers number the shapes for the engine's Filter verdicts.
	shapeNumbers map[shape]int
}

// Node is a node's state. Its fields are the Cluster's to change.
type Node struct {
	Spec NodeSpec
	// Object is the node as the scheduler sees it.
	Object *v1.Node
	Mode   gpuworkload.Mode
	// Resource is the advertised GPU resource, "" while converting or
	// without GPUs; Units its count.
	Resource                              v1.ResourceName
	Units, UsedUnits, UsedCPU, UsedMemory int64
	Pods, GPUPods, VMs                    int
	Converting                            bool
	// RelabelledFor is the resource the node's last conversion was for.
	RelabelledFor v1.ResourceName
	version       int
	// dra is what a DRA node's devices serve, nil for other nodes; draHeld
	// says which of its GPUs a claim holds; draProduct is the productName
	// of its devices.
	dra        draServing
	draHeld    []bool
	draProduct string
}

// Free is the node's GPU units no pod holds.
func (n *Node) Free() int64 { return n.Units - n.UsedUnits }

// DRA says the DRA driver publishes the node's GPUs.
func (n *Node) DRA() bool { return n.dra != nil }

// Pod is a pod to place. Its fields are the Cluster's to change.
type Pod struct {
	Spec PodSpec
	obj  *v1.Pod
	// Constraint is the pod's nodeSelector and required node affinity.
	Constraint poddemand.NodeConstraint
	// Node is where the pod runs, nil while it waits.
	Node *Node
	// claimCreated says its ResourceClaim was written, before its first cycle.
	claimCreated bool
	// draGPUs are the GPUs its claim holds on a DRA node.
	draGPUs []int
}

// shape is what decides whether a pod fits a node: pods of one shape fit
// the same nodes, so one failure stands for all until capacity is freed.
type shape struct {
	gpu              v1.ResourceName
	count            int64
	milliCPU, memory int64
	vm               bool
	node             string
	// constraint is the key of the pod's node constraint, its claim's
	// alternatives included.
	constraint string
}

func (p *Pod) shape() shape {
	s := p.Spec
	return shape{gpu: s.GPU, count: s.GPUCount, milliCPU: s.MilliCPU, memory: s.Memory, vm: s.VM, node: s.Node, constraint: p.Constraint.Key}
}

// New builds the scheduler and gives it the nodes. The scheduler's cache,
// informers and trackers run until ctx ends.
func New(ctx context.Context, cfg Config) (*Cluster, error) {
	profile := cfg.Profile
	if !cfg.KeepIdlePlugins {
		profile = withoutIdlePlugins(profile, cfg.Claims)
	}
	state := cfg.State
	if state == nil {
		state = schedulerstate.NewOffline()
	}
	e, err := newEngine(ctx, profile, cfg.Percentage, cfg.Registry, state, cfg.Policy)
	if err != nil {
		return nil, err
	}
	dra, err := draServingOf(cfg.Nodes)
	if err != nil {
		return nil, err
	}
	c := &Cluster{ctx: ctx, logger: klog.FromContext(ctx), engine: e, opts: cfg.Options, policy: cfg.Policy, dra: dra, cel: dradevices.NewCELCache(),
		byName: map[string]*Node{}, unplaceable: map[shape]bool{}, shapeNumbers: map[shape]int{}}
	if cfg.Claims {
		if c.claims, err = newClaimEngine(ctx, e); err != nil {
			return nil, err
		}
	}
	if err := c.publishDRA(cfg.Nodes); err != nil {
		return nil, err
	}
	for _, spec := range cfg.Nodes {
		n := &Node{Spec: spec, Mode: spec.Mode}
		if spec.DRA {
			n.dra, n.draHeld, n.draProduct = dra, make([]bool, spec.Inventory.GPUs), spec.Inventory.Card.DRAProductName()
			if err := c.publishForClaims(n); err != nil {
				return nil, err
			}
		}
		c.advertise(n, false)
		c.nodes = append(c.nodes, n)
		c.byName[spec.Name] = n
		e.addNode(c.logger, n.Object)
	}
	return c, nil
}

// Nodes are the cluster's nodes, in the order given.
func (c *Cluster) Nodes() []*Node { return c.nodes }

// Node is the named node, nil if the cluster has none of that name.
func (c *Cluster) Node(name string) *Node { return c.byName[name] }

// ServedByDRA says the DRA driver's DeviceClasses serve the resource.
func (c *Cluster) ServedByDRA(r v1.ResourceName) bool {
	_, ok := c.dra[r]
	return ok
}

// EffectiveMode is the mode the GPU Operator prepares the node for: with
// sandbox workloads disabled it ignores the label and prepares containers.
func (c *Cluster) EffectiveMode(n *Node) gpuworkload.Mode {
	return c.policy.EffectiveMode(map[string]string{gpuworkload.LabelWorkloadConfig: string(n.Mode)}).Mode
}

// NewPod is the pod the spec describes, to place with Place.
func (c *Cluster) NewPod(spec PodSpec) (*Pod, error) {
	if spec.Node != "" && c.byName[spec.Node] == nil {
		return nil, fmt.Errorf("pod %s: node %+q is not in the cluster description", spec.Name, spec.Node)
	}
	if spec.Node != "" && spec.ClaimProducts != nil {
		return nil, fmt.Errorf("pod %s: a VM with a claim is placed by the scheduler, which allocates the claim: leave node empty", spec.Name)
	}
	obj := podObject(spec, c.engine.framework.ProfileName())
	constraint, err := podConstraint(c.cel, spec, obj, func(node string) string { return c.byName[node].draProduct })
	if err != nil {
		return nil, err
	}
	return &Pod{Spec: spec, obj: obj, Constraint: constraint}, nil
}

// ConstraintOf is the node constraint of the pod the spec describes, as
// NewPod gives it; productOf is the productName of a node's DRA devices,
// cel the cache its claim's selectors compile through.
func ConstraintOf(cel *dradevices.CELCache, spec PodSpec, productOf func(node string) string) (poddemand.NodeConstraint, error) {
	return podConstraint(cel, spec, podObject(spec, ""), productOf)
}

// podConstraint is the pod's node constraint: its node affinity and, for
// a VM with a claim, the nodes whose cards its alternatives select, which
// one key stands for in every VM of those cards. productOf is the
// productName of a node's DRA devices.
func podConstraint(cel *dradevices.CELCache, spec PodSpec, pod *v1.Pod, productOf func(node string) string) (poddemand.NodeConstraint, error) {
	constraint := poddemand.NodeConstraintOf(pod)
	if spec.ClaimProducts == nil {
		return constraint, nil
	}
	vfio := func(string) (gpuworkload.ResourceClass, bool) {
		return dradevices.DRATypeClass(dradevices.DRATypeVFIO), true
	}
	requests, err := dradevices.DRAClaimRequestsOf(cel, vmClaimObject(spec), vfio)
	if err != nil {
		return constraint, fmt.Errorf("pod %s: %w", spec.Name, err)
	}
	for i := range requests {
		requests[i].Claim = "of " + strings.Join(spec.ClaimProducts, " or ")
	}
	return constraint.WithClaimSelectors(requests, func(node string) bool {
		return slices.Contains(spec.ClaimProducts, productOf(node))
	}), nil
}

// cannotHold says why the node cannot hold a pod pinned to it, or "" if it
// can: a snapshot that overcommits a node or puts a GPU pod on a node of
// another mode would make every figure of a run wrong.
func (n *Node) cannotHold(p PodSpec) string {
	if n.holds(&p) {
		return ""
	}
	switch {
	case n.Pods >= podsPerNode:
		return fmt.Sprintf("holds %d pods, the most a simulated node takes", n.Pods)
	case n.UsedCPU+p.MilliCPU > n.Spec.MilliCPU:
		return fmt.Sprintf("has %dm CPU free, the pod requests %dm", n.Spec.MilliCPU-n.UsedCPU, p.MilliCPU)
	case n.UsedMemory+p.Memory > n.Spec.Memory:
		return fmt.Sprintf("has %d bytes of memory free, the pod requests %d", n.Spec.Memory-n.UsedMemory, p.Memory)
	case p.GPU != "" && n.dra != nil && !n.serves(p.GPU):
		return fmt.Sprintf("publishes its GPUs through DRA, and no DeviceClass serves %s", p.GPU)
	case p.GPU != "" && !n.serves(p.GPU):
		return fmt.Sprintf("advertises %+q in mode %s, the pod requests %s", n.Resource, n.Mode, p.GPU)
	default:
		return fmt.Sprintf("has %d x %s free, the pod requests %d", n.Free(), p.GPU, p.GPUCount)
	}
}

// holds says whether the node has room for one more pod and the pod's CPU,
// memory and GPU units free: NodeResourcesFit's verdict, as the node object
// advertises the same and the pod requests nothing else. On a DRA node the
// units are GPUs no claim holds, which is also GPUWorkloadFit's verdict on
// its devices.
func (n *Node) holds(p *PodSpec) bool {
	return n.Pods < podsPerNode && n.UsedCPU+p.MilliCPU <= n.Spec.MilliCPU && n.UsedMemory+p.Memory <= n.Spec.Memory &&
		(p.GPU == "" || n.serves(p.GPU) && n.Free() >= p.GPUCount) &&
		(p.ClaimProducts == nil || slices.Contains(p.ClaimProducts, n.draProduct))
}

// serves says whether the node's GPUs serve the resource: the one it
// advertises, or on a DRA node those the DeviceClasses serve and, as
// draGPUs, claims.
func (n *Node) serves(r v1.ResourceName) bool {
	if n.dra != nil {
		_, ok := n.dra[r]
		return ok || r == draGPUs
	}
	return n.Resource == r
}

// advertise sets the node object for its mode label and conversion state.
// The node advertises what its effective mode does. A DRA node advertises
// nothing; its units are its GPUs, under draGPUs.
func (c *Cluster) advertise(n *Node, converting bool) {
	n.Converting = converting
	n.version++
	n.Resource, n.Units = "", 0
	if name, count, err := n.Spec.Inventory.Advertisement(c.EffectiveMode(n)); err == nil && count > 0 && !converting && !n.Spec.DRA {
		n.Resource, n.Units = name, count
	}
	c.listed = nil
	n.Object = nodeObject(n.Spec, n.Mode, n.Resource, n.Units, n.version)
	if n.Spec.DRA {
		n.Resource, n.Units = draGPUs, n.Spec.Inventory.GPUs
	}
}

// Place schedules the pod (or binds it to its given node) and accounts for
// it; false: no node fits it now.
func (c *Cluster) Place(p *Pod) (bool, error) {
	if p.Spec.ClaimProducts != nil && !p.claimCreated {
		if err := c.claims.create(p); err != nil {
			return false, err
		}
		p.claimCreated = true
	}
	node := p.Spec.Node
	var cycle fwk.CycleState
	if node == "" {
		s := p.shape()
		var err error
		if node, cycle, err = c.engine.schedule(c.ctx, p.obj, c.unplaceable[s], nodesFor{c, p}); err != nil {
			return false, fmt.Errorf("schedule pod %s: %w", p.Spec.Name, err)
		}
		if node == "" {
			c.unplaceable[s] = true
			return false, nil
		}
	} else if why := c.byName[node].cannotHold(p.Spec); why != "" {
		return false, fmt.Errorf("pod %s is pinned to node %s, which %s: pin it to a node that holds it, or leave node empty to schedule it", p.Spec.Name, node, why)
	}
	if err := c.engine.bind(c.logger, p.obj, node); err != nil {
		return false, err
	}
	n := c.byName[node]
	p.Node = n
	n.Pods++
	n.UsedCPU += p.Spec.MilliCPU
	n.UsedMemory += p.Spec.Memory
	if p.Spec.GPU != "" {
		n.UsedUnits += p.Spec.GPUCount
		n.GPUPods++
		if n.dra != nil {
			if err := c.allocateDRA(p, n, cycle); err != nil {
				return false, err
			}
		}
	}
	if p.Spec.VM {
		n.VMs++
	}
	return true, nil
}

// Unplaceable says a pod of this one's shape found no node since capacity
// was last freed, so this one would find none either.
func (c *Cluster) Unplaceable(p *Pod) bool { return c.unplaceable[p.shape()] }

// nodesFor is what the cluster knows of its nodes for one pod.
type nodesFor struct {
	c *Cluster
	p *Pod
}

func (f nodesFor) serving(all []fwk.NodeInfo) []int {
	c := f.c
	if c.listed == nil || len(c.listed) != len(all) || &c.listed[0] != &all[0] {
		c.listed, c.servingAt = all, map[v1.ResourceName][]int{}
		c.atPosition = c.atPosition[:0]
		for _, ni := range all {
			c.atPosition = append(c.atPosition, c.byName[ni.Node().Name])
		}
	}
	gpu := f.p.Spec.GPU
	if gpu == "" || c.opts.FilterEveryNode {
		return nil
	}
	positions, ok := c.servingAt[gpu]
	if !ok {
		positions = []int{}
		for i, n := range c.atPosition {
			if n.serves(gpu) {
				positions = append(positions, i)
			}
		}
		c.servingAt[gpu] = positions
	}
	return positions
}

func (f nodesFor) full(position int) bool { return !f.c.atPosition[position].holds(&f.p.Spec) }

func (f nodesFor) shape() int {
	if f.p.Spec.ClaimProducts != nil || f.c.opts.FilterEveryTime {
		return 0
	}
	s := f.p.shape()
	n, ok := f.c.shapeNumbers[s]
	if !ok {
		n = len(f.c.shapeNumbers) + 1
		f.c.shapeNumbers[s] = n
	}
	return n
}

// Remove takes a placed pod off its node, which frees its capacity.
func (c *Cluster) Remove(p *Pod) error {
	if err := c.engine.remove(c.logger, p.obj); err != nil {
		return fmt.Errorf("remove pod %s: %w", p.Spec.Name, err)
	}
	n := p.Node
	n.Pods--
	n.UsedCPU -= p.Spec.MilliCPU
	n.UsedMemory -= p.Spec.Memory
	if p.Spec.GPU != "" {
		n.UsedUnits -= p.Spec.GPUCount
		n.GPUPods--
		if n.dra != nil {
			if err := c.releaseDRA(p, n); err != nil {
				return err
			}
		}
	}
	if p.Spec.VM {
		n.VMs--
	}
	clear(c.unplaceable)
	return nil
}

// StartConversion relabels the node as the relabel proposes: it advertises
// nothing until FinishConversion.
func (c *Cluster) StartConversion(n *Node, r advisor.Relabel) {
	n.RelabelledFor = r.Resource
	n.Spec.Apply(r)
	c.relabel(n, r.To, true)
}

// FinishConversion makes the node advertise what its mode does, as the GPU
// Operator's operands do once they run.
func (c *Cluster) FinishConversion(n *Node) {
	c.relabel(n, n.Mode, false)
	clear(c.unplaceable)
}

// relabel gives the node a mode label and tells the scheduler.
func (c *Cluster) relabel(n *Node, mode gpuworkload.Mode, converting bool) {
	old := n.Object
	n.Mode = mode
	c.advertise(n, converting)
	c.engine.updateNode(c.logger, old, n.Object)
}
