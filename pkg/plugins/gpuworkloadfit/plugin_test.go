package gpuworkloadfit

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	st "k8s.io/kubernetes/pkg/scheduler/testing"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/explanation"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

const (
	gpu      v1.ResourceName = "nvidia.com/gpu"
	a10      v1.ResourceName = "nvidia.com/GA102GL_A10"
	a40      v1.ResourceName = "nvidia.com/GA102GL_A40"
	a10_12q  v1.ResourceName = "nvidia.com/NVIDIA_A10-12Q"
	a10_4q   v1.ResourceName = "nvidia.com/NVIDIA_A10-4Q"
	hostdev  v1.ResourceName = "nvidia.com/hostdev"
	labelKey                 = gpuworkload.LabelWorkloadConfig
)

func enabled() gpuworkload.SandboxPolicy {
	return gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer, Runtime: gpuworkload.RuntimeKubeVirt,
		Source: gpuworkload.PolicySource{Kind: gpuworkload.SourceClusterPolicy, Name: "cluster-policy"}}
}

func disabled() gpuworkload.SandboxPolicy {
	p := enabled()
	p.Enabled = false
	return p
}

func gpuNode(name, mode string, resources map[v1.ResourceName]string) *v1.Node {
	w := st.MakeNode().Name(name)
	if mode != "" {
		w = w.Label(labelKey, mode)
	}
	all := map[v1.ResourceName]string{v1.ResourceCPU: "32", v1.ResourceMemory: "128Gi"}
	for k, v := range resources {
		all[k] = v
	}
	n := w.Capacity(all).Obj()
	n.ResourceVersion = "1"
	return n
}

// The seed's three nodes, a CPU node and the hard cases.
func testNodes() []*v1.Node {
	converting := gpuNode("vgpu-converting", "vm-vgpu", map[v1.ResourceName]string{a10_12q: "4"})
	converting.Labels[gpuworkload.LabelVGPUConfig] = "A10-4Q"
	converting.Labels[gpuworkload.LabelVGPUConfigState] = "pending"
	vgpu4q := gpuNode("vgpu-4q", "vm-vgpu", map[v1.ResourceName]string{a10_4q: "12"})
	vgpu4q.Labels[gpuworkload.LabelVGPUConfig] = "A10-4Q"
	return []*v1.Node{
		gpuNode("container", "container", map[v1.ResourceName]string{gpu: "2"}),
		gpuNode("passthrough", "vm-passthrough", map[v1.ResourceName]string{a10: "1"}),
		gpuNode("passthrough-a40", "vm-passthrough", map[v1.ResourceName]string{a40: "2"}),
		gpuNode("vgpu", "vm-vgpu", map[v1.ResourceName]string{a10_12q: "4"}),
		vgpu4q,
		converting,
		gpuNode("cpu", "", map[v1.ResourceName]string{hostdev: "2"}),
	}
}

// newPlugin is the plugin with the default args and its own offline state,
// whose tracker knows the policy and the nodes.
func newPlugin(t testing.TB, policy gpuworkload.SandboxPolicy, nodes []*v1.Node) *GPUWorkloadFit {
	t.Helper()
	p, err := New(context.Background(), nil, nil, schedulerstate.NewOffline())
	if err != nil {
		t.Fatal(err)
	}
	pl := p.(*GPUWorkloadFit)
	tracker := pl.profile.Tracker()
	tracker.SetPolicy(&policy)
	for _, n := range nodes {
		tracker.UpsertNode(n)
	}
	return pl
}

// useHandle runs the plugin in a profile of handle, with the same state.
func useHandle(t testing.TB, pl *GPUWorkloadFit, handle fwk.Handle) {
	t.Helper()
	args, err := config.DecodeGPUWorkloadFitArgs(nil)
	if err != nil {
		t.Fatal(err)
	}
	if pl.profile, err = pl.state.Join(context.Background(), args, handle); err != nil {
		t.Fatal(err)
	}
	pl.handle = handle
}

func nodeInfo(node *v1.Node, pods ...*v1.Pod) fwk.NodeInfo {
	ni := framework.NewNodeInfo(pods...)
	ni.SetNode(node)
	return ni
}

func podRequesting(name string, requests map[v1.ResourceName]string) *v1.Pod {
	return st.MakePod().Name(name).Namespace("ns").UID(name).Req(requests).Obj()
}

func launcherPod(vmi string, requests map[v1.ResourceName]string) *v1.Pod {
	return st.MakePod().Name("virt-launcher-"+vmi+"-abcde").Namespace("vms").UID(vmi).
		Label("kubevirt.io", "virt-launcher").Label("kubevirt.io/created-by", "uid-"+vmi).
		Annotation("kubevirt.io/domain", vmi).Req(requests).Obj()
}

func wantStatus(t *testing.T, got *fwk.Status, code fwk.Code, reason string) {
	t.Helper()
	if code == fwk.Success {
		if !got.IsSuccess() {
			t.Fatalf("status %v, want success", got)
		}
		return
	}
	if got.Code() != code || reason == "" && len(got.Reasons()) != 0 || reason != "" && (len(got.Reasons()) != 1 || got.Reasons()[0] != reason) {
		t.Fatalf("status %s %q\nwant   %s %q", got.Code(), got.Reasons(), code, reason)
	}
	if got.IsRejected() && !madeFrom(reasons.CodeOf(got), reason) {
		t.Fatalf("status %q carries code %q, not the code of the template it was made from", reason, reasons.CodeOf(got))
	}
}

// madeFrom reports whether the catalogue's template of code reads as message.
func madeFrom(code reasons.Code, message string) bool {
	for _, template := range reasons.All() {
		if template.Code == code {
			pattern := regexp.QuoteMeta(template.Format)
			pattern = regexp.MustCompile(`%[-+# 0-9.\\]*[a-zA-Z]`).ReplaceAllString(pattern, ".*")
			return regexp.MustCompile("^" + pattern + "$").MatchString(message)
		}
	}
	return false
}

func TestPreFilter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy gpuworkload.SandboxPolicy
		pod    *v1.Pod
		code   fwk.Code
		reason string
	}{
		{name: "non-GPU pod is skipped", pod: podRequesting("web", map[v1.ResourceName]string{v1.ResourceCPU: "1"}), code: fwk.Skip},
		{name: "NIC-only pod is skipped", pod: podRequesting("nic", map[v1.ResourceName]string{hostdev: "1"}), code: fwk.Skip},
		{name: "advertised passthrough model", pod: podRequesting("vm", map[v1.ResourceName]string{a10: "1"}), code: fwk.Success},
		{
			name: "two modes", pod: podRequesting("both", map[v1.ResourceName]string{gpu: "1", a10: "1"}),
			code:   fwk.UnschedulableAndUnresolvable,
			reason: "pod requests GPU resources of several modes (nvidia.com/GA102GL_A10: vm-passthrough, nvidia.com/gpu: container); a node runs one mode",
		},
		{
			name: "a count no node holds, named by its field", pod: launcherPod("vm-huge", map[v1.ResourceName]string{a10: "1e400"}),
			code:   fwk.UnschedulableAndUnresolvable,
			reason: `VirtualMachineInstance/vms/vm-huge: pod's GPU resources cannot be served: spec.containers[0].resources.requests[nvidia.com/GA102GL_A10]: Invalid value: "10e399": 10e399 is not a whole number of units from 0 to 65536`,
		},
		{
			name: "the seed's trap: a VM while sandbox workloads are disabled", policy: disabled(),
			pod:    launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			code:   fwk.UnschedulableAndUnresolvable,
			reason: "VirtualMachineInstance/vms/vm-a10: pod needs vm-passthrough mode but sandboxWorkloads is disabled in ClusterPolicy cluster-policy: the GPU Operator ignores nvidia.com/gpu.workload.config=vm-passthrough, set on 2 node(s), and runs every GPU node in container mode",
		},
		{
			name: "model the cluster lacks, from a VM", pod: launcherPod("vm-l40s", map[v1.ResourceName]string{"nvidia.com/AD102GL_L40S": "1"}),
			code:   fwk.UnschedulableAndUnresolvable,
			reason: "VirtualMachineInstance/vms/vm-l40s: no node advertises nvidia.com/AD102GL_L40S; the cluster advertises container GPU: nvidia.com/gpu; passthrough GPU: nvidia.com/GA102GL_A10, nvidia.com/GA102GL_A40; vGPU profile: nvidia.com/NVIDIA_A10-12Q, nvidia.com/NVIDIA_A10-4Q",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			policy := tc.policy
			if policy == (gpuworkload.SandboxPolicy{}) {
				policy = enabled()
			}
			nodes := testNodes()
			pl := newPlugin(t, policy, nodes)
			infos := make([]fwk.NodeInfo, len(nodes))
			for i, n := range nodes {
				infos[i] = nodeInfo(n)
			}
			state := framework.NewCycleState()
			_, status := pl.PreFilter(context.Background(), state, tc.pod, infos)
			wantStatus(t, status, tc.code, tc.reason)
			if _, err := readCycleData(state); err != nil {
				t.Fatalf("PreFilter wrote no cycle data: %v", err)
			}
		})
	}
}

func TestFilter(t *testing.T) {
	nodes := map[string]*v1.Node{}
	for _, n := range testNodes() {
		nodes[n.Name] = n
	}
	containerPod := podRequesting("c", map[v1.ResourceName]string{gpu: "1"})
	passthroughVM := launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"})
	vgpuVM := launcherPod("vm-12q", map[v1.ResourceName]string{a10_12q: "1"})
	for _, tc := range []struct {
		name     string
		policy   gpuworkload.SandboxPolicy
		pod      *v1.Pod
		node     string
		assigned []*v1.Pod
		code     fwk.Code
		reason   string
	}{
		{name: "container pod on container node", pod: containerPod, node: "container", code: fwk.Success},
		{name: "passthrough VM on passthrough node", pod: passthroughVM, node: "passthrough", code: fwk.Success},
		{name: "vGPU VM on vGPU node", pod: vgpuVM, node: "vgpu", code: fwk.Success},
		{name: "CPU node", pod: containerPod, node: "cpu", code: fwk.UnschedulableAndUnresolvable, reason: "node has no NVIDIA GPUs"},
		{name: "container pod on passthrough node", pod: containerPod, node: "passthrough", code: fwk.UnschedulableAndUnresolvable,
			reason: "node's GPU mode is vm-passthrough (advertises nvidia.com/GA102GL_A10), pod needs container"},
		{name: "passthrough VM on vGPU node", pod: passthroughVM, node: "vgpu", code: fwk.UnschedulableAndUnresolvable,
			reason: "node's GPU mode is vm-vgpu (advertises nvidia.com/NVIDIA_A10-12Q), pod needs vm-passthrough"},
		{name: "sandbox disabled: a labelled node still advertising passthrough GPUs is converting to container", policy: disabled(), pod: containerPod, node: "passthrough-a40",
			code: fwk.UnschedulableAndUnresolvable, reason: "node is converting its GPU mode or vGPU profile"},
		{name: "another model", pod: passthroughVM, node: "passthrough-a40", code: fwk.UnschedulableAndUnresolvable, reason: "node's passthrough GPUs are another model"},
		{name: "another profile", pod: launcherPod("vm-4q", map[v1.ResourceName]string{a10_4q: "1"}), node: "vgpu", code: fwk.UnschedulableAndUnresolvable, reason: "node's vGPUs are another profile"},
		{name: "vGPU profile change pending", pod: vgpuVM, node: "vgpu-converting", code: fwk.UnschedulableAndUnresolvable, reason: "node is converting its GPU mode or vGPU profile"},
		{name: "no free units", pod: passthroughVM, node: "passthrough", assigned: []*v1.Pod{podRequesting("running", map[v1.ResourceName]string{a10: "1"})},
			code: fwk.Unschedulable, reason: "insufficient free nvidia.com/GA102GL_A10"},
		{name: "enough free units left", pod: containerPod, node: "container", assigned: []*v1.Pod{podRequesting("running", map[v1.ResourceName]string{gpu: "1"})}, code: fwk.Success},
	} {
		t.Run(tc.name, func(t *testing.T) {
			policy := tc.policy
			if policy == (gpuworkload.SandboxPolicy{}) {
				policy = enabled()
			}
			pl := newPlugin(t, policy, testNodes())
			state := framework.NewCycleState()
			// The PreFilter rejection of a missing resource is tested above; here every resource exists somewhere.
			if _, status := pl.PreFilter(context.Background(), state, tc.pod, nil); !status.IsSuccess() {
				t.Fatalf("PreFilter: %v", status)
			}
			status := pl.Filter(context.Background(), state, tc.pod, nodeInfo(nodes[tc.node], tc.assigned...))
			wantStatus(t, status, tc.code, tc.reason)
		})
	}
}

// Called after PreFilter rejected the pod (as explain calls it), Filter
// judges single nodes where the pod asks for resources of one mode, and
// otherwise gives PreFilter's verdict back; each status carries its code.
func TestFilterAfterPreFilterRejected(t *testing.T) {
	nodes := testNodes()
	for _, tc := range []struct {
		name          string
		pod           *v1.Pod
		preFilterCode reasons.Code
		node          string
		wantPreFilter bool
		filterCode    reasons.Code
	}{
		{name: "a model no node has: the node's own reason", pod: launcherPod("vm-l40s", map[v1.ResourceName]string{"nvidia.com/AD102GL_L40S": "1"}),
			preFilterCode: "NotAdvertised", node: "passthrough", filterCode: "OtherModel"},
		{name: "a model no node has, on a container node", pod: launcherPod("vm-l40s", map[v1.ResourceName]string{"nvidia.com/AD102GL_L40S": "1"}),
			preFilterCode: "NotAdvertised", node: "container", filterCode: "ModeMismatch"},
		{name: "two modes: no node-level verdict", pod: podRequesting("both", map[v1.ResourceName]string{gpu: "1", a10: "1"}),
			preFilterCode: "ModeConflict", node: "container", wantPreFilter: true, filterCode: "ModeConflict"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl := newPlugin(t, enabled(), nodes)
			infos := make([]fwk.NodeInfo, len(nodes))
			var node fwk.NodeInfo
			for i, n := range nodes {
				infos[i] = nodeInfo(n)
				if n.Name == tc.node {
					node = infos[i]
				}
			}
			state := framework.NewCycleState()
			_, preStatus := pl.PreFilter(context.Background(), state, tc.pod, infos)
			if got := reasons.CodeOf(preStatus); preStatus.Code() != fwk.UnschedulableAndUnresolvable || got != tc.preFilterCode {
				t.Fatalf("PreFilter: %s with code %q, want %s with code %q", preStatus.Code(), got, fwk.UnschedulableAndUnresolvable, tc.preFilterCode)
			}
			status := pl.Filter(context.Background(), state, tc.pod, node)
			if (status == preStatus) != tc.wantPreFilter || reasons.CodeOf(status) != tc.filterCode {
				t.Errorf("Filter: %q with code %q (PreFilter's verdict: %t), want code %q (PreFilter's verdict: %t)",
					status.Message(), reasons.CodeOf(status), status == preStatus, tc.filterCode, tc.wantPreFilter)
			}
		})
	}
}

// fakeHandle gives PostFilter a snapshot and an event recorder; the rest of
// fwk.Handle is unused by the plugin in these tests.
type fakeHandle struct {
	fwk.Handle
	snapshot  *cache.Snapshot
	recorder  *events.FakeRecorder
	activated map[string]*v1.Pod
}

func (h *fakeHandle) SnapshotSharedLister() fwk.SharedLister          { return h.snapshot }
func (h *fakeHandle) EventRecorder() events.EventRecorderLogger       { return h.recorder }
func (h *fakeHandle) Activate(_ klog.Logger, pods map[string]*v1.Pod) { h.activated = pods }
func (h *fakeHandle) ProfileName() string                             { return "gpu-workload-scheduler" }

func TestPostFilterExplains(t *testing.T) {
	for _, tc := range []struct {
		name     string
		policy   gpuworkload.SandboxPolicy
		pod      *v1.Pod
		assigned []*v1.Pod
		event    string
	}{
		{
			name: "the seed's trap", policy: disabled(), pod: launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			event: `Warning GPUWorkloadUnschedulable VirtualMachineInstance/vms/vm-a10 (pod virt-launcher-vm-a10-abcde) needs 1 x nvidia.com/GA102GL_A10 (vm-passthrough mode). ` +
				`GPU nodes by mode: container 6 (5 converting), vm-passthrough 0, vm-vgpu 0. nvidia.com/GA102GL_A10: 0 free of 1 on 1 node(s) (1 more on converting or mismatched nodes). ` +
				`sandboxWorkloads is disabled in ClusterPolicy cluster-policy, so the mode label of 5 node(s) is ignored. ` +
				`Fix: enable sandbox workloads: kubectl patch clusterpolicies.nvidia.com cluster-policy --type merge -p '{"spec":{"sandboxWorkloads":{"enabled":true}}}'`,
		},
		{
			name: "passthrough units used up: the idle node named has A10s, the idle container node has unknown GPUs", policy: enabled(), pod: launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			assigned: []*v1.Pod{st.MakePod().Name("busy").Namespace("ns").UID("busy").Node("passthrough").Req(map[v1.ResourceName]string{a10: "1"}).Obj()},
			event: `Warning GPUWorkloadUnschedulable VirtualMachineInstance/vms/vm-a10 (pod virt-launcher-vm-a10-abcde) needs 1 x nvidia.com/GA102GL_A10 (vm-passthrough mode). ` +
				`GPU nodes by mode: container 1, vm-passthrough 2, vm-vgpu 3 (1 converting). nvidia.com/GA102GL_A10: 0 free of 1 on 1 node(s). ` +
				`Fix: free units are used up; let running GPU pods finish, let preemption make room for a higher priority, or convert idle node vgpu, which has this hardware: ` +
				`kubectl label node vgpu nvidia.com/gpu.workload.config=vm-passthrough --overwrite`,
		},
		{
			// PostFilter runs when every node is rejected: where the units are
			// free, another plugin rejected the node.
			name: "a passthrough unit free", policy: enabled(), pod: launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			event: `Warning GPUWorkloadUnschedulable VirtualMachineInstance/vms/vm-a10 (pod virt-launcher-vm-a10-abcde) needs 1 x nvidia.com/GA102GL_A10 (vm-passthrough mode). ` +
				`GPU nodes by mode: container 1, vm-passthrough 2, vm-vgpu 3 (1 converting). nvidia.com/GA102GL_A10: 1 free of 1 on 1 node(s). ` +
				`Fix: the requested units are free on 1 node(s); the FailedScheduling message says what else rejects those nodes, such as CPU, memory, taints or a pod nominated there.`,
		},
		{
			// The node advise and the mode controller would convert: of the
			// idle nodes with A10s, the first by name.
			name: "vGPU profile nobody offers", policy: enabled(), pod: launcherPod("vm-8q", map[v1.ResourceName]string{"nvidia.com/NVIDIA_A10-8Q": "1"}),
			event: `Warning GPUWorkloadUnschedulable VirtualMachineInstance/vms/vm-8q (pod virt-launcher-vm-8q-abcde) needs 1 x nvidia.com/NVIDIA_A10-8Q (vm-vgpu mode). ` +
				`GPU nodes by mode: container 1, vm-passthrough 2, vm-vgpu 3 (1 converting). nvidia.com/NVIDIA_A10-8Q: 0 free of 0 on 0 node(s). ` +
				`Fix: no node advertises nvidia.com/NVIDIA_A10-8Q; convert idle node passthrough, which has this hardware: ` +
				`kubectl label node passthrough nvidia.com/gpu.workload.config=vm-vgpu nvidia.com/vgpu.config=A10-8Q --overwrite`,
		},
		{
			// No node can take it: the counts per resource are left out.
			name: "two modes' resources", policy: enabled(), pod: podRequesting("mixed", map[v1.ResourceName]string{gpu: "1", a10: "1"}),
			event: `Warning GPUWorkloadUnschedulable Pod/ns/mixed needs 1 x nvidia.com/GA102GL_A10 and 1 x nvidia.com/gpu. ` +
				`GPU nodes by mode: container 1, vm-passthrough 2, vm-vgpu 3 (1 converting). Fix: request the GPU resources of one mode only; a node runs one mode.`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes := testNodes()
			pl := newPlugin(t, tc.policy, nodes)
			h := &fakeHandle{snapshot: cache.NewSnapshot(tc.assigned, nodes), recorder: events.NewFakeRecorder(10)}
			useHandle(t, pl, h)
			state := framework.NewCycleState()
			pl.PreFilter(context.Background(), state, tc.pod, nil)
			_, status := pl.PostFilter(context.Background(), state, tc.pod, nil)
			if status.Code() != fwk.Unschedulable {
				t.Fatalf("PostFilter status %v, want Unschedulable so that preemption runs", status)
			}
			select {
			case got := <-h.recorder.Events:
				if got != tc.event {
					t.Fatalf("event\n%s\nwant\n%s", got, tc.event)
				}
			default:
				t.Fatal("no event recorded")
			}
		})
	}
}

// The event carries the fix's commands where a program can take them.
func TestPostFilterEventCarriesFixCommands(t *testing.T) {
	nodes := testNodes()
	pl := newPlugin(t, enabled(), nodes)
	h := &fakeHandle{snapshot: cache.NewSnapshot(nil, nodes), recorder: events.NewFakeRecorder(10)}
	h.recorder.Verbose = true
	useHandle(t, pl, h)
	state := framework.NewCycleState()
	pod := launcherPod("vm-8q", map[v1.ResourceName]string{"nvidia.com/NVIDIA_A10-8Q": "1"})
	pl.PreFilter(context.Background(), state, pod, nil)
	pl.PostFilter(context.Background(), state, pod, nil)
	want := ` map[gpu-workload.io/fix-commands:["kubectl label node passthrough nvidia.com/gpu.workload.config=vm-vgpu nvidia.com/vgpu.config=A10-8Q --overwrite"] gpu-workload.io/reason-code:NotAdvertised]`
	select {
	case got := <-h.recorder.Events:
		if !strings.HasSuffix(got, want) {
			t.Fatalf("event\n%s\nwant it to end with the annotations\n%s", got, want)
		}
	default:
		t.Fatal("no event recorded")
	}
}

func TestPostFilterIgnoresNonGPUPods(t *testing.T) {
	pl := newPlugin(t, enabled(), testNodes())
	h := &fakeHandle{snapshot: cache.NewSnapshot(nil, testNodes()), recorder: events.NewFakeRecorder(10)}
	useHandle(t, pl, h)
	state := framework.NewCycleState()
	pod := podRequesting("web", map[v1.ResourceName]string{v1.ResourceCPU: "1"})
	pl.PreFilter(context.Background(), state, pod, nil)
	if _, status := pl.PostFilter(context.Background(), state, pod, nil); status.Code() != fwk.Unschedulable {
		t.Fatalf("status %v", status)
	}
	if len(h.recorder.Events) != 0 {
		t.Fatalf("recorded %q for a non-GPU pod", <-h.recorder.Events)
	}
}

// A node update can requeue a pod before the tracker's own informer handler
// has seen it; the cycle's snapshot then decides what is advertised.
func TestPreFilterTrustsTheSnapshot(t *testing.T) {
	pl := newPlugin(t, enabled(), nil)
	pod := launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"})
	infos := []fwk.NodeInfo{nodeInfo(gpuNode("passthrough", "vm-passthrough", map[v1.ResourceName]string{a10: "1"}))}
	if _, status := pl.PreFilter(context.Background(), framework.NewCycleState(), pod, infos); !status.IsSuccess() {
		t.Fatalf("PreFilter: %v", status)
	}
}

func withNode(p *v1.Pod, node string) *v1.Pod {
	p.Spec.NodeName = node
	return p
}

func withPriority(p *v1.Pod, priority int32) *v1.Pod {
	p.Spec.Priority = &priority
	return p
}

func withProduct(n *v1.Node, product string) *v1.Node {
	n.Labels[gpuworkload.LabelGPUProduct] = product
	return n
}

// The fix names only nodes whose GPUs would advertise the requested resource,
// with the whole command, and otherwise says what the pod's kind can use.
func TestExplainFixNamesNodesWithTheHardware(t *testing.T) {
	mig := v1.ResourceName("nvidia.com/mig-1g.5gb")
	a16_4q := v1.ResourceName("nvidia.com/NVIDIA_A16-4Q")
	bareContainer := gpuNode("bare", "container", map[v1.ResourceName]string{gpu: "2"})
	a40Node := gpuNode("pt-a40", "vm-passthrough", map[v1.ResourceName]string{a40: "2"})
	a10Container := func() *v1.Node {
		return withProduct(gpuNode("c-a10", "container", map[v1.ResourceName]string{gpu: "1"}), "NVIDIA-A10")
	}
	for _, tc := range []struct {
		name     string
		nodes    []*v1.Node
		assigned []*v1.Pod
		pod      *v1.Pod
		fix      string
		commands []string
		// code is the reason code when not NotAdvertised or LargerThanAnyNode.
		code reasons.Code
	}{
		{
			name: "an A10 VM is not sent to a container node of unknown GPUs", nodes: []*v1.Node{bareContainer, a40Node},
			pod: launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			fix: "no node advertises nvidia.com/GA102GL_A10 and none has hardware known to; request a passthrough GPU resource the cluster has free (nvidia.com/GA102GL_A40, 2 free), or add a node with this hardware.",
		},
		{
			// The lab's L40S VM was told to request GA102GL_A10, whose one unit a VM held.
			name: "another model whose units are all taken is not offered", nodes: []*v1.Node{bareContainer, a40Node},
			assigned: []*v1.Pod{withNode(launcherPod("vm-a40-1", map[v1.ResourceName]string{"nvidia.com/GA102GL_A40": "2"}), "pt-a40")},
			pod:      launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			fix:      "no node advertises nvidia.com/GA102GL_A10, none has hardware known to, and no passthrough GPU resource the cluster advertises (nvidia.com/GA102GL_A40) has 1 unit(s) free now: add a node with this hardware.",
		},
		{
			name: "an idle container node with A10s", nodes: []*v1.Node{bareContainer, a10Container()},
			pod:      launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			fix:      "no node advertises nvidia.com/GA102GL_A10; convert idle node c-a10, which has this hardware: kubectl label node c-a10 nvidia.com/gpu.workload.config=vm-passthrough --overwrite",
			commands: []string{"kubectl label node c-a10 nvidia.com/gpu.workload.config=vm-passthrough --overwrite"},
		},
		{
			name: "a busy container node with A10s", nodes: []*v1.Node{a10Container()},
			assigned: []*v1.Pod{st.MakePod().Name("busy").Namespace("ns").UID("busy").Node("c-a10").Req(map[v1.ResourceName]string{gpu: "1"}).Obj()},
			pod:      launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			fix: "no node advertises nvidia.com/GA102GL_A10; node c-a10 has this hardware but runs GPU pod(s) ns/busy: drain it (evictions, so PodDisruptionBudgets hold), convert it and uncordon it: " +
				"kubectl drain c-a10 --ignore-daemonsets; kubectl label node c-a10 nvidia.com/gpu.workload.config=vm-passthrough --overwrite; kubectl uncordon c-a10",
			commands: []string{"kubectl drain c-a10 --ignore-daemonsets", "kubectl label node c-a10 nvidia.com/gpu.workload.config=vm-passthrough --overwrite", "kubectl uncordon c-a10"},
		},
		{
			name: "a busy node whose pod requests a renamed time-slicing resource names that pod", nodes: []*v1.Node{withProduct(gpuNode("c-a10", "container", map[v1.ResourceName]string{"nvidia.com/gpu-shared": "4"}), "NVIDIA-A10")},
			assigned: []*v1.Pod{st.MakePod().Name("shared").Namespace("ns").UID("shared").Node("c-a10").Req(map[v1.ResourceName]string{"nvidia.com/gpu-shared": "1"}).Obj()},
			pod:      launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			fix: "no node advertises nvidia.com/GA102GL_A10; node c-a10 has this hardware but runs GPU pod(s) ns/shared: drain it (evictions, so PodDisruptionBudgets hold), convert it and uncordon it: " +
				"kubectl drain c-a10 --ignore-daemonsets; kubectl label node c-a10 nvidia.com/gpu.workload.config=vm-passthrough --overwrite; kubectl uncordon c-a10",
			commands: []string{"kubectl drain c-a10 --ignore-daemonsets", "kubectl label node c-a10 nvidia.com/gpu.workload.config=vm-passthrough --overwrite", "kubectl uncordon c-a10"},
		},
		{
			name: "the node with the hardware runs a VM of the pod's priority: no commands", nodes: []*v1.Node{gpuNode("pt-a10", "vm-passthrough", map[v1.ResourceName]string{a10: "1"})},
			assigned: []*v1.Pod{withNode(launcherPod("vm-running", map[v1.ResourceName]string{a10: "1"}), "pt-a10")},
			pod:      podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"}),
			fix: "no node advertises nvidia.com/gpu; node pt-a10 has this hardware but runs VM(s) vms/vm-running of this pod's priority or higher: converting it means stopping them, " +
				"which this fix does not do; stop them if they may stop, then convert it, or add a node with this hardware.",
		},
		{
			name: "a VM of lower priority goes through KubeVirt's eviction", nodes: []*v1.Node{gpuNode("pt-a10", "vm-passthrough", map[v1.ResourceName]string{a10: "1"})},
			assigned: []*v1.Pod{withNode(launcherPod("vm-running", map[v1.ResourceName]string{a10: "1"}), "pt-a10")},
			pod:      withPriority(podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"}), 100),
			fix: "no node advertises nvidia.com/gpu; node pt-a10 has this hardware but runs VM(s) vms/vm-running of lower priority, which KubeVirt live-migrates where their eviction strategy allows, else stops: " +
				"drain it (evictions, so PodDisruptionBudgets hold), convert it and uncordon it: " +
				"kubectl drain pt-a10 --ignore-daemonsets; kubectl label node pt-a10 nvidia.com/gpu.workload.config=container --overwrite; kubectl uncordon pt-a10",
			commands: []string{"kubectl drain pt-a10 --ignore-daemonsets", "kubectl label node pt-a10 nvidia.com/gpu.workload.config=container --overwrite", "kubectl uncordon pt-a10"},
		},
		{
			name: "a MIG name is not served by a relabel to container", nodes: []*v1.Node{bareContainer, a40Node},
			pod: podRequesting("mig", map[v1.ResourceName]string{mig: "1"}),
			fix: "no node advertises nvidia.com/mig-1g.5gb and none has hardware known to; request a container GPU resource the cluster has free (nvidia.com/gpu, 2 free), or add a node with this hardware.",
		},
		{
			name: "a container pod where no node advertises a container GPU or has known GPUs", nodes: []*v1.Node{gpuNode("pt-x", "vm-passthrough", map[v1.ResourceName]string{"nvidia.com/GA100_A100_PCIE_80GB": "0"})},
			pod: podRequesting("mig", map[v1.ResourceName]string{mig: "1"}),
			fix: "no node advertises nvidia.com/mig-1g.5gb, none has hardware known to, and no node advertises any container GPU resource: add a node with this hardware.",
		},
		{
			name: "a container pod and an idle passthrough node", nodes: []*v1.Node{a40Node},
			pod:      podRequesting("c", map[v1.ResourceName]string{gpu: "1"}),
			fix:      "no node advertises nvidia.com/gpu; convert idle node pt-a40, which has this hardware: kubectl label node pt-a40 nvidia.com/gpu.workload.config=container --overwrite",
			commands: []string{"kubectl label node pt-a40 nvidia.com/gpu.workload.config=container --overwrite"},
		},
		{
			name: "a vGPU VM: the command sets the profile", nodes: []*v1.Node{withProduct(gpuNode("c-a16", "container", map[v1.ResourceName]string{gpu: "4"}), "NVIDIA-A16")},
			pod:      launcherPod("vm-a16", map[v1.ResourceName]string{a16_4q: "1"}),
			fix:      "no node advertises nvidia.com/NVIDIA_A16-4Q; convert idle node c-a16, which has this hardware: kubectl label node c-a16 nvidia.com/gpu.workload.config=vm-vgpu nvidia.com/vgpu.config=A16-4Q --overwrite",
			commands: []string{"kubectl label node c-a16 nvidia.com/gpu.workload.config=vm-vgpu nvidia.com/vgpu.config=A16-4Q --overwrite"},
		},
		{
			// As advise and the mode controller do, the fix leaves the last
			// free container GPU beyond the reserve its pods keep, and says so.
			name: "the idle node is its own resource's last free units", nodes: []*v1.Node{bareContainer, a10Container()},
			assigned: []*v1.Pod{withNode(podRequesting("train", map[v1.ResourceName]string{gpu: "2"}), "bare")},
			pod:      launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			fix: "no node advertises nvidia.com/GA102GL_A10; idle node c-a10 has this hardware, but its free units are the last of its container resource beyond the reserve its pods keep, " +
				"so advise and the mode controller leave it; convert it if they may wait: kubectl label node c-a10 nvidia.com/gpu.workload.config=vm-passthrough --overwrite",
			commands: []string{"kubectl label node c-a10 nvidia.com/gpu.workload.config=vm-passthrough --overwrite"},
		},
		{
			// A node relabelled for the resource and not yet advertising it
			// serves the pod soon: no other node is converted for it.
			name: "a node converting to the resource", nodes: []*v1.Node{a10Container(), withProduct(gpuNode("pt-a10", "vm-passthrough", map[v1.ResourceName]string{gpu: "1"}), "NVIDIA-A10")},
			pod:  launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}),
			fix:  "no node advertises nvidia.com/GA102GL_A10 yet; wait: 1 node(s) are converting to advertise it.",
			code: reasons.Converting.Code,
		},
		{
			name: "a request larger than any node", nodes: testNodes(),
			pod: launcherPod("vm-2a10", map[v1.ResourceName]string{a10: "2"}),
			fix: "no node has 2 x nvidia.com/GA102GL_A10 in total; the largest has 1: split the request, or add a node with more of this hardware.",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl := newPlugin(t, enabled(), tc.nodes)
			snapshot := cache.NewSnapshot(tc.assigned, tc.nodes)
			infos, err := snapshot.NodeInfos().List()
			if err != nil {
				t.Fatal(err)
			}
			state := framework.NewCycleState()
			pl.PreFilter(context.Background(), state, tc.pod, infos)
			data, err := readCycleData(state)
			if err != nil {
				t.Fatal(err)
			}
			explanation := explanation.Explain(context.Background(), tc.pod, data.demand, pl.profile.Tracker(), explanation.NewNodeInfoIndex(infos))
			_, got, ok := strings.Cut(explanation.Message, " Fix: ")
			if !ok || got != tc.fix {
				t.Fatalf("fix\n%s\nwant\n%s\n(explanation: %s)", got, tc.fix, explanation.Message)
			}
			if !slices.Equal(explanation.FixCommands, tc.commands) {
				t.Fatalf("fix commands %q, want %q", explanation.FixCommands, tc.commands)
			}
			wantCode := reasons.Code("NotAdvertised")
			switch {
			case tc.code != "":
				wantCode = tc.code
			case strings.HasPrefix(tc.fix, "no node has"):
				wantCode = "LargerThanAnyNode"
			}
			if explanation.ReasonCode != wantCode {
				t.Fatalf("reason code %q, want %q", explanation.ReasonCode, wantCode)
			}
		})
	}
}

func TestPreFilterRejectsRequestsLargerThanAnyNode(t *testing.T) {
	nodes := testNodes()
	pl := newPlugin(t, enabled(), nodes)
	infos := make([]fwk.NodeInfo, len(nodes))
	for i, n := range nodes {
		infos[i] = nodeInfo(n)
	}
	pod := launcherPod("vm-2a10", map[v1.ResourceName]string{a10: "2"})
	_, status := pl.PreFilter(context.Background(), framework.NewCycleState(), pod, infos)
	wantStatus(t, status, fwk.UnschedulableAndUnresolvable, "VirtualMachineInstance/vms/vm-2a10: no node has 2 x nvidia.com/GA102GL_A10 in total; the largest has 1")

	// A node too small for the request is unresolvable while a larger one exists.
	state := framework.NewCycleState()
	pod = podRequesting("two", map[v1.ResourceName]string{gpu: "2"})
	if _, status := pl.PreFilter(context.Background(), state, pod, infos); !status.IsSuccess() {
		t.Fatalf("PreFilter: %v", status)
	}
	small := gpuNode("container-1", "container", map[v1.ResourceName]string{gpu: "1"})
	wantStatus(t, pl.Filter(context.Background(), state, pod, nodeInfo(small)), fwk.UnschedulableAndUnresolvable, "node has fewer nvidia.com/gpu in total than the pod requests")
}

// Until the ClusterPolicy is read, the args' "sandbox disabled" is a guess:
// VM pods wait with a reason that says so instead of being told to patch it.
func TestPreFilterWaitsForTheClusterPolicy(t *testing.T) {
	pl := newPlugin(t, disabled(), testNodes())
	pl.profile.Tracker().AwaitPolicy()
	pod := launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"})
	_, status := pl.PreFilter(context.Background(), framework.NewCycleState(), pod, nil)
	wantStatus(t, status, fwk.UnschedulableAndUnresolvable,
		"VirtualMachineInstance/vms/vm-a10: pod needs vm-passthrough mode and the scheduler has not read the ClusterPolicy yet; it retries the pod when it has")
	container := podRequesting("c", map[v1.ResourceName]string{gpu: "1"})
	if _, status := pl.PreFilter(context.Background(), framework.NewCycleState(), container, nil); !status.IsSuccess() {
		t.Fatalf("a container pod does not depend on the policy: %v", status)
	}
}

func draSlice(node string, types ...string) *resourceapi.ResourceSlice {
	slice := &resourceapi.ResourceSlice{ObjectMeta: metav1.ObjectMeta{Name: node + "-slice"}, Spec: resourceapi.ResourceSliceSpec{
		Driver: dradevices.DRADriver, NodeName: ptr.To(node), Pool: resourceapi.ResourcePool{Name: node, ResourceSliceCount: 1}}}
	for i, deviceType := range types {
		slice.Spec.Devices = append(slice.Spec.Devices, resourceapi.Device{Name: fmt.Sprintf("%s-%d", deviceType, i),
			Attributes: map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{"type": {StringValue: ptr.To(deviceType)}}})
	}
	return slice
}

func gpuDeviceClass() *resourceapi.DeviceClass {
	return dradevices.DriverDeviceClass(dradevices.DRAClassGPU, dradevices.DRATypeGPU, gpuworkload.ResourceGPU)
}

// A DRA node advertises nothing: an extended resource a DeviceClass serves
// is left to DynamicResources there, as kube-scheduler's default profile does.
func TestFilterDRAServedExtendedResource(t *testing.T) {
	draGPU := gpuNode("dra-gpu", "", nil)
	draGPU.Labels = map[string]string{"nvidia.com/gpu.present": "true"}
	draVFIO := gpuNode("dra-vfio", "", nil)
	plain := gpuNode("cpu", "", nil)
	nodes := append(testNodes(), draGPU, draVFIO, plain)
	pod := podRequesting("cuda", map[v1.ResourceName]string{gpu: "2"})
	for _, tc := range []struct {
		name   string
		node   *v1.Node
		code   fwk.Code
		reason string
	}{
		{name: "DRA node with gpu devices", node: draGPU, code: fwk.Success},
		{name: "DRA node with vfio devices only", node: draVFIO, code: fwk.UnschedulableAndUnresolvable, reason: "node's DRA driver publishes no device of DeviceClass gpu.nvidia.com"},
		{name: "device-plugin node still judged by its allocatable", node: nodes[0], code: fwk.Success},
		{name: "node without GPUs", node: plain, code: fwk.UnschedulableAndUnresolvable, reason: "node has no NVIDIA GPUs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl := newPlugin(t, enabled(), nodes)
			mustUpsertClass(t, pl.profile.Tracker(), gpuDeviceClass())
			pl.profile.Tracker().UpsertResourceSlice(draSlice("dra-gpu", "gpu", "gpu"))
			pl.profile.Tracker().UpsertResourceSlice(draSlice("dra-vfio", "vfio", "vfio"))
			state := framework.NewCycleState()
			if _, status := pl.PreFilter(context.Background(), state, pod, nil); !status.IsSuccess() {
				t.Fatalf("PreFilter: %v", status)
			}
			wantStatus(t, pl.Filter(context.Background(), state, pod, nodeInfo(tc.node)), tc.code, tc.reason)
		})
	}
}

// With no node advertising nvidia.com/gpu, DRA devices of the serving class
// keep PreFilter from rejecting the pod.
func TestPreFilterCountsDRADevices(t *testing.T) {
	nodes := []*v1.Node{gpuNode("dra-gpu", "", nil), gpuNode("passthrough", "vm-passthrough", map[v1.ResourceName]string{a10: "1"})}
	pl := newPlugin(t, enabled(), nodes)
	pod := podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"})
	if _, status := pl.PreFilter(context.Background(), framework.NewCycleState(), pod, nil); status.IsSuccess() {
		t.Fatal("without DRA devices no node serves nvidia.com/gpu")
	}
	mustUpsertClass(t, pl.profile.Tracker(), gpuDeviceClass())
	pl.profile.Tracker().UpsertResourceSlice(draSlice("dra-gpu", "gpu"))
	if _, status := pl.PreFilter(context.Background(), framework.NewCycleState(), pod, nil); !status.IsSuccess() {
		t.Fatalf("PreFilter with a gpu device published: %v", status)
	}
	pl.profile.Tracker().DeleteResourceSlice("dra-gpu-slice")
	if _, status := pl.PreFilter(context.Background(), framework.NewCycleState(), pod, nil); status.IsSuccess() {
		t.Fatal("the slice is gone, and with it the device")
	}
}

// A DRA node has no workload mode: a device-plugin request gets a reason that
// says so, not a mode mismatch or "converting".
func TestFilterDRANodeForADevicePluginRequest(t *testing.T) {
	draNode := gpuNode("dra-gpu", "", nil)
	draNode.Labels = map[string]string{"nvidia.com/gpu.present": "true"}
	pl := newPlugin(t, enabled(), append(testNodes(), draNode))
	pl.profile.Tracker().UpsertResourceSlice(draSlice("dra-gpu", "gpu", "vfio"))
	if e := pl.profile.Tracker().Entry(draNode); !e.State.DRA || e.Converting {
		t.Fatalf("DRA node state: DRA %v, converting %v; want a DRA node that is not converting", e.State.DRA, e.Converting)
	}
	pod := launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"})
	state := framework.NewCycleState()
	if _, status := pl.PreFilter(context.Background(), state, pod, nil); !status.IsSuccess() {
		t.Fatalf("PreFilter: %v", status)
	}
	wantStatus(t, pl.Filter(context.Background(), state, pod, nodeInfo(draNode)), fwk.UnschedulableAndUnresolvable,
		"node publishes its GPUs through DRA, and no DeviceClass serves nvidia.com/GA102GL_A10")
}

// The explanation counts DRA nodes apart from the modes and says where a
// DRA-served resource comes from.
func TestExplainDRANodes(t *testing.T) {
	draNode := gpuNode("dra-gpu", "", nil)
	nodes := []*v1.Node{gpuNode("container", "container", map[v1.ResourceName]string{gpu: "1"}), draNode}
	pl := newPlugin(t, enabled(), nodes)
	mustUpsertClass(t, pl.profile.Tracker(), gpuDeviceClass())
	pl.profile.Tracker().UpsertResourceSlice(draSlice("dra-gpu", "gpu", "gpu"))
	pod := podRequesting("cuda", map[v1.ResourceName]string{gpu: "2"})
	state := framework.NewCycleState()
	pl.PreFilter(context.Background(), state, pod, nil)
	data, err := readCycleData(state)
	if err != nil {
		t.Fatal(err)
	}
	snapshot := cache.NewSnapshot(nil, nodes)
	infos, _ := snapshot.NodeInfos().List()
	want := "Pod/ns/cuda needs 2 x nvidia.com/gpu (container mode). GPU nodes by mode: container 1, vm-passthrough 0, vm-vgpu 0; DRA 1. " +
		"nvidia.com/gpu: 1 free of 1 on 1 node(s), and served through DRA by DeviceClass gpu.nvidia.com on 1 node(s). " +
		"Fix: the DRA nodes have no free device of DeviceClass gpu.nvidia.com for 2 x nvidia.com/gpu (the FailedScheduling message gives DynamicResources' reasons): " +
		"let GPU pods finish, or publish more devices of the class."
	if got := explanation.Explain(context.Background(), pod, data.demand, pl.profile.Tracker(), explanation.NewNodeInfoIndex(infos)); got.Message != want || len(got.FixCommands) != 0 {
		t.Fatalf("explanation\n%s\nwant\n%s", got, want)
	}
}

func vfioDeviceClass() *resourceapi.DeviceClass {
	return dradevices.DriverDeviceClass(dradevices.DRAClassVFIO, dradevices.DRATypeVFIO, "")
}

// claim is a ResourceClaim for one device of the class, allocated on node
// when devices are given.
func claim(name, deviceClass, node string, devices ...string) *resourceapi.ResourceClaim {
	c := &resourceapi.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Namespace: "vms", Name: name}, Spec: resourceapi.ResourceClaimSpec{Devices: resourceapi.DeviceClaim{
		Requests: []resourceapi.DeviceRequest{{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: deviceClass}}}}}}
	if len(devices) > 0 {
		c.Status.Allocation = &resourceapi.AllocationResult{}
		for _, d := range devices {
			c.Status.Allocation.Devices.Results = append(c.Status.Allocation.Devices.Results,
				resourceapi.DeviceRequestAllocationResult{Request: "gpu", Driver: dradevices.DRADriver, Pool: node, Device: d})
		}
	}
	return c
}

// claimGetter serves the claims a test knows.
// claimGetter reads claims as the scheduler's claim tracker does: a missing
// claim is its assume cache's NotFoundError; err fails every read.
type claimGetter struct {
	claims []*resourceapi.ResourceClaim
	err    error
}

func (g claimGetter) Get(namespace, name string) (*resourceapi.ResourceClaim, error) {
	if g.err != nil {
		return nil, g.err
	}
	for _, c := range g.claims {
		if c.Namespace == namespace && c.Name == name {
			return c, nil
		}
	}
	return nil, assumecache.NotFoundError{TypeName: "ResourceClaim", ObjectKey: namespace + "/" + name}
}

// A claim not created yet is DynamicResources' to report; a claim that
// cannot be read fails the cycle with the claim named, instead of being
// left out of the pod's demand.
func TestPreFilterClaimReadErrors(t *testing.T) {
	pl := newPlugin(t, enabled(), []*v1.Node{gpuNode("dra", "", nil)})
	mustUpsertClass(t, pl.profile.Tracker(), vfioDeviceClass())
	pl.profile.Tracker().UpsertResourceSlice(dradevices.DriverSlice("dra", 1))
	pod := vmWithClaim("vm", "vm-gpu")
	pl.state.ReadClaimsFrom(claimGetter{})
	if _, status := pl.PreFilter(context.Background(), framework.NewCycleState(), pod, nil); status.Code() == fwk.Error {
		t.Fatalf("a claim not created yet: %v", status)
	}
	pl.state.ReadClaimsFrom(claimGetter{err: errors.New("cache broken")})
	_, status := pl.PreFilter(context.Background(), framework.NewCycleState(), pod, nil)
	wantStatus(t, status, fwk.Error, "read ResourceClaim vms/vm-gpu of pod vms/virt-launcher-vm-abcde: cache broken")
}

func vmWithClaim(vmi, claimName string) *v1.Pod {
	pod := launcherPod(vmi, nil)
	pod.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To(claimName)}}
	return pod
}

// GPUWorkloadFit rejects a DRA node only where the allocation would fail,
// and then says why: every device allocated, the free ones halves of GPUs in
// use, tainted and not tolerated, or too few. A pod with a claim and a
// device-plugin resource needs both on one node.
func TestFilterDRADeviceAvailability(t *testing.T) {
	draNode := gpuNode("dra", "", nil)
	container := gpuNode("container", "container", map[v1.ResourceName]string{gpu: "8"})
	passthrough := gpuNode("passthrough", "vm-passthrough", map[v1.ResourceName]string{a10: "1"})
	noSchedule := resourceapi.DeviceTaint{Key: "example.com/maintenance", Effect: resourceapi.DeviceTaintEffectNoSchedule}
	tolerating := claim("vm-gpu", "vfio.gpu.nvidia.com", "")
	tolerating.Spec.Devices.Requests[0].Exactly.Tolerations = []resourceapi.DeviceToleration{{Key: noSchedule.Key, Operator: resourceapi.DeviceTolerationOpExists}}
	mixed := launcherPod("vm", map[v1.ResourceName]string{a10: "1"})
	mixed.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("vm-gpu")}}
	for _, tc := range []struct {
		name   string
		pod    *v1.Pod
		node   *v1.Node
		taints []resourceapi.DeviceTaint
		claims []*resourceapi.ResourceClaim
		code   fwk.Code
		reason string
	}{
		{name: "extended resource, free devices", pod: podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"}), node: draNode, code: fwk.Success},
		{name: "extended resource, every gpu device allocated", pod: podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"}), node: draNode,
			claims: []*resourceapi.ResourceClaim{claim("a", "gpu.nvidia.com", "dra", "gpu-0"), claim("b", "gpu.nvidia.com", "dra", "gpu-1")},
			code:   fwk.Unschedulable, reason: "all 2 devices of DeviceClass gpu.nvidia.com on the node are allocated"},
		{name: "extended resource, fewer free than requested", pod: podRequesting("cuda", map[v1.ResourceName]string{gpu: "2"}), node: draNode,
			claims: []*resourceapi.ResourceClaim{claim("a", "gpu.nvidia.com", "dra", "gpu-0")},
			code:   fwk.Unschedulable, reason: "too few free devices of DeviceClass gpu.nvidia.com on the node"},
		{name: "extended resource, tainted devices", pod: podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"}), node: draNode, taints: []resourceapi.DeviceTaint{noSchedule},
			code: fwk.Unschedulable, reason: "the node's free devices of DeviceClass gpu.nvidia.com are tainted"},
		{name: "VM claim, free vfio devices", pod: vmWithClaim("vm", "vm-gpu"), node: draNode,
			claims: []*resourceapi.ResourceClaim{claim("vm-gpu", "vfio.gpu.nvidia.com", "")}, code: fwk.Success},
		{name: "VM claim, the free vfio device's GPU is in use", pod: vmWithClaim("vm", "vm-gpu"), node: draNode,
			claims: []*resourceapi.ResourceClaim{claim("vm-gpu", "vfio.gpu.nvidia.com", ""), claim("train", "gpu.nvidia.com", "dra", "gpu-0"), claim("vm-other", "vfio.gpu.nvidia.com", "dra", "gpu-vfio-1")},
			code:   fwk.Unschedulable, reason: "the node's free devices of DeviceClass vfio.gpu.nvidia.com are GPUs in use through another device (claim vms/train holds gpu-0)"},
		{name: "VM claim already allocated on a full node", pod: vmWithClaim("vm", "vm-gpu"), node: draNode,
			claims: []*resourceapi.ResourceClaim{claim("vm-gpu", "vfio.gpu.nvidia.com", "dra", "gpu-vfio-0"), claim("train", "gpu.nvidia.com", "dra", "gpu-1")}, code: fwk.Success},
		{name: "VM claim on a device-plugin node", pod: vmWithClaim("vm", "vm-gpu"), node: container,
			claims: []*resourceapi.ResourceClaim{claim("vm-gpu", "vfio.gpu.nvidia.com", "")},
			code:   fwk.UnschedulableAndUnresolvable, reason: "node's DRA driver publishes no device of DeviceClass vfio.gpu.nvidia.com"},
		{name: "VM claim tolerating the devices' taint", pod: vmWithClaim("vm", "vm-gpu"), node: draNode, taints: []resourceapi.DeviceTaint{noSchedule},
			claims: []*resourceapi.ResourceClaim{tolerating}, code: fwk.Success},
		{name: "VM claim and a device-plugin model on a passthrough node", pod: mixed, node: passthrough,
			claims: []*resourceapi.ResourceClaim{claim("vm-gpu", "vfio.gpu.nvidia.com", "")},
			code:   fwk.UnschedulableAndUnresolvable, reason: "node's DRA driver publishes no device of DeviceClass vfio.gpu.nvidia.com"},
		{name: "VM claim and a device-plugin model on a DRA node", pod: mixed, node: draNode,
			claims: []*resourceapi.ResourceClaim{claim("vm-gpu", "vfio.gpu.nvidia.com", "")},
			code:   fwk.UnschedulableAndUnresolvable, reason: "node publishes its GPUs through DRA, and no DeviceClass serves nvidia.com/GA102GL_A10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pl := newPlugin(t, enabled(), []*v1.Node{draNode, container, passthrough})
			pl.state.ReadClaimsFrom(claimGetter{claims: tc.claims})
			mustUpsertClass(t, pl.profile.Tracker(), gpuDeviceClass())
			mustUpsertClass(t, pl.profile.Tracker(), vfioDeviceClass())
			pl.profile.Tracker().UpsertResourceSlice(dradevices.DriverSlice("dra", 2, tc.taints...))
			for _, c := range tc.claims {
				pl.profile.Tracker().UpsertResourceClaim(c)
			}
			state := framework.NewCycleState()
			_, status := pl.PreFilter(context.Background(), state, tc.pod, nil)
			if status.IsSkip() {
				// Nothing left to allocate: the framework skips Filter.
				wantStatus(t, nil, tc.code, tc.reason)
				return
			}
			if !status.IsSuccess() {
				t.Fatalf("PreFilter: %v", status)
			}
			wantStatus(t, pl.Filter(context.Background(), state, tc.pod, nodeInfo(tc.node)), tc.code, tc.reason)
		})
	}
}

// migBesideFullGPU is node full, whose GPUs the driver publishes whole, and
// node mig, whose two MIG slices claims a and b hold; pending are the pod's
// claims, not allocated.
func migBesideFullGPU(t *testing.T, fullGPUs int, pending ...*resourceapi.ResourceClaim) (pl *GPUWorkloadFit, full, mig *v1.Node) {
	t.Helper()
	full, mig = gpuNode("full", "", nil), gpuNode("mig", "", nil)
	pl = newPlugin(t, enabled(), []*v1.Node{full, mig})
	mustUpsertClass(t, pl.profile.Tracker(), gpuDeviceClass())
	mustUpsertClass(t, pl.profile.Tracker(), dradevices.DriverDeviceClass("mig.nvidia.com", dradevices.DRATypeMIG, ""))
	pl.profile.Tracker().UpsertResourceSlice(dradevices.DriverSlice("full", fullGPUs))
	pl.profile.Tracker().UpsertResourceSlice(draSlice("mig", "mig", "mig"))
	held := []*resourceapi.ResourceClaim{claim("a", "mig.nvidia.com", "mig", "mig-0"), claim("b", "mig.nvidia.com", "mig", "mig-1")}
	for _, c := range held {
		pl.profile.Tracker().UpsertResourceClaim(c)
	}
	pl.state.ReadClaimsFrom(claimGetter{claims: append(held, pending...)})
	return pl, full, mig
}

// A claim is judged by what its DeviceClass selects: gpu and mig devices
// are both container GPUs, and a mig.nvidia.com claim still cannot take a
// free full GPU.
func TestFilterDRAJudgesByDeviceClass(t *testing.T) {
	pl, full, mig := migBesideFullGPU(t, 2, claim("slice", "mig.nvidia.com", ""))
	pod := vmWithClaim("vm", "slice")
	state := framework.NewCycleState()
	if _, status := pl.PreFilter(context.Background(), state, pod, nil); !status.IsSuccess() {
		t.Fatalf("PreFilter: %v", status)
	}
	wantStatus(t, pl.Filter(context.Background(), state, pod, nodeInfo(full)), fwk.UnschedulableAndUnresolvable, "node's DRA driver publishes no device of DeviceClass mig.nvidia.com")
	wantStatus(t, pl.Filter(context.Background(), state, pod, nodeInfo(mig)), fwk.Unschedulable, "all 2 devices of DeviceClass mig.nvidia.com on the node are allocated")
}

// A request with alternatives (firstAvailable) fits a node where one
// alternative has a free device; when none has, the explanation says why
// for each alternative.
func TestFilterDRAFirstAvailable(t *testing.T) {
	either := claim("either", "", "")
	either.Spec.Devices.Requests[0].Exactly = nil
	either.Spec.Devices.Requests[0].FirstAvailable = []resourceapi.DeviceSubRequest{{Name: "slice", DeviceClassName: "mig.nvidia.com"}, {Name: "whole", DeviceClassName: dradevices.DRAClassGPU}}
	pl, full, mig := migBesideFullGPU(t, 1, either)
	pod := vmWithClaim("vm", "either")
	prefilter := func() (*framework.CycleState, *cycleData) {
		state := framework.NewCycleState()
		if _, status := pl.PreFilter(context.Background(), state, pod, nil); !status.IsSuccess() {
			t.Fatalf("PreFilter: %v", status)
		}
		data, err := readCycleData(state)
		if err != nil {
			t.Fatal(err)
		}
		return state, data
	}
	state, _ := prefilter()
	wantStatus(t, pl.Filter(context.Background(), state, pod, nodeInfo(full)), fwk.Success, "")
	wantStatus(t, pl.Filter(context.Background(), state, pod, nodeInfo(mig)), fwk.Unschedulable, "too few free devices of DeviceClass mig.nvidia.com or gpu.nvidia.com on the node")

	pl.profile.Tracker().UpsertResourceClaim(claim("c", dradevices.DRAClassGPU, "full", "gpu-0"))
	state, data := prefilter()
	wantStatus(t, pl.Filter(context.Background(), state, pod, nodeInfo(full)), fwk.Unschedulable, "too few free devices of DeviceClass mig.nvidia.com or gpu.nvidia.com on the node")
	want := "VirtualMachineInstance/vms/vm (pod virt-launcher-vm-abcde) needs 1 x mig.nvidia.com or 1 x gpu.nvidia.com device (claim vms/either). GPU nodes by mode: container 0, vm-passthrough 0, vm-vgpu 0; DRA 2. " +
		"Alternative 1 of request gpu: DeviceClass mig.nvidia.com: 0 device(s) free of 2 on 1 DRA node(s); 2 allocated, 0 blocked by a sibling in use, 0 tainted. " +
		"Alternative 2 of request gpu: DeviceClass gpu.nvidia.com: 0 device(s) free of 1 on 1 DRA node(s); 1 allocated, 0 blocked by a sibling in use, 0 tainted. " +
		"Fix: no alternative of request gpu of claim vms/either can be served: 1. all 2 devices of DeviceClass mig.nvidia.com are allocated: let GPU pods finish, or publish more devices of the class. " +
		"2. all 1 devices of DeviceClass gpu.nvidia.com are allocated: let GPU pods finish, or publish more devices of the class."
	if got := explanation.Explain(context.Background(), pod, data.demand, pl.profile.Tracker(), explanation.NewNodeInfoIndex([]fwk.NodeInfo{nodeInfo(full), nodeInfo(mig)})); got.Message != want {
		t.Fatalf("explanation\n%s\nwant\n%s", got.Message, want)
	}
}

// A claim's own selectors are the allocator's to evaluate, under its
// timeout: on a node whose one free GPU is an A100, Filter lets through a
// claim that selects an H100 as one that selects an A100; the explanation
// evaluates them, and its fix for the first names them.
func TestFilterLeavesClaimSelectorsToTheAllocator(t *testing.T) {
	node := gpuNode("dra", "", nil)
	pl := newPlugin(t, enabled(), []*v1.Node{node})
	mustUpsertClass(t, pl.profile.Tracker(), gpuDeviceClass())
	slice := dradevices.DriverSlice("dra", 2)
	for i := range slice.Spec.Devices {
		slice.Spec.Devices[i].Attributes["productName"] = resourceapi.DeviceAttribute{StringValue: ptr.To("NVIDIA A100-SXM4-40GB")}
	}
	pl.profile.Tracker().UpsertResourceSlice(slice)
	held := claim("train", dradevices.DRAClassGPU, "dra", "gpu-0")
	pl.profile.Tracker().UpsertResourceClaim(held)
	selecting := func(name, product string) *resourceapi.ResourceClaim {
		c := claim(name, dradevices.DRAClassGPU, "")
		c.Spec.Devices.Requests[0].Exactly.Selectors = []resourceapi.DeviceSelector{{CEL: &resourceapi.CELDeviceSelector{
			Expression: "device.attributes['gpu.nvidia.com'].productName.contains('" + product + "')"}}}
		return c
	}
	pl.state.ReadClaimsFrom(claimGetter{claims: []*resourceapi.ResourceClaim{held, selecting("h100", "H100"), selecting("a100", "A100")}})
	for _, name := range []string{"h100", "a100"} {
		pod := vmWithClaim("vm-"+name, name)
		state := framework.NewCycleState()
		if _, status := pl.PreFilter(context.Background(), state, pod, nil); !status.IsSuccess() {
			t.Fatalf("%s: PreFilter: %v", name, status)
		}
		if status := pl.Filter(context.Background(), state, pod, nodeInfo(node)); !status.IsSuccess() {
			t.Errorf("%s: Filter: %v, want the node let through to the allocator", name, status)
		}
	}
	pod := vmWithClaim("vm-h100", "h100")
	state := framework.NewCycleState()
	pl.PreFilter(context.Background(), state, pod, nil)
	data, err := readCycleData(state)
	if err != nil {
		t.Fatal(err)
	}
	want := "Fix: no device of DeviceClass gpu.nvidia.com that a node publishes matches the selectors of request gpu of claim vms/h100: " +
		"change the selectors to match a published device (kubectl get resourceslices shows their attributes), or ask for a class the nodes publish."
	if got := explanation.Explain(context.Background(), pod, data.demand, pl.profile.Tracker(), explanation.NewNodeInfoIndex([]fwk.NodeInfo{nodeInfo(node)})); !strings.HasSuffix(got.Message, want) {
		t.Errorf("explanation\n%s\nwant it to end\n%s", got.Message, want)
	}
	// Past the deadline, a node whose selectors were not evaluated is not
	// counted as having no matching device.
	expired, cancel := context.WithCancel(context.Background())
	cancel()
	got := explanation.Explain(expired, pod, data.demand, pl.profile.Tracker(), explanation.NewNodeInfoIndex([]fwk.NodeInfo{nodeInfo(node)}))
	want = "DeviceClass gpu.nvidia.com matching the selectors of request gpu of claim vms/h100: 0 device(s) free of 0 on 0 DRA node(s); 0 allocated, 0 blocked by a sibling in use, 0 tainted. " +
		"The claims' devices are counted on 0 of 1 DRA node(s): evaluating their selectors on the others did not finish within 10s. " +
		"Fix: evaluating the selectors of claim vms/h100 on the DRA nodes' devices took longer than 10s, so not every node's devices are counted; the allocator gives one node as long: select with fewer or cheaper expressions."
	if !strings.HasSuffix(got.Message, want) || got.ReasonCode != reasons.DRASelectorsTooCostly.Code {
		t.Errorf("explanation past its deadline\n%s (%s)\nwant it to end\n%s (%s)", got.Message, got.ReasonCode, want, reasons.DRASelectorsTooCostly.Code)
	}
}

// A claim for a class of which no node publishes a device fails every node
// at once.
func TestPreFilterRejectsClaimsNoNodeCanServe(t *testing.T) {
	pl := newPlugin(t, enabled(), []*v1.Node{gpuNode("dra", "", nil)})
	mustUpsertClass(t, pl.profile.Tracker(), vfioDeviceClass())
	pl.profile.Tracker().UpsertResourceSlice(draSlice("dra", "gpu"))
	pod := vmWithClaim("vm", "vm-gpu")
	pl.state.ReadClaimsFrom(claimGetter{claims: []*resourceapi.ResourceClaim{claim("vm-gpu", "vfio.gpu.nvidia.com", "")}})
	_, status := pl.PreFilter(context.Background(), framework.NewCycleState(), pod, nil)
	wantStatus(t, status, fwk.UnschedulableAndUnresolvable, "VirtualMachineInstance/vms/vm: no node's DRA driver publishes a device of DeviceClass vfio.gpu.nvidia.com")
}

// The explanation of a VM whose vfio claim finds only halves of GPUs in use
// names the claim that holds the other half.
func TestExplainDRAClaim(t *testing.T) {
	draNode := gpuNode("dra", "", nil)
	pl := newPlugin(t, enabled(), []*v1.Node{draNode})
	claims := []*resourceapi.ResourceClaim{claim("vm-gpu", "vfio.gpu.nvidia.com", ""), claim("train", "gpu.nvidia.com", "dra", "gpu-0"), claim("vm-other", "vfio.gpu.nvidia.com", "dra", "gpu-vfio-1")}
	pl.state.ReadClaimsFrom(claimGetter{claims: claims})
	mustUpsertClass(t, pl.profile.Tracker(), vfioDeviceClass())
	pl.profile.Tracker().UpsertResourceSlice(dradevices.DriverSlice("dra", 2))
	for _, c := range claims {
		pl.profile.Tracker().UpsertResourceClaim(c)
	}
	pod := vmWithClaim("vm", "vm-gpu")
	state := framework.NewCycleState()
	if _, status := pl.PreFilter(context.Background(), state, pod, nil); !status.IsSuccess() {
		t.Fatalf("PreFilter: %v", status)
	}
	data, err := readCycleData(state)
	if err != nil {
		t.Fatal(err)
	}
	want := "VirtualMachineInstance/vms/vm (pod virt-launcher-vm-abcde) needs 1 x vfio.gpu.nvidia.com device (claim vms/vm-gpu). GPU nodes by mode: container 0, vm-passthrough 0, vm-vgpu 0; DRA 1. " +
		"DeviceClass vfio.gpu.nvidia.com: 0 device(s) free of 2 on 1 DRA node(s); 1 allocated, 1 blocked by a sibling in use, 0 tainted. " +
		"Fix: the free devices of DeviceClass vfio.gpu.nvidia.com are GPUs in use through their other device, e.g. claim vms/train holds gpu-0 on node dra: let that pod finish, or free a whole GPU."
	if got := explanation.Explain(context.Background(), pod, data.demand, pl.profile.Tracker(), explanation.NewNodeInfoIndex([]fwk.NodeInfo{nodeInfo(draNode)})); got.Message != want || len(got.FixCommands) != 0 {
		t.Fatalf("explanation\n%s\nwant\n%s", got, want)
	}
}

func mustUpsertClass(t *testing.T, tr *clusterstate.Tracker, class *resourceapi.DeviceClass) {
	t.Helper()
	if err := tr.UpsertDeviceClass(class); err != nil {
		t.Fatal(err)
	}
}

// PreFilter keeps a GPU pod's cycle to the nodes that advertise its
// resource when one of them has the units free; a pod that fits nowhere is
// filtered on every node, so that FailedScheduling says per node why. A pod
// narrowed and found unschedulable is retried when the tracker learns of a
// new advertiser, and the set an earlier cycle got does not change.
func TestPreFilterNarrowsToTheAdvertisers(t *testing.T) {
	busy := st.MakePod().Name("busy").Namespace("ns").UID("busy").Node("passthrough").Req(map[v1.ResourceName]string{a10: "1"}).Obj()
	for _, tc := range []struct {
		name string
		pod  *v1.Pod
		want []string // nil: every node
	}{
		{"a container pod with room on the container node", podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"}), []string{"container"}},
		{"a vGPU VM: the converting node advertises its profile too, and Filter rejects it", launcherPod("vm-12q", map[v1.ResourceName]string{a10_12q: "1"}), []string{"vgpu", "vgpu-converting"}},
		{"a VM whose only node is full", launcherPod("vm-a10", map[v1.ResourceName]string{a10: "1"}), nil},
		{"more than any advertiser has free", podRequesting("big", map[v1.ResourceName]string{gpu: "2"}), []string{"container"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes := testNodes()
			pl := newPlugin(t, enabled(), nodes)
			useHandle(t, pl, &fakeHandle{snapshot: cache.NewSnapshot([]*v1.Pod{busy}, nodes), recorder: events.NewFakeRecorder(10)})
			pl.narrows = true
			result, status := pl.PreFilter(context.Background(), framework.NewCycleState(), tc.pod, nil)
			if !status.IsSuccess() {
				t.Fatalf("PreFilter: %v", status)
			}
			if tc.want == nil {
				if !result.AllNodes() {
					t.Fatalf("narrowed to %v, want every node", sets.List(result.NodeNames))
				}
				return
			}
			if result.AllNodes() || !slices.Equal(sets.List(result.NodeNames), tc.want) {
				t.Fatalf("result %+v, want the nodes %v", result, tc.want)
			}
		})
	}

	nodes := testNodes()
	pl := newPlugin(t, enabled(), nodes)
	h := &fakeHandle{snapshot: cache.NewSnapshot(nil, nodes), recorder: events.NewFakeRecorder(10)}
	useHandle(t, pl, h)
	pl.narrows = true
	pod := podRequesting("cuda", map[v1.ResourceName]string{gpu: "1"})
	state := framework.NewCycleState()
	result, _ := pl.PreFilter(context.Background(), state, pod, nil)
	// Say CPU rejected the container node: the pod waits for another advertiser.
	pl.PostFilter(context.Background(), state, pod, nil)
	pl.profile.Tracker().UpsertNode(gpuNode("container-2", "container", map[v1.ResourceName]string{gpu: "4"}))
	if !slices.Equal(sets.List(result.NodeNames), []string{"container"}) {
		t.Errorf("the earlier cycle's set changed to %v", sets.List(result.NodeNames))
	}
	if got := sets.List(pl.profile.Tracker().Advertisers(gpu)); !slices.Equal(got, []string{"container", "container-2"}) {
		t.Errorf("advertisers now %v, want both container nodes", got)
	}
	if _, ok := h.activated["ns/cuda"]; !ok {
		t.Errorf("activated %v, want the narrowed pod", h.activated)
	}
}
