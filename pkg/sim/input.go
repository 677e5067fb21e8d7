package sim

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
)

// draMode is the node input's mode for a DRA node.
const draMode = "dra"

// Bounds of the simulator's input: beyond them a run would not fit in
// memory or in time, or a quantity would overflow. docs/simulation.md
// states them.
const (
	MaxCount    = 100_000   // copies one row or entry stands for
	MaxNodes    = 50_000    // nodes in a cluster
	MaxPods     = 1_000_000 // pods in a workload
	MaxGPUs     = 1_024     // GPUs of a node, units a pod requests
	MaxCPU      = "100k"    // CPUs of a node or a pod
	MaxMemory   = "1Pi"     // memory of a node or a pod
	MaxTime     = 365 * 24 * time.Hour
	maxTimeText = "a year"
)

// A node described without cpu or memory gets these: a typical GPU server.
const (
	DefaultNodeCPU    = "64"
	DefaultNodeMemory = "512Gi"
)

var (
	nodeColumns = []string{"name", "count", "cpu", "memory", "gpus", "model", "mode", "profile"}
	podColumns  = []string{"name", "count", "arrival", "departure", "cpu", "memory", "gpu", "gpus", "mode", "model", "profile", "models", "node"}
)

// record is one row or list entry with where it came from, for errors.
type record struct {
	where  string
	fields map[string]string
}

func (r record) errorf(field, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s", r.where, field, fmt.Sprintf(format, args...))
}

// readRecords reads a CSV file with a header row, or a YAML file holding a
// list under key, of up to limit bytes, into records with only the given
// columns.
func readRecords(path, key string, columns []string, limit int64) ([]record, error) {
	data, err := inputlimit.ReadFile(path, limit)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return csvRecords(path, data, columns)
	case ".yaml", ".yml", ".json":
		return yamlRecords(path, data, key, columns)
	}
	return nil, fmt.Errorf("%s: unknown format: name the file .csv, .yaml or .json", path)
}

// maxField is the longest field a node or pod description holds: names
// and quantities are far shorter, and an error never quotes more.
const maxField = 1024

func fieldTooLong(where string, length int) error {
	return fmt.Errorf("%s is %s bytes long; no field of a description is longer than %d", where, gpuworkload.GroupDigits(length), maxField)
}

func csvRecords(path string, data []byte, columns []string) ([]record, error) {
	r := csv.NewReader(strings.NewReader(string(data)))
	r.Comment = '#'
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: want a header row naming columns from %s: %w", path, strings.Join(columns, ","), err)
	}
	for i, h := range header {
		if len(h) > maxField {
			return nil, fieldTooLong(fmt.Sprintf("%s: header column %d", path, i+1), len(h))
		}
		header[i] = strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(columns, header[i]) {
			return nil, fmt.Errorf("%s: header column %d %+q is unknown; valid columns are %s", path, i+1, h, strings.Join(columns, ","))
		}
	}
	r.FieldsPerRecord = len(header)
	var out []record
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		rec := record{where: fmt.Sprintf("%s:%d", path, line), fields: map[string]string{}}
		for i, v := range row {
			if len(v) > maxField {
				return nil, fieldTooLong(fmt.Sprintf("%s: %s", rec.where, header[i]), len(v))
			}
			if v = strings.TrimSpace(v); v != "" {
				rec.fields[header[i]] = v
			}
		}
		out = append(out, rec)
	}
}

func yamlRecords(path string, data []byte, key string, columns []string) ([]record, error) {
	var doc map[string][]map[string]any
	if err := yaml.UnmarshalStrict(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: want a YAML map with a list under %+q: %w", path, key, err)
	}
	for k := range doc {
		if k != key {
			return nil, fmt.Errorf("%s: key %+q is unknown; want the list under %+q", path, k, key)
		}
	}
	out := make([]record, 0, len(doc[key]))
	for i, entry := range doc[key] {
		rec := record{where: fmt.Sprintf("%s: %s[%d]", path, key, i), fields: map[string]string{}}
		for k, v := range entry {
			if !slices.Contains(columns, k) {
				return nil, fmt.Errorf("%s: field %+q is unknown; valid fields are %s", rec.where, k, strings.Join(columns, ", "))
			}
			switch v := v.(type) {
			case nil:
			case float64:
				// YAML numbers decode as float64: 1000000 would print as 1e+06.
				rec.fields[k] = strconv.FormatFloat(v, 'f', -1, 64)
			default:
				rec.fields[k] = fmt.Sprint(v)
			}
			if len(rec.fields[k]) > maxField {
				return nil, fieldTooLong(fmt.Sprintf("%s: %s", rec.where, k), len(rec.fields[k]))
			}
		}
		out = append(out, rec)
	}
	return out, nil
}

// LoadNodes reads a cluster description of up to limit bytes. See docs/simulation.md.
func LoadNodes(path string, limit int64) ([]placement.NodeSpec, error) {
	return load(path, limit, "nodes", "node", MaxNodes, nodeColumns, nodeSpecs, func(n placement.NodeSpec) string { return n.Name })
}

// load reads records from a file of up to size bytes and turns each into
// one or more specs with unique names, at most limit in all.
func load[T any](path string, size int64, key, kind string, limit int, columns []string, parse func(record) ([]T, error), name func(T) string) ([]T, error) {
	records, err := readRecords(path, key, columns, size)
	if err != nil {
		return nil, err
	}
	var out []T
	seen := map[string]string{}
	for _, rec := range records {
		specs, err := parse(rec)
		if err != nil {
			return nil, err
		}
		for _, spec := range specs {
			if first, dup := seen[name(spec)]; dup {
				return nil, rec.errorf("name", "%s %+q is already described at %s; names must be unique", kind, name(spec), first)
			}
			seen[name(spec)] = rec.where
		}
		out = append(out, specs...)
		if len(out) > limit {
			return nil, rec.errorf("count", "the %s exceed the limit of %d %ss; simulate a smaller cluster or workload", key, limit, kind)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no %s", path, key)
	}
	return out, nil
}

// replicate names count copies of a spec name-0001, name-0002, ...
func replicate[T any](spec T, count int64, name string, rename func(*T, string)) []T {
	if count == 1 {
		return []T{spec}
	}
	out := make([]T, count)
	for i := range out {
		out[i] = spec
		rename(&out[i], fmt.Sprintf("%s-%04d", name, i+1))
	}
	return out
}

// nameAndCount reads the columns every record has: the name, and how many
// copies (named name-0001...) it stands for.
func nameAndCount(rec record) (string, int64, error) {
	name := rec.fields["name"]
	if name == "" {
		return "", 0, rec.errorf("name", "required")
	}
	count, err := boundedInt(rec, "count", 1, 1, MaxCount)
	return name, count, err
}

func nodeSpecs(rec record) ([]placement.NodeSpec, error) {
	name, count, err := nameAndCount(rec)
	if err != nil {
		return nil, err
	}
	cpu, err := quantity(rec, "cpu", DefaultNodeCPU, MaxCPU)
	if err != nil {
		return nil, err
	}
	memory, err := quantity(rec, "memory", DefaultNodeMemory, MaxMemory)
	if err != nil {
		return nil, err
	}
	gpus, err := boundedInt(rec, "gpus", 0, 0, MaxGPUs)
	if err != nil {
		return nil, err
	}
	mode := gpuworkload.ModeContainer
	v, ok := rec.fields["mode"]
	dra := v == draMode
	if ok && !dra {
		if mode, err = gpuworkload.ParseMode(v); err != nil {
			return nil, rec.errorf("mode", "%v, or %+q for a node whose GPUs the DRA driver publishes", err, draMode)
		}
	}
	inv, err := gpuworkload.NewGPUInventory(gpus, rec.fields["model"], rec.fields["profile"])
	if err != nil {
		return nil, rec.errorf("model/profile", "%v", err)
	}
	if dra {
		if err := draInventory(inv, rec.fields["profile"]); err != nil {
			return nil, rec.errorf("mode", "%v", err)
		}
	} else if gpus > 0 {
		if _, _, err := inv.Advertisement(mode); err != nil {
			return nil, rec.errorf("model", "%v", err)
		}
	}
	base := placement.NodeSpec{Name: name, MilliCPU: cpu.MilliValue(), Memory: memory.Value(), Mode: mode, Inventory: inv, DRA: dra}
	return replicate(base, count, name, func(n *placement.NodeSpec, name string) { n.Name = name }), nil
}

// draInventory checks what a DRA node needs: GPUs, and a card whose
// passthrough device name the vfio DeviceClass serves. vGPU is not offered
// through DRA (docs/dra.md), so a vGPU profile is a mistake.
func draInventory(inv gpuworkload.GPUInventory, profile string) error {
	switch {
	case inv.GPUs == 0:
		return fmt.Errorf("a %s node publishes its GPUs through the DRA driver: give gpus", draMode)
	case profile != "":
		return fmt.Errorf("the DRA driver offers no vGPU: remove profile %+q, or make the node vm-vgpu", profile)
	}
	if _, _, err := inv.Advertisement(gpuworkload.ModePassthrough); err != nil {
		return fmt.Errorf("a %s node serves passthrough VMs through a vfio DeviceClass, and %v", draMode, err)
	}
	return nil
}

// LoadPods reads a timed workload of up to limit bytes, sorted by arrival.
// See docs/simulation.md.
func LoadPods(path string, limit int64) ([]placement.PodSpec, error) {
	pods, err := load(path, limit, "pods", "pod", MaxPods, podColumns, podSpecs, func(p placement.PodSpec) string { return p.Name })
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(pods, func(a, b placement.PodSpec) int { return int(a.Arrival - b.Arrival) })
	return pods, nil
}

func podSpecs(rec record) ([]placement.PodSpec, error) {
	name, count, err := nameAndCount(rec)
	if err != nil {
		return nil, err
	}
	arrival, err := seconds(rec, "arrival", 0)
	if err != nil {
		return nil, err
	}
	var duration time.Duration
	if _, ok := rec.fields["departure"]; ok {
		departure, err := seconds(rec, "departure", 0)
		if err != nil {
			return nil, err
		}
		if departure <= arrival {
			return nil, rec.errorf("departure", "%s is not after arrival %s", departure, arrival)
		}
		duration = departure - arrival
	}
	cpu, err := quantity(rec, "cpu", "0", MaxCPU)
	if err != nil {
		return nil, err
	}
	memory, err := quantity(rec, "memory", "0", MaxMemory)
	if err != nil {
		return nil, err
	}
	p := placement.PodSpec{Name: name, Arrival: arrival, Duration: duration, MilliCPU: cpu.MilliValue(), Memory: memory.Value(), Node: rec.fields["node"]}
	if err := gpuRequest(rec, &p); err != nil {
		return nil, err
	}
	return replicate(p, count, name, func(p *placement.PodSpec, name string) { p.Name = name }), nil
}

// gpuRequest reads the GPU request: a resource name (gpu) with a count
// (gpus), or a mode with the model or profile that names the resource, and
// the models the pod accepts.
func gpuRequest(rec record, p *placement.PodSpec) error {
	count, err := boundedInt(rec, "gpus", 0, 0, MaxGPUs)
	if err != nil {
		return err
	}
	name, byName := rec.fields["gpu"]
	modeValue, byMode := rec.fields["mode"]
	models, err := acceptedModels(rec)
	if err != nil {
		return err
	}
	if count == 0 {
		if byName || byMode || models != nil {
			return rec.errorf("gpus", "required with gpu, mode or models: how many units the pod requests")
		}
		return nil
	}
	p.GPUCount = count
	if byName && byMode {
		return rec.errorf("gpu", "give the GPU request as a resource name (gpu) or as mode/model/profile, not both")
	}
	if byName {
		if !strings.HasPrefix(name, hardware.ResourceDomain) || name == hardware.ResourceDomain {
			return rec.errorf("gpu", "%+q is not an NVIDIA resource; want e.g. nvidia.com/gpu or nvidia.com/GA102GL_A10", name)
		}
		if profile, err := hardware.ParseVGPUTypeName(name); err == nil {
			if _, known := profile.MaxPerGPU(); !known {
				return rec.errorf("gpu", "vGPU profile %s is not in the vGPU profile table; want one the card offers, as the profile column checks", profile.Name())
			}
		}
		p.GPU = v1.ResourceName(name)
		p.VM = name != string(gpuworkload.ResourceGPU)
		if models != nil && p.VM {
			return rec.errorf("models", "%s names its model already: give models with nvidia.com/gpu, or with mode vm-passthrough instead of gpu", name)
		}
		return containerModels(rec, p, models)
	}
	mode := gpuworkload.ModeContainer
	if byMode {
		if mode, err = gpuworkload.ParseMode(modeValue); err != nil {
			return rec.errorf("mode", "%v", err)
		}
	}
	model := rec.fields["model"]
	if models != nil && mode != gpuworkload.ModeContainer {
		if model, err = passthroughModel(rec, mode, models); err != nil {
			return err
		}
		if len(models) > 1 {
			p.GPU, p.VM = draGPUs, true
			p.ClaimProducts, err = claimProducts(rec, models)
			return err
		}
	}
	inv, err := gpuworkload.NewGPUInventory(count, model, rec.fields["profile"])
	if err != nil {
		return rec.errorf("model/profile", "%v", err)
	}
	resourceName, _, err := inv.Advertisement(mode)
	if err != nil {
		return rec.errorf("model/profile", "%v", err)
	}
	p.GPU = resourceName
	p.VM = mode.IsSandbox()
	if p.VM {
		return nil
	}
	return containerModels(rec, p, models)
}

// acceptedModels reads the models column: the cards a pod accepts,
// '|'-separated as in a trace's gpu_spec, each read by CardOfModel; nil
// without the column.
func acceptedModels(rec record) ([]string, error) {
	value, ok := rec.fields["models"]
	if !ok {
		return nil, nil
	}
	var models []string
	for _, model := range strings.Split(value, "|") {
		model = strings.TrimSpace(model)
		if _, err := hardware.CardOfModel(model); err != nil || model == "" {
			return nil, rec.errorf("models", "%+q: want cards separated by |, each a vGPU family (A10), a passthrough device name (GA102GL_A10) or a GPU product (NVIDIA-A10)", value)
		}
		if !slices.Contains(models, model) {
			models = append(models, model)
		}
	}
	return models, nil
}

// containerModels keeps a container pod to the nodes whose card it accepts,
// by required node affinity on the product label GPU feature discovery
// gives each card, as a platform engineer pins a container.
func containerModels(rec record, p *placement.PodSpec, models []string) error {
	if models == nil {
		return nil
	}
	var products []string
	for _, model := range models {
		card, _ := hardware.CardOfModel(model)
		product := card.Product()
		if product == "" {
			return rec.errorf("models", "the nvidia.com/gpu.product label of %s is unknown (pci.ids names no single board for it): give the product, e.g. NVIDIA-A10", model)
		}
		if !slices.Contains(products, product) {
			products = append(products, product)
		}
	}
	p.RequiredNodeAffinity = ProductAffinity(products)
	return nil
}

// passthroughModel is the one card a VM given by mode accepts: its device
// names the model. A VM that accepts several models has none: a device
// plugin offers no alternatives, so it asks for them in a claim.
func passthroughModel(rec record, mode gpuworkload.Mode, models []string) (string, error) {
	switch {
	case mode == gpuworkload.ModeVGPU:
		return "", rec.errorf("models", "a vGPU profile names its card: give profile, not models")
	case rec.fields["model"] != "":
		return "", rec.errorf("models", "give the VM's card as model or as models, not both")
	case len(models) > 1:
		return "", nil
	}
	return models[0], nil
}

// claimProducts are the productNames the DRA driver gives the cards' devices,
// which the claim's alternatives select.
func claimProducts(rec record, models []string) ([]string, error) {
	var products []string
	for _, model := range models {
		card, _ := hardware.CardOfModel(model)
		product := card.DRAProductName()
		if product == "" {
			return nil, rec.errorf("models", "the productName the DRA driver publishes for %s is unknown (pci.ids names no single board for it): give the product, e.g. NVIDIA-A10", model)
		}
		if !slices.Contains(products, product) {
			products = append(products, product)
		}
	}
	if len(products) == 1 {
		return nil, rec.errorf("models", "%s name one card, %s: give it once", strings.Join(models, " and "), products[0])
	}
	return products, nil
}

// ProductAffinity is the required node affinity that keeps a pod to nodes
// labelled with one of the GPU products.
func ProductAffinity(products []string) *v1.NodeSelector {
	return &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{
		{Key: gpuworkload.LabelGPUProduct, Operator: v1.NodeSelectorOpIn, Values: slices.Clone(products)},
	}}}}
}

func boundedInt(rec record, field string, fallback, lowest, highest int64) (int64, error) {
	v, ok := rec.fields[field]
	if !ok {
		return fallback, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < lowest || n > highest {
		return 0, rec.errorf(field, "%+q is not a whole number from %d to %d", v, lowest, highest)
	}
	return n, nil
}

// quantity reads a non-negative Kubernetes quantity of at most limit.
func quantity(rec record, field, fallback, limit string) (resource.Quantity, error) {
	v, ok := rec.fields[field]
	if !ok {
		v = fallback
	}
	q, err := resource.ParseQuantity(v)
	if err != nil || q.Sign() < 0 {
		return q, rec.errorf(field, "%+q is not a non-negative Kubernetes quantity, e.g. %s", v, map[string]string{"cpu": "500m or 4", "memory": "16Gi"}[field])
	}
	if q.Cmp(resource.MustParse(limit)) > 0 {
		return q, rec.errorf(field, "%+q is more than the limit of %s", v, limit)
	}
	return q, nil
}

// seconds reads a time as seconds (90, 1.5) or a Go duration (90s, 2h).
func seconds(rec record, field string, fallback time.Duration) (time.Duration, error) {
	v, ok := rec.fields[field]
	if !ok {
		return fallback, nil
	}
	tooLate := rec.errorf(field, "%+q is later than %s after the start, the limit", v, maxTimeText)
	if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 0 && !math.IsInf(f, 0) {
		if f > MaxTime.Seconds() {
			return 0, tooLate
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, rec.errorf(field, "%+q is not seconds from the start; want e.g. 90 or 1h30m", v)
	}
	if d > MaxTime {
		return 0, tooLate
	}
	return d, nil
}
