package poddemand

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// NodeConstraint is a pod's nodeSelector and required node affinity, which
// pin real workloads to hardware (nodeSelector nvidia.com/gpu.product:
// Tesla-T4). It is matched as kube-scheduler's NodeAffinity plugin matches
// it, against the labels a node has now or would have in another mode:
// gpu-feature-discovery labels the product and GPU count only where the
// container stack runs.
type NodeConstraint struct {
	required nodeaffinity.RequiredNodeAffinity
	// publishes, when set, holds for the nodes whose DRA devices the pod's
	// claim selectors accept (WithClaimSelectors).
	publishes func(node string) bool
	// Description names the constraint in messages, empty when the pod has
	// none: nodeSelector nvidia.com/gpu.product=Tesla-T4, required node affinity.
	Description string
	// Key is equal for pods with the same constraint: their nodeSelector
	// and required node affinity, serialized.
	Key string
}

// NodeConstraintOf reads the pod's constraint.
func NodeConstraintOf(pod *v1.Pod) NodeConstraint {
	c := NodeConstraint{required: nodeaffinity.GetRequiredNodeAffinity(pod)}
	var parts []string
	if len(pod.Spec.NodeSelector) > 0 {
		selector := make([]string, 0, len(pod.Spec.NodeSelector))
		for _, key := range slices.Sorted(maps.Keys(pod.Spec.NodeSelector)) {
			selector = append(selector, key+"="+pod.Spec.NodeSelector[key])
		}
		parts = append(parts, "nodeSelector "+strings.Join(selector, ","))
	}
	var required *v1.NodeSelector
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		required = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
		parts = append(parts, "required node affinity")
	}
	c.Description = strings.Join(parts, " and ")
	if c.Constrains() {
		// Marshalling a map sorts its keys; these types always marshal.
		key, _ := json.Marshal(struct {
			Selector map[string]string `json:"s,omitempty"`
			Required *v1.NodeSelector  `json:"r,omitempty"`
		}{pod.Spec.NodeSelector, required})
		c.Key = string(key)
	}
	return c
}

// Constrains reports whether the pod has a constraint at all.
func (c NodeConstraint) Constrains() bool { return c.Description != "" }

// Accepts reports whether the node, as it is, satisfies the constraint. A
// constraint the API server would not have admitted accepts no node, as
// for the scheduler; nor does a constraint a node unknown (nil).
func (c NodeConstraint) Accepts(node *v1.Node) bool {
	if !c.Constrains() {
		return true
	}
	if node == nil {
		return false
	}
	if c.publishes != nil && !c.publishes(node.Name) {
		return false
	}
	ok, err := c.required.Match(node)
	return ok && err == nil
}

// WithClaimSelectors narrows the constraint to the nodes for which
// publishes holds, when a claim request or one of its alternatives has
// selectors of its own (a productName, say): those pin the pod to some
// cards as node affinity does. publishes says whether the node's DRA
// devices serve every claim request (DRAPublishesFor). Without such
// selectors any device of the class serves, and the constraint is kept.
func (c NodeConstraint) WithClaimSelectors(claims []dradevices.DRAClaimRequest, publishes func(node string) bool) NodeConstraint {
	var pinned []string
	for _, claim := range claims {
		if slices.ContainsFunc(claim.Alternatives(), func(a dradevices.DRAClaimRequest) bool { return a.Selector != nil }) {
			request, _, _ := strings.Cut(claim.Request, "/")
			pinned = append(pinned, claim.Claim+"/"+request)
		}
	}
	if pinned == nil {
		return c
	}
	c.publishes = publishes
	c.Description = strings.Join(slices.DeleteFunc([]string{c.Description, "the selectors of claim request " + strings.Join(pinned, ", ")}, func(s string) bool { return s == "" }), " and ")
	c.Key += "|claims " + strings.Join(pinned, ",")
	return c
}

// AcceptsAfter reports whether the node satisfies the constraint once the
// conversion is done: its mode label, its vGPU profile label, and the
// labels gpu-feature-discovery sets in container mode and that go with it
// elsewhere (gpuworkload.LabelsInMode).
func (c NodeConstraint) AcceptsAfter(node *v1.Node, conversion gpuworkload.Conversion) bool {
	if !c.Constrains() {
		return true
	}
	if node == nil {
		return false
	}
	converted := *node
	converted.Labels = gpuworkload.LabelsInMode(node.Labels, conversion.Mode, conversion.Served)
	return c.Accepts(&converted)
}
