package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// Where GPU modes are labelled as the nodes run them, the shipped profile
// and kube-scheduler's default profile agree on which pods can run: on two
// copies of a generated cluster, one scheduled by each, the same pods bind
// and the same pods stay pending. The shipped profile narrows GPU pods to
// the nodes that advertise their resource (PreFilterResult); a narrowing
// that left out a node a pod fits would leave that pod pending here. Every
// pod that can run asks for one unit, and each resource has as many such
// pods as units, so every order of placement fills every unit and leaves
// none of them without a node;
// the pods that cannot run ask for a model no node has, or for more units
// than any node advertises.
func TestVerdictParityWithTheDefaultProfile(t *testing.T) {
	e := newClusterWithPolicy(t, true)
	baseline, err := os.ReadFile(repoRoot + "/test/perf/config/baseline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var config map[string]any
	if err := yaml.Unmarshal(baseline, &config); err != nil {
		t.Fatal(err)
	}
	config["clientConnection"] = map[string]any{"kubeconfig": e.cp.Kubeconfig}
	defaultConfig, err := yaml.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	e.startSchedulerWithConfig(t, "default-profile", e.cp.Kubeconfig, defaultConfig)

	kinds := []struct {
		mode     string
		resource string
		vm       bool
	}{
		{"container", "nvidia.com/gpu", false},
		{"vm-passthrough", "nvidia.com/GA102GL_A10", true},
		{"vm-vgpu", "nvidia.com/NVIDIA_A10-12Q", true},
		{"", "", false},
	}
	rng := rand.New(rand.NewPCG(37, 0))
	type node struct {
		kind  int
		units int
	}
	nodes := make([]node, 24)
	capacity := map[string]int{}
	for i := range nodes {
		nodes[i] = node{kind: rng.IntN(len(kinds)), units: 1 + rng.IntN(4)}
		if r := kinds[nodes[i].kind].resource; r != "" {
			capacity[r] += nodes[i].units
		}
	}
	type pod struct {
		resource string
		count    int
		vm       bool
	}
	var pods []pod
	for _, k := range kinds[:3] {
		for range capacity[k.resource] {
			pods = append(pods, pod{resource: k.resource, count: 1, vm: k.vm})
		}
	}
	pods = append(pods, pod{}, pod{},
		pod{resource: "nvidia.com/gpu", count: 5},
		pod{resource: "nvidia.com/AD102GL_L40S", count: 1, vm: true},
		pod{resource: "nvidia.com/NVIDIA_A10-12Q", count: 5, vm: true})
	rng.Shuffle(len(pods), func(i, j int) { pods[i], pods[j] = pods[j], pods[i] })

	copies := []struct{ name, scheduler string }{{"ours", schedulerName}, {"default", "default-scheduler"}}
	for _, c := range copies {
		for i, n := range nodes {
			k := kinds[n.kind]
			labels := map[string]string{"parity.test/copy": c.name}
			if i == len(nodes)-1 {
				labels["parity.test/last"] = "true"
			}
			quantities := map[string]string{}
			if k.mode != "" {
				labels["nvidia.com/gpu.present"] = "true"
				labels["nvidia.com/gpu.workload.config"] = k.mode
				quantities[k.resource] = strconv.Itoa(n.units)
			}
			createNode(e.ctx, t, e.client, fmt.Sprintf("%s-n%d", c.name, i), labels, quantities)
		}
	}
	// A scheduler that placed a pod on a copy's last node has seen every
	// node before it with its resources (one watch, in order), so no pod
	// below is judged on a cluster the scheduler has seen only in part.
	for _, c := range copies {
		probe := gpuPod("probe-"+c.name, "", map[string]string{"cpu": "100m"})
		probe.Spec.SchedulerName = c.scheduler
		probe.Spec.NodeSelector = map[string]string{"parity.test/copy": c.name, "parity.test/last": "true"}
		e.createPod(t, probe)
		e.waitBound(t, probe.Name)
	}
	for _, c := range copies {
		for i, p := range pods {
			name, vmi := fmt.Sprintf("%s-p%d", c.name, i), ""
			requests := map[string]string{"cpu": "100m"}
			if p.resource != "" {
				requests[p.resource] = strconv.Itoa(p.count)
			}
			if p.vm {
				vmi = "vm-" + name
				name = "virt-launcher-" + vmi + "-x7k2p"
			}
			spec := gpuPod(name, vmi, requests)
			spec.Spec.SchedulerName = c.scheduler
			spec.Spec.NodeSelector = map[string]string{"parity.test/copy": c.name}
			e.createPod(t, spec)
		}
	}

	// The verdict per copy: the node's copy for a bound pod, "" for a pending one.
	verdicts := map[string][]string{}
	e.poll(t, "every pod bound or found unschedulable by both schedulers", func(ctx context.Context) (bool, error) {
		list, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		byName := map[string]*v1.Pod{}
		for i := range list.Items {
			byName[list.Items[i].Name] = &list.Items[i]
		}
		for _, c := range copies {
			verdicts[c.name] = make([]string, len(pods))
			for i, p := range pods {
				name := fmt.Sprintf("%s-p%d", c.name, i)
				if p.vm {
					name = "virt-launcher-vm-" + name + "-x7k2p"
				}
				pod := byName[name]
				switch {
				case pod == nil:
					return false, nil
				case pod.Spec.NodeName != "":
					verdicts[c.name][i] = "bound"
				case unschedulableMessage(pod) != "":
					verdicts[c.name][i] = "pending: " + unschedulableMessage(pod)
				default:
					return false, nil
				}
			}
		}
		return true, nil
	})
	bound := 0
	for i, p := range pods {
		ours, theirs := verdicts["ours"][i], verdicts["default"][i]
		if (ours == "bound") != (theirs == "bound") {
			t.Errorf("pod %d (%d x %q): the shipped profile says %q, the default profile %q", i, p.count, p.resource, ours, theirs)
		}
		if ours == "bound" {
			bound++
		}
	}
	if want := len(pods) - 3; bound != want {
		t.Errorf("%d of %d pods bound under the shipped profile, want every pod but the 3 that fit no node", bound, len(pods))
	}
}
