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
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
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

// traceCards are the cards behind the trace's model names, as GPU feature
// discovery's product label names them (CardOfModel reads it). The trace
// does not say PCIe or SXM2 for its V100s; PCIe is assumed. G2 and G3 are
// anonymised in the trace: no card is known (""). A card not listed here
// is an error, not a guess.
var traceCards = map[string]string{
	"A10": "NVIDIA-A10", "G2": "", "G3": "", "P100": "Tesla-P100-PCIE-16GB", "T4": "Tesla-T4", "V100M16": "Tesla-V100-PCIE-16GB", "V100M32": "Tesla-V100-PCIE-32GB",
}

// simulatedCard is the one card every node becomes and every GPU request
// names in the mappings of task lists that pin no task (and in the
// container mapping, whose pods name no card). The trace's tasks name no
// card, so a card per VM would have to be invented; one card keeps the
// trace's pools what its tasks see, one pool per mode, and keeps every
// node's GPUs, CPU and memory as the trace gives them. docs/simulation.md
// explains the choice.
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
		return 0, fmt.Errorf("%s: %s %+q is not a whole number of at least %d", where, column, fields[column], lowest)
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
		if _, ok := traceCards[n.model]; !ok {
			return n, fmt.Errorf("%s: model %+q is not one of the trace's cards %s; add it to traceCards in test/sim/openb with its GPU product", where, n.model, strings.Join(cardNames(), ", "))
		}
		return n, nil
	})
}

func cardNames() []string {
	names := make([]string, 0, len(traceCards))
	for c := range traceCards {
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
		return fmt.Errorf("%s: gpu_spec %+q on a task without GPUs (num_gpu 0): remove it, or give the task GPUs", where, spec)
	}
	for _, model := range strings.Split(spec, "|") {
		if _, ok := traceCards[model]; !ok {
			return fmt.Errorf("%s: gpu_spec %+q names %+q, which is not one of the trace's cards %s; add it to traceCards in test/sim/openb", where, spec, model, strings.Join(cardNames(), ", "))
		}
		if !slices.Contains(t.models, model) {
			t.models = append(t.models, model)
		}
	}
	return nil
}

// modelConstraint is the node affinity that keeps a task to its cards:
// GPU feature discovery's product label, which a container node carries;
// label is the value a node of the model carries in the mapping.
func (t traceTask) modelConstraint(label func(model string) string) *v1.NodeSelector {
	if len(t.models) == 0 {
		return nil
	}
	products := make([]string, len(t.models))
	for i, model := range t.models {
		products[i] = label(model)
	}
	return sim.ProductAffinity(products)
}

// fractional says whether the task shares one GPU with others.
func (t traceTask) fractional() bool { return t.gpus == 1 && t.gpuMilli < 1000 }

func (t traceTask) pinned() bool { return len(t.models) > 0 }

// onlyCard is the card of a task pinned to one model whose card is known:
// the only tasks a VM can be made of when cards are told apart, because a
// VM names its card (its passthrough device or vGPU type) and a device
// plugin offers no alternatives.
func (t traceTask) onlyCard() (model string, card hardware.Card, ok bool) {
	if len(t.models) != 1 || traceCards[t.models[0]] == "" {
		return "", hardware.Card{}, false
	}
	model = traceCards[t.models[0]]
	card, err := hardware.CardOfModel(model)
	return model, card, err == nil
}

// productLabel is the nvidia.com/gpu.product of a node of the trace's
// model where nodes keep their cards: the card's product, or the trace's
// name for an anonymised card.
func productLabel(model string) string {
	if card := traceCards[model]; card != "" {
		return card
	}
	return model
}

// traceName labels a node with the trace's own model name, as the
// one-card mappings do.
func traceName(model string) string { return model }

// mapping turns the trace into one kind of simulated cluster.
type mapping struct {
	// name is the scenario's for a task list (taskListName).
	name        func(list string) string
	description string
	advisor     bool
	node        func(index int, n traceNode) (placement.NodeSpec, error)
	// pod maps the task in row index of the task list, and says how many
	// GPUs it requests: a vGPU instance counts as its share of a GPU.
	pod func(index int, t traceTask) (placement.PodSpec, float64, error)
	// forPinnedTasks, when set, is the mapping that replaces this one for a
	// task list that pins tasks to cards.
	forPinnedTasks *mapping
}

// forTasks is the mapping that runs the task list.
func (m mapping) forTasks(tasks []traceTask) mapping {
	if m.forPinnedTasks != nil && slices.ContainsFunc(tasks, traceTask.pinned) {
		return *m.forPinnedTasks
	}
	return m
}

// mappings are the scenarios make sim-openb runs, in report order.
var mappings = []mapping{
	{
		name: func(list string) string { return "openb-" + list },
		description: "FGD's ground: every node in container mode, labelled with its card as nvidia.com/gpu.product; each task a pod of its GPUs, CPU and memory, " +
			"a fractional-GPU task taking one whole nvidia.com/gpu, a task with a gpu_spec kept to those cards by node affinity on nvidia.com/gpu.product",
		node: func(_ int, n traceNode) (placement.NodeSpec, error) {
			return nodeSpec(n, simulatedCard, gpuworkload.ModeContainer, "", n.model)
		},
		pod: func(_ int, t traceTask) (placement.PodSpec, float64, error) {
			p := taskPod(t)
			if t.gpus == 0 {
				return p, 0, nil
			}
			return containerPod(p, t, traceName)
		},
	},
	{
		name: threeModeName,
		description: "the nodes of each card split 2:1:1 into container, passthrough and vGPU nodes (the vGPU ones in A10-24Q, A10-12Q and A10-6Q in turn), advisor on; " +
			"fractional tasks become vGPU VMs of the smallest of those profiles that holds their share, " +
			"every other 1- or 2-GPU task a passthrough VM, the rest containers",
		advisor: true,
		node: func(index int, n traceNode) (placement.NodeSpec, error) {
			mode, profile := threeModeSplit(index, oneCardProfiles)
			label := ""
			if mode == gpuworkload.ModeContainer {
				// GPU feature discovery labels container nodes; the trace's
				// model tells the cards apart where the simulated card cannot.
				label = n.model
			}
			return nodeSpec(n, simulatedCard, mode, profile, label)
		},
		pod: func(index int, t traceTask) (placement.PodSpec, float64, error) {
			p := taskPod(t)
			switch {
			case t.pinned():
				return p, 0, fmt.Errorf("gpu_spec %s: the one-card mapping cannot keep a task to its cards", strings.Join(t.models, "|"))
			case t.gpus == 0:
				return p, 0, nil
			case t.fractional():
				return vgpuVM(p, t, simulatedCard, oneCardProfiles)
			case t.gpus <= 2 && index%2 == 1:
				return gpuPod(p, t.gpus, gpuworkload.ModePassthrough, simulatedCard, "")
			}
			return gpuPod(p, t.gpus, gpuworkload.ModeContainer, simulatedCard, "")
		},
		forPinnedTasks: &threeModeByCard,
	},
}

// threeModeByCard is the three-mode mapping of a task list that pins tasks
// to cards: the cards must stay apart for the pins to mean anything.
var threeModeByCard = mapping{
	name: threeModeName,
	description: "every node keeps its card (T4, P100, V100 16 GB and 32 GB PCIe, A10; the anonymised G2 and G3 run containers only) and carries its product as nvidia.com/gpu.product; " +
		"the nodes of each card split 2:1:1 into container, passthrough and vGPU nodes where the card has those (vGPU ones in its whole-, half- and quarter-GPU Q profiles in turn), advisor on; " +
		"a VM names its card, so only a task pinned to one known card becomes a VM: a fractional one a vGPU VM of the smallest of its card's profiles that holds its share, " +
		"a 1- or 2-GPU one in an odd row a passthrough VM; every other task a container kept to its cards by node affinity",
	advisor: true,
	node: func(index int, n traceNode) (placement.NodeSpec, error) {
		card := traceCards[n.model]
		known, err := hardware.CardOfModel(card)
		if err != nil {
			return placement.NodeSpec{}, fmt.Errorf("node %s: %w", n.name, err)
		}
		mode, profile := threeModeSplit(index, shareProfiles(known.VGPUFamily))
		if mode == gpuworkload.ModePassthrough && known.PassthroughName == "" {
			mode = gpuworkload.ModeContainer
		}
		return nodeSpec(n, card, mode, profile, productLabel(n.model))
	},
	pod: func(index int, t traceTask) (placement.PodSpec, float64, error) {
		p := taskPod(t)
		if t.gpus == 0 {
			return p, 0, nil
		}
		if model, card, ok := t.onlyCard(); ok {
			switch {
			case t.fractional() && card.VGPUFamily != "":
				return vgpuVM(p, t, model, shareProfiles(card.VGPUFamily))
			case !t.fractional() && t.gpus <= 2 && index%2 == 1 && card.PassthroughName != "":
				return gpuPod(p, t.gpus, gpuworkload.ModePassthrough, model, "")
			}
		}
		return containerPod(p, t, productLabel)
	},
}

func threeModeName(list string) string {
	if list == taskListName(taskFile) {
		return "openb-three-mode"
	}
	return "openb-" + list + "-three-mode"
}

// threeModeSplit is the mode of a card's index-th node: two container, one
// passthrough, one vGPU in turn, the vGPU ones in the card's profiles in
// turn; container where the card has no vGPU profiles.
func threeModeSplit(index int, profiles []string) (gpuworkload.Mode, string) {
	switch {
	case index%4 == 2:
		return gpuworkload.ModePassthrough, ""
	case index%4 == 3 && len(profiles) > 0:
		return gpuworkload.ModeVGPU, profiles[index/4%len(profiles)]
	}
	return gpuworkload.ModeContainer, ""
}

// oneCardProfiles are the profiles of the simulated card.
var oneCardProfiles = shareProfiles(simulatedCard)

// shareProfiles are the vGPU family's Q profiles that take a whole GPU, a
// half and a quarter, largest first: three sizes a platform team would
// offer, rather than every Q size. None for a family the table lacks.
func shareProfiles(family string) []string {
	sizes, _ := hardware.CardProfiles(family)
	var out []string
	for _, perGPU := range []int{1, 2, 4} {
		for _, size := range sizes {
			p, err := hardware.ParseVGPUConfig(family + "-" + size)
			if n, ok := p.MaxPerGPU(); err == nil && ok && p.Series == 'Q' && n == perGPU {
				out = append(out, p.Name())
				break
			}
		}
	}
	return out
}

// nodeSpec is the node with its GPUs of the card in a mode, labelled with
// product as nvidia.com/gpu.product unless product is empty.
func nodeSpec(n traceNode, card string, mode gpuworkload.Mode, profile, product string) (placement.NodeSpec, error) {
	inv, err := gpuworkload.NewGPUInventory(n.gpus, card, profile)
	if err != nil {
		return placement.NodeSpec{}, fmt.Errorf("node %s: %w", n.name, err)
	}
	spec := placement.NodeSpec{Name: n.name, MilliCPU: n.milliCPU, Memory: n.memMiB << 20, Mode: mode, Inventory: inv}
	if product != "" {
		spec.Labels = map[string]string{gpuworkload.LabelGPUProduct: product}
	}
	return spec, nil
}

func taskPod(t traceTask) placement.PodSpec {
	return placement.PodSpec{MilliCPU: t.milliCPU, Memory: t.memMiB << 20}
}

// containerPod asks for the task's GPUs as whole nvidia.com/gpu (a
// fractional task takes one: sharing a GPU is invisible to the scheduler),
// kept to its cards as label names them.
func containerPod(p placement.PodSpec, t traceTask, label func(model string) string) (placement.PodSpec, float64, error) {
	p.GPU, p.GPUCount = gpuworkload.ResourceGPU, t.gpus
	p.RequiredNodeAffinity = t.modelConstraint(label)
	return p, float64(t.gpus), nil
}

// gpuPod gives p the resource the mode advertises for count GPUs of the
// card.
func gpuPod(p placement.PodSpec, count int64, mode gpuworkload.Mode, card, profile string) (placement.PodSpec, float64, error) {
	inv, err := gpuworkload.NewGPUInventory(count, card, profile)
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

// vgpuVM is a VM of one instance of the smallest of the card's profiles
// (largest first) that holds the task's share of a GPU.
func vgpuVM(p placement.PodSpec, t traceTask, card string, profiles []string) (placement.PodSpec, float64, error) {
	profile := profiles[0]
	for _, candidate := range profiles[1:] {
		vp, err := hardware.ParseVGPUConfig(candidate)
		if err != nil {
			return p, 0, err
		}
		perGPU, _ := vp.MaxPerGPU()
		if t.gpuMilli*int64(perGPU) > 1000 {
			break
		}
		profile = candidate
	}
	return gpuPod(p, 1, gpuworkload.ModeVGPU, card, profile)
}

// arrivalSpacing is the time between two arrivals: the trace has no
// times, and at one arrival every 10 s a conversion (10 minutes) lasts 60
// arrivals, about 1% of a draw.
const arrivalSpacing = 10 * time.Second

// draw is one inflated workload: tasks drawn with replacement, no
// departures, until the GPUs requested reach inflation times the cluster's
// (FGD's method). arrived[i] is the GPUs requested by pods[0..i].
type draw struct {
	pods    []placement.PodSpec
	arrived []float64
}

func inflate(m mapping, tasks []traceTask, gpus, inflation float64, rng *rand.Rand) (draw, error) {
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
func cluster(m mapping, nodes []traceNode) ([]placement.NodeSpec, float64, error) {
	specs := make([]placement.NodeSpec, len(nodes))
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
