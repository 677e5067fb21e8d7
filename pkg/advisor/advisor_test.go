package advisor

import (
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand/constrainttest"
)

const a10 v1.ResourceName = "nvidia.com/GA102GL_A10"

func a10Node(name string, mode gpuworkload.Mode, used int64, gpuPods, vms int) Node {
	return a10NodeWithProfile(name, mode, "", used, gpuPods, vms)
}

func a10NodeWithProfile(name string, mode gpuworkload.Mode, profile string, used int64, gpuPods, vms int) Node {
	inv, err := gpuworkload.NewGPUInventory(4, "A10", profile)
	if err != nil {
		panic(err)
	}
	resource, units, _ := inv.Advertisement(mode)
	return Node{Name: name, Mode: mode, Inventory: inv, Resource: resource, Units: units, UsedUnits: used, GPUPods: gpuPods, VMs: vms}
}

func vms(n int, count int64) []PendingPod {
	out := make([]PendingPod, n)
	for i := range out {
		out[i] = PendingPod{Name: "vm", Resource: a10, Count: count}
	}
	return out
}

func desktops(n int) []PendingPod {
	out := make([]PendingPod, n)
	for i := range out {
		out[i] = PendingPod{Name: "vdi", Resource: "nvidia.com/NVIDIA_A10-4Q", Count: 1}
	}
	return out
}

func TestAdvise(t *testing.T) {
	on := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer}
	full := a10Node("pt-full", gpuworkload.ModePassthrough, 4, 2, 2)
	converting := a10Node("converting", gpuworkload.ModePassthrough, 0, 0, 0)
	converting.Converting, converting.Resource, converting.Units = true, "", 0
	held := a10Node("c-held", gpuworkload.ModeContainer, 0, 0, 0)
	held.Held = true
	for _, tc := range []struct {
		name     string
		policy   gpuworkload.SandboxPolicy
		nodes    []Node
		pending  []PendingPod
		relabels []string
		// profiles are the relabels' vgpu.config values, "" for none.
		profiles   []string
		drainFirst []string
		unserved   int64
		prereq     bool
		unservable []string
	}{
		{name: "nothing pending", policy: on, nodes: []Node{full, a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0)}},
		{
			name: "an empty container node for waiting VMs", policy: on,
			nodes:    []Node{full, a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0), a10Node("c2", gpuworkload.ModeContainer, 0, 0, 0)},
			pending:  vms(2, 2),
			relabels: []string{"c1"},
		},
		{
			name: "never a node with running VMs or GPU pods", policy: on,
			nodes:      []Node{full, a10Node("c-busy", gpuworkload.ModeContainer, 1, 1, 0), a10Node("v-vms", gpuworkload.ModeVGPU, 2, 2, 2)},
			pending:    vms(1, 4),
			drainFirst: []string{"c-busy", "v-vms"},
			unserved:   4,
		},
		{
			name: "not a node its own mode's waiting pods need", policy: on,
			nodes:    []Node{full, a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0)},
			pending:  append(vms(1, 4), PendingPod{Name: "train", Resource: gpuworkload.ResourceGPU, Count: 4}),
			unserved: 4,
		},
		{
			// 16 units in use keep ceil(sqrt(16)/2) = 2 free: one empty node's 4 are too few to give away.
			name: "a reserve for the node's own resource", policy: on,
			nodes: []Node{
				a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0),
				a10Node("c2", gpuworkload.ModeContainer, 4, 4, 0), a10Node("c3", gpuworkload.ModeContainer, 4, 4, 0),
				a10Node("c4", gpuworkload.ModeContainer, 4, 4, 0), a10Node("c5", gpuworkload.ModeContainer, 4, 4, 0),
			},
			pending:    vms(1, 4),
			drainFirst: []string{"c2", "c3", "c4", "c5"},
			unserved:   4,
		},
		{
			name: "with two empty nodes one can go", policy: on,
			nodes: []Node{
				a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0), a10Node("c2", gpuworkload.ModeContainer, 0, 0, 0),
				a10Node("c3", gpuworkload.ModeContainer, 4, 4, 0), a10Node("c4", gpuworkload.ModeContainer, 4, 4, 0),
				a10Node("c5", gpuworkload.ModeContainer, 4, 4, 0), a10Node("c6", gpuworkload.ModeContainer, 4, 4, 0),
			},
			pending:  vms(1, 4),
			relabels: []string{"c1"},
		},
		{
			name: "a held node is never proposed, and its free units still count", policy: on,
			nodes:    []Node{full, held, a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0)},
			pending:  vms(2, 2),
			relabels: []string{"c1"},
		},
		{
			name: "a conversion under way already covers the demand", policy: on,
			nodes:   []Node{full, converting, a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0)},
			pending: vms(2, 2),
		},
		{
			name: "free units that fit cover the demand", policy: on,
			nodes:   []Node{a10Node("pt", gpuworkload.ModePassthrough, 2, 1, 1), a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0)},
			pending: vms(1, 2),
		},
		{
			name: "sandbox workloads disabled", policy: gpuworkload.DefaultPolicy(),
			nodes:    []Node{full, a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0)},
			pending:  vms(1, 1),
			relabels: []string{"c1"},
			prereq:   true,
		},
		{
			name: "an empty vGPU node of another profile of the card", policy: on,
			nodes:    []Node{a10NodeWithProfile("v12", gpuworkload.ModeVGPU, "A10-12Q", 0, 0, 0)},
			pending:  desktops(3),
			relabels: []string{"v12"}, profiles: []string{"A10-4Q"},
		},
		{
			name: "a passthrough node relabelled with the profile", policy: on,
			nodes:    []Node{a10Node("pt", gpuworkload.ModePassthrough, 0, 0, 0)},
			pending:  desktops(1),
			relabels: []string{"pt"}, profiles: []string{"A10-4Q"},
		},
		{
			name: "never a profile change under running VMs", policy: on,
			nodes:      []Node{a10NodeWithProfile("v12", gpuworkload.ModeVGPU, "A10-12Q", 1, 1, 1)},
			pending:    desktops(1),
			drainFirst: []string{"v12"},
			unserved:   1,
		},
		{
			name: "a node already of the profile is not a candidate", policy: on,
			nodes:   []Node{a10NodeWithProfile("v4", gpuworkload.ModeVGPU, "A10-4Q", 24, 24, 24)},
			pending: desktops(1), unserved: 1,
		},
		{
			name: "a profile of another card", policy: on,
			nodes:    []Node{a10NodeWithProfile("v12", gpuworkload.ModeVGPU, "A10-12Q", 0, 0, 0)},
			pending:  []PendingPod{{Name: "vm", Resource: "nvidia.com/NVIDIA_L40S-12Q", Count: 1}},
			unserved: 1,
		},
		{
			name: "a VM larger than any node: no relabel, and why", policy: on,
			nodes:      []Node{a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0), a10Node("c2", gpuworkload.ModeContainer, 0, 0, 0)},
			pending:    vms(1, 100),
			unservable: []string{"vm: asks for 100 x nvidia.com/GA102GL_A10; no node has more than 4, nor would after a relabel: split the request or add a node with more GPUs"},
		},
		{
			name: "the VM that fits is served, the one that cannot is named", policy: on,
			nodes:      []Node{a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0), a10Node("c2", gpuworkload.ModeContainer, 0, 0, 0)},
			pending:    append(vms(1, 100), vms(1, 2)...),
			relabels:   []string{"c1"},
			unservable: []string{"vm: asks for 100 x nvidia.com/GA102GL_A10; no node has more than 4, nor would after a relabel: split the request or add a node with more GPUs"},
		},
		{
			name: "a resource no node can advertise", policy: on,
			nodes:    []Node{a10Node("c1", gpuworkload.ModeContainer, 0, 0, 0)},
			pending:  []PendingPod{{Name: "vm", Resource: "nvidia.com/GB100_B200", Count: 1}},
			unserved: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := Advise(Input{Policy: tc.policy, Nodes: tc.nodes, Pending: tc.pending})
			var relabels, profiles, drain []string
			for _, r := range plan.Relabels {
				relabels = append(relabels, r.Node)
				profiles = append(profiles, r.Profile)
				want := "kubectl label node " + r.Node + " nvidia.com/gpu.workload.config=" + string(r.To)
				if r.Profile != "" {
					want += " nvidia.com/vgpu.config=" + r.Profile
				}
				if r.Command != want+" --overwrite" {
					t.Errorf("command %q, want %q", r.Command, want+" --overwrite")
				}
			}
			if tc.profiles == nil {
				tc.profiles = make([]string, len(tc.relabels))
			}
			for _, d := range plan.DrainFirst {
				drain = append(drain, d.Node)
				switch drains := strings.Contains(d.Advice, "kubectl drain "+d.Node); {
				case d.VMs == 0 && !drains:
					t.Errorf("advice %q does not say how to drain", d.Advice)
				case d.VMs > 0 && (drains || !strings.Contains(d.Advice, "stopping its VMs")):
					t.Errorf("advice %q for a node with VMs gives a drain, or does not say the VMs must stop or move", d.Advice)
				}
			}
			var unserved int64
			for _, u := range plan.Unserved {
				unserved += u.Units
			}
			var unservable []string
			for _, u := range plan.Unservable {
				unservable = append(unservable, u.Pod+": "+u.Why)
			}
			if !slices.Equal(unservable, tc.unservable) {
				t.Fatalf("unservable %q, want %q", unservable, tc.unservable)
			}
			if !slices.Equal(relabels, tc.relabels) || !slices.Equal(profiles, tc.profiles) || !slices.Equal(drain, tc.drainFirst) || unserved != tc.unserved || (plan.Prerequisite != "") != tc.prereq {
				t.Fatalf("plan %+v: want relabels %v with profiles %q, drain first %v, %d units unserved, prerequisite %v", plan, tc.relabels, tc.profiles, tc.drainFirst, tc.unserved, tc.prereq)
			}
		})
	}
}

// A node converted for a resource is not converted away while pods that
// request it wait, even when the pool has free units elsewhere.
func TestAdviseDoesNotUndoAConversionWhileItsDemandWaits(t *testing.T) {
	on := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer}
	converted := a10Node("a-converted", gpuworkload.ModePassthrough, 0, 0, 0)
	converted.RelabelledFor = a10
	nodes := []Node{converted, a10Node("pt-2", gpuworkload.ModePassthrough, 0, 0, 0), a10Node("pt-3", gpuworkload.ModePassthrough, 0, 0, 0)}
	containers := make([]PendingPod, 4)
	for i := range containers {
		containers[i] = PendingPod{Name: "cuda", Resource: gpuworkload.ResourceGPU, Count: 1}
	}
	for _, tc := range []struct {
		name    string
		pending []PendingPod
		want    string
	}{
		{name: "a VM still waits", pending: append(vms(1, 1), containers...), want: "pt-2"},
		{name: "no VM waits", pending: containers, want: "a-converted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := Advise(Input{Policy: on, Nodes: nodes, Pending: tc.pending})
			if len(plan.Relabels) != 1 || plan.Relabels[0].Node != tc.want {
				t.Fatalf("relabels %+v, want %s only", plan.Relabels, tc.want)
			}
		})
	}
}

// Pods pinned to a GPU model are served only by conversions their
// nodeSelector accepts once the node is converted: a container pod pinned
// to Tesla-T4 gets the idle T4, not the A10 that sorts first.
func TestAdviseServesAConstraintWithTheNodesItAccepts(t *testing.T) {
	in := Input{
		Policy:  gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer},
		Nodes:   []Node{idlePassthroughNode(t, "a10-pt", "A10"), idlePassthroughNode(t, "t4-pt", "T4")},
		Pending: []PendingPod{pinnedPod("cuda-t4", "Tesla-T4"), pinnedPod("cuda-h100", "NVIDIA-H100-PCIe")},
	}
	plan := Advise(in)
	if len(plan.Relabels) != 1 || plan.Relabels[0].Node != "t4-pt" || plan.Relabels[0].To != gpuworkload.ModeContainer {
		t.Fatalf("relabels %+v, want t4-pt to container", plan.Relabels)
	}
	if len(plan.Unserved) != 1 || plan.Unserved[0] != (Shortfall{Resource: gpuworkload.ResourceGPU, Units: 1, Constraint: "nodeSelector nvidia.com/gpu.product=NVIDIA-H100-PCIe"}) {
		t.Fatalf("unserved %+v, want the H100 pod's unit", plan.Unserved)
	}
}

// Work that any card serves takes the nodes that the other waiting work
// needs least: the two container pods that accept every card, whose demand
// is planned first (it is larger), get the A10s, and the work kept to the T4
// gets the T4 node, although it sorts first by name.
func TestAdviseLeavesTheCardPinnedWorkNeeds(t *testing.T) {
	policy := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer}
	anyCard := PendingPod{Name: "cuda", Resource: gpuworkload.ResourceGPU, Count: 1}
	for _, tc := range []struct {
		name   string
		pinned PendingPod
		want   []string
	}{
		{name: "a container pod with a nodeSelector on the T4", pinned: pinnedPod("cuda-t4", "Tesla-T4"), want: []string{"a-t4:container", "b-a10:container", "c-a10:container"}},
		{name: "a VM of a T4 vGPU profile", pinned: PendingPod{Name: "vdi", Resource: "nvidia.com/GRID_T4-16Q", Count: 1}, want: []string{"a-t4:vm-vgpu", "b-a10:container", "c-a10:container"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{
				Policy:  policy,
				Nodes:   []Node{idlePassthroughNode(t, "a-t4", "T4"), idlePassthroughNode(t, "b-a10", "A10"), idlePassthroughNode(t, "c-a10", "A10")},
				Pending: []PendingPod{anyCard, anyCard, tc.pinned},
			}
			plan := Advise(in)
			var got []string
			for _, r := range plan.Relabels {
				got = append(got, r.Node+":"+string(r.To))
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) || len(plan.Unserved) > 0 {
				t.Fatalf("relabels %v, unserved %+v: want %v and nothing unserved", got, plan.Unserved, tc.want)
			}
		})
	}
}

// idlePassthroughNode is an empty one-GPU node of the model in vm-passthrough mode.
func idlePassthroughNode(t *testing.T, name, model string) Node {
	t.Helper()
	inv, err := gpuworkload.NewGPUInventory(1, model, "")
	if err != nil {
		t.Fatal(err)
	}
	resource, units, _ := inv.Advertisement(gpuworkload.ModePassthrough)
	object := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{gpuworkload.LabelWorkloadConfig: string(gpuworkload.ModePassthrough)}}}
	return Node{Name: name, Mode: gpuworkload.ModePassthrough, Inventory: inv, Resource: resource, Units: units, Object: object}
}

// pinnedPod is a one-GPU container pod with a nodeSelector on the product.
func pinnedPod(name, product string) PendingPod {
	pod := &v1.Pod{Spec: v1.PodSpec{NodeSelector: map[string]string{gpuworkload.LabelGPUProduct: product}}}
	return PendingPod{Name: name, Resource: gpuworkload.ResourceGPU, Count: 1, Constraint: poddemand.NodeConstraintOf(pod)}
}

// advise converts an idle node for a waiting pod exactly where
// kube-scheduler's NodeAffinity would let the pod run on the converted
// node, over generated nodes and constraints.
func TestAdviseAgreesWithNodeAffinity(t *testing.T) {
	verdict := constrainttest.NodeAffinityVerdict(t)
	g := constrainttest.NewGenerator(7)
	for i := range 1000 {
		object := g.Node()
		object.Labels[gpuworkload.LabelWorkloadConfig] = string(gpuworkload.ModePassthrough)
		inv, err := gpuworkload.NewGPUInventory(1, g.Pick("T4", "A10", "L4"), "")
		if err != nil {
			t.Fatal(err)
		}
		resource, units, _ := inv.Advertisement(gpuworkload.ModePassthrough)
		pod := g.Constrain(&v1.Pod{})
		in := Input{
			Policy:  gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer},
			Nodes:   []Node{{Name: object.Name, Mode: gpuworkload.ModePassthrough, Inventory: inv, Resource: resource, Units: units, Object: object}},
			Pending: []PendingPod{{Name: "cuda", Resource: gpuworkload.ResourceGPU, Count: 1, Constraint: poddemand.NodeConstraintOf(pod)}},
		}
		conversion, _ := inv.ConversionTo(gpuworkload.ModePassthrough, gpuworkload.ResourceGPU)
		converted := object.DeepCopy()
		converted.Labels = gpuworkload.LabelsInMode(object.Labels, conversion.Mode, conversion.Served)
		if converts, want := len(Advise(in).Relabels) == 1, verdict(pod, converted); converts != want {
			t.Fatalf("case %d: converts the node: %v, NodeAffinity says the pod may run on it converted: %v\nconverted labels %v\nnodeSelector %v affinity %+v",
				i, converts, want, converted.Labels, pod.Spec.NodeSelector, pod.Spec.Affinity)
		}
	}
}
