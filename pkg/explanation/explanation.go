// Package explanation says, for a GPU pod no node can take, what it needs,
// what each GPU mode offers, and the concrete fix. The scheduler's
// PostFilter records it as an event and `kubectl gpu-workload explain`
// prints it: one function, so that both give the same answer.
package explanation

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	v1 "k8s.io/api/core/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// modeSummary is what Explain learns about the nodes of one mode.
type modeSummary struct {
	nodes, converting, mismatched int
}

// resourceSummary is what Explain learns about one requested resource.
type resourceSummary struct {
	nodes       int
	free, total int64
	// unavailable are the units no pod holds on converting or mismatched
	// nodes: not free, as the scheduler places nothing there.
	unavailable int64
	largest     int64
	// withRoom are the nodes counted, neither converting nor mismatched,
	// that have every one of the pod's requests free: there the pod waits
	// for what other plugins judge, not for GPUs.
	withRoom int
	// excludedNodes advertise the resource but the pod's NodeConstraint
	// excludes them, with excludedFree units free; excludedHardware could
	// advertise it once converted, and the constraint excludes them then.
	excludedNodes, excludedHardware int
	excludedFree                    int64
	// convertingTo are the nodes converting to advertise the resource,
	// whose units the advisor counts as coming.
	convertingTo int
	// dra is the DeviceClass that serves the resource through DRA, if any,
	// and draNodes the DRA nodes with devices of its class.
	dra      dradevices.DRAExtendedResource
	draNodes int
}

// conversion is the advisor's plan for the pod alone: the node advise and
// the mode controller would convert for it (advisor.NodeOf,
// advisor.Advise), with the GPU pods the plan's first node to drain runs,
// which converting it displaces.
type conversion struct {
	plan      advisor.Plan
	displaced []displacedPod
}

// displacedPod is a GPU pod a conversion would have to move or stop.
type displacedPod struct {
	// name is the pod's, or for a VM its VMI's, as namespace/name.
	name     string
	vm       bool
	priority int32
}

// Explanation is what Explain concludes about an unschedulable GPU pod.
type Explanation struct {
	// Message says what the pod needs, what each GPU mode offers, and the fix.
	Message string
	// FixCommands, run in order, make the pod schedulable. Empty when no
	// command can: the fix is to wait, to change the pod or to add hardware,
	// and Message says which.
	FixCommands []string
	// ReasonCode is the cause the fix answers: the code of the reason that
	// keeps the pod off every node (docs/reasons.md); empty when the pod's
	// claims have free devices and other plugins reject the nodes.
	ReasonCode reasons.Code
}

// Annotations of the explanation event, for programs: the fix's commands
// as a JSON array of strings, and the reason code.
const (
	AnnotationFixCommands = "gpu-workload.io/fix-commands"
	AnnotationReasonCode  = "gpu-workload.io/reason-code"
)

// Annotations are the explanation event's annotations: the reason code and
// the fix's commands, each when there is one.
func (e Explanation) Annotations() map[string]string {
	annotations := map[string]string{}
	if e.ReasonCode != "" {
		annotations[AnnotationReasonCode] = string(e.ReasonCode)
	}
	if len(e.FixCommands) > 0 {
		commands, _ := json.Marshal(e.FixCommands)
		annotations[AnnotationFixCommands] = string(commands)
	}
	return annotations
}

// remedy is the fix sentence, the commands it names, and the code of the
// reason it answers.
type remedy struct {
	text     string
	commands []string
	code     reasons.Code
}

func remedyText(code reasons.Code, text string) remedy { return remedy{text: text, code: code} }

// NodeInfos gives the scheduler's view of a node by name: what it has
// allocatable and what its pods request. fwk.NodeInfoLister is one.
type NodeInfos interface {
	Get(nodeName string) (fwk.NodeInfo, error)
}

// NodeInfoIndex is NodeInfos over a list of nodes.
type NodeInfoIndex map[string]fwk.NodeInfo

// NewNodeInfoIndex indexes the nodes by name.
func NewNodeInfoIndex(nodes []fwk.NodeInfo) NodeInfoIndex {
	index := make(NodeInfoIndex, len(nodes))
	for _, ni := range nodes {
		index[ni.Node().Name] = ni
	}
	return index
}

// Get is the node's NodeInfo.
func (index NodeInfoIndex) Get(nodeName string) (fwk.NodeInfo, error) {
	if ni, ok := index[nodeName]; ok {
		return ni, nil
	}
	return nil, fmt.Errorf("node %+q is not in the list", nodeName)
}

// Explain says, in one message, what the pod needs, what each GPU mode
// offers, and the concrete fix. It is shared by PostFilter and the kubectl
// plugin so that both give the same answer. Nodes a fix proposes to convert
// are taken from their hardware (gpuworkload.GPUInventory), as the advisor
// takes them. The counts per mode are the tracker's census; only the nodes
// that advertise, or have the hardware for, a requested resource and the DRA
// nodes a request needs are visited, so that the cost does not grow with the
// cluster for a pod that asks what no node has. A pod that requests two
// modes' resources gets no per-resource counts: no node can take it anyway.
// Units and conversions count only on nodes the pod's nodeSelector and
// required node affinity accept, as they are or once converted
// (poddemand.NodeConstraint).
func Explain(ctx context.Context, pod *v1.Pod, demand *poddemand.PodDemand, tracker *clusterstate.Tracker, nodes NodeInfos) Explanation {
	var constraint poddemand.NodeConstraint
	if pod != nil {
		constraint = poddemand.NodeConstraintOf(pod)
	}
	policy := tracker.Policy()
	c := takeCensus(ctx, demand, tracker, nodes, constraint)
	var b strings.Builder
	describe(&b, pod, demand, policy, c, constraint)
	b.WriteString(fixPrefix)
	r := c.fixFor(pod, demand, policy, tracker, nodes, constraint)
	b.WriteString(r.text)
	return Explanation{Message: b.String(), FixCommands: r.commands, ReasonCode: r.code}
}

// census is what the cluster offers the pod: the GPU nodes by mode, and
// what its requests and claims find.
type census struct {
	byMode                  map[gpuworkload.Mode]*modeSummary
	ignoredLabels, draNodes int
	perResource             []resourceSummary
	// perClaim holds, per claim request, a summary per alternative.
	perClaim       [][]claimSummary
	devicesCounted deviceCount
}

// takeCensus counts the modes from the tracker's census, the DRA nodes and
// devices the pod's requests and claims need, and, for a pod of one mode,
// its resources' units on the nodes that advertise them.
func takeCensus(ctx context.Context, demand *poddemand.PodDemand, tracker *clusterstate.Tracker, nodes NodeInfos, constraint poddemand.NodeConstraint) *census {
	modes, ignoredLabels, draNodes := tracker.ModeCounts()
	c := &census{byMode: map[gpuworkload.Mode]*modeSummary{}, ignoredLabels: ignoredLabels, draNodes: draNodes,
		perResource: make([]resourceSummary, len(demand.Requests)), perClaim: make([][]claimSummary, len(demand.Claims))}
	for i, m := range gpuworkload.Modes {
		c.byMode[m] = &modeSummary{nodes: modes[i].Nodes, converting: modes[i].Converting, mismatched: modes[i].Mismatched}
	}
	needsDRA := len(demand.Claims) > 0
	for i, r := range demand.Requests {
		c.perResource[i].dra, _ = tracker.DRAServed(r.Name)
		needsDRA = needsDRA || c.perResource[i].dra.DeviceClass != ""
	}
	for i, claim := range demand.Claims {
		c.perClaim[i] = make([]claimSummary, 1+len(claim.Or))
	}
	if needsDRA {
		c.countDRA(ctx, demand, tracker)
	}
	if !demand.Conflict() {
		for i, r := range demand.Requests {
			c.perResource[i].count(r.Name, demand.Requests, tracker, nodes, constraint)
		}
	}
	return c
}

// countDRA counts the DRA nodes that serve the pod's extended resources and
// the devices its claims' alternatives find on each. The claims' own
// selectors are CEL a tenant writes: they are evaluated until a deadline,
// the allocator's default timeout, and a node whose evaluation it cut short
// is left out of the counts, which say so.
func (c *census) countDRA(ctx context.Context, demand *poddemand.PodDemand, tracker *clusterstate.Tracker) {
	selectorCtx, cancel := context.WithTimeout(ctx, SelectorTimeout)
	defer cancel()
	nodeClaims := make([]dradevices.DRAClassAvailability, 0, 4)
	tracker.EachDRANode(func(node string, devices *dradevices.DRANode, available *dradevices.DRAAvailability) {
		for i := range c.perResource {
			if rs := &c.perResource[i]; rs.dra.DeviceClass != "" && len(devices.Selected[rs.dra.DeviceClass]) > 0 {
				rs.draNodes++
			}
		}
		if available == nil || len(demand.Claims) == 0 {
			return
		}
		c.devicesCounted.nodes++
		if selectorCtx.Err() != nil {
			return
		}
		nodeClaims = nodeClaims[:0]
		for _, claim := range demand.Claims {
			for _, a := range claim.Alternatives() {
				nodeClaims = append(nodeClaims, available.Matching(selectorCtx, a.DeviceClass, a.Selector, a.Tolerations))
			}
		}
		if selectorCtx.Err() != nil {
			return
		}
		c.devicesCounted.counted++
		k := 0
		for i, claim := range demand.Claims {
			for j := range claim.Alternatives() {
				c.perClaim[i][j].add(node, nodeClaims[k])
				k++
			}
		}
	})
}

// describe writes what the pod needs and what the cluster offers it: the GPU
// nodes by mode, its resources' units and DRA serving, its claims' devices,
// and a disabled sandbox policy.
func describe(b *strings.Builder, pod *v1.Pod, demand *poddemand.PodDemand, policy gpuworkload.SandboxPolicy, c *census, constraint poddemand.NodeConstraint) {
	fmt.Fprintf(b, "%s needs %s", reasons.Subject(pod, demand), describeRequests(demand))
	if mode, ok := demand.Mode(); ok {
		fmt.Fprintf(b, " (%s mode)", mode)
	}
	b.WriteString(". GPU nodes by mode:")
	for i, mode := range gpuworkload.Modes {
		if i > 0 {
			b.WriteString(",")
		}
		m := c.byMode[mode]
		fmt.Fprintf(b, " %s %d", mode, m.nodes)
		switch {
		case m.converting > 0 && m.mismatched > 0:
			fmt.Fprintf(b, " (%d converting, %d mismatched)", m.converting, m.mismatched)
		case m.converting > 0:
			fmt.Fprintf(b, " (%d converting)", m.converting)
		case m.mismatched > 0:
			fmt.Fprintf(b, " (%d mismatched)", m.mismatched)
		}
	}
	if c.draNodes > 0 {
		fmt.Fprintf(b, "; DRA %d", c.draNodes)
	}
	b.WriteString(".")
	for i, r := range demand.Requests {
		if demand.Conflict() {
			break
		}
		rs := c.perResource[i]
		fmt.Fprintf(b, " %s: %d free of %d on %d node(s)", r.Name, rs.free, rs.total, rs.nodes)
		if rs.unavailable > 0 {
			fmt.Fprintf(b, " (%d more on converting or mismatched nodes)", rs.unavailable)
		}
		if rs.excludedNodes > 0 {
			fmt.Fprintf(b, " its %s accepts (%d free on %d node(s) it excludes)", constraint.Description, rs.excludedFree, rs.excludedNodes)
		}
		if rs.dra.DeviceClass != "" {
			fmt.Fprintf(b, ", and served through DRA by DeviceClass %s on %d node(s)", rs.dra.DeviceClass, rs.draNodes)
		}
		b.WriteString(".")
	}
	for i, claim := range demand.Claims {
		for j, a := range claim.Alternatives() {
			if len(claim.Or) > 0 {
				fmt.Fprintf(b, " Alternative %d of request %s:", j+1, requestName(claim))
			}
			cs := c.perClaim[i][j]
			fmt.Fprintf(b, " DeviceClass %s: %d device(s) free of %d on %d DRA node(s); %d allocated, %d blocked by a sibling in use, %d tainted.",
				a.Devices(), cs.free, cs.total, cs.nodes, cs.allocated, cs.siblingInUse, cs.tainted)
		}
	}
	if c.devicesCounted.cut() {
		fmt.Fprintf(b, " The claims' devices are counted on %d of %d DRA node(s): evaluating their selectors on the others did not finish within %s.",
			c.devicesCounted.counted, c.devicesCounted.nodes, SelectorTimeout)
	}
	if !policy.Enabled && len(demand.Requests) > 0 {
		fmt.Fprintf(b, " sandboxWorkloads is disabled in %s", policy.Source)
		if c.ignoredLabels > 0 {
			fmt.Fprintf(b, ", so the mode label of %d node(s) is ignored", c.ignoredLabels)
		}
		b.WriteString(".")
	}
}

// fixFor is the concrete fix: the claims' when they decide it, else the
// one for the pod's resources, which counts another resource's free units
// or asks the advisor for a plan only when it offers them.
func (c *census) fixFor(pod *v1.Pod, demand *poddemand.PodDemand, policy gpuworkload.SandboxPolicy, tracker *clusterstate.Tracker, nodes NodeInfos,
	constraint poddemand.NodeConstraint) remedy {
	if r, ok := claimFix(demand, c.perClaim, c.devicesCounted); ok {
		return r
	}
	var priority int32
	if pod != nil {
		priority = corev1helpers.PodPriority(pod)
	}
	freeUnits := func(name v1.ResourceName) int64 {
		var rs resourceSummary
		rs.countAdvertisers(name, nil, tracker, nodes, constraint)
		return rs.free
	}
	// The advisor's plan visits the pools the candidates' conversions take units from.
	conversionFor := func(r poddemand.ResourceRequest) conversion {
		conv := conversion{plan: planFor(r, constraint, tracker, nodes)}
		if len(conv.plan.DrainFirst) > 0 {
			if ni, err := nodes.Get(conv.plan.DrainFirst[0].Node); err == nil {
				conv.displaced = gpuPodsOn(ni)
			}
		}
		return conv
	}
	return fix(demand, policy, c.byMode, c.perResource, tracker.AdvertisedByClass(), freeUnits, conversionFor, constraint, priority)
}

// countAdvertisers visits the nodes that advertise r, for the free and
// total units on those the constraint accepts, and those of them with
// room for every one of requests.
func (rs *resourceSummary) countAdvertisers(r v1.ResourceName, requests []poddemand.ResourceRequest, tracker *clusterstate.Tracker, nodes NodeInfos,
	constraint poddemand.NodeConstraint) {
	tracker.EachAdvertiser(r, func(node string, e *clusterstate.NodeEntry) {
		ni, err := nodes.Get(node)
		if err != nil {
			return
		}
		total := ni.GetAllocatable().GetScalarResources()[r]
		if total <= 0 {
			return
		}
		free := max(total-ni.GetRequested().GetScalarResources()[r], 0)
		if !constraint.Accepts(ni.Node()) {
			rs.excludedNodes++
			if !e.State.Unsettled() {
				rs.excludedFree += free
			}
			return
		}
		if e.State.Unsettled() {
			rs.unavailable += free
			free = 0
		}
		rs.nodes++
		rs.total += total
		rs.free += free
		rs.largest = max(rs.largest, total)
		if !e.State.Unsettled() && hasRoom(ni, requests) {
			rs.withRoom++
		}
	})
}

// hasRoom reports whether the node has every request's units free.
func hasRoom(ni fwk.NodeInfo, requests []poddemand.ResourceRequest) bool {
	allocatable, requested := ni.GetAllocatable().GetScalarResources(), ni.GetRequested().GetScalarResources()
	for _, r := range requests {
		if allocatable[r.Name]-requested[r.Name] < r.Count {
			return false
		}
	}
	return len(requests) > 0
}

// count visits the nodes that advertise r, for the free and total units,
// and the nodes with the hardware for it, for those converting to r and
// those the constraint would exclude once converted.
func (rs *resourceSummary) count(r v1.ResourceName, requests []poddemand.ResourceRequest, tracker *clusterstate.Tracker, nodes NodeInfos, constraint poddemand.NodeConstraint) {
	rs.countAdvertisers(r, requests, tracker, nodes, constraint)
	tracker.EachNodeWithHardwareFor(r, func(e *clusterstate.NodeEntry) {
		if e.Converting {
			if name, _, err := e.Inventory.Advertisement(e.State.Mode.Mode); err == nil && name == r {
				rs.convertingTo++
			}
		}
		if e.State.Unsettled() {
			return
		}
		conversion, ok := e.Inventory.ConversionTo(e.State.Mode.Mode, r)
		if !ok {
			return
		}
		if ni, err := nodes.Get(e.State.Name); err == nil && !constraint.AcceptsAfter(ni.Node(), conversion) {
			rs.excludedHardware++
		}
	})
}

// planFor is the advisor's plan for one pod of the request alone. Its
// input holds every node the plan depends on: those that advertise the
// resource or have the hardware for it, and those that advertise what the
// latter do now, whose pools a conversion takes units from.
func planFor(r poddemand.ResourceRequest, constraint poddemand.NodeConstraint, tracker *clusterstate.Tracker, nodes NodeInfos) advisor.Plan {
	in := advisor.Input{Policy: tracker.Policy(), Pending: []advisor.PendingPod{{Resource: r.Name, Count: r.Count, Constraint: constraint}}}
	classifier := tracker.Classifier()
	seen := map[string]bool{}
	add := func(e *clusterstate.NodeEntry) {
		name := e.State.Name
		if seen[name] || !e.State.GPUNode || e.State.DRA {
			return
		}
		seen[name] = true
		ni, err := nodes.Get(name)
		if err != nil {
			return
		}
		pods := make([]*v1.Pod, 0, len(ni.GetPods()))
		for _, pi := range ni.GetPods() {
			pods = append(pods, pi.GetPod())
		}
		in.Nodes = append(in.Nodes, advisor.NodeOf(ni.Node(), e.State, e.Inventory, pods, classifier))
	}
	tracker.EachAdvertiser(r.Name, func(_ string, e *clusterstate.NodeEntry) { add(e) })
	var pools []v1.ResourceName
	tracker.EachNodeWithHardwareFor(r.Name, func(e *clusterstate.NodeEntry) {
		add(e)
		for _, advertised := range e.State.Resources {
			if !slices.Contains(pools, advertised.Name) {
				pools = append(pools, advertised.Name)
			}
		}
	})
	for _, pool := range pools {
		tracker.EachAdvertiser(pool, func(_ string, e *clusterstate.NodeEntry) { add(e) })
	}
	return advisor.Advise(in)
}

// gpuPodsOn lists the node's pods that hold its GPUs, by the rule the mode
// controller drains by (poddemand.HoldsGPU).
func gpuPodsOn(ni fwk.NodeInfo) []displacedPod {
	var out []displacedPod
	for _, pi := range ni.GetPods() {
		p := pi.GetPod()
		if poddemand.HoldsGPU(p, nil) {
			d := displacedPod{name: p.Namespace + "/" + p.Name, priority: corev1helpers.PodPriority(p)}
			if vmi := gpuworkload.VMIOf(p); vmi != nil {
				d.name, d.vm = vmi.Namespace+"/"+vmi.Name, true
			}
			out = append(out, d)
		}
	}
	return out
}

// claimSummary is what Explain learns about the devices a claim's DeviceClass selects.
type claimSummary struct {
	nodes, total, free, allocated, siblingInUse, tainted int
	// siblingNode and sibling name a device in use whose sibling of the class
	// is blocked, on the first such node by name.
	siblingNode string
	sibling     dradevices.DRAHeldDevice
}

func (cs *claimSummary) add(node string, selected dradevices.DRAClassAvailability) {
	total := selected.Total()
	if total == 0 {
		return
	}
	cs.nodes++
	cs.total += total
	cs.free += selected.Free
	cs.allocated += selected.Allocated
	cs.siblingInUse += selected.SiblingInUse
	cs.tainted += selected.Tainted
	if selected.SiblingInUse > 0 && (cs.siblingNode == "" || node < cs.siblingNode) {
		cs.siblingNode, cs.sibling = node, selected.SiblingHolder
	}
}

// claimFix is the fix for the first claim request whose devices are short;
// ok is false when every request has free devices somewhere. For a request
// with alternatives it says why each cannot be served.
func claimFix(demand *poddemand.PodDemand, perClaim [][]claimSummary, counted deviceCount) (r remedy, ok bool) {
	for i, c := range demand.Claims {
		alternatives := c.Alternatives()
		served := false
		for j, a := range alternatives {
			served = served || int64(perClaim[i][j].free) >= a.Count
		}
		if served {
			continue
		}
		if counted.cut() {
			r := reasons.DRASelectorsTooCostly.With(c.Claim, SelectorTimeout)
			return remedyText(r.Code, r.Message+"."), true
		}
		if len(c.Or) == 0 {
			return claimShortage(c, perClaim[i][0]), true
		}
		parts := make([]string, len(alternatives))
		for j, a := range alternatives {
			parts[j] = fmt.Sprintf("%d. %s", j+1, claimShortage(a, perClaim[i][j]).text)
		}
		first := claimShortage(alternatives[0], perClaim[i][0])
		return remedyText(first.code, fmt.Sprintf("no alternative of request %s of claim %s can be served: %s", requestName(c), c.Claim, strings.Join(parts, " "))), true
	}
	if len(demand.Claims) > 0 && len(demand.Requests) == 0 {
		r := reasons.GPUsFree.With("devices of the pod's claims are free on some DRA node")
		return remedyText(r.Code, r.Message+"."), true
	}
	return remedy{}, false
}

// SelectorTimeout bounds the evaluation of a pod's claim selectors for its
// explanation: DynamicResources' default filterTimeout, the time the
// allocator itself gives one node.
const SelectorTimeout = 10 * time.Second

// deviceCount is how many DRA nodes the claims' devices were to be counted
// on, and on how many of them the count finished before SelectorTimeout.
type deviceCount struct{ nodes, counted int }

// cut reports whether the deadline left nodes out of the counts.
func (c deviceCount) cut() bool { return c.counted < c.nodes }

// requestName is the claim's request an alternative belongs to.
func requestName(c dradevices.DRAClaimRequest) string {
	request, _, _ := strings.Cut(c.Request, "/")
	return request
}

// claimShortage says why the devices of a claim request's DeviceClass, cs,
// cannot serve it.
func claimShortage(c dradevices.DRAClaimRequest, cs claimSummary) remedy {
	switch {
	case cs.nodes == 0 && c.Selector != nil:
		return remedyText(reasons.DRANoNodeHasDevices.Code, fmt.Sprintf("no device of DeviceClass %s that a node publishes matches the selectors of request %s of claim %s: change the selectors to match a published device (kubectl get resourceslices shows their attributes), or ask for a class the nodes publish.", c.DeviceClass, c.Request, c.Claim))
	case cs.nodes == 0:
		return remedyText(reasons.DRANoNodeHasDevices.Code, fmt.Sprintf("no node publishes a device of DeviceClass %s for claim %s: enable the devices in the DRA driver (PassthroughSupport for VFIO devices), or ask for a class the nodes publish.", c.DeviceClass, c.Claim))
	case cs.siblingInUse > 0:
		return remedyText(reasons.DRASiblingInUse.Code, fmt.Sprintf("the free devices of DeviceClass %s are GPUs in use through their other device, e.g. claim %s holds %s on node %s: let that pod finish, or free a whole GPU.",
			c.Devices(), cs.sibling.Claim, cs.sibling.Device, cs.siblingNode))
	case cs.tainted > 0:
		return remedyText(reasons.DRATainted.Code, fmt.Sprintf("the free devices of DeviceClass %s are tainted: remove the taints when the devices are usable, or tolerate them in claim %s.", c.Devices(), c.Claim))
	case cs.free > 0:
		return remedyText(reasons.DRATooFewFree.Code, fmt.Sprintf("%d device(s) of DeviceClass %s are free, fewer than the %d the request needs: let GPU pods finish, or request fewer.", cs.free, c.Devices(), c.Count))
	}
	return remedyText(reasons.DRAAllAllocated.Code, fmt.Sprintf("all %d devices of DeviceClass %s are allocated: let GPU pods finish, or publish more devices of the class.", cs.total, c.Devices()))
}

// busyNodeFix converts a node that runs GPU pods, naming each pod and VM
// that emptying it displaces. The drain evicts through the Eviction API,
// which KubeVirt intercepts for VMs (a VM live-migrates where its eviction
// strategy allows and it can, else it stops); it never forces. A VM of the
// pod's priority or higher would have to stop for a pod that does not
// outrank it: that fix is said, not given as commands.
// A drained node stays cordoned: uncordoning it after the conversion is part
// of the fix.
func busyNodeFix(noNode string, c advisor.Relabel, displaced []displacedPod, priority int32, code reasons.Code) remedy {
	var pods, vms, outranking []string
	for _, d := range displaced {
		switch {
		case !d.vm:
			pods = append(pods, d.name)
		case d.priority >= priority:
			outranking = append(outranking, d.name)
		default:
			vms = append(vms, d.name)
		}
	}
	if len(outranking) > 0 {
		return remedyText(code, fmt.Sprintf("%s; node %s has this hardware but runs VM(s) %s of this pod's priority or higher: converting it means stopping them, "+
			"which this fix does not do; stop them if they may stop, then convert it, or add a node with this hardware.", noNode, c.Node, nameList(outranking)))
	}
	var runs []string
	if len(pods) > 0 {
		runs = append(runs, "GPU pod(s) "+nameList(pods))
	}
	if len(vms) > 0 {
		runs = append(runs, "VM(s) "+nameList(vms)+" of lower priority, which KubeVirt live-migrates where their eviction strategy allows, else stops")
	}
	commands := []string{"kubectl drain " + c.Node + " --ignore-daemonsets", c.Command, "kubectl uncordon " + c.Node}
	return remedy{
		text: fmt.Sprintf("%s; node %s has this hardware but runs %s: drain it (evictions, so PodDisruptionBudgets hold), convert it and uncordon it: %s",
			noNode, c.Node, strings.Join(runs, " and "), strings.Join(commands, "; ")),
		commands: commands,
		code:     code,
	}
}

// keptNodeFix names an idle node with the hardware that the advisor keeps
// in its mode, as its own resource's last free units beyond the reserve its
// pods keep: advise and the mode controller leave it, and converting it is
// the user's call.
func keptNodeFix(before string, c advisor.Relabel, code reasons.Code) remedy {
	return remedy{
		text: fmt.Sprintf("%s; idle node %s has this hardware, but its free units are the last of its %s resource beyond the reserve its pods keep, so advise and the mode controller leave it; convert it if they may wait: %s",
			before, c.Node, c.From, c.Command),
		commands: []string{c.Command},
		code:     code,
	}
}

// nameList names up to three, then counts the rest.
func nameList(names []string) string {
	const shown = 3
	if len(names) <= shown {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:shown], ", "), len(names)-shown)
}

// fixPrefix starts the last sentence of an explanation, which truncation keeps.
const fixPrefix = " Fix: "

// TruncateNote cuts an explanation to what the API accepts as an event note,
// as the scheduler cuts its FailedScheduling message, but keeps the fix: the
// per-resource counts in the middle give way first.
func TruncateNote(message string) string {
	if len(message) <= noteLengthLimit {
		return message
	}
	const ellipsis = " ..."
	tail := ""
	if i := strings.LastIndex(message, fixPrefix); i > 0 && len(message)-i <= noteLengthLimit/2 {
		tail = message[i:]
	}
	head := message[:noteLengthLimit-len(ellipsis)-len(tail)]
	for len(head) > 0 && !utf8.RuneStart(message[len(head)]) {
		head = head[:len(head)-1]
	}
	return head + ellipsis + tail
}

// noteLengthLimit is the API server's limit on an event's note (validation.NoteLengthLimit).
const noteLengthLimit = 1024

func describeRequests(demand *poddemand.PodDemand) string {
	parts := make([]string, 0, len(demand.Requests)+len(demand.Claims))
	for _, r := range demand.Requests {
		parts = append(parts, fmt.Sprintf("%d x %s", r.Count, r.Name))
	}
	for _, c := range demand.Claims {
		alternatives := make([]string, 0, 1+len(c.Or))
		for _, a := range c.Alternatives() {
			alternatives = append(alternatives, fmt.Sprintf("%d x %s", a.Count, a.DeviceClass))
		}
		parts = append(parts, fmt.Sprintf("%s device (claim %s)", strings.Join(alternatives, " or "), c.Claim))
	}
	return gpuworkload.JoinBounded(parts, " and ")
}

func fix(demand *poddemand.PodDemand, policy gpuworkload.SandboxPolicy, byMode map[gpuworkload.Mode]*modeSummary, perResource []resourceSummary,
	advertised map[gpuworkload.ResourceClass][]v1.ResourceName, freeUnits func(v1.ResourceName) int64, conversionFor func(poddemand.ResourceRequest) conversion,
	constraint poddemand.NodeConstraint, priority int32) remedy {
	if demand.Conflict() {
		return remedyText(reasons.ModeConflict.Code, "request the GPU resources of one mode only; a node runs one mode.")
	}
	mode, _ := demand.Mode()
	if mode.IsSandbox() && !policy.Enabled {
		if command, ok := gpuworkload.EnableSandboxCommand(policy); ok {
			return remedy{text: gpuworkload.EnableSandboxFix(policy), commands: []string{command}, code: reasons.SandboxDisabled.Code}
		}
		return remedyText(reasons.SandboxDisabled.Code, gpuworkload.EnableSandboxFix(policy)+".")
	}
	for i, r := range demand.Requests {
		rs := perResource[i]
		switch {
		case rs.draNodes > 0:
			return remedyText(reasons.DRATooFewFree.Code, fmt.Sprintf("the DRA nodes have no free device of DeviceClass %s for %d x %s (the FailedScheduling message gives DynamicResources' reasons): "+
				"let GPU pods finish, or publish more devices of the class.", rs.dra.DeviceClass, r.Count, r.Name))
		case rs.nodes == 0:
			return notAdvertisedFix(r, rs, conversionFor(r), advertised[r.Class], freeUnits, constraint, priority)
		case rs.largest < r.Count:
			return remedyText(reasons.LargerThanAnyNode.Code, fmt.Sprintf("no node has %d x %s in total; the largest has %d: split the request, or add a node with more of this hardware.", r.Count, r.Name, rs.largest))
		}
	}
	if m := byMode[mode]; m.nodes > 0 && m.converting == m.nodes {
		return remedyText(reasons.Converting.Code, fmt.Sprintf("wait: all %d %s node(s) are converting their mode or vGPU profile.", m.nodes, mode))
	}
	if m := byMode[mode]; m.mismatched > 0 && m.converting+m.mismatched == m.nodes {
		return remedyText(reasons.Mismatched.Code, fmt.Sprintf("%d of the %d %s node(s) are mismatched: their mode and advertised resources have disagreed for longer than a conversion takes, so they take no pods; kubectl gpu-workload check names each and its fix.",
			m.mismatched, m.nodes, mode))
	}
	if len(perResource) > 0 && perResource[0].withRoom > 0 {
		where := fmt.Sprintf("%d node(s)", perResource[0].withRoom)
		if constraint.Constrains() {
			where += fmt.Sprintf(" its %s accepts", constraint.Description)
		}
		r := reasons.GPUsFree.With("the requested units are free on " + where)
		return remedyText(r.Code, r.Message+".")
	}
	usedUp := "free units are used up"
	for _, rs := range perResource {
		if rs.excludedFree > 0 {
			usedUp = fmt.Sprintf("free units on the nodes its %s accepts are used up (%d free on nodes it excludes)", constraint.Description, rs.excludedFree)
		}
	}
	for _, r := range demand.Requests {
		c := conversionFor(r)
		if len(c.plan.Relabels) > 0 {
			relabel := c.plan.Relabels[0]
			return remedy{
				text:     fmt.Sprintf("%s; let running GPU pods finish, let preemption make room for a higher priority, or convert idle node %s, which has this hardware: %s", usedUp, relabel.Node, relabel.Command),
				commands: []string{relabel.Command},
				code:     reasons.Insufficient.Code,
			}
		}
		before := usedUp + "; let running GPU pods finish, or let preemption make room for a higher priority"
		if len(c.plan.Kept) > 0 {
			return keptNodeFix(before, c.plan.Kept[0], reasons.Insufficient.Code)
		}
		if len(c.plan.DrainFirst) > 0 {
			return busyNodeFix(before, c.plan.DrainFirst[0].Relabel, c.displaced, priority, reasons.Insufficient.Code)
		}
	}
	return remedyText(reasons.Insufficient.Code, usedUp+"; let running GPU pods finish, or let preemption make room for a higher priority.")
}

// notAdvertisedFix names a node with the hardware for r, or says that none
// has it and what the pod's kind of workload can request instead.
func notAdvertisedFix(r poddemand.ResourceRequest, rs resourceSummary, c conversion, sameClass []v1.ResourceName, freeUnits func(v1.ResourceName) int64,
	constraint poddemand.NodeConstraint, priority int32) remedy {
	noNode := "no node advertises " + string(r.Name)
	if rs.excludedNodes > 0 || rs.excludedHardware > 0 {
		noNode = fmt.Sprintf("no node its %s accepts advertises %s", constraint.Description, r.Name)
	}
	switch {
	case len(c.plan.Relabels) > 0:
		relabel := c.plan.Relabels[0]
		return remedy{text: fmt.Sprintf("%s; convert idle node %s, which has this hardware: %s", noNode, relabel.Node, relabel.Command), commands: []string{relabel.Command}, code: reasons.NotAdvertised.Code}
	case len(c.plan.Kept) > 0:
		return keptNodeFix(noNode, c.plan.Kept[0], reasons.NotAdvertised.Code)
	case len(c.plan.DrainFirst) > 0:
		return busyNodeFix(noNode, c.plan.DrainFirst[0].Relabel, c.displaced, priority, reasons.NotAdvertised.Code)
	case rs.convertingTo > 0:
		return remedyText(reasons.Converting.Code, fmt.Sprintf("%s yet; wait: %d node(s) are converting to advertise it.", noNode, rs.convertingTo))
	case rs.excludedNodes > 0 || rs.excludedHardware > 0:
		return remedyText(reasons.NotAdvertised.Code, fmt.Sprintf("%s, and none it accepts has hardware known to; %d node(s) it excludes advertise it and %d more have the hardware: change the pod's %s, or add a node with this hardware that it accepts.",
			noNode, rs.excludedNodes, rs.excludedHardware, constraint.Description))
	}
	kind := r.Class.Describe()
	if len(sameClass) == 0 {
		return remedyText(reasons.NotAdvertised.Code, fmt.Sprintf("no node advertises %s, none has hardware known to, and no node advertises any %s resource: add a node with this hardware.", r.Name, kind))
	}
	// Only a resource with room for the request now is worth rewriting a
	// manifest for.
	var offers, names []string
	for _, name := range sameClass {
		names = append(names, string(name))
		if free := freeUnits(name); free >= r.Count {
			offers = append(offers, fmt.Sprintf("%s, %d free", name, free))
		}
	}
	if len(offers) == 0 {
		return remedyText(reasons.NotAdvertised.Code, fmt.Sprintf("no node advertises %s, none has hardware known to, and no %s resource the cluster advertises (%s) has %d unit(s) free now: add a node with this hardware.",
			r.Name, kind, gpuworkload.JoinBounded(names, ", "), r.Count))
	}
	return remedyText(reasons.NotAdvertised.Code, fmt.Sprintf("no node advertises %s and none has hardware known to; request a %s resource the cluster has free (%s), or add a node with this hardware.",
		r.Name, kind, strings.Join(offers, "; ")))
}
