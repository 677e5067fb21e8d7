package gpuworkloadfit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/events"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"
	st "k8s.io/kubernetes/pkg/scheduler/testing"
)

// PreFilter's narrowing never leaves out a node the pod fits: over
// generated clusters, every node that both NodeResourcesFit (the in-tree
// plugin itself) and GPUWorkloadFit accept is in the result, and a pod left
// unnarrowed fits no node.
func TestNarrowingKeepsEveryNodeThatFits(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 0))
	kinds := []struct {
		mode     string
		resource v1.ResourceName
	}{{"container", gpu}, {"vm-passthrough", a10}, {"vm-passthrough", a40}, {"vm-vgpu", a10_12q}, {"", ""}}
	narrowed, unnarrowed := 0, 0
	for cluster := range 200 {
		var nodes []*v1.Node
		var assigned []*v1.Pod
		for i := range 12 {
			kind := kinds[rng.IntN(len(kinds))]
			name := fmt.Sprintf("n%d", i)
			resources := map[v1.ResourceName]string{}
			if kind.resource != "" {
				units := rng.IntN(5)
				resources[kind.resource] = strconv.Itoa(units)
				if used := rng.IntN(units + 1); used > 0 {
					assigned = append(assigned, st.MakePod().Name("on-"+name).Namespace("ns").UID("on-"+name).Node(name).Req(map[v1.ResourceName]string{kind.resource: strconv.Itoa(used)}).Obj())
				}
			}
			nodes = append(nodes, gpuNode(name, kind.mode, resources))
		}
		pl := newPlugin(t, enabled(), nodes)
		snapshot := cache.NewSnapshot(assigned, nodes)
		handle := &fakeHandle{snapshot: snapshot, recorder: events.NewFakeRecorder(10)}
		useHandle(t, pl, handle)
		pl.narrows = true
		fit, err := noderesources.NewFit(ctx, &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{
			Type: config.LeastAllocated, Resources: []config.ResourceSpec{{Name: "cpu", Weight: 1}}}}, handle, feature.Features{})
		if err != nil {
			t.Fatal(err)
		}
		infos, err := snapshot.NodeInfos().List()
		if err != nil {
			t.Fatal(err)
		}
		for p := range 5 {
			kind := kinds[rng.IntN(len(kinds)-1)]
			pod := podRequesting(fmt.Sprintf("pod-%d", p), map[v1.ResourceName]string{kind.resource: strconv.Itoa(1 + rng.IntN(3))})
			state := framework.NewCycleState()
			result, status := pl.PreFilter(ctx, state, pod, infos)
			if !status.IsSuccess() {
				continue
			}
			if _, status := fit.(fwk.PreFilterPlugin).PreFilter(ctx, state, pod, infos); !status.IsSuccess() {
				t.Fatalf("NodeResourcesFit PreFilter: %v", status)
			}
			if result.AllNodes() {
				unnarrowed++
			} else {
				narrowed++
			}
			for _, ni := range infos {
				fits := fit.(fwk.FilterPlugin).Filter(ctx, state, pod, ni).IsSuccess() && pl.Filter(ctx, state, pod, ni).IsSuccess()
				switch {
				case fits && !result.AllNodes() && !result.NodeNames.Has(ni.Node().Name):
					t.Errorf("cluster %d, pod of %v: node %s fits and was left out of %v", cluster, pod.Spec.Containers[0].Resources.Requests, ni.Node().Name, result.NodeNames)
				case fits && result.AllNodes():
					t.Errorf("cluster %d, pod of %v: node %s fits and the pod was not narrowed", cluster, pod.Spec.Containers[0].Resources.Requests, ni.Node().Name)
				}
			}
		}
	}
	if narrowed == 0 || unnarrowed == 0 {
		t.Fatalf("%d pods narrowed and %d not: the generator misses a case", narrowed, unnarrowed)
	}
}
