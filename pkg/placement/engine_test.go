package placement

import (
	"maps"
	"slices"
	"testing"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// newShippedEngine is the engine of the shipped profile, whole or without
// idlePlugins, on a cluster with sandbox workloads enabled.
func newShippedEngine(t *testing.T, whole bool) *engine {
	t.Helper()
	opts, err := ShippedOptions()
	if err != nil {
		t.Fatal(err)
	}
	profile := opts.Profile
	if !whole {
		profile = withoutIdlePlugins(profile, false)
	}
	policy := gpuworkload.SandboxPolicy{Enabled: true, DefaultWorkload: gpuworkload.ModeContainer}
	e, err := newEngine(klog.NewContext(t.Context(), logr.Discard()), profile, opts.Percentage, nil, schedulerstate.NewOffline(), policy)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestLoadProfileNamesTheProblem(t *testing.T) {
	_, _, err := LoadProfile([]byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: other\n"), "my-config.yaml")
	if err == nil || err.Error() != "my-config.yaml: profiles: no profile has schedulerName gpu-workload-scheduler" {
		t.Fatalf("error %v", err)
	}
}

// TestIdlePluginsAreLeftOut checks that the shipped profile runs every idle
// plugin at its extension point and the simulator's framework none.
func TestIdlePluginsAreLeftOut(t *testing.T) {
	for _, whole := range []bool{true, false} {
		plugins := newShippedEngine(t, whole).framework.ListPlugins()
		for point, idle := range map[string][]string{"filter": idlePlugins.filter, "score": idlePlugins.score} {
			set := plugins.Filter
			if point == "score" {
				set = plugins.Score
			}
			for _, name := range idle {
				if runs := slices.ContainsFunc(set.Enabled, func(p schedconfig.Plugin) bool { return p.Name == name }); runs != whole {
					t.Errorf("%s %s runs: %v, want %v", point, name, runs, whole)
				}
			}
		}
	}
}

// A remembered Filter verdict holds only while the node is unchanged: a
// pod pinned to a rack label fits its node until the node moves to
// another rack, and Filter runs again for the changed node.
func TestRememberedVerdictFollowsTheNode(t *testing.T) {
	ctx := klog.NewContext(t.Context(), logr.Discard())
	e := newShippedEngine(t, false)
	inv, err := gpuworkload.NewGPUInventory(4, "A10", "")
	if err != nil {
		t.Fatal(err)
	}
	spec := NodeSpec{Name: "n", MilliCPU: 64000, Memory: 256 << 30, Mode: gpuworkload.ModeContainer, Inventory: inv}
	spec.Labels = map[string]string{"rack": "a"}
	node := nodeObject(spec, spec.Mode, gpuworkload.ResourceGPU, 4, 1)
	e.addNode(klog.FromContext(ctx), node)
	pod := podObject(PodSpec{Name: "p", GPU: gpuworkload.ResourceGPU, GPUCount: 1, MilliCPU: 1000}, ProfileName)
	pod.Spec.NodeSelector = map[string]string{"rack": "a"}
	filter := func() bool {
		t.Helper()
		if err := e.cache.UpdateSnapshot(klog.FromContext(ctx), e.snapshot); err != nil {
			t.Fatal(err)
		}
		all, err := e.snapshot.NodeInfos().List()
		if err != nil {
			t.Fatal(err)
		}
		state := framework.NewCycleState()
		if _, status, _ := e.framework.RunPreFilterPlugins(ctx, state, pod); !status.IsSuccess() {
			t.Fatal(status.AsError())
		}
		feasible, err := e.filter(ctx, state, pod, all[0], 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		return feasible
	}
	if !filter() || !filter() {
		t.Fatal("the pod pinned to rack a does not fit the node in rack a")
	}
	spec.Labels["rack"] = "b"
	e.updateNode(klog.FromContext(ctx), node, nodeObject(spec, spec.Mode, gpuworkload.ResourceGPU, 4, 2))
	if filter() {
		t.Fatal("the pod pinned to rack a fits the node moved to rack b: the verdict of the node in rack a was remembered")
	}
}

// A VM that accepts several cards gets a claim with one alternative per
// card, in its order, from the vfio DeviceClass.
func TestVMClaimObject(t *testing.T) {
	pods := []PodSpec{3: {Name: "vm", GPUCount: 2, VM: true, ClaimProducts: []string{"Tesla T4", "NVIDIA A10"}}}
	claim := vmClaimObject(pods[3])
	request := claim.Spec.Devices.Requests[0]
	if len(request.FirstAvailable) != 2 || request.FirstAvailable[1].DeviceClassName != dradevices.DRAClassVFIO || request.FirstAvailable[1].Count != 2 ||
		request.FirstAvailable[1].Selectors[0].CEL.Expression != `device.attributes['gpu.nvidia.com'].productName == "NVIDIA A10"` {
		t.Errorf("claim of VM %s: %+v", pods[3].Name, request)
	}
}

// A simulated node is labelled as its mode leaves a node of the cluster
// (gpuworkload.LabelsInMode): a product label the input gives is GPU feature
// discovery's, kept in container mode and on DRA nodes and gone in the VM
// modes, where a pod pinned to the product cannot go.
func TestNodeLabelsAreTheModes(t *testing.T) {
	inv, err := gpuworkload.NewGPUInventory(4, "A10", "A10-4Q")
	if err != nil {
		t.Fatal(err)
	}
	input := map[string]string{gpuworkload.LabelGPUProduct: "NVIDIA-A10-PCIE", "zone": "a", "nvidia.com/gpu.deploy.device-plugin": "true"}
	for _, tc := range []struct {
		mode    gpuworkload.Mode
		dra     bool
		product string
	}{
		{gpuworkload.ModeContainer, false, "NVIDIA-A10-PCIE"},
		{gpuworkload.ModePassthrough, false, ""},
		{gpuworkload.ModeVGPU, false, ""},
		{gpuworkload.ModeContainer, true, "NVIDIA-A10-PCIE"},
	} {
		spec := NodeSpec{Name: "n", Mode: tc.mode, Inventory: inv, DRA: tc.dra, Labels: input}
		got := nodeObject(spec, tc.mode, "", 0, 1).Labels
		want := gpuworkload.LabelsInMode(map[string]string{gpuworkload.LabelGPUProduct: "NVIDIA-A10-PCIE", "zone": "a"}, tc.mode, inv)
		want[gpuworkload.LabelGPUPresent], want[v1.LabelHostname] = "true", "n"
		if tc.dra {
			delete(want, gpuworkload.LabelWorkloadConfig)
		}
		if !maps.Equal(got, want) || got[gpuworkload.LabelGPUProduct] != tc.product {
			t.Errorf("%s node (DRA %v): labels %v, want %v with product %q", tc.mode, tc.dra, got, want, tc.product)
		}
	}
}
