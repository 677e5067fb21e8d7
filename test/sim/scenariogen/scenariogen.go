// Package scenariogen writes the simulator's shipped scenarios
// (test/sim/scenarios) and larger ones for benchmarks, deterministically
// from fixed seeds, so that every scenario can be regenerated and reviewed.
package scenariogen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
)

// NodeGroup is one row of nodes.csv: count identical nodes.
type NodeGroup struct {
	Name, CPU, Memory string
	Count, GPUs       int
	Model, Mode       string
	Profile           string
}

// PodClass is one kind of pod; Weight gives its share of arrivals at a
// point of the run (0 at the start, 1 at the end).
type PodClass struct {
	Prefix       string
	Weight       func(progress float64) float64
	CPU, Memory  string
	GPUs         int
	Mode, Model  string
	Profile      string
	MeanDuration time.Duration
}

// Spec describes a scenario.
type Spec struct {
	Name, Description string
	Nodes             []NodeGroup
	Classes           []PodClass
	Pods              int
	Horizon           time.Duration
	// Load is the offered GPU load: GPU unit-hours requested over GPU
	// unit-hours available. Durations are scaled to reach it.
	Load float64
	// Advisor adds an advisor block to scenario.yaml.
	Advisor bool
	Seed    uint64
}

func constant(w float64) func(float64) float64 { return func(float64) float64 { return w } }

// rising goes from a to b over the run; falling the other way.
func rising(a, b float64) func(float64) float64 {
	return func(p float64) float64 { return a + (b-a)*p }
}

// Shipped are the scenarios in test/sim/scenarios.
func Shipped() []Spec {
	return []Spec{
		{
			Name:        "drift",
			Description: "A three-mode A10 cluster whose demand drifts from containers to VMs over twelve hours.",
			Nodes: []NodeGroup{
				{Name: "a10-container", Count: 40, CPU: "64", Memory: "512Gi", GPUs: 4, Model: "A10", Mode: "container"},
				{Name: "a10-passthrough", Count: 20, CPU: "64", Memory: "512Gi", GPUs: 4, Model: "A10", Mode: "vm-passthrough"},
				{Name: "a10-vgpu", Count: 20, CPU: "64", Memory: "512Gi", GPUs: 4, Model: "A10", Mode: "vm-vgpu", Profile: "A10-12Q"},
				{Name: "cpu", Count: 10, CPU: "64", Memory: "256Gi"},
			},
			Classes: []PodClass{
				{Prefix: "train", Weight: rising(0.5, 0.05), CPU: "8", Memory: "32Gi", GPUs: 1, MeanDuration: 90 * time.Minute},
				{Prefix: "train2", Weight: rising(0.25, 0.02), CPU: "16", Memory: "64Gi", GPUs: 2, MeanDuration: 90 * time.Minute},
				{Prefix: "vm-pt", Weight: rising(0.05, 0.4), CPU: "8", Memory: "32Gi", GPUs: 1, Mode: "vm-passthrough", Model: "A10", MeanDuration: 2 * time.Hour},
				{Prefix: "vm-vgpu", Weight: rising(0.05, 0.4), CPU: "4", Memory: "16Gi", GPUs: 1, Mode: "vm-vgpu", Profile: "A10-12Q", MeanDuration: 2 * time.Hour},
				{Prefix: "web", Weight: constant(0.15), CPU: "4", Memory: "8Gi", MeanDuration: time.Hour},
			},
			Pods: 3000, Horizon: 12 * time.Hour, Advisor: true, Load: 0.9, Seed: 1,
		},
		{
			Name:        "multi-gpu",
			Description: "Container training on 8-GPU nodes, heavy in 2-, 4- and 8-GPU pods.",
			Nodes: []NodeGroup{
				{Name: "h100", Count: 60, CPU: "128", Memory: "1Ti", GPUs: 8, Model: "GH100_H100_PCIE", Mode: "container"},
				{Name: "cpu", Count: 10, CPU: "64", Memory: "256Gi"},
			},
			Classes: []PodClass{
				{Prefix: "g1", Weight: constant(0.35), CPU: "8", Memory: "64Gi", GPUs: 1, MeanDuration: time.Hour},
				{Prefix: "g2", Weight: constant(0.25), CPU: "16", Memory: "128Gi", GPUs: 2, MeanDuration: 2 * time.Hour},
				{Prefix: "g4", Weight: constant(0.2), CPU: "32", Memory: "256Gi", GPUs: 4, MeanDuration: 2 * time.Hour},
				{Prefix: "g8", Weight: constant(0.1), CPU: "64", Memory: "512Gi", GPUs: 8, MeanDuration: 3 * time.Hour},
				{Prefix: "etl", Weight: constant(0.1), CPU: "8", Memory: "32Gi", MeanDuration: time.Hour},
			},
			Pods: 3000, Horizon: 12 * time.Hour, Load: 0.9, Seed: 2,
		},
		{
			Name:        "cpu-heavy",
			Description: "A CPU-heavy mix: large CPU-only pods that the default scheduler spreads onto GPU nodes.",
			Nodes: []NodeGroup{
				{Name: "l40s", Count: 50, CPU: "96", Memory: "768Gi", GPUs: 8, Model: "L40S", Mode: "container"},
				{Name: "cpu", Count: 30, CPU: "96", Memory: "384Gi"},
			},
			Classes: []PodClass{
				{Prefix: "batch", Weight: constant(0.45), CPU: "24", Memory: "64Gi", MeanDuration: 80 * time.Minute},
				{Prefix: "g1", Weight: constant(0.3), CPU: "10", Memory: "64Gi", GPUs: 1, MeanDuration: 90 * time.Minute},
				{Prefix: "g2", Weight: constant(0.25), CPU: "20", Memory: "128Gi", GPUs: 2, MeanDuration: 2 * time.Hour},
			},
			Pods: 4000, Horizon: 12 * time.Hour, Load: 0.9, Seed: 3,
		},
		{
			Name:        "vgpu-profiles",
			Description: "VMs with vGPUs of several profiles on A10 and L40S nodes, and an L40S passthrough pool; the advisor may move L40S nodes between passthrough and vGPU.",
			Nodes: []NodeGroup{
				{Name: "a10-4q", Count: 7, CPU: "96", Memory: "384Gi", GPUs: 4, Model: "A10", Mode: "vm-vgpu", Profile: "A10-4Q"},
				{Name: "a10-12q", Count: 22, CPU: "64", Memory: "512Gi", GPUs: 4, Model: "A10", Mode: "vm-vgpu", Profile: "A10-12Q"},
				{Name: "l40s-12q", Count: 12, CPU: "96", Memory: "768Gi", GPUs: 4, Model: "L40S", Mode: "vm-vgpu", Profile: "L40S-12Q"},
				{Name: "l40s-pt", Count: 19, CPU: "96", Memory: "768Gi", GPUs: 4, Model: "L40S", Mode: "vm-passthrough"},
			},
			Classes: []PodClass{
				{Prefix: "vdi-4q", Weight: constant(0.25), CPU: "2", Memory: "8Gi", GPUs: 1, Mode: "vm-vgpu", Profile: "A10-4Q", MeanDuration: 2 * time.Hour},
				{Prefix: "vdi-4q-large", Weight: constant(0.1), CPU: "8", Memory: "32Gi", GPUs: 1, Mode: "vm-vgpu", Profile: "A10-4Q", MeanDuration: 2 * time.Hour},
				{Prefix: "cad-12q", Weight: constant(0.15), CPU: "4", Memory: "32Gi", GPUs: 1, Mode: "vm-vgpu", Profile: "A10-12Q", MeanDuration: 2 * time.Hour},
				{Prefix: "cad-12q-x2", Weight: constant(0.1), CPU: "8", Memory: "64Gi", GPUs: 2, Mode: "vm-vgpu", Profile: "A10-12Q", MeanDuration: 2 * time.Hour},
				{Prefix: "sim-l40s", Weight: constant(0.15), CPU: "6", Memory: "48Gi", GPUs: 1, Mode: "vm-vgpu", Profile: "L40S-12Q", MeanDuration: 3 * time.Hour},
				{Prefix: "sim-l40s-x2", Weight: constant(0.05), CPU: "12", Memory: "96Gi", GPUs: 2, Mode: "vm-vgpu", Profile: "L40S-12Q", MeanDuration: 3 * time.Hour},
				{Prefix: "render-pt", Weight: constant(0.1), CPU: "16", Memory: "128Gi", GPUs: 2, Mode: "vm-passthrough", Model: "L40S", MeanDuration: time.Hour},
				{Prefix: "render-pt1", Weight: constant(0.1), CPU: "8", Memory: "64Gi", GPUs: 1, Mode: "vm-passthrough", Model: "L40S", MeanDuration: time.Hour},
			},
			Pods: 3000, Horizon: 12 * time.Hour, Load: 0.9, Advisor: true, Seed: 4,
		},
	}
}

// WithSeed is the scenario with another trace: the same nodes and pod
// classes, arrivals and durations drawn from another seed, named <name>-s<seed>.
func (s Spec) WithSeed(seed uint64) Spec {
	s.Seed = seed*100 + s.Seed
	s.Name = fmt.Sprintf("%s-s%d", s.Name, seed)
	return s
}

// Scale is the drift scenario at the size the simulator must handle in
// under a minute: 1,000 nodes and 10,000 pods.
func Scale() Spec {
	s := Shipped()[0]
	s.Name = "drift-scale"
	s.Description = "The drift scenario at 1,000 nodes and 10,000 pods."
	total := 0
	for _, n := range s.Nodes {
		total += n.Count
	}
	scaled := 0
	for i := range s.Nodes {
		s.Nodes[i].Count = s.Nodes[i].Count * 1000 / total
		scaled += s.Nodes[i].Count
	}
	s.Nodes[0].Count += 1000 - scaled
	s.Pods = 10000
	s.Horizon = 4 * time.Hour
	s.Advisor = false
	return s
}

// Write generates the scenario into dir/<name>: scenario.yaml, nodes.csv, pods.csv.
func Write(dir string, s Spec) error {
	out := filepath.Join(dir, s.Name)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	files := map[string]string{
		"scenario.yaml": scenarioYAML(s),
		"nodes.csv":     nodesCSV(s),
		"pods.csv":      podsCSV(s),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(out, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

const generated = "# Generated by test/sim/scenariogen (go test ./test/sim -run TestShippedScenarios -update); do not edit.\n"

func scenarioYAML(s Spec) string {
	var b strings.Builder
	b.WriteString(generated)
	fmt.Fprintf(&b, "name: %s\ndescription: %+q\nnodes: nodes.csv\npods: pods.csv\n", s.Name, s.Description)
	if s.Advisor {
		b.WriteString("advisor:\n  interval: 5m\n  conversion: 10m\n")
	}
	return b.String()
}

func nodesCSV(s Spec) string {
	var b strings.Builder
	b.WriteString(generated)
	b.WriteString("name,count,cpu,memory,gpus,model,mode,profile\n")
	for _, n := range s.Nodes {
		fmt.Fprintf(&b, "%s,%d,%s,%s,%d,%s,%s,%s\n", n.Name, n.Count, n.CPU, n.Memory, n.GPUs, n.Model, n.Mode, n.Profile)
	}
	return b.String()
}

type podRow struct {
	class    PodClass
	arrival  int64
	duration float64
}

func podsCSV(s Spec) string {
	rng := rand.New(rand.NewPCG(s.Seed, 0x6770752d73696d))
	arrivals := make([]int64, s.Pods)
	for i := range arrivals {
		arrivals[i] = rng.Int64N(int64(s.Horizon / time.Second))
	}
	slices.Sort(arrivals)
	rows := make([]podRow, len(arrivals))
	weights := make([]float64, len(s.Classes))
	offered := 0.0
	for i, at := range arrivals {
		progress := float64(at) / s.Horizon.Seconds()
		total := 0.0
		for j, c := range s.Classes {
			weights[j] = c.Weight(progress)
			total += weights[j]
		}
		pick, x := 0, rng.Float64()*total
		for x > weights[pick] && pick < len(weights)-1 {
			x -= weights[pick]
			pick++
		}
		c := s.Classes[pick]
		rows[i] = podRow{class: c, arrival: at, duration: math.Min(rng.ExpFloat64(), 4) * c.MeanDuration.Seconds()}
		offered += float64(c.GPUs) * rows[i].duration / float64(unitsPerGPU(c))
	}
	scale := s.Load * float64(capacityGPUs(s)) * s.Horizon.Seconds() / offered
	var b strings.Builder
	b.WriteString(generated)
	b.WriteString("name,arrival,departure,cpu,memory,gpus,mode,model,profile\n")
	for i, r := range rows {
		c := r.class
		duration := int64(math.Max(r.duration*scale, 300))
		gpus := ""
		if c.GPUs > 0 {
			gpus = fmt.Sprint(c.GPUs)
		}
		fmt.Fprintf(&b, "%s-%05d,%d,%d,%s,%s,%s,%s,%s,%s\n", c.Prefix, i+1, r.arrival, r.arrival+duration, c.CPU, c.Memory, gpus, c.Mode, c.Model, c.Profile)
	}
	return b.String()
}

// capacityGPUs counts physical GPUs.
func capacityGPUs(s Spec) int {
	total := 0
	for _, n := range s.Nodes {
		total += n.Count * n.GPUs
	}
	return total
}

// unitsPerGPU is how many of the class's units one GPU holds: vGPU
// instances of its profile, else 1.
func unitsPerGPU(c PodClass) int {
	if c.Profile == "" {
		return 1
	}
	p, err := hardware.ParseVGPUConfig(c.Profile)
	if err != nil {
		panic(fmt.Sprintf("class %s: %v", c.Prefix, err))
	}
	n, ok := p.MaxPerGPU()
	if !ok {
		panic(fmt.Sprintf("class %s: profile %s is not in the vGPU table", c.Prefix, c.Profile))
	}
	return n
}
