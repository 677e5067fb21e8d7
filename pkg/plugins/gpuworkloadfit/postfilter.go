package gpuworkloadfit

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/explanation"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// PostFilter records one event that explains, per GPU mode, why no node fits
// and what would fix it. It never schedules anything itself and always
// returns Unschedulable, so that DefaultPreemption runs after it.
func (pl *GPUWorkloadFit) PostFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, _ fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	logger := klog.FromContext(ctx)
	data, err := readCycleData(state)
	if err != nil {
		logger.Error(err, "Cannot explain the unschedulable pod", "pod", klog.KObj(pod))
		return nil, fwk.NewStatus(fwk.Unschedulable)
	}
	if !data.demand.IsGPU() && len(data.demand.Claims) == 0 {
		return nil, fwk.NewStatus(fwk.Unschedulable)
	}
	if data.usesDRADevices() && !data.claimAllocated {
		pl.profile.WaitForDevices(pod)
	}
	if data.narrowed {
		pl.profile.WaitForAdvertiser(pod)
	}
	// The cycle's allocation attempts and the explanation share one deadline.
	explainCtx, cancel := context.WithDeadline(ctx, data.start.Add(explanation.SelectorTimeout))
	defer cancel()
	why := explanation.Explain(explainCtx, pod, data.demand, data.tracker, pl.handle.SnapshotSharedLister().NodeInfos())
	pl.profile.Explained(pod, why.ReasonCode)
	message := explanation.TruncateNote(why.Message)
	var related *v1.ObjectReference
	if vmi := data.demand.VMI; vmi != nil && vmi.Name != "" {
		related = &v1.ObjectReference{APIVersion: "kubevirt.io/v1", Kind: "VirtualMachineInstance", Namespace: vmi.Namespace, Name: vmi.Name, UID: vmi.UID}
	}
	if recorder, ok := pl.profile.Recorder().(events.AnnotatedEventRecorder); ok {
		annotations := why.Annotations()
		if related != nil {
			recorder.AnnotatedEventf(pod, related, annotations, v1.EventTypeWarning, reasons.EventReasonUnschedulable, "Scheduling", "%s", message)
		} else {
			recorder.AnnotatedEventf(pod, nil, annotations, v1.EventTypeWarning, reasons.EventReasonUnschedulable, "Scheduling", "%s", message)
		}
	} else {
		logger.Error(nil, "The scheduler's event recorder cannot annotate events: the explanation is only logged", "pod", klog.KObj(pod), "explanation", message)
	}
	logger.V(3).Info("GPU pod unschedulable", "pod", klog.KObj(pod), "explanation", message)
	return nil, fwk.NewStatus(fwk.Unschedulable)
}
