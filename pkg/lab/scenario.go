package lab

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/kubernetes/pkg/util/taints"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
)

// ExpectFile holds a scenario's expectations.
const ExpectFile = "expect.yaml"

// ControllerFile holds how the scenario runs the mode controller.
const ControllerFile = "controller.yaml"

// Scenario is a directory of YAML: nodes (with a status block), pods, and
// optionally a ClusterPolicy, a KubeVirt CR and namespaces; see docs/lab.md.
type Scenario struct {
	Dir        string
	Objects    []*unstructured.Unstructured
	Expect     *Expectations
	Controller ControllerSettings
}

// ControllerSettings is how the lab runs gpu-workload-controller; without
// a controller.yaml, in dry run.
type ControllerSettings struct {
	// Operation is its --operation.
	Operation modecontroller.Operation `json:"operation"`
	// Args are more of its flags, after the lab's own (the last of a flag
	// wins), e.g. --conversion-timeout=30s; the controller checks them.
	Args []string `json:"args,omitempty"`
}

// Expectations says, per pod and per VMI (its launcher pod), where it must
// land or why it must stay Pending; for a VMI, also that KubeVirt refuses
// to create its pod; per node, its labels, taints and events.
type Expectations struct {
	Pods  map[string]PodExpectation  `json:"pods"`
	VMIs  map[string]PodExpectation  `json:"vmis"`
	Nodes map[string]NodeExpectation `json:"nodes"`
	// Metrics are gpu_workload_ series of the scheduler's /metrics, written
	// as the exposition format gives them, with their values.
	Metrics map[string]float64 `json:"metrics"`
	// Explain are, per argument list of kubectl gpu-workload explain
	// ("pod NAME", "vm NAME -n NAMESPACE", ...), a text its output contains.
	Explain map[string]string `json:"explain"`
}

// PodExpectation is a node, a Pending reason substring, or (VMIs only) a
// FailedCreate message substring. Phase, with a node, is the pod's phase
// there (Running, Failed, ...). Fix, with pending, is FixFails when the
// pod's fix, followed in check mode, must leave it Pending: the scenario's
// hardware cannot do what the fix asks.
type PodExpectation struct {
	// Scheduler is the pod's schedulerName once admitted: a scenario pod
	// that names none is routed by the chart's policies.
	Scheduler    string      `json:"scheduler,omitempty"`
	Node         string      `json:"node,omitempty"`
	Phase        v1.PodPhase `json:"phase,omitempty"`
	Pending      string      `json:"pending,omitempty"`
	Fix          string      `json:"fix,omitempty"`
	FailedCreate string      `json:"failedCreate,omitempty"`
}

// FixFails is PodExpectation.Fix for a fix that must not land the pod.
const FixFails = "fails"

// NodeExpectation is what a node must show. Labels must have these values
// ("" for a label that must be absent); Taints, when given, are all the
// node's taints, each as key:Effect or key=value:Effect ([] for none);
// each of Events is "Reason: text", an event about the node of that
// reason whose message contains the text.
type NodeExpectation struct {
	Labels map[string]string `json:"labels,omitempty"`
	Taints *[]string         `json:"taints,omitempty"`
	Events []string          `json:"events,omitempty"`
}

// taints are Taints in kubectl taint's notation (key=value:Effect) and
// sorted, for comparison with a node's; nil when not given.
func (e NodeExpectation) taints() ([]string, error) {
	if e.Taints == nil {
		return nil, nil
	}
	parsed, removals, err := taints.ParseTaints(*e.Taints)
	if err == nil && len(removals) > 0 {
		err = fmt.Errorf("%s removes a taint; list the taints the node must have", removals[0].ToString()+"-")
	}
	if err != nil {
		return nil, err
	}
	out := make([]string, len(parsed))
	for i := range parsed {
		out[i] = parsed[i].ToString()
	}
	slices.Sort(out)
	return out, nil
}

// applyOrder puts what others depend on first; pods come last, after the scheduler starts.
var applyOrder = []string{"Namespace", "PriorityClass", "ClusterPolicy", "KubeVirt", "Node"}

func rank(kind string) int {
	if i := slices.Index(applyOrder, kind); i >= 0 {
		return i
	}
	if kind == "Pod" {
		return len(applyOrder) + 1
	}
	return len(applyOrder)
}

// LoadScenario reads every *.yaml and *.yml file of dir except expect.yaml.
func LoadScenario(dir string) (*Scenario, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", dir, err)
	}
	s := &Scenario{Dir: dir, Controller: ControllerSettings{Operation: modecontroller.DryRun}}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !(strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
			continue
		}
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if name == ControllerFile {
			if err := yaml.UnmarshalStrict(data, &s.Controller); err != nil {
				return nil, fmt.Errorf("%s: %w; want operation: one of %v, and optionally args: [--flag=value, ...]", path, err, modecontroller.Operations)
			}
			for i, arg := range s.Controller.Args {
				if !strings.HasPrefix(arg, "--") {
					return nil, fmt.Errorf("%s: args[%d]: %+q is not a flag; write it --name=value", path, i, arg)
				}
			}
			if !slices.Contains(modecontroller.Operations, s.Controller.Operation) {
				return nil, fmt.Errorf("%s: operation: %+q is not one of %v", path, s.Controller.Operation, modecontroller.Operations)
			}
			continue
		}
		if name == ExpectFile {
			s.Expect = &Expectations{}
			if err := yaml.UnmarshalStrict(data, s.Expect); err != nil {
				return nil, fmt.Errorf("%s: %w; want pods: {<pod>: {node: <node>, phase: <phase>} or {pending: <text in the reason>}}, vmis: {<vmi>: the same, or {failedCreate: <text in the message>}}, nodes: {<node>: {labels: {<key>: <value>}, taints: [<key>:<Effect>], events: [\"<Reason>: <text in the message>\"]}}, metrics: {<gpu_workload_ series>: <value>}", path, err)
			}
			for pod, want := range s.Expect.Pods {
				if (want.Node == "") == (want.Pending == "") || want.FailedCreate != "" {
					return nil, fmt.Errorf("%s: pods.%s: set exactly one of node and pending", path, pod)
				}
				if want.Phase != "" && want.Node == "" {
					return nil, fmt.Errorf("%s: pods.%s.phase: a phase needs the node the pod is bound to; set node too", path, pod)
				}
				if want.Fix != "" && (want.Fix != FixFails || want.Pending == "") {
					return nil, fmt.Errorf("%s: pods.%s.fix: %+q; the only value is %+q, with pending, for a fix that must leave the pod Pending", path, pod, want.Fix, FixFails)
				}
			}
			for node, want := range s.Expect.Nodes {
				for i, e := range want.Events {
					if reason, text, ok := strings.Cut(e, ": "); !ok || reason == "" || text == "" {
						return nil, fmt.Errorf("%s: nodes.%s.events[%d]: %+q is not \"<Reason>: <text in the message>\", e.g. \"NotDrained: has no controller\"", path, node, i, e)
					}
				}
				if _, err := want.taints(); err != nil {
					return nil, fmt.Errorf("%s: nodes.%s.taints: %w", path, node, err)
				}
			}
			for vmi, want := range s.Expect.VMIs {
				if set := btoi(want.Node != "") + btoi(want.Pending != "") + btoi(want.FailedCreate != ""); set != 1 {
					return nil, fmt.Errorf("%s: vmis.%s: set exactly one of node, pending and failedCreate", path, vmi)
				}
			}
			continue
		}
		objs, err := decodeDocuments(data, path)
		if err != nil {
			return nil, err
		}
		s.Objects = append(s.Objects, objs...)
	}
	if len(s.Objects) == 0 {
		return nil, fmt.Errorf("scenario %s has no objects; want YAML files with nodes and pods (see docs/lab.md)", dir)
	}
	slices.SortStableFunc(s.Objects, func(a, b *unstructured.Unstructured) int { return rank(a.GetKind()) - rank(b.GetKind()) })
	return s, nil
}

func decodeDocuments(data []byte, path string) ([]*unstructured.Unstructured, error) {
	decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []*unstructured.Unstructured
	for i := 0; ; i++ {
		var obj map[string]any
		if err := decoder.Decode(&obj); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("%s: document %d: %w", path, i+1, err)
		}
		if obj == nil {
			continue
		}
		u := &unstructured.Unstructured{Object: obj}
		if u.GetKind() == "" || u.GetAPIVersion() == "" || u.GetName() == "" {
			return nil, fmt.Errorf("%s: document %d: apiVersion, kind and metadata.name are required", path, i+1)
		}
		if (u.GetKind() == "Pod" || u.GetKind() == "VirtualMachineInstance" || u.GetKind() == "VirtualMachine") && u.GetNamespace() == "" {
			u.SetNamespace("default")
		}
		if u.GetDeletionTimestamp() != nil && len(u.GetFinalizers()) == 0 {
			return nil, fmt.Errorf("%s: document %d: %s %s: metadata.deletionTimestamp without metadata.finalizers: the lab deletes it after creating it, and without a finalizer it would be gone at once; add a finalizer such as example.com/hold", path, i+1, u.GetKind(), u.GetName())
		}
		out = append(out, u)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// VMIs are the scenario's VirtualMachineInstances. A VirtualMachine's VMI
// has its name: the VMs stand for theirs.
func (s *Scenario) VMIs() []*unstructured.Unstructured {
	return append(s.ofKind("VirtualMachineInstance"), s.ofKind("VirtualMachine")...)
}

// Pods are the scenario's pods.
func (s *Scenario) Pods() []*unstructured.Unstructured { return s.ofKind("Pod") }

func (s *Scenario) ofKind(kind string) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range s.Objects {
		if o.GetKind() == kind {
			out = append(out, o)
		}
	}
	return out
}
