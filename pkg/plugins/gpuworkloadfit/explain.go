package gpuworkloadfit

import (
	"context"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// PostFilter records one event that explains, per GPU mode, why no node fits
// and what would fix it. It never schedules anything itself and always
// returns Unschedulable, so that DefaultPreemption runs after it.
func (pl *GPUWorkloadFit) PostFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, _ fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	logger := klog.FromContext(ctx)
	data, err := ReadCycleData(state)
	if err != nil {
		logger.Error(err, "Cannot explain the unschedulable pod", "pod", klog.KObj(pod))
		return nil, fwk.NewStatus(fwk.Unschedulable)
	}
	if !data.Demand.IsGPU() {
		return nil, fwk.NewStatus(fwk.Unschedulable)
	}
	nodes, err := pl.handle.SnapshotSharedLister().NodeInfos().List()
	if err != nil {
		logger.Error(err, "Cannot list nodes to explain the unschedulable pod", "pod", klog.KObj(pod))
		return nil, fwk.NewStatus(fwk.Unschedulable)
	}
	message := Explain(pod, &data.Demand, data.Tracker, nodes)
	var related *v1.ObjectReference
	if vmi := data.Demand.VMI; vmi != nil && vmi.Name != "" {
		related = &v1.ObjectReference{APIVersion: "kubevirt.io/v1", Kind: "VirtualMachineInstance", Namespace: vmi.Namespace, Name: vmi.Name, UID: vmi.UID}
	}
	if recorder := pl.handle.EventRecorder(); recorder != nil {
		if related != nil {
			recorder.Eventf(pod, related, v1.EventTypeWarning, EventReasonUnschedulable, "Scheduling", "%s", message)
		} else {
			recorder.Eventf(pod, nil, v1.EventTypeWarning, EventReasonUnschedulable, "Scheduling", "%s", message)
		}
	}
	logger.V(3).Info("GPU pod unschedulable", "pod", klog.KObj(pod), "explanation", message)
	return nil, fwk.NewStatus(fwk.Unschedulable)
}

// modeSummary is what Explain learns about the nodes of one mode.
type modeSummary struct {
	nodes, converting int
	// firstIdle is, by name, the first node whose GPU resources are all
	// unused: the one the fix proposes to relabel.
	firstIdle string
}

// resourceSummary is what Explain learns about one requested resource.
type resourceSummary struct {
	nodes       int
	free, total int64
}

// Explain says, in one message, what the pod needs, what each GPU mode
// offers, and the concrete fix. It is shared by PostFilter and the kubectl
// plugin so that both give the same answer.
func Explain(pod *v1.Pod, demand *gpuworkload.PodDemand, tracker *clusterstate.Tracker, nodes []fwk.NodeInfo) string {
	policy := tracker.Policy()
	byMode := map[gpuworkload.Mode]*modeSummary{}
	for _, m := range gpuworkload.Modes {
		byMode[m] = &modeSummary{}
	}
	perResource := make([]resourceSummary, len(demand.Requests))
	ignoredLabels := 0
	for _, ni := range nodes {
		entry := tracker.Entry(ni.Node())
		s := entry.State
		if !s.GPUNode {
			continue
		}
		m := byMode[s.Mode.Mode]
		m.nodes++
		if entry.Converting {
			m.converting++
		}
		if s.Mode.LabelIgnored() {
			ignoredLabels++
		}
		allocatable := ni.GetAllocatable().GetScalarResources()
		requested := ni.GetRequested().GetScalarResources()
		idle := !entry.Converting && len(s.Resources) > 0
		for _, r := range s.Resources {
			if requested[r.Name] > 0 {
				idle = false
			}
		}
		if idle && (m.firstIdle == "" || s.Name < m.firstIdle) {
			m.firstIdle = s.Name
		}
		for i, r := range demand.Requests {
			if total := allocatable[r.Name]; total > 0 {
				perResource[i].nodes++
				perResource[i].total += total
				perResource[i].free += max(total-requested[r.Name], 0)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s needs %s", subjectOf(pod, demand), describeRequests(demand))
	if mode, ok := demand.Mode(); ok {
		fmt.Fprintf(&b, " (%s mode)", mode)
	}
	b.WriteString(". GPU nodes by mode:")
	for i, mode := range gpuworkload.Modes {
		if i > 0 {
			b.WriteString(",")
		}
		m := byMode[mode]
		fmt.Fprintf(&b, " %s %d", mode, m.nodes)
		if m.converting > 0 {
			fmt.Fprintf(&b, " (%d converting)", m.converting)
		}
	}
	b.WriteString(".")
	for i, r := range demand.Requests {
		rs := perResource[i]
		fmt.Fprintf(&b, " %s: %d free of %d on %d node(s).", r.Name, rs.free, rs.total, rs.nodes)
	}
	if !policy.Enabled {
		fmt.Fprintf(&b, " sandboxWorkloads is disabled in %s", policy.Source)
		if ignoredLabels > 0 {
			fmt.Fprintf(&b, ", so the mode label of %d node(s) is ignored", ignoredLabels)
		}
		b.WriteString(".")
	}
	b.WriteString(" Fix: ")
	b.WriteString(fix(demand, policy, byMode, perResource))
	return b.String()
}

func subjectOf(pod *v1.Pod, demand *gpuworkload.PodDemand) string {
	if vmi := demand.VMI; vmi != nil && vmi.Name != "" {
		return fmt.Sprintf("VirtualMachineInstance %s/%s (pod %s)", vmi.Namespace, vmi.Name, pod.Name)
	}
	return fmt.Sprintf("pod %s/%s", pod.Namespace, pod.Name)
}

func describeRequests(demand *gpuworkload.PodDemand) string {
	parts := make([]string, len(demand.Requests))
	for i, r := range demand.Requests {
		parts[i] = fmt.Sprintf("%d x %s", r.Count, r.Name)
	}
	return strings.Join(parts, " and ")
}

func fix(demand *gpuworkload.PodDemand, policy gpuworkload.SandboxPolicy, byMode map[gpuworkload.Mode]*modeSummary, perResource []resourceSummary) string {
	if demand.Conflict() {
		return "request the GPU resources of one mode only; a node runs one mode."
	}
	mode, _ := demand.Mode()
	if mode.IsSandbox() && !policy.Enabled {
		if policy.Source.Kind == gpuworkload.SourceClusterPolicy {
			return gpuworkload.EnableSandboxFix(policy)
		}
		return gpuworkload.EnableSandboxFix(policy) + "."
	}
	idleOther := ""
	for _, other := range gpuworkload.Modes {
		if other != mode && byMode[other].firstIdle != "" {
			idleOther = byMode[other].firstIdle
			break
		}
	}
	relabel := func(node string) string { return gpuworkload.RelabelCommand(node, mode) }
	for i, r := range demand.Requests {
		if perResource[i].nodes > 0 {
			continue
		}
		switch {
		case mode == gpuworkload.ModeContainer && idleOther != "":
			return "convert an idle GPU node to container mode: " + relabel(idleOther)
		case mode == gpuworkload.ModeVGPU && byMode[mode].nodes > 0:
			if p, err := gpuworkload.ParseVGPUTypeName(string(r.Name)); err == nil {
				return fmt.Sprintf("no node offers profile %s; set it on a vGPU node with no running vGPU VM: kubectl label node <node> %s=%s --overwrite", p.Name(), gpuworkload.LabelVGPUConfig, p.Name())
			}
		}
		return fmt.Sprintf("no node advertises %s: request a resource the cluster advertises, or put a node with this hardware in %s mode: %s", r.Name, mode, relabel("<node>"))
	}
	if m := byMode[mode]; m.nodes > 0 && m.converting == m.nodes {
		return fmt.Sprintf("wait: all %d %s node(s) are converting their mode or vGPU profile.", m.nodes, mode)
	}
	if idleOther != "" {
		return "free units are used up; let running GPU pods finish, let preemption make room for a higher priority, or convert an idle GPU node that has this hardware: " + relabel(idleOther)
	}
	return "free units are used up; let running GPU pods finish, or let preemption make room for a higher priority."
}
