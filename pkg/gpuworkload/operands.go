package gpuworkload

import (
	_ "embed"
	"fmt"
	"slices"

	"sigs.k8s.io/yaml"
)

//go:embed data/operands.yaml
var operandsYAML []byte

// Operand is one GPU Operator DaemonSet and the node label that selects it.
type Operand struct {
	// DeployLabel is the suffix of the node label nvidia.com/gpu.deploy.<DeployLabel>.
	DeployLabel string `json:"deployLabel"`
	DaemonSet   string `json:"daemonSet"`
	Purpose     string `json:"purpose"`
	// Required operands get their label on every GPU node of the mode.
	Required bool `json:"required"`
	// Runtime, when set, restricts the operand to that sandboxWorkloads.mode.
	Runtime SandboxRuntime `json:"runtime,omitempty"`
}

// LabelKey is the full node label key that schedules this operand.
func (o Operand) LabelKey() string { return DeployLabelPrefix + o.DeployLabel }

// OperandTable maps each mode to the operands that run on its nodes.
type OperandTable struct {
	Modes map[Mode][]Operand `json:"modes"`
	// DRA are the deploy label suffixes of a DRA node.
	DRA []string `json:"draDeployLabels"`

	// Derived once at load, because node state asks for them on every node.
	expected map[Mode]map[SandboxRuntime][]string
	foreign  map[Mode][]string
	// draExpected and draForeign are DRADeployLabels' answers for a DRA node.
	draExpected, draForeign []string
}

var operandTable = mustParseOperandTable(operandsYAML)

// Operands returns the embedded operand table.
func Operands() *OperandTable { return operandTable }

func mustParseOperandTable(data []byte) *OperandTable {
	table, err := parseOperandTable(data)
	if err != nil {
		panic(fmt.Sprintf("embedded data/operands.yaml: %v", err))
	}
	return table
}

func parseOperandTable(data []byte) (*OperandTable, error) {
	var table OperandTable
	if err := yaml.UnmarshalStrict(data, &table); err != nil {
		return nil, err
	}
	for mode, operands := range table.Modes {
		if _, err := ParseMode(string(mode)); err != nil {
			return nil, fmt.Errorf("modes: %w", err)
		}
		for i, o := range operands {
			if o.DeployLabel == "" || o.DaemonSet == "" || o.Purpose == "" {
				return nil, fmt.Errorf("modes.%s[%d]: deployLabel, daemonSet and purpose are required", mode, i)
			}
			if o.Runtime != "" && o.Runtime != RuntimeKubeVirt && o.Runtime != RuntimeKata {
				return nil, fmt.Errorf("modes.%s[%d].runtime: %+q is not %+q or %+q", mode, i, o.Runtime, RuntimeKubeVirt, RuntimeKata)
			}
		}
	}
	table.expected = map[Mode]map[SandboxRuntime][]string{}
	table.foreign = map[Mode][]string{}
	for _, mode := range Modes {
		if len(table.Modes[mode]) == 0 {
			return nil, fmt.Errorf("modes.%s: no operands", mode)
		}
		table.expected[mode] = map[SandboxRuntime][]string{
			RuntimeKubeVirt: table.requiredLabels(mode, RuntimeKubeVirt),
			RuntimeKata:     table.requiredLabels(mode, RuntimeKata),
		}
		table.foreign[mode] = table.otherModesLabels(mode)
	}
	if !slices.Contains(table.DRA, draDriverDeployLabel) {
		return nil, fmt.Errorf("draDeployLabels: want %s among them", draDriverDeployLabel)
	}
	for _, l := range table.DRA {
		table.draExpected = append(table.draExpected, DeployLabelPrefix+l)
	}
	slices.Sort(table.draExpected)
	// No mode is the DRA node's: every mode's labels are another's.
	for _, key := range table.otherModesLabels("") {
		if !slices.Contains(table.draExpected, key) {
			table.draForeign = append(table.draForeign, key)
		}
	}
	return &table, nil
}

// For lists the operands of a mode under the given sandbox runtime.
func (t *OperandTable) For(mode Mode, runtime SandboxRuntime) []Operand {
	var out []Operand
	for _, o := range t.Modes[mode] {
		if o.Runtime == "" || o.Runtime == runtime {
			out = append(out, o)
		}
	}
	return out
}

// ExpectedDeployLabels are the label keys the operator sets on every GPU node
// of the mode, sorted. The result is shared: do not modify it.
func (t *OperandTable) ExpectedDeployLabels(mode Mode, runtime SandboxRuntime) []string {
	return t.expected[mode][runtime]
}

// draDriverDeployLabel schedules the DRA driver: the operator sets it only
// on a DRA node.
const draDriverDeployLabel = "dra-driver"

// DRADeployLabels are, for a node the labels say is a DRA node, the deploy
// label keys the operator sets there and those of every mode it would
// delete, sorted and shared (do not modify them); ok is false for another
// node.
func (t *OperandTable) DRADeployLabels(labels map[string]string) (expected, foreign []string, ok bool) {
	if _, ok := labels[DeployLabelPrefix+draDriverDeployLabel]; !ok {
		return nil, nil, false
	}
	return t.draExpected, t.draForeign, true
}

// ForeignDeployLabels are the label keys that belong only to other modes: the
// operator deletes them from a node of this mode. Sorted and shared: do not
// modify it.
func (t *OperandTable) ForeignDeployLabels(mode Mode) []string {
	return t.foreign[mode]
}

func (t *OperandTable) requiredLabels(mode Mode, runtime SandboxRuntime) []string {
	var keys []string
	for _, o := range t.For(mode, runtime) {
		if o.Required {
			keys = append(keys, o.LabelKey())
		}
	}
	slices.Sort(keys)
	return keys
}

func (t *OperandTable) otherModesLabels(mode Mode) []string {
	own := map[string]bool{}
	for _, o := range t.Modes[mode] {
		own[o.LabelKey()] = true
	}
	var keys []string
	for _, other := range Modes {
		if other == mode {
			continue
		}
		for _, o := range t.Modes[other] {
			if key := o.LabelKey(); !own[key] && !slices.Contains(keys, key) {
				keys = append(keys, key)
			}
		}
	}
	slices.Sort(keys)
	return keys
}
