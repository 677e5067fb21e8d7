package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/sim"
)

// The trace's files in its directory (../shared/data/openb/README.md): the
// node list and the default task list; -pods chooses another task list.
const (
	nodeFile = "openb_node_list_gpu_node.csv"
	taskFile = "openb_pod_list_multigpu50.csv"
)

// taskListName is the name a task list gives its scenarios:
// openb_pod_list_gpuspec10.csv is gpuspec10.
func taskListName(path string) string {
	return strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "openb_pod_list_"), ".csv")
}

// traceNode is a row of the node list.
type traceNode struct {
	name             string
	milliCPU, memMiB int64
	gpus             int64
	model            string
}

// traceTask is a row of the task list. gpuMilli is the share of each GPU
// it uses: 1000 for whole GPUs, less for a fractional share of one GPU.
// models are the cards it accepts (gpu_spec); none means any.
type traceTask struct {
	name             string
	milliCPU, memMiB int64
	gpus, gpuMilli   int64
	models           []string
}

// simulatorCard maps the trace's cards to the one card whose tables (the
// passthrough device name, the vGPU profiles) the simulator knows and
// whose profiles the mapping uses. The trace's tasks name no card, so a
// card per VM would have to be invented; one card keeps the trace's pools
// what its tasks see, one pool per mode, and keeps every node's GPUs,
// CPU and memory as the trace gives them. docs/simulation.md explains the
// choice. A card not listed here is an error, not a guess.
var simulatorCard = map[string]string{
	"A10": simulatedCard, "G2": simulatedCard, "G3": simulatedCard, "P100": simulatedCard, "T4": simulatedCard, "V100M16": simulatedCard, "V100M32": simulatedCard,
}

// simulatedCard is the card every node becomes and every GPU request names.
const simulatedCard = "A10"

// readCSV reads a CSV file whose header has at least the columns and
// parses each row, given by column; errors name the file, the line and the
// column.
func readCSV[T any](path string, columns []string, parse func(row map[string]string, where string) (T, error)) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w; give the openb directory with -data", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: want the header row %s: %w", path, strings.Join(columns, ","), err)
	}
	for _, c := range columns {
		if !slices.Contains(header, c) {
			return nil, fmt.Errorf("%s: header %s has no column %s, want at least %s: the file is not the openb trace's", path, strings.Join(header, ","), c, strings.Join(columns, ","))
		}
	}
	var out []T
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		fields := map[string]string{}
		for i, c := range header {
			fields[c] = row[i]
		}
		v, err := parse(fields, fmt.Sprintf("%s:%d", path, line))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	return out, nil
}

func wholeNumber(fields map[string]string, column, where string, lowest int64) (int64, error) {
	n, err := strconv.ParseInt(fields[column], 10, 64)
	if err != nil || n < lowest {
		return 0, fmt.Errorf("%s: %s %q is not a whole number of at least %d", where, column, fields[column], lowest)
	}
	return n, nil
}

func readNodes(path string) ([]traceNode, error) {
	return readCSV(path, []string{"sn", "cpu_milli", "memory_mib", "gpu", "model"}, func(f map[string]string, where string) (traceNode, error) {
		n := traceNode{name: f["sn"], model: f["model"]}
		var err error
		if n.milliCPU, err = wholeNumber(f, "cpu_milli", where, 1); err != nil {
			return n, err
		}
		if n.memMiB, err = wholeNumber(f, "memory_mib", where, 1); err != nil {
			return n, err
		}
		if n.gpus, err = wholeNumber(f, "gpu", where, 1); err != nil {
			return n, err
		}
		if _, ok := simulatorCard[n.model]; !ok {
			return n, fmt.Errorf("%s: model %q is not one of the trace's cards %s; add it to simulatorCard in test/sim/openb with the card the simulator should use", where, n.model, strings.Join(cardNames(), ", "))
		}
		return n, nil
	})
}

func cardNames() []string {
	names := make([]string, 0, len(simulatorCard))
	for c := range simulatorCard {
		names = append(names, c)
	}
	slices.Sort(names)
	return names
}

func readTasks(path string) ([]traceTask, error) {
	return readCSV(path, []string{"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli"}, func(f map[string]string, where string) (traceTask, error) {
		t := traceTask{name: f["name"]}
		var err error
		if t.milliCPU, err = wholeNumber(f, "cpu_milli", where, 0); err != nil {
			return t, err
		}
		if t.memMiB, err = wholeNumber(f, "memory_mib", where, 0); err != nil {
			return t, err
		}
		if t.gpus, err = wholeNumber(f, "num_gpu", where, 0); err != nil {
			return t, err
		}
		if t.gpuMilli, err = wholeNumber(f, "gpu_milli", where, 0); err != nil {
			return t, err
		}
		switch {
		case t.gpus > 0 && (t.gpuMilli < 1 || t.gpuMilli > 1000):
			return t, fmt.Errorf("%s: gpu_milli %d is not a share of a GPU from 1 to 1000", where, t.gpuMilli)
		case t.gpus > 1 && t.gpuMilli != 1000:
			return t, fmt.Errorf("%s: gpu_milli %d with num_gpu %d: a multi-GPU task takes whole GPUs (1000)", where, t.gpuMilli, t.gpus)
		}
		return t, t.readModels(f["gpu_spec"], where)
	})
}

// readModels reads gpu_spec: the cards the task accepts, separated by |,
// each named as in the node list; a card listed twice counts once.
func (t *traceTask) readModels(spec, where string) error {
	if spec == "" {
		return nil
	}
	if t.gpus == 0 {
		return fmt.Errorf("%s: gpu_spec %q on a task without GPUs (num_gpu 0): remove it, or give the task GPUs", where, spec)
	}
	for _, model := range strings.Split(spec, "|") {
		if _, ok := simulatorCard[model]; !ok {
			return fmt.Errorf("%s: gpu_spec %q names %q, which is not one of the trace's cards %s; add it to simulatorCard in test/sim/openb", where, spec, model, strings.Join(cardNames(), ", "))
		}
		if !slices.Contains(t.models, model) {
			t.models = append(t.models, model)
		}
	}
	return nil
}

// modelConstraint is the node affinity that keeps a task to its cards:
// GPU feature discovery's product label, which a container node carries
// (nodeSpec gives it the trace's model name).
func (t traceTask) modelConstraint() *v1.NodeSelector {
	if len(t.models) == 0 {
		return nil
	}
	return sim.ProductAffinity(t.models)
}

// fractional says whether the task shares one GPU with others.
func (t traceTask) fractional() bool { return t.gpus == 1 && t.gpuMilli < 1000 }

// mapping turns the trace into one kind of simulated cluster.
type mapping struct {
	// name is the scenario's for a task list (taskListName).
	name        func(list string) string
	description string
	advisor     bool
	// constraints says whether the mapping keeps tasks to their gpu_spec.
	constraints bool
	node        func(index int, n traceNode) (sim.NodeSpec, error)
	// pod maps the task in row index of the task list, and says how many
	// GPUs it requests: a vGPU instance counts as its share of a GPU.
	pod func(index int, t traceTask) (sim.PodSpec, float64, error)
}

// mappings are the scenarios make sim-openb runs, in report order.
var mappings = []mapping{
	{
		name: func(list string) string { return "openb-" + list },
		description: "FGD's ground: every node in container mode, labelled with its card as nvidia.com/gpu.product; each task a pod of its GPUs, CPU and memory, " +
			"a fractional-GPU task taking one whole nvidia.com/gpu, a task with a gpu_spec kept to those cards by node affinity on nvidia.com/gpu.product",
		constraints: true,
		node:        func(_ int, n traceNode) (sim.NodeSpec, error) { return nodeSpec(n, gpuworkload.ModeContainer, "") },
		pod: func(_ int, t traceTask) (sim.PodSpec, float64, error) {
			p := taskPod(t)
			if t.gpus > 0 {
				p.GPU, p.GPUCount = gpuworkload.ResourceGPU, t.gpus
				p.RequiredNodeAffinity = t.modelConstraint()
			}
			return p, float64(p.GPUCount), nil
		},
	},
	{
		name: func(list string) string {
			if list == taskListName(taskFile) {
				return "openb-three-mode"
			}
			return "openb-" + list + "-three-mode"
		},
		description: "the nodes of each card split 2:1:1 into container, passthrough and vGPU nodes (the vGPU ones in A10-24Q, A10-12Q and A10-6Q in turn), advisor on; " +
			"fractional tasks become vGPU VMs of the smallest of those profiles that holds their share, " +
			"every other 1- or 2-GPU task a passthrough VM, the rest containers",
		advisor: true,
		node: func(index int, n traceNode) (sim.NodeSpec, error) {
			switch index % 4 {
			case 2:
				return nodeSpec(n, gpuworkload.ModePassthrough, "")
			case 3:
				return nodeSpec(n, gpuworkload.ModeVGPU, vgpuProfiles[index/4%len(vgpuProfiles)])
			}
			return nodeSpec(n, gpuworkload.ModeContainer, "")
		},
		pod: func(index int, t traceTask) (sim.PodSpec, float64, error) {
			p := taskPod(t)
			switch {
			case t.gpus == 0:
				return p, 0, nil
			case t.fractional():
				return vgpuVM(p, t)
			case t.gpus <= 2 && index%2 == 1:
				return gpuPod(p, t.gpus, gpuworkload.ModePassthrough, "")
			}
			return gpuPod(p, t.gpus, gpuworkload.ModeContainer, "")
		},
	},
}

// vgpuProfiles are the A10 profiles fractional tasks get, largest first:
// a whole GPU, a half and a quarter.
var vgpuProfiles = []string{"A10-24Q", "A10-12Q", "A10-6Q"}

func nodeSpec(n traceNode, mode gpuworkload.Mode, profile string) (sim.NodeSpec, error) {
	inv, err := gpuworkload.NewGPUInventory(n.gpus, simulatorCard[n.model], profile)
	if err != nil {
		return sim.NodeSpec{}, fmt.Errorf("node %s: %w", n.name, err)
	}
	spec := sim.NodeSpec{Name: n.name, MilliCPU: n.milliCPU, Memory: n.memMiB << 20, Mode: mode, Inventory: inv}
	if mode == gpuworkload.ModeContainer {
		// GPU feature discovery labels container nodes; the trace's model
		// tells the cards apart where the simulated card cannot.
		spec.Labels = map[string]string{gpuworkload.LabelGPUProduct: n.model}
	}
	return spec, nil
}

func taskPod(t traceTask) sim.PodSpec {
	return sim.PodSpec{MilliCPU: t.milliCPU, Memory: t.memMiB << 20}
}

// gpuPod gives p the resource the mode advertises for count GPUs of the
// simulator's card.
func gpuPod(p sim.PodSpec, count int64, mode gpuworkload.Mode, profile string) (sim.PodSpec, float64, error) {
	inv, err := gpuworkload.NewGPUInventory(count, simulatedCard, profile)
	if err != nil {
		return p, 0, err
	}
	resource, units, err := inv.Advertisement(mode)
	if err != nil {
		return p, 0, err
	}
	p.GPU, p.GPUCount, p.VM = resource, count, mode.IsSandbox()
	unitsPerGPU := float64(units) / float64(count)
	return p, float64(count) / unitsPerGPU, nil
}

// vgpuVM is a VM of one instance of the smallest profile that holds the
// task's share of a GPU.
func vgpuVM(p sim.PodSpec, t traceTask) (sim.PodSpec, float64, error) {
	profile := vgpuProfiles[0]
	for _, candidate := range vgpuProfiles[1:] {
		vp, err := gpuworkload.ParseVGPUConfig(candidate)
		if err != nil {
			return p, 0, err
		}
		perGPU, _ := vp.MaxPerGPU()
		if t.gpuMilli*int64(perGPU) > 1000 {
			break
		}
		profile = candidate
	}
	return gpuPod(p, 1, gpuworkload.ModeVGPU, profile)
}

// arrivalSpacing is the time between two arrivals: the trace has no
// times, and at one arrival every 10 s a conversion (10 minutes) lasts 60
// arrivals, about 1% of a draw.
const arrivalSpacing = 10 * time.Second

// draw is one inflated workload: tasks drawn with replacement, no
// departures, until the GPUs requested reach inflation times the cluster's
// (FGD's method). arrived[i] is the GPUs requested by pods[0..i].
type draw struct {
	pods    []sim.PodSpec
	arrived []float64
}

func inflate(m mapping, tasks []traceTask, gpus, inflation float64, rng *rand.Rand) (draw, error) {
	if !m.constraints {
		if i := slices.IndexFunc(tasks, func(t traceTask) bool { return len(t.models) > 0 }); i >= 0 {
			return draw{}, fmt.Errorf("task %s has gpu_spec %s, which this mapping does not map yet (a VM's model would need its own card): "+
				"run the container mapping on this task list", tasks[i].name, strings.Join(tasks[i].models, "|"))
		}
	}
	var d draw
	requested := 0.0
	for requested < inflation*gpus {
		i := rng.IntN(len(tasks))
		p, share, err := m.pod(i, tasks[i])
		if err != nil {
			return d, fmt.Errorf("task %s: %w", tasks[i].name, err)
		}
		n := len(d.pods)
		p.Name = fmt.Sprintf("%s-%06d", tasks[i].name, n)
		p.Arrival = time.Duration(n+1) * arrivalSpacing
		requested += share
		d.pods = append(d.pods, p)
		d.arrived = append(d.arrived, requested)
	}
	return d, nil
}

// cluster maps the node list; it returns the nodes and their GPUs.
func cluster(m mapping, nodes []traceNode) ([]sim.NodeSpec, float64, error) {
	specs := make([]sim.NodeSpec, len(nodes))
	perCard := map[string]int{}
	gpus := 0.0
	for i, n := range nodes {
		var err error
		if specs[i], err = m.node(perCard[n.model], n); err != nil {
			return nil, 0, err
		}
		perCard[n.model]++
		gpus += float64(n.gpus)
	}
	return specs, gpus, nil
}
