package gpuworkloadfit

import (
	"context"
	"fmt"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/explanation"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// benchCluster is n nodes, a third in each mode, every one with one GPU pod running.
func benchCluster(n int) []fwk.NodeInfo {
	infos := make([]fwk.NodeInfo, n)
	for i := range infos {
		var node *v1.Node
		var running *v1.Pod
		switch i % 3 {
		case 0:
			node = gpuNode(fmt.Sprintf("c-%d", i), "container", map[v1.ResourceName]string{gpu: "8"})
			running = podRequesting(fmt.Sprintf("run-%d", i), map[v1.ResourceName]string{gpu: "1"})
		case 1:
			node = gpuNode(fmt.Sprintf("p-%d", i), "vm-passthrough", map[v1.ResourceName]string{a10: "4"})
			running = podRequesting(fmt.Sprintf("run-%d", i), map[v1.ResourceName]string{a10: "1"})
		default:
			node = gpuNode(fmt.Sprintf("v-%d", i), "vm-vgpu", map[v1.ResourceName]string{a10_12q: "8"})
			running = podRequesting(fmt.Sprintf("run-%d", i), map[v1.ResourceName]string{a10_12q: "1"})
		}
		infos[i] = nodeInfo(node, running)
	}
	return infos
}

func nodesOf(infos []fwk.NodeInfo) []*v1.Node {
	nodes := make([]*v1.Node, len(infos))
	for i, ni := range infos {
		nodes[i] = ni.Node()
	}
	return nodes
}

// BenchmarkFilter reports ns and allocations per node. "fits" is the common
// case where the node serves the pod; "three-modes" rejects two thirds of
// the nodes, and each rejection allocates its Status.
func BenchmarkFilter(b *testing.B) {
	for _, size := range []int{1000, 5000} {
		infos := benchCluster(size)
		pl := newPlugin(b, enabled(), nodesOf(infos))
		pod := podRequesting("vm", map[v1.ResourceName]string{a10: "1"})
		var passthrough []fwk.NodeInfo
		for i, ni := range infos {
			if i%3 == 1 {
				passthrough = append(passthrough, ni)
			}
		}
		for _, bc := range []struct {
			name  string
			nodes []fwk.NodeInfo
		}{
			{fmt.Sprintf("fits/%d-nodes", size), passthrough},
			{fmt.Sprintf("three-modes/%d-nodes", size), infos},
		} {
			b.Run(bc.name, func(b *testing.B) {
				ctx := context.Background()
				state := framework.NewCycleState()
				if _, status := pl.PreFilter(ctx, state, pod, nil); !status.IsSuccess() {
					b.Fatal(status)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					for _, ni := range bc.nodes {
						pl.Filter(ctx, state, pod, ni)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(bc.nodes)), "ns/node")
			})
		}
	}
}

func BenchmarkPreFilter(b *testing.B) {
	for _, size := range []int{1000, 5000} {
		infos := benchCluster(size)
		pl := newPlugin(b, enabled(), nodesOf(infos))
		for _, bc := range []struct {
			name string
			pod  *v1.Pod
		}{
			{"non-gpu", podRequesting("web", map[v1.ResourceName]string{v1.ResourceCPU: "1"})},
			{"passthrough", podRequesting("vm", map[v1.ResourceName]string{a10: "1"})},
			// The rejection path scans the snapshot before it says no node advertises the model.
			{"missing-model", podRequesting("vm-l40s", map[v1.ResourceName]string{"nvidia.com/AD102GL_L40S": "1"})},
		} {
			b.Run(fmt.Sprintf("%s/%d-nodes", bc.name, size), func(b *testing.B) {
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					pl.PreFilter(ctx, framework.NewCycleState(), bc.pod, infos)
				}
			})
		}
	}
}

// BenchmarkExplain is PostFilter's work for a pod no node fits: the busy
// cluster runs a GPU pod on every node, the idle one none. A pod asking for
// more container GPUs than a node has makes every node count (each
// advertises the resource or has the hardware for it); a VM asking for a
// vGPU profile no node has makes the advisor plan a conversion over the
// two thirds of the nodes that have A10s; a VM asking for a model no node
// has and a pod asking for two modes' resources, the failing pods of
// scheduler_perf's Unschedulable20, make none count.
func BenchmarkExplain(b *testing.B) {
	for _, size := range []int{1000, 5000} {
		busy := benchCluster(size)
		idle := make([]fwk.NodeInfo, size)
		for i, ni := range busy {
			idle[i] = nodeInfo(ni.Node())
		}
		pl := newPlugin(b, enabled(), nodesOf(busy))
		for _, pod := range []*v1.Pod{
			podRequesting("every-node", map[v1.ResourceName]string{gpu: "16"}),
			launcherPod("another-profile", map[v1.ResourceName]string{a10_4q: "1"}),
			launcherPod("missing-model", map[v1.ResourceName]string{"nvidia.com/AD102GL_L40S": "1"}),
			podRequesting("two-modes", map[v1.ResourceName]string{gpu: "1", a10: "1"}),
		} {
			demand := poddemand.NewPodDemand(pod, pl.profile.Tracker().Classifier())
			for _, bc := range []struct {
				name  string
				nodes []fwk.NodeInfo
			}{{"busy", busy}, {"idle", idle}} {
				nodes := explanation.NewNodeInfoIndex(bc.nodes)
				b.Run(fmt.Sprintf("%s/%s/%d-nodes", pod.Name, bc.name, size), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						_ = explanation.Explain(context.Background(), pod, &demand, pl.profile.Tracker(), nodes)
					}
				})
			}
		}
	}
}

// BenchmarkNodeChangeHint is one node event as the scheduling queue delivers
// it: the hint runs once for each of 100 pending GPU pods. It reports ns and
// allocations per event.
func BenchmarkNodeChangeHint(b *testing.B) {
	pl := newPlugin(b, enabled(), nodesOf(benchCluster(30)))
	pending := make([]*v1.Pod, 100)
	for i := range pending {
		pending[i] = launcherPod(fmt.Sprintf("vm-%d", i), map[v1.ResourceName]string{a10: "1"})
	}
	oldNode := gpuNode("c-new", "container", map[v1.ResourceName]string{gpu: "8"})
	newNode := oldNode.DeepCopy()
	newNode.Labels[labelKey] = "vm-passthrough"
	newNode.ResourceVersion = "2"
	pl.profile.Tracker().UpsertNode(newNode)
	logger := klog.Background()
	b.ReportAllocs()
	for b.Loop() {
		// A new event: the informer delivers fresh objects.
		before, after := oldNode.DeepCopy(), newNode.DeepCopy()
		for _, pod := range pending {
			if _, err := pl.isSchedulableAfterNodeChange(logger, pod, before, after); err != nil {
				b.Fatal(err)
			}
		}
	}
}
