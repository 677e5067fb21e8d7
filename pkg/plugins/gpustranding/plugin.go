// Package gpustranding implements the GPUStranding scoring plugin: it places
// pods so that less GPU inventory is left free but unusable. See
// docs/scoring.md for the formula.
package gpustranding

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	resourcehelper "k8s.io/component-helpers/resource"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/helper"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
)

// Name is the plugin's name in the scheduler configuration.
const Name = "GPUStranding"

const preScoreStateKey fwk.StateKey = Name

// GPUStranding scores nodes to keep GPU inventory usable.
type GPUStranding struct {
	emptyNodeFactor  int64 // percent of the score kept on an empty GPU node
	gpuNodeNonGPUMax int64
}

var (
	_ fwk.PreScorePlugin  = &GPUStranding{}
	_ fwk.ScorePlugin     = &GPUStranding{}
	_ fwk.ScoreExtensions = &GPUStranding{}
	_ fwk.SignPlugin      = &GPUStranding{}
)

// New builds the plugin from its args.
func New(_ context.Context, obj runtime.Object, _ fwk.Handle) (fwk.Plugin, error) {
	args, err := config.DecodeGPUStrandingArgs(obj)
	if err != nil {
		return nil, err
	}
	return &GPUStranding{
		emptyNodeFactor:  100 - *args.EmptyNodePenalty,
		gpuNodeNonGPUMax: *args.GPUNodeScoreForNonGPUPods,
	}, nil
}

// Name returns the plugin name.
func (pl *GPUStranding) Name() string { return Name }

type preScoreState struct {
	gpu *gpuworkloadfit.CycleData
	// milliCPU and memory are the pod's effective requests.
	milliCPU, memory int64
}

func (s *preScoreState) Clone() fwk.StateData { return s }

// PreScore reads the pod's GPU demand from GPUWorkloadFit and computes its
// CPU and memory requests once for all nodes.
func (pl *GPUStranding) PreScore(_ context.Context, state fwk.CycleState, pod *v1.Pod, _ []fwk.NodeInfo) *fwk.Status {
	gpu, err := gpuworkloadfit.ReadCycleData(state)
	if err != nil {
		return fwk.AsStatus(fmt.Errorf("%s needs %s in the same profile: %w", Name, gpuworkloadfit.Name, err))
	}
	requests := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	state.Write(preScoreStateKey, &preScoreState{gpu: gpu, milliCPU: requests.Cpu().MilliValue(), memory: requests.Memory().Value()})
	return nil
}

// Score: see docs/scoring.md.
func (pl *GPUStranding) Score(_ context.Context, state fwk.CycleState, _ *v1.Pod, nodeInfo fwk.NodeInfo) (int64, *fwk.Status) {
	data, err := state.Read(preScoreStateKey)
	if err != nil {
		return 0, fwk.AsStatus(err)
	}
	s, ok := data.(*preScoreState)
	if !ok {
		return 0, fwk.AsStatus(fmt.Errorf("%s pre-score state has type %T", Name, data))
	}
	if s.gpu.Demand.IsGPU() {
		return pl.scoreGPUPod(s, nodeInfo), nil
	}
	return pl.scoreNonGPUPod(s, nodeInfo), nil
}

// scoreGPUPod packs within a mode: the more of the requested resource is in
// use after placing the pod, the higher; a node none of whose GPUs is in use
// is penalised so that it stays free to change mode.
func (pl *GPUStranding) scoreGPUPod(s *preScoreState, nodeInfo fwk.NodeInfo) int64 {
	allocatable := nodeInfo.GetAllocatable().GetScalarResources()
	requested := nodeInfo.GetRequested().GetScalarResources()
	var sum int64
	for _, r := range s.gpu.Demand.Requests {
		total := allocatable[r.Name]
		if total <= 0 {
			return 0
		}
		sum += min(requested[r.Name]+r.Count, total) * fwk.MaxNodeScore / total
	}
	score := sum / int64(len(s.gpu.Demand.Requests))
	if pl.gpuUnitsInUse(s, nodeInfo) == 0 {
		score = score * pl.emptyNodeFactor / 100
	}
	return score
}

func (pl *GPUStranding) gpuUnitsInUse(s *preScoreState, nodeInfo fwk.NodeInfo) int64 {
	requested := nodeInfo.GetRequested().GetScalarResources()
	var used int64
	for _, r := range s.gpu.Tracker.Entry(nodeInfo.Node()).State.Resources {
		used += requested[r.Name]
	}
	return used
}

// scoreNonGPUPod keeps CPU-only work off GPU nodes whose GPUs are still free,
// and on such nodes prefers the one where the pod leaves most CPU and memory
// for GPU pods to come.
func (pl *GPUStranding) scoreNonGPUPod(s *preScoreState, nodeInfo fwk.NodeInfo) int64 {
	entry := s.gpu.Tracker.Entry(nodeInfo.Node())
	if !entry.State.GPUNode || len(entry.State.Resources) == 0 {
		return fwk.MaxNodeScore
	}
	allocatable := nodeInfo.GetAllocatable()
	requested := nodeInfo.GetRequested()
	freeGPUs := false
	for _, r := range entry.State.Resources {
		if allocatable.GetScalarResources()[r.Name] > requested.GetScalarResources()[r.Name] {
			freeGPUs = true
			break
		}
	}
	if !freeGPUs {
		return fwk.MaxNodeScore
	}
	used := max(share(requested.GetMilliCPU()+s.milliCPU, allocatable.GetMilliCPU()),
		share(requested.GetMemory()+s.memory, allocatable.GetMemory()))
	return pl.gpuNodeNonGPUMax * (fwk.MaxNodeScore - used) / fwk.MaxNodeScore
}

// share is used/total on the 0-100 scale, 100 when total is unknown.
func share(used, total int64) int64 {
	if total <= 0 {
		return fwk.MaxNodeScore
	}
	return min(used*fwk.MaxNodeScore/total, fwk.MaxNodeScore)
}

// ScoreExtensions returns the plugin itself for NormalizeScore.
func (pl *GPUStranding) ScoreExtensions() fwk.ScoreExtensions { return pl }

// NormalizeScore stretches GPU pods' scores so that the best-packed node
// gets the maximum; non-GPU pods' scores are already absolute.
func (pl *GPUStranding) NormalizeScore(_ context.Context, state fwk.CycleState, _ *v1.Pod, scores fwk.NodeScoreList) *fwk.Status {
	data, err := state.Read(preScoreStateKey)
	if err != nil {
		return fwk.AsStatus(err)
	}
	if s, ok := data.(*preScoreState); ok && s.gpu.Demand.IsGPU() {
		return helper.DefaultNormalizeScore(fwk.MaxNodeScore, false, scores)
	}
	return nil
}

// SignPod: the score depends on the pod's resource requests only.
func (pl *GPUStranding) SignPod(_ context.Context, pod *v1.Pod) ([]fwk.SignFragment, *fwk.Status) {
	requests := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})
	return []fwk.SignFragment{{Key: SignerName, Value: requests}}, nil
}

// SignerName keys the resource fragment this plugin adds to a pod signature.
const SignerName = "v1.Pod.Spec.GPUStrandingRequests()"
