// Package gpudynamicresources is the scheduler's DRA allocator:
// kube-scheduler's own DynamicResources plugin, run with a DRA manager that
// counts, as allocated, the sibling of every device of the GPU driver that
// a claim holds or that is in flight, and that tells the process's trackers
// of the allocations in flight (the process state's ClaimsInFlight). The NVIDIA DRA driver publishes a GPU
// as a gpu and a vfio device with one PCI bus ID and no shared counters
// (dradevices.ExclusiveDRADevices): the allocator alone would hand the two
// to two claims, and the second would fail on the node. Here the allocator
// itself never offers the sibling, as cluster-autoscaler plugs its own DRA
// manager into the same seam (fwk.SharedDRAManager).
package gpudynamicresources

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/dynamic-resource-allocation/resourceclaim"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// Name is the plugin's name in a scheduler profile; the profile disables
// DynamicResources and enables this one in its place.
const Name = "GPUDynamicResources"

// GPUDynamicResources is DynamicResources under its own name, with its
// filterTimeout bounding a scheduling attempt's allocations on all nodes
// together as well as each node's: a claim whose selectors are costly on
// every node holds up the scheduler, which schedules one pod at a time, for
// the timeout, not for the timeout times the nodes over the parallelism.
type GPUDynamicResources struct {
	*dynamicresources.DynamicResources
	// cycleTimeout is filterTimeout, 0 when it is off.
	cycleTimeout time.Duration
	// state raises the fences of the pod's allocations before PreBind
	// writes them; claims reads them. claims is nil without DRA.
	state  *schedulerstate.Service
	claims fwk.ResourceClaimTracker
}

// Name returns the plugin's name.
func (*GPUDynamicResources) Name() string { return Name }

const cycleDeadlineKey fwk.StateKey = Name + "/cycle-deadline"

// cycleDeadline is when the attempt's allocations must end.
type cycleDeadline struct{ at time.Time }

// Clone shares the deadline: nothing changes it.
func (d *cycleDeadline) Clone() fwk.StateData { return d }

// PreFilter runs DynamicResources' PreFilter and, for a pod whose devices
// it allocates, sets the attempt's deadline from when it started.
func (pl *GPUDynamicResources) PreFilter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodes []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	start := time.Now()
	// Only the leader schedules: the fences become its to keep.
	pl.state.StartFences()
	result, status := pl.DynamicResources.PreFilter(ctx, state, pod, nodes)
	if pl.cycleTimeout > 0 && status.IsSuccess() {
		state.Write(cycleDeadlineKey, &cycleDeadline{at: start.Add(pl.cycleTimeout)})
	}
	return result, status
}

// Filter allocates on the node as DynamicResources does, until the
// attempt's deadline. Past it no node is tried: each is rejected as
// unresolvable for this attempt (preemption cannot make CEL cheaper), so
// that the pod waits, as any unschedulable pod, for a change to its claims
// or to the devices, and the explanation says the selectors are costly.
func (pl *GPUDynamicResources) Filter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeInfo fwk.NodeInfo) *fwk.Status {
	d, err := state.Read(cycleDeadlineKey)
	if err != nil {
		return pl.DynamicResources.Filter(ctx, state, pod, nodeInfo)
	}
	deadline := d.(*cycleDeadline).at
	if !time.Now().Before(deadline) {
		return pl.deadlinePassed()
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	status := pl.DynamicResources.Filter(ctx, state, pod, nodeInfo)
	if !status.IsSuccess() && ctx.Err() != nil {
		// The deadline cut this node's allocation: DynamicResources reports
		// that as an error, which would end the attempt and retry the pod
		// after a backoff, again and again, or as asked to stop.
		return pl.deadlinePassed()
	}
	return status
}

// PreBind writes the fences of the pod's allocations (drasiblings.Fences),
// then the allocations, as DynamicResources does: no other scheduler sees
// a vfio device allocated while it may still hand out the GPU's container
// device. A fence that cannot be written fails the binding, which retries
// the pod, before any claim is written.
func (pl *GPUDynamicResources) PreBind(ctx context.Context, state fwk.CycleState, pod *v1.Pod, nodeName string) *fwk.Status {
	if pl.claims != nil && pl.state.StartFences() {
		if err := pl.state.Fences().Raise(ctx, allocationsInFlight(pl.claims, pod)); err != nil {
			return fwk.AsStatus(err)
		}
	}
	return pl.DynamicResources.PreBind(ctx, state, pod, nodeName)
}

// allocationsInFlight are the pod's claims with the allocations the
// allocator holds for them, not yet written.
func allocationsInFlight(claims fwk.ResourceClaimTracker, pod *v1.Pod) []*resourceapi.ResourceClaim {
	var out []*resourceapi.ResourceClaim
	for i := range pod.Spec.ResourceClaims {
		name, _, err := resourceclaim.Name(pod, &pod.Spec.ResourceClaims[i])
		if err != nil || name == nil {
			continue
		}
		claim, err := claims.Get(pod.Namespace, *name)
		if err != nil {
			continue
		}
		if allocation := claims.GetPendingAllocation(claim.UID); allocation != nil {
			claim = claim.DeepCopy()
			claim.Status.Allocation = allocation
			out = append(out, claim)
		}
	}
	return out
}

func (pl *GPUDynamicResources) deadlinePassed() *fwk.Status {
	return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, reasons.DRAAttemptTimedOut.With(pl.cycleTimeout).Message)
}

// New builds DynamicResources with the scheduler's feature gates (an empty
// feature set would silently turn DRA features off) and a handle whose DRA
// manager adds the siblings and tells the state of the allocations in flight.
func New(ctx context.Context, obj runtime.Object, fh fwk.Handle, state *schedulerstate.Service) (fwk.Plugin, error) {
	args, inTreeArgs, err := config.DecodeGPUDynamicResourcesArgs(obj)
	if err != nil {
		return nil, err
	}
	handle := fh
	var claims fwk.ResourceClaimTracker
	if dra := fh.SharedDRAManager(); dra != nil {
		informers := fh.SharedInformerFactory()
		siblings, err := newSiblingIndex(informers.Resource().V1().ResourceSlices().Informer(), args.DRADriverName)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
		if err := state.Fences().Configure(fh.ProfileName(), args.DRADriverName, fh.ClientSet(), informers, siblings.lookup); err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
		claims = dra.ResourceClaims()
		handle = &siblingHandle{Handle: fh, dra: &siblingDRAManager{SharedDRAManager: dra, claims: &siblingClaims{
			ResourceClaimTracker: claims, siblings: siblings, inFlight: state.ClaimsInFlight(), fences: state.Fences()}}}
	}
	fts := plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	pl, err := dynamicresources.New(ctx, inTreeArgs, handle, fts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	inTree, ok := pl.(*dynamicresources.DynamicResources)
	if !ok {
		return nil, fmt.Errorf("%s: DynamicResources is a %T", Name, pl)
	}
	out := &GPUDynamicResources{DynamicResources: inTree, state: state, claims: claims}
	if fts.EnableDRASchedulerFilterTimeout {
		out.cycleTimeout = inTreeArgs.FilterTimeout.Duration
	}
	return out, nil
}

// siblingHandle is the framework's handle with the sibling-aware DRA manager.
type siblingHandle struct {
	fwk.Handle
	dra fwk.SharedDRAManager
}

func (h *siblingHandle) SharedDRAManager() fwk.SharedDRAManager { return h.dra }

type siblingDRAManager struct {
	fwk.SharedDRAManager
	claims fwk.ResourceClaimTracker
}

func (m *siblingDRAManager) ResourceClaims() fwk.ResourceClaimTracker { return m.claims }
