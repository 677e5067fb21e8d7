// Package gpudynamicresources is the scheduler's DRA allocator:
// kube-scheduler's own DynamicResources plugin, run with a DRA manager that
// counts, as allocated, the sibling of every device of the GPU driver that
// a claim holds or that is in flight, and that tells the process's trackers
// of the allocations in flight (clusterstate.ClaimsInFlight). The NVIDIA DRA driver publishes a GPU
// as a gpu and a vfio device with one PCI bus ID and no shared counters
// (gpuworkload.ExclusiveDRADevices): the allocator alone would hand the two
// to two claims, and the second would fail on the node. Here the allocator
// itself never offers the sibling, as cluster-autoscaler plugs its own DRA
// manager into the same seam (fwk.SharedDRAManager).
package gpudynamicresources

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
)

// Name is the plugin's name in a scheduler profile; the profile disables
// DynamicResources and enables this one in its place.
const Name = "GPUDynamicResources"

// GPUDynamicResources is DynamicResources under its own name.
type GPUDynamicResources struct {
	*dynamicresources.DynamicResources
}

// Name returns the plugin's name.
func (*GPUDynamicResources) Name() string { return Name }

// New builds DynamicResources with the scheduler's feature gates (an empty
// feature set would silently turn DRA features off) and a handle whose DRA
// manager adds the siblings.
func New(ctx context.Context, obj runtime.Object, fh fwk.Handle) (fwk.Plugin, error) {
	args, inTreeArgs, err := config.DecodeGPUDynamicResourcesArgs(obj)
	if err != nil {
		return nil, err
	}
	handle := fh
	if dra := fh.SharedDRAManager(); dra != nil {
		siblings, err := newSiblingIndex(fh.SharedInformerFactory().Resource().V1().ResourceSlices().Informer(), args.DRADriverName)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", Name, err)
		}
		handle = &siblingHandle{Handle: fh, dra: &siblingDRAManager{SharedDRAManager: dra, claims: &siblingClaims{
			ResourceClaimTracker: dra.ResourceClaims(), siblings: siblings, inFlight: clusterstate.ClaimsInFlightOf(fh.SharedInformerFactory())}}}
	}
	pl, err := dynamicresources.New(ctx, inTreeArgs, handle, plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	inTree, ok := pl.(*dynamicresources.DynamicResources)
	if !ok {
		return nil, fmt.Errorf("%s: DynamicResources is a %T", Name, pl)
	}
	return &GPUDynamicResources{DynamicResources: inTree}, nil
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
