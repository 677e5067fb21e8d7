package placement

import (
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// NodeSpec is one node of a cluster description.
type NodeSpec struct {
	Name      string
	MilliCPU  int64
	Memory    int64
	Mode      gpuworkload.Mode
	Inventory gpuworkload.GPUInventory
	// DRA says the NVIDIA DRA driver publishes the node's GPUs, each as a
	// container GPU and a passthrough device: the node has no mode, the
	// advisor leaves it alone, and Mode is unused.
	DRA bool
	// Labels are the node's own labels (a live node's, for advise), which
	// pods' node constraints match; the node's mode labels them as the GPU
	// Operator and GPU feature discovery would (gpuworkload.LabelsInMode:
	// no product or count label outside container mode), and the
	// operator's operand and vGPU state labels are left out.
	Labels map[string]string
}

// Apply gives the node the mode, and the vGPU profile, that a relabel proposes.
func (s *NodeSpec) Apply(r advisor.Relabel) {
	s.Mode = r.To
	if _, served, ok := s.Inventory.Serving(r.Resource); ok {
		s.Inventory = served
	}
}

// PodSpec is one pod of a workload: when it arrives, how long it runs once
// placed, and what it requests.
type PodSpec struct {
	Name     string
	Arrival  time.Duration
	Duration time.Duration // 0: runs until the end
	MilliCPU int64
	Memory   int64
	// GPU is the requested extended resource, empty for a pod without GPUs.
	GPU      v1.ResourceName
	GPUCount int64
	// VM marks a virt-launcher pod: one VM per pod.
	VM bool
	// Node, when set, places the pod there on arrival without scheduling it:
	// a pod already running in a cluster snapshot.
	Node string
	// NodeSelector and RequiredNodeAffinity are the pod's node constraint
	// (a live pod's, for advise), which the scheduler's NodeAffinity
	// plugin holds it to.
	NodeSelector         map[string]string
	RequiredNodeAffinity *v1.NodeSelector
	// ClaimProducts are, for a VM that accepts several cards, the
	// productNames its ResourceClaim's alternatives (firstAvailable) select,
	// in the order given; GPU is then draGPUs, as only DRA devices serve a
	// claim.
	ClaimProducts []string
}
