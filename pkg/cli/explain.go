package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/dynamic-resource-allocation/resourceclaim"
	"k8s.io/dynamic-resource-allocation/structured"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterview"
	"github.com/gpu-workload-scheduler/scheduler/pkg/explanation"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpudynamicresources"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// ExplainReport is the output of explain.
type ExplainReport struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Pod is the pod explained; empty for a VMI without a launcher pod.
	Pod string `json:"pod,omitempty"`
	// VirtualMachineInstance is the VMI explained (explain vmi, explain vm).
	VirtualMachineInstance string `json:"virtualMachineInstance,omitempty"`
	// Findings are what keeps KubeVirt from creating a VMI's launcher pod.
	Findings []ReportFinding `json:"findings,omitempty"`
	Policy   string          `json:"policy"`
	// SchedulerConfig is where GPUWorkloadFit's args were read.
	SchedulerConfig string `json:"schedulerConfig"`
	// RunsOn is the node a bound pod runs on. Its verdicts are as if it were
	// pending: its own requests and claim allocations free.
	RunsOn string `json:"runsOn,omitempty"`
	// PodReason is set when the pod is rejected before any node is looked at.
	PodReason string        `json:"podReason,omitempty"`
	Nodes     []ExplainNode `json:"nodes"`
	// Fits counts the nodes GPUWorkloadFit accepts.
	Fits    int    `json:"fits"`
	Summary string `json:"summary"`
	// FixCommands, run in order, make the pod schedulable: the commands of
	// the summary's fix, as the scheduler's event annotates them.
	FixCommands []string `json:"fixCommands,omitempty"`
	// ReasonCode is the code (docs/reasons.md) of the cause the summary's
	// fix answers, as the event annotates it; with podReason, its code.
	ReasonCode reasons.Code `json:"reasonCode,omitempty"`
}

// ExplainNode is GPUWorkloadFit's verdict on one node.
type ExplainNode struct {
	Node      string            `json:"node"`
	Mode      gpuworkload.Mode  `json:"mode,omitempty"`
	ModeWhy   string            `json:"modeWhy,omitempty"`
	Resources []ExplainResource `json:"resources"`
	// Devices are the node's DRA GPU devices, each with its verdict for the pod.
	Devices []ExplainDevice `json:"devices,omitempty"`
	Verdict string          `json:"verdict"`
	Reason  string          `json:"reason,omitempty"`
	// Code is the reason's code (docs/reasons.md), when it is one of GPUWorkloadFit's.
	Code reasons.Code `json:"code,omitempty"`
}

// ExplainDevice is a DRA device of a node: its state, and whether the pod
// could get it.
type ExplainDevice struct {
	Device string `json:"device"`
	Type   string `json:"type"`
	// State is free, allocated, tainted or sibling-in-use.
	State   string `json:"state"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
}

// ExplainResource is a GPU resource's free and total units on a node.
type ExplainResource struct {
	Name  v1.ResourceName `json:"name"`
	Free  int64           `json:"free"`
	Total int64           `json:"total"`
}

// Verdicts of explain: a node's, then a DRA device's.
const (
	VerdictFits      = "fits"
	VerdictRejected  = "rejected"
	VerdictNotFilter = "not-filtered"
	// VerdictUndecided: the DRA allocator did not finish in time.
	VerdictUndecided = "undecided"

	VerdictUsable    = "usable"
	VerdictTaken     = "taken"
	VerdictNotNeeded = "not-needed"
)

func newExplainCommand(o *rootOptions) *cobra.Command {
	var src sourceFlags
	var podFile, schedulerConfig string
	cmd := &cobra.Command{
		Use: "explain (pod NAME | vmi NAME | vm NAME) [-n NAMESPACE] | explain -f POD --nodes NODES [--scheduler-config FILE]",
		Short: "Explain, node by node, whether GPUWorkloadFit lets a pod run there and why; works for pods of any schedulerName; " +
			"a VMI or VirtualMachine is followed to its launcher pod, or, without one, to what keeps KubeVirt from creating it",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutputFormat(o.output); err != nil {
				return err
			}
			ctx := cmd.Context()
			var c *cluster
			var pod *v1.Pod
			var vmi *unstructured.Unstructured
			var err error
			switch {
			case podFile != "" && len(args) == 0:
				if src.nodes == "" {
					return usageErrorf("-f %s needs --nodes with a node dump (%s)", podFile, nodesWanted)
				}
				if pod, err = readPod(podFile, o.inputs(cmd)); err != nil {
					return err
				}
				c, err = loadOffline(src, o.inputs(cmd))
			case podFile == "" && len(args) == 2 && slices.Contains(explainKinds, args[0]):
				if src.nodes != "" || src.clusterPolicy != "" || src.kubeVirt != "" || src.dra != "" {
					return usageErrorf("--nodes, --cluster-policy, --kubevirt and --dra go with -f; a live explain reads the cluster")
				}
				if c, err = loadLive(ctx, o.config, false); err != nil {
					return err
				}
				namespace, _, nsErr := o.config.ToRawKubeConfigLoader().Namespace()
				if nsErr != nil {
					return usageErrorf("kubeconfig: %v", nsErr)
				}
				if args[0] == "pod" {
					if pod, err = c.Client.CoreV1().Pods(namespace).Get(ctx, args[1], metav1.GetOptions{}); apierrors.IsNotFound(err) {
						return usageErrorf("pod %s/%s not found: list the namespace's pods with kubectl get pods -n %s, or give the namespace with -n", namespace, args[1], namespace)
					} else if err != nil {
						return fmt.Errorf("get pod %s/%s: %w", namespace, args[1], err)
					}
					break
				}
				if vmi, err = c.vmiNamed(ctx, args[0], namespace, args[1]); err != nil {
					return err
				}
				if pod, err = c.launcherPod(ctx, vmi); err != nil {
					return err
				}
				if pod == nil {
					if err := printExplainReport(o.out, o.output, vmiWithoutPod(ctx, c, vmi)); err != nil {
						return err
					}
					return errFindings
				}
			default:
				return usageErrorf("want `explain (pod|vmi|vm) NAME [-n NAMESPACE]` or `explain -f POD --nodes NODES`")
			}
			if err != nil {
				return err
			}
			c = c.asIfPending(pod)
			fitArgs, argsSource, err := deployedArgs(ctx, c.Client, schedulerConfig, o.inputs(cmd))
			if err != nil {
				return err
			}
			if err := c.ReadAs(clusterview.SchedulerView(fitArgs)); err != nil {
				return err
			}
			pl, state, err := offlinePlugin(ctx, c, fitArgs)
			if err != nil {
				return err
			}
			report, err := explainPod(ctx, c, pod, pl, state)
			if err != nil {
				return err
			}
			report.SchedulerConfig = argsSource
			if vmi != nil {
				report.VirtualMachineInstance = vmi.GetNamespace() + "/" + vmi.GetName()
			}
			if err := printExplainReport(o.out, o.output, report); err != nil {
				return err
			}
			if report.Fits == 0 && report.RunsOn == "" {
				return errFindings
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&podFile, "filename", "f", "", "pod manifest to explain instead of a live pod ("+podWanted+"); - reads standard input")
	cmd.Flags().StringVar(&src.nodes, "nodes", "", "node dump for -f: "+nodesWanted)
	cmd.Flags().StringVar(&src.clusterPolicy, "cluster-policy", "", "ClusterPolicy dump for -f; without it the GPU Operator's defaults apply")
	cmd.Flags().StringVar(&src.kubeVirt, "kubevirt", "", "KubeVirt CR dump for -f")
	cmd.Flags().StringVar(&src.dra, "dra", "", "DRA dump for -f: "+draWanted+"; without it DRA nodes show no devices")
	cmd.Flags().StringVar(&schedulerConfig, "scheduler-config", "", "the scheduler's configuration ("+schedulerConfigWanted+
		"); default: the installed ConfigMap on a live cluster, the shipped one with -f or when none is installed")
	return cmd
}

// explainKinds are the kinds explain reads from the live cluster, as
// kubectl names them.
var explainKinds = []string{"pod", "vmi", "virtualmachineinstance", "vm", "virtualmachine"}

// vmiNamed gets the VirtualMachineInstance of that name, or that of the
// VirtualMachine of that name, which has its name.
func (c *cluster) vmiNamed(ctx context.Context, kind, namespace, name string) (*unstructured.Unstructured, error) {
	if kind == "vm" || kind == "virtualmachine" {
		if _, err := c.Dynamic.Resource(clusterstate.VMGVR).Namespace(namespace).Get(ctx, name, metav1.GetOptions{}); apierrors.IsNotFound(err) {
			return nil, usageErrorf("virtualmachine %s/%s not found: list the namespace's VMs with kubectl get vm -n %s, or give the namespace with -n", namespace, name, namespace)
		} else if err != nil {
			return nil, fmt.Errorf("get virtualmachine %s/%s: %w", namespace, name, err)
		}
	}
	vmi, err := c.Dynamic.Resource(clusterstate.VMIGVR).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err) && (kind == "vm" || kind == "virtualmachine"):
		return nil, usageErrorf("virtualmachine %s/%s has no VirtualMachineInstance: it is stopped, so nothing is scheduled; start it with virtctl start %s -n %s", namespace, name, name, namespace)
	case apierrors.IsNotFound(err):
		return nil, usageErrorf("virtualmachineinstance %s/%s not found: list the namespace's VMIs with kubectl get vmi -n %s, or give the namespace with -n", namespace, name, namespace)
	case err != nil:
		return nil, fmt.Errorf("get virtualmachineinstance %s/%s: %w", namespace, name, err)
	}
	return vmi, nil
}

// launcherPod is the VMI's virt-launcher pod, nil when KubeVirt has created
// none. While a VMI migrates it has two: the one on the VMI's node is the
// one that runs it.
func (c *cluster) launcherPod(ctx context.Context, vmi *unstructured.Unstructured) (*v1.Pod, error) {
	pods, err := c.Client.CoreV1().Pods(vmi.GetNamespace()).List(ctx, metav1.ListOptions{LabelSelector: gpuworkload.LauncherPodSelector(vmi.GetUID())})
	if err != nil {
		return nil, fmt.Errorf("list the launcher pods of %s: %w", vmiObject(vmi), err)
	}
	node, _, _ := unstructured.NestedString(vmi.Object, "status", "nodeName")
	var launcher *v1.Pod
	for i := range pods.Items {
		p := &pods.Items[i]
		if p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed || p.DeletionTimestamp != nil {
			continue
		}
		if launcher == nil || node != "" && p.Spec.NodeName == node {
			launcher = p
		}
	}
	return launcher, nil
}

// vmiWithoutPod explains a VMI KubeVirt has created no launcher pod for:
// what check finds in its devices, with KubeVirt's FailedCreate events.
func vmiWithoutPod(ctx context.Context, c *cluster, vmi *unstructured.Unstructured) *ExplainReport {
	states, classifier := c.States()
	object := vmiObject(vmi)
	report := &ExplainReport{APIVersion: ReportAPIVersion, Kind: "ExplainReport", VirtualMachineInstance: vmi.GetNamespace() + "/" + vmi.GetName(),
		Policy: describePolicy(c.Policy), Nodes: []ExplainNode{}}
	report.Findings = appendFindings(nil, object, vmiFindings(ctx, c, vmi, classifier, gpuworkload.AdvertisementOf(states), gpuworkload.GPUsOf(c.Nodes, states)))
	if len(report.Findings) > 0 {
		report.Summary = fmt.Sprintf("%s has no launcher pod. What stands in the way of its GPUs is above; kubectl describe vmi %s -n %s shows KubeVirt's events.", object, vmi.GetName(), vmi.GetNamespace())
	} else {
		report.Summary = fmt.Sprintf("%s has no launcher pod yet, and none of its GPUs stands in the way: kubectl describe vmi %s -n %s shows KubeVirt's events.", object, vmi.GetName(), vmi.GetNamespace())
	}
	return report
}

// filterPlugin is GPUWorkloadFit as the framework runs it: explain reads
// its verdicts and their codes from the statuses it returns (reasons.CodeOf).
type filterPlugin interface {
	fwk.PreFilterPlugin
	fwk.FilterPlugin
}

// offlinePlugin is GPUWorkloadFit with the deployed args and its own GPU
// cluster state, the tracker fed with what was read of the cluster, as the
// scheduler's informers feed it. A DeviceClass whose selectors do not
// compile is an error.
func offlinePlugin(ctx context.Context, c *cluster, fitArgs *config.GPUWorkloadFitArgs) (filterPlugin, *schedulerstate.Service, error) {
	encoded, err := json.Marshal(fitArgs)
	if err != nil {
		return nil, nil, err
	}
	state := schedulerstate.NewOffline()
	pl, err := gpuworkloadfit.New(ctx, &runtime.Unknown{Raw: encoded}, nil, state)
	if err != nil {
		return nil, nil, err
	}
	tracker := state.Tracker()
	tracker.SetPolicy(&c.Policy)
	tracker.SetPermitted(c.Permitted)
	for _, class := range c.DRA.Classes {
		if err := tracker.UpsertDeviceClass(class); err != nil {
			return nil, nil, err
		}
	}
	for _, slice := range c.DRA.Slices {
		tracker.UpsertResourceSlice(slice)
	}
	for _, claim := range c.DRA.Claims {
		tracker.UpsertResourceClaim(claim)
	}
	for _, n := range c.Nodes {
		tracker.UpsertNode(n)
	}
	state.ReadClaimsFrom(c.DRA)
	return pl.(filterPlugin), state, nil
}

// asIfPending is the cluster as the scheduler saw it before the pod was
// bound: without the pod among the bound ones, and with the claims only it
// uses unallocated. A claim shared with other pods stays allocated, as it
// would for the pod's next scheduling.
func (c *cluster) asIfPending(pod *v1.Pod) *cluster {
	if pod.Spec.NodeName == "" {
		return c
	}
	isPod := func(p *v1.Pod) bool { return p.Namespace == pod.Namespace && p.Name == pod.Name }
	out := *c
	out.Assigned = slices.DeleteFunc(slices.Clone(c.Assigned), isPod)
	out.DRA.Claims = slices.Clone(c.DRA.Claims)
	for i := range pod.Spec.ResourceClaims {
		name, _, err := resourceclaim.Name(pod, &pod.Spec.ResourceClaims[i])
		if err != nil || name == nil {
			continue
		}
		for j, claim := range out.DRA.Claims {
			if claim.Namespace != pod.Namespace || claim.Name != *name || !reservedOnlyFor(claim, pod) {
				continue
			}
			unallocated := claim.DeepCopy()
			unallocated.Status = resourceapi.ResourceClaimStatus{}
			out.DRA.Claims[j] = unallocated
		}
	}
	return &out
}

// reservedOnlyFor reports whether no pod but this one uses the claim.
func reservedOnlyFor(claim *resourceapi.ResourceClaim, pod *v1.Pod) bool {
	for _, r := range claim.Status.ReservedFor {
		if r.Resource != "pods" || r.Name != pod.Name {
			return false
		}
	}
	return true
}

// explainPod runs GPUWorkloadFit itself, the scheduler's code with its
// deployed args, over the cluster.
func explainPod(ctx context.Context, c *cluster, pod *v1.Pod, pl filterPlugin, state *schedulerstate.Service) (*ExplainReport, error) {
	tracker := state.Tracker()
	byNode := map[string][]*v1.Pod{}
	for _, p := range c.Assigned {
		byNode[p.Spec.NodeName] = append(byNode[p.Spec.NodeName], p)
	}
	infos := make([]fwk.NodeInfo, len(c.Nodes))
	for i, n := range c.Nodes {
		ni := framework.NewNodeInfo(byNode[n.Name]...)
		ni.SetNode(n)
		infos[i] = ni
	}
	cycle := framework.NewCycleState()
	_, preStatus := pl.PreFilter(ctx, cycle, pod, infos)
	demand, err := state.Demand(cycle, pod)
	if err != nil {
		return nil, err
	}
	// The allocator's verdicts and the explanation share one deadline.
	allocatorCtx, cancel := context.WithTimeout(ctx, explanation.SelectorTimeout)
	defer cancel()
	allocation, err := newAllocatorCheck(allocatorCtx, c, pod, tracker.DRADriver())
	if err != nil {
		return nil, err
	}
	report := &ExplainReport{APIVersion: ReportAPIVersion, Kind: "ExplainReport", Pod: pod.Namespace + "/" + pod.Name, Policy: describePolicy(c.Policy)}
	for _, ni := range infos {
		entry := tracker.Entry(ni.Node())
		row := ExplainNode{Node: ni.Node().Name, Resources: []ExplainResource{}}
		switch {
		case entry.State.Modeless():
			row.ModeWhy = "DRA node: no mode, each GPU is a container or a VM device"
		case entry.State.GPUNode:
			row.Mode, row.ModeWhy = entry.State.Mode.Mode, entry.State.Mode.Explain(c.Policy)
		}
		requested := ni.GetRequested().GetScalarResources()
		for _, r := range entry.State.Resources {
			free := max(r.Allocatable-requested[r.Name], 0)
			if entry.State.Unsettled() {
				// The scheduler places nothing on a converting or mismatched node.
				free = 0
			}
			row.Resources = append(row.Resources, ExplainResource{Name: r.Name, Free: free, Total: r.Allocatable})
		}
		for _, d := range tracker.DRADeviceStates(row.Node) {
			row.Devices = append(row.Devices, explainDevice(d, demand))
		}
		switch {
		case preStatus.IsSkip():
			row.Verdict, row.Reason = VerdictNotFilter, "the pod requests no GPU resource"
		case !preStatus.IsSuccess():
			// The pod-level reason decides; the node's own verdict says what
			// else stands in the way, where Filter can judge single nodes
			// (elsewhere it gives PreFilter's verdict back).
			row.Verdict, row.Reason = VerdictRejected, "the pod, for every node (below)"
			if status := pl.Filter(ctx, cycle, pod, ni); status != preStatus && !status.IsSuccess() {
				row.Reason, row.Code = status.Message(), reasons.CodeOf(status)
			}
		default:
			if status := pl.Filter(ctx, cycle, pod, ni); status.IsSuccess() {
				row.Verdict, row.Reason, row.Code = allocation.verdict(ni.Node())
			} else {
				row.Verdict, row.Reason, row.Code = VerdictRejected, status.Message(), reasons.CodeOf(status)
			}
		}
		if row.Verdict == VerdictFits || row.Verdict == VerdictNotFilter {
			report.Fits++
		}
		report.Nodes = append(report.Nodes, row)
	}
	switch {
	case preStatus.IsSkip():
		report.Summary = fmt.Sprintf("pod %s requests no GPU resource: GPUWorkloadFit lets every node through.", report.Pod)
	case report.Fits > 0:
		report.Summary = fmt.Sprintf("pod %s fits %d of %d node(s) as far as GPUs go; the scheduler's other plugins (taints, affinity, CPU and memory) still apply.", report.Pod, report.Fits, len(report.Nodes))
	default:
		why := explanation.Explain(allocatorCtx, pod, &demand.Demand, tracker, explanation.NewNodeInfoIndex(infos))
		report.Summary, report.FixCommands, report.ReasonCode = why.Message, why.FixCommands, why.ReasonCode
	}
	if !preStatus.IsSuccess() && !preStatus.IsSkip() {
		report.PodReason = preStatus.Message()
		report.ReasonCode = reasons.CodeOf(preStatus)
	}
	if pod.Spec.NodeName != "" {
		report.RunsOn = pod.Spec.NodeName
		report.Summary = fmt.Sprintf("pod %s runs on node %s. Were it pending, with its own GPUs free: %s", report.Pod, pod.Spec.NodeName, report.Summary)
	}
	return report, nil
}

// allocatorCheck asks the scheduler's allocator (GPUDynamicResources') for
// its verdict on the pod's pending claims, on the nodes GPUWorkloadFit lets
// through: their selectors and constraints are the allocator's to judge.
// One deadline, the allocator's own per node, bounds all the nodes.
type allocatorCheck struct {
	ctx       context.Context
	allocator structured.Allocator
	claims    []*resourceapi.ResourceClaim
}

// newAllocatorCheck is nil when the pod has no pending claim, or one the
// dump lacks: DynamicResources then waits for it, and so does explain.
func newAllocatorCheck(ctx context.Context, c *cluster, pod *v1.Pod, driver string) (*allocatorCheck, error) {
	var pending []*resourceapi.ResourceClaim
	for i := range pod.Spec.ResourceClaims {
		name, _, err := resourceclaim.Name(pod, &pod.Spec.ResourceClaims[i])
		if err != nil || name == nil {
			return nil, nil
		}
		i := slices.IndexFunc(c.DRA.Claims, func(claim *resourceapi.ResourceClaim) bool {
			return claim.Namespace == pod.Namespace && claim.Name == *name
		})
		if i < 0 {
			return nil, nil
		}
		if claim := c.DRA.Claims[i]; claim.Status.Allocation == nil {
			pending = append(pending, claim)
		}
	}
	if len(pending) == 0 {
		return nil, nil
	}
	allocator, err := gpudynamicresources.NewOfflineAllocator(ctx, driver, c.DRA.Slices, c.DRA.Classes, c.DRA.Claims)
	if err != nil {
		return nil, fmt.Errorf("the DRA allocator for pod %s/%s: %w", pod.Namespace, pod.Name, err)
	}
	return &allocatorCheck{ctx: ctx, allocator: allocator, claims: pending}, nil
}

// verdict is the allocator's on the node, "fits" without pending claims.
func (a *allocatorCheck) verdict(node *v1.Node) (verdict, reason string, code reasons.Code) {
	if a == nil {
		return VerdictFits, "", ""
	}
	undecided := fmt.Sprintf("the DRA allocator did not finish within %s", explanation.SelectorTimeout)
	if a.ctx.Err() != nil {
		return VerdictUndecided, undecided, ""
	}
	results, err := a.allocator.Allocate(a.ctx, node, a.claims)
	switch {
	case a.ctx.Err() != nil:
		return VerdictUndecided, undecided, ""
	case err != nil:
		return VerdictRejected, "the DRA allocator failed: " + err.Error(), ""
	case results == nil:
		r := reasons.DRACannotAllocate.Plain()
		return VerdictRejected, r.Message, r.Code
	}
	return VerdictFits, "", ""
}

// explainDevice says whether the pod could get the device.
func explainDevice(d dradevices.DRADeviceState, demand *schedulerstate.PodCycle) ExplainDevice {
	e := ExplainDevice{Device: d.Pool + "/" + d.Name, Type: d.Type, State: d.State}
	switch {
	case demand.DRADevices(d.Class) == 0:
		e.Verdict, e.Reason = VerdictNotNeeded, "the pod needs no "+d.Class.Describe()+" device"
	case d.State == dradevices.DRADeviceAllocated:
		e.Verdict, e.Reason = VerdictTaken, "allocated to claim "+d.Claim
	case d.State == dradevices.DRADeviceTainted:
		e.Verdict, e.Reason = VerdictTaken, "tainted NoSchedule or NoExecute in its ResourceSlice"
	case d.State == dradevices.DRADeviceSiblingInUse:
		e.Verdict, e.Reason = VerdictTaken, fmt.Sprintf("its GPU is in use through %s (claim %s)", d.Sibling, d.Claim)
	default:
		e.Verdict = VerdictUsable
	}
	return e
}

func printExplainReport(out io.Writer, format string, r *ExplainReport) error {
	if format != "table" {
		return printStructured(out, format, r)
	}
	if r.Pod == "" {
		if err := printFindings(out, r.Findings); err != nil {
			return err
		}
		_, err := fmt.Fprintf(out, "\nPolicy: %s.\n%s\n", r.Policy, r.Summary)
		return err
	}
	w := newTable(out)
	w.row("NODE", "MODE", "WHY", "GPU RESOURCES (FREE/TOTAL)", "VERDICT", "REASON")
	for _, n := range r.Nodes {
		var resources []string
		for _, res := range n.Resources {
			resources = append(resources, fmt.Sprintf("%s %d/%d", res.Name, res.Free, res.Total))
		}
		mode, why := string(n.Mode), n.ModeWhy
		if mode == "" {
			mode, why = "-", cmp.Or(why, "no NVIDIA GPU")
		}
		w.row(n.Node, mode, why, orDash(strings.Join(resources, ", ")), n.Verdict, orDash(n.Reason))
	}
	if err := w.flush(); err != nil {
		return err
	}
	if err := printDevices(out, r.Nodes); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nPolicy: %s. Scheduler configuration: %s.\n", r.Policy, r.SchedulerConfig)
	if r.PodReason != "" {
		fmt.Fprintf(out, "Rejected for every node: %s\n", r.PodReason)
	}
	_, err := fmt.Fprintln(out, r.Summary)
	return err
}

// printDevices lists the DRA nodes' devices with their verdicts, if any.
func printDevices(out io.Writer, nodes []ExplainNode) error {
	w := newTable(out)
	header := false
	for _, n := range nodes {
		for _, d := range n.Devices {
			if !header {
				fmt.Fprintln(out)
				w.row("NODE", "DRA DEVICE", "TYPE", "STATE", "VERDICT", "REASON")
				header = true
			}
			w.row(n.Node, d.Device, d.Type, d.State, d.Verdict, orDash(d.Reason))
		}
	}
	return w.flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
