package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
	"github.com/gpu-workload-scheduler/scheduler/pkg/sim"
)

func testData(t *testing.T) ([]traceNode, []traceTask) {
	t.Helper()
	nodes, err := readNodes(filepath.Join("testdata", nodeFile))
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := readTasks(filepath.Join("testdata", taskFile))
	if err != nil {
		t.Fatal(err)
	}
	return nodes, tasks
}

func mappingNamed(t *testing.T, name string) mapping {
	t.Helper()
	chosen, err := selected(name, taskListName(taskFile))
	if err != nil {
		t.Fatal(err)
	}
	return chosen[0]
}

func TestBadInputNamesTheRowAndTheFix(t *testing.T) {
	for _, tc := range []struct {
		name, file, content, want string
	}{
		{"unknown card", nodeFile, "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,1024,2,H800\n",
			`openb_node_list_gpu_node.csv:2: model "H800" is not one of the trace's cards A10, G2, G3, P100, T4, V100M16, V100M32; add it to traceCards in test/sim/openb with its GPU product`},
		{"not the trace", nodeFile, "name,gpus\nn1,2\n", "header name,gpus has no column sn, want at least sn,cpu_milli,memory_mib,gpu,model"},
		{"unknown card in gpu_spec", taskFile, "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\nt1,1000,1024,1,1000,T4|H800\n",
			`:2: gpu_spec "T4|H800" names "H800", which is not one of the trace's cards A10, G2, G3, P100, T4, V100M16, V100M32; add it to traceCards`},
		{"gpu_spec without GPUs", taskFile, "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\nt1,1000,1024,0,0,T4\n", `:2: gpu_spec "T4" on a task without GPUs (num_gpu 0)`},
		{"no GPUs", nodeFile, "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,1024,0,T4\n", `:2: gpu "0" is not a whole number of at least 1`},
		{"share above one GPU", taskFile, "name,cpu_milli,memory_mib,num_gpu,gpu_milli\nt1,1000,1024,1,1500\n", ":2: gpu_milli 1500 is not a share of a GPU from 1 to 1000"},
		{"shared multi-GPU task", taskFile, "name,cpu_milli,memory_mib,num_gpu,gpu_milli\nt1,1000,1024,2,500\n", ":2: gpu_milli 500 with num_gpu 2: a multi-GPU task takes whole GPUs"},
		{"negative CPU", taskFile, "name,cpu_milli,memory_mib,num_gpu,gpu_milli\nt1,-1,1024,1,1000\n", `:2: cpu_milli "-1" is not a whole number of at least 0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			if tc.file == nodeFile {
				_, err = readNodes(path)
			} else {
				_, err = readTasks(path)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// A draw stops at the first pod that brings the GPUs requested to the
// target, and the same seed draws the same workload.
func TestInflationStopsAtTheTarget(t *testing.T) {
	nodes, tasks := testData(t)
	for _, m := range mappings {
		t.Run(m.name(taskListName(taskFile)), func(t *testing.T) {
			_, gpus, err := cluster(m, nodes)
			if err != nil {
				t.Fatal(err)
			}
			if gpus != 40 {
				t.Fatalf("the test cluster has %v GPUs, want 40", gpus)
			}
			d, err := inflate(m, tasks, gpus, 1.3, rand.New(rand.NewPCG(7, 0)))
			if err != nil {
				t.Fatal(err)
			}
			n := len(d.arrived)
			if d.arrived[n-1] < 52 || n > 1 && d.arrived[n-2] >= 52 {
				t.Errorf("GPUs requested end at %v after %v: the draw must stop at the first pod that reaches 52", d.arrived[n-1], d.arrived[n-2])
			}
			if d.pods[0].Arrival != arrivalSpacing || d.pods[n-1].Arrival != time.Duration(n)*arrivalSpacing {
				t.Errorf("arrivals %v ... %v, want one every %v from %v", d.pods[0].Arrival, d.pods[n-1].Arrival, arrivalSpacing, arrivalSpacing)
			}
			again, _ := inflate(m, tasks, gpus, 1.3, rand.New(rand.NewPCG(7, 0)))
			other, _ := inflate(m, tasks, gpus, 1.3, rand.New(rand.NewPCG(8, 0)))
			if !reflect.DeepEqual(d.pods, again.pods) {
				t.Error("the same seed drew another workload")
			}
			if reflect.DeepEqual(d.pods, other.pods) {
				t.Error("seeds 7 and 8 drew the same workload")
			}
		})
	}
}

func TestThreeModeMapping(t *testing.T) {
	nodes, tasks := testData(t)
	m := mappingNamed(t, "openb-three-mode")
	byName := map[string]int{}
	for i, task := range tasks {
		byName[task.name] = i
	}
	passthrough := v1.ResourceName("nvidia.com/GA102GL_A10")
	for _, tc := range []struct {
		task  string
		index int // row in the task list, which decides container or passthrough
		gpu   v1.ResourceName
		count int64
		vm    bool
		share float64
	}{
		{"task-whole-1", 0, gpuworkload.ResourceGPU, 1, false, 1},
		{"task-whole-1-vm", 1, passthrough, 1, true, 1},
		{"task-half", 2, "nvidia.com/NVIDIA_A10-12Q", 1, true, 0.5},
		{"task-most", 3, "nvidia.com/NVIDIA_A10-24Q", 1, true, 1},
		{"task-tenth", 4, "nvidia.com/NVIDIA_A10-6Q", 1, true, 0.25},
		{"task-two", 5, passthrough, 2, true, 2},
		{"task-eight", 6, gpuworkload.ResourceGPU, 8, false, 8},
		{"task-cpu", 7, "", 0, false, 0},
	} {
		if byName[tc.task] != tc.index {
			t.Fatalf("testdata: %s is in row %d, the test expects %d", tc.task, byName[tc.task], tc.index)
		}
		p, share, err := m.pod(tc.index, tasks[tc.index])
		if err != nil {
			t.Fatal(err)
		}
		if p.GPU != tc.gpu || p.GPUCount != tc.count || p.VM != tc.vm || share != tc.share {
			t.Errorf("%s: %d x %q (VM %v, %v GPUs), want %d x %q (VM %v, %v GPUs)", tc.task, p.GPUCount, p.GPU, p.VM, share, tc.count, tc.gpu, tc.vm, tc.share)
		}
	}
	specs, _, err := cluster(m, nodes)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range specs {
		resource, units, err := n.Inventory.Advertisement(n.Mode)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %d", resource, units))
	}
	// Each card's nodes split 2:1:1 in file order: G2's and T4's alike.
	want := []string{
		"nvidia.com/gpu 8", "nvidia.com/gpu 8", "nvidia.com/GA102GL_A10 8", "nvidia.com/NVIDIA_A10-24Q 8",
		"nvidia.com/gpu 2", "nvidia.com/gpu 2", "nvidia.com/GA102GL_A10 2", "nvidia.com/NVIDIA_A10-24Q 2",
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("nodes advertise %v, want %v", got, want)
	}
}

// The curve reads the cluster after the arrival that first reaches each
// percent, not after later events.
func TestSamplesByArrivedShare(t *testing.T) {
	d := draw{
		pods:    []placement.PodSpec{{Arrival: 10 * time.Second}, {Arrival: 20 * time.Second}, {Arrival: 30 * time.Second}},
		arrived: []float64{1, 2, 4},
	}
	series := []sim.Sample{
		{Time: 10 * time.Second, AllocatedGPUs: 1},
		{Time: 15 * time.Second, AllocatedGPUs: 1.5}, // an advisor pass between arrivals
		{Time: 20 * time.Second, AllocatedGPUs: 2},
		{Time: 30 * time.Second, AllocatedGPUs: 2, PendingUnits: 2},
	}
	// 4 GPUs: 1% to 25% arrive with the first pod, 26% to 50% with the second, the rest with the third.
	got := samplesByArrivedShare(series, d, 4, 100)
	for percent, want := range map[int]float64{0: 0, 1: 1, 25: 1, 26: 2, 50: 2, 51: 2, 100: 2} {
		if got[percent].AllocatedGPUs != want {
			t.Errorf("at %d%% arrived: %v allocated, want %v", percent, got[percent].AllocatedGPUs, want)
		}
	}
	if got[100].PendingUnits != 2 {
		t.Errorf("at 100%% arrived: %d units waiting, want the last arrival's 2", got[100].PendingUnits)
	}
}

// A run over the test trace writes the table, with every policy and the
// paired differences, and a well-formed plot per scenario.
func TestRunWritesTablesAndPlots(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	if err := run(&stdout, options{data: "testdata", draws: 2, inflation: 1.3, out: out}); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(out, "openb-multigpu50.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(report) != stdout.String() {
		t.Error("openb-multigpu50.txt differs from the table on standard output")
	}
	for _, want := range []string{
		"scenario openb-multigpu50: 8 nodes, 40 GPUs, 2 draws to 130% (seeds 1-2)",
		"\nfgd ", "\ngpu-stranding ", "GPU-STRANDING MINUS", "\nfgd+advisor ", "\ndefault+advisor ",
	} {
		if !strings.Contains(string(report), want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
	for _, m := range mappings {
		name := m.name(taskListName(taskFile))
		svg, err := os.ReadFile(filepath.Join(out, name+"-allocation.svg"))
		if err != nil {
			t.Fatal(err)
		}
		if err := xml.Unmarshal(svg, new(struct{})); err != nil {
			t.Errorf("%s: the plot is not well-formed XML: %v", name, err)
		}
		if got := strings.Count(string(svg), "<polyline"); got != len(sim.ScoringPolicies) {
			t.Errorf("%s: %d lines, want one per policy", name, got)
		}
	}
}

// With -dra-shares the run measures the DRA share instead: a table per
// scenario with a row per policy and share, and a plot of the stranding by
// mode, one line per policy.
func TestRunMeasuresTheDRAShare(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	o := options{data: "testdata", draws: 2, inflation: 1.3, out: out, only: "openb-three-mode", policies: "default,gpu-stranding", draShares: "0,50,100"}
	if err := run(&stdout, o); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"scenario openb-three-mode: 2 traces; DRA share of the 6 of 8 nodes the DRA driver can serve (vGPU nodes stay with the device plugins)",
		"\ngpu-stranding+advisor  0%  ", "\ngpu-stranding+advisor  100%", "\ndefault+advisor        50% ",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, stdout.String())
		}
	}
	if _, err := os.Stat(filepath.Join(out, "openb-multigpu50.txt")); !os.IsNotExist(err) {
		t.Errorf("openb-multigpu50.txt written by a DRA-share run: %v", err)
	}
	svg, err := os.ReadFile(filepath.Join(out, "openb-three-mode-dra-share.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(svg, new(struct{})); err != nil {
		t.Errorf("the plot is not well-formed XML: %v", err)
	}
	if got := strings.Count(string(svg), "<polyline"); got != 2 {
		t.Errorf("%d lines, want one per policy", got)
	}
	if err := run(&stdout, options{data: "testdata", draws: 2, inflation: 1.3, draShares: "0,150"}); err == nil || !strings.Contains(err.Error(), `-dra-shares: "150" is not a whole percentage from 0 to 100`) {
		t.Errorf("error %v, want the bad share named", err)
	}
	if err := run(&stdout, options{data: "testdata", draws: 2, inflation: 1.3, percentage: ptr.To[int32](101)}); err == nil || !strings.Contains(err.Error(), "-percentage-of-nodes-to-score 101: want a whole percentage from 1 to 100, 0 for kube-scheduler's adaptive default") {
		t.Errorf("error %v, want the bad percentage named", err)
	}
}

// A task with a gpu_spec lands only on nodes of its cards: with only T4
// tasks, every policy allocates none of the test cluster's 32 G2 GPUs. In
// the container mapping it fills the 8 T4 GPUs; in the three-mode mapping,
// which runs by card on such a list, at least the T4 container and
// passthrough nodes' 6 (the VMs name the T4), more as the advisor
// converts the vGPU node. The one-card three-mode mapping refuses the list.
func TestGPUSpecKeepsTasksToTheirCards(t *testing.T) {
	nodes, _ := testData(t)
	tasks, err := readTasks(filepath.Join("testdata", "openb_pod_list_gpuspec.csv"))
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := sim.ShippedOptions()
	if err != nil {
		t.Fatal(err)
	}
	shipped.Advisor = &sim.AdvisorOptions{Interval: sim.DefaultAdvisorInterval, Conversion: sim.DefaultAdvisorConversion}
	list := taskListName("testdata/openb_pod_list_gpuspec.csv")
	for _, tc := range []struct {
		scenario, name string
		product        string
		fewest         float64
	}{
		{"openb-multigpu50", "openb-gpuspec", "T4", 8},
		{"openb-three-mode", "openb-gpuspec-three-mode", "Tesla-T4", 6},
	} {
		m := mappingNamed(t, tc.scenario).forTasks(tasks)
		if name := m.name(list); name != tc.name {
			t.Fatalf("scenario %q, want %s", name, tc.name)
		}
		specs, gpus, err := cluster(m, nodes)
		if err != nil {
			t.Fatal(err)
		}
		d, err := inflate(m, tasks, gpus, 1.3, rand.New(rand.NewPCG(1, 0)))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range d.pods {
			affinity := p.RequiredNodeAffinity
			if p.VM != (affinity == nil) || affinity != nil && !reflect.DeepEqual(affinity.NodeSelectorTerms[0].MatchExpressions[0].Values, []string{tc.product}) {
				t.Fatalf("%s: pod %s (VM %v) has affinity %+v, want nvidia.com/gpu.product In [%s] on a container, none on a VM", tc.name, p.Name, p.VM, affinity, tc.product)
			}
		}
		results, err := sim.Compare(klog.NewContext(context.Background(), logr.Discard()), &sim.Scenario{Name: tc.name, Nodes: specs, Pods: d.pods, Policy: sim.EnabledSandboxPolicy()}, sim.ScoringPolicies, shipped)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			if got := r.Series[len(r.Series)-1].AllocatedGPUs; got < tc.fewest || got > 8 {
				t.Errorf("%s: %s allocated %v GPUs, want %v to 8, all on the T4 nodes", tc.name, r.Policy, got, tc.fewest)
			}
		}
	}
	if _, err := inflate(mappingNamed(t, "openb-three-mode"), tasks, 40, 1.3, rand.New(rand.NewPCG(1, 0))); err == nil || !strings.Contains(err.Error(), "the one-card mapping cannot keep a task to its cards") {
		t.Errorf("the one-card three-mode mapping on a gpu_spec list: %v, want a refusal", err)
	}
}

// Each named card is one the GPU stack knows, and a node of it converted
// to container mode gets the label its pinned pods ask for
// (gpuworkload.LabelsInMode takes it from the card).
func TestTraceCardsAreKnownCards(t *testing.T) {
	for model, product := range traceCards {
		if product == "" {
			continue
		}
		card, err := hardware.CardOfModel(product)
		if err != nil {
			t.Errorf("%s: %v", model, err)
			continue
		}
		if card.Product() != product || card.PassthroughName == "" {
			t.Errorf("%s: card %s has product %q and passthrough name %q, want %q and a name", model, card, card.Product(), card.PassthroughName, product)
		}
	}
}

// On a list that pins tasks, the three-mode mapping keeps the cards apart:
// a VM is made only of a task pinned to one known card, every other GPU
// task is a container kept to its cards, and an anonymised card's nodes
// run containers.
func TestThreeModeByCard(t *testing.T) {
	nodes, _ := testData(t)
	pinned := []traceTask{{name: "pinned", gpus: 1, gpuMilli: 1000, models: []string{"T4"}}}
	m := mappingNamed(t, "openb-three-mode").forTasks(pinned)
	if m.forPinnedTasks != nil || m.name("gpuspec") != "openb-gpuspec-three-mode" {
		t.Fatalf("a pinned list runs %q, want the by-card mapping named openb-gpuspec-three-mode", m.name("gpuspec"))
	}
	t4 := []string{"Tesla-T4"}
	for _, tc := range []struct {
		name     string
		index    int
		task     traceTask
		gpu      v1.ResourceName
		vm       bool
		share    float64
		products []string
	}{
		{"T4 fractional", 0, traceTask{gpus: 1, gpuMilli: 400, models: []string{"T4"}}, "nvidia.com/GRID_T4-8Q", true, 0.5, nil},
		{"T4 whole, odd row", 1, traceTask{gpus: 2, gpuMilli: 1000, models: []string{"T4"}}, "nvidia.com/TU104GL_TESLA_T4", true, 2, nil},
		{"T4 whole, even row", 2, traceTask{gpus: 1, gpuMilli: 1000, models: []string{"T4"}}, gpuworkload.ResourceGPU, false, 1, t4},
		{"P100 fractional: no vGPU", 3, traceTask{gpus: 1, gpuMilli: 500, models: []string{"P100"}}, gpuworkload.ResourceGPU, false, 1, []string{"Tesla-P100-PCIE-16GB"}},
		{"G2: no known card", 5, traceTask{gpus: 1, gpuMilli: 1000, models: []string{"G2"}}, gpuworkload.ResourceGPU, false, 1, []string{"G2"}},
		{"two cards", 7, traceTask{gpus: 1, gpuMilli: 1000, models: []string{"T4", "V100M16"}}, gpuworkload.ResourceGPU, false, 1, []string{"Tesla-T4", "Tesla-V100-PCIE-16GB"}},
		{"unpinned", 9, traceTask{gpus: 1, gpuMilli: 300}, gpuworkload.ResourceGPU, false, 1, nil},
	} {
		p, share, err := m.pod(tc.index, tc.task)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var products []string
		if p.RequiredNodeAffinity != nil {
			products = p.RequiredNodeAffinity.NodeSelectorTerms[0].MatchExpressions[0].Values
		}
		if p.GPU != tc.gpu || p.VM != tc.vm || share != tc.share || !reflect.DeepEqual(products, tc.products) {
			t.Errorf("%s: %q (VM %v, %v GPUs) kept to %v, want %q (VM %v, %v GPUs) kept to %v", tc.name, p.GPU, p.VM, share, products, tc.gpu, tc.vm, tc.share, tc.products)
		}
	}
	specs, _, err := cluster(m, nodes)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range specs {
		resource, units, err := n.Inventory.Advertisement(n.Mode)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %d %s", resource, units, n.Labels[gpuworkload.LabelGPUProduct]))
	}
	want := []string{
		"nvidia.com/gpu 8 G2", "nvidia.com/gpu 8 G2", "nvidia.com/gpu 8 G2", "nvidia.com/gpu 8 G2",
		"nvidia.com/gpu 2 Tesla-T4", "nvidia.com/gpu 2 Tesla-T4", "nvidia.com/TU104GL_TESLA_T4 2 Tesla-T4", "nvidia.com/GRID_T4-16Q 2 Tesla-T4",
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("nodes advertise %v, want %v", got, want)
	}
}
