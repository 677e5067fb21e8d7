package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

var update = flag.Bool("update", false, "rewrite the golden files in test/testdata/golden")

const testdata = "../../test/testdata"

func run(t *testing.T, stdin io.Reader, args ...string) (int, string, string) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), args, stdin, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// golden compares a command's exit code and output with test/testdata/golden/<name>.txt.
func golden(t *testing.T, name string, stdin io.Reader, args ...string) {
	t.Helper()
	code, stdout, stderr := run(t, stdin, args...)
	got := fmt.Sprintf("$ kubectl gpu-workload %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(args, " "), code, stdout, stderr)
	path := filepath.Join(testdata, "golden", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./pkg/cli -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test ./pkg/cli -update rewrites it):\n%s\nwant:\n%s", name, got, want)
	}
}

func checkData(name string) string { return filepath.Join(testdata, "check", name) }

func TestCheckGolden(t *testing.T) {
	policy := checkData("clusterpolicy-enabled.yaml")
	golden(t, "check-healthy", nil, "check", "-f", checkData("healthy.json"), "--cluster-policy", policy, "--kubevirt", checkData("kubevirt.yaml"))
	golden(t, "check-healthy-json", nil, "check", "-f", checkData("healthy.json"), "--cluster-policy", policy, "--kubevirt", checkData("kubevirt.yaml"), "-o", "json")
	golden(t, "check-seed-broken-node", nil, "check", "-f", checkData("seed-broken-node.json"), "--cluster-policy", policy, "--fail-on", "error")
	// Sandbox workloads disabled: the permitted VM GPUs are missing because of the policy, not KubeVirt.
	golden(t, "check-kubevirt-sandbox-disabled", nil, "check", "-f", checkData("ModeLabelIgnored.json"), "--cluster-policy", checkData("clusterpolicy-disabled.yaml"),
		"--kubevirt", checkData("kubevirt.yaml"))
	// DRA objects beside the nodes: each DRA check finds something, and a DRA node is not "NothingAdvertised".
	golden(t, "check-dra", nil, "check", "-f", checkData("dra-nodes.json"), "--cluster-policy", policy, "--dra", checkData("dra.yaml"))
	// A dump of a cluster that enables sandbox workloads, checked without its
	// ClusterPolicy: every finding of the assumed defaults says so.
	golden(t, "check-without-cluster-policy", nil, "check", "-f", checkData("healthy.json"), "--kubevirt", checkData("kubevirt.yaml"))
	golden(t, "check-kubevirt-typos", nil, "check", "-f", checkData("kubevirt-typos-nodes.json"), "--cluster-policy", policy, "--kubevirt", checkData("kubevirt-typos.yaml"))
	for _, code := range gpuworkload.FindingCodes {
		dump := checkData(string(code) + ".json")
		if _, err := os.Stat(dump); err != nil {
			continue // KubeVirt and VMI codes: kubevirt-typos above and the integration test.
		}
		args := []string{"check", "-f", dump, "--cluster-policy", policy}
		if code == gpuworkload.FindingModeLabelIgnored {
			args[len(args)-1] = checkData("clusterpolicy-disabled.yaml")
		}
		t.Run(string(code), func(t *testing.T) {
			golden(t, "check-"+string(code), nil, args...)
			_, stdout, _ := run(t, nil, append(args, "-o", "json")...)
			if !strings.Contains(stdout, `"code": "`+string(code)+`"`) {
				t.Errorf("the %s dump does not raise %s", dump, code)
			}
		})
	}
}

func TestCheckReadsStandardInputAndYAML(t *testing.T) {
	data, err := os.ReadFile(checkData("seed-broken-node.json"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, bytes.NewReader(data), "check", "-f", "-", "--cluster-policy", checkData("clusterpolicy-enabled.yaml"))
	if code != ExitFindings || !strings.Contains(stdout, "ForeignResource") || !strings.Contains(stdout, "kubectl label node gpu-broken") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// fileWriter writes files into a directory of the test's own, returning
// their paths.
func fileWriter(t *testing.T) func(name, content string) string {
	dir := t.TempDir()
	return func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
}

func TestBadInput(t *testing.T) {
	write := fileWriter(t)
	malformed := write("broken.json", `{"kind": "NodeList", "items": [`)
	pods := write("pods.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n")
	duplicates := write("duplicates.yaml", "kind: Node\nmetadata: {name: gpu-1}\n---\nkind: Node\nmetadata: {name: gpu-1}\n")
	notAQuantity := write("not-a-quantity.json", `{"kind": "NodeList", "items": [{"metadata": {"name": "gpu-1"}, "status": {"allocatable": {"cpu": "4", "nvidia.com/gpu": "four"}}}]}`)
	// Items decode in parallel; the error still names the first bad one,
	// before the truncation that ends the list.
	var many []string
	for i := range 40 {
		gpus := `"4"`
		if i == 7 || i == 30 {
			gpus = `"four"`
		}
		many = append(many, fmt.Sprintf(`{"metadata": {"name": "gpu-%d"}, "status": {"allocatable": {"nvidia.com/gpu": %s}}}`, i, gpus))
	}
	secondBad := write("second-bad.json", `{"kind": "NodeList", "items": [`+strings.Join(many, ",")+`, {"metadata": `)
	halfGPU := write("half-gpu.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {limits: {nvidia.com/gpu: 0.5}}\n")
	requestAboveLimit := write("request-above-limit.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: lab}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {nvidia.com/gpu: 2}, limits: {nvidia.com/gpu: 1}}\n")
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"malformed JSON", []string{"check", "-f", malformed}, "error: " + malformed + ": document 1: not valid JSON or YAML"},
		{"duplicate node names", []string{"check", "-f", duplicates}, "error: " + duplicates + `: node "gpu-1" appears as object 0 and object 1; a dump holds each node once`},
		{"standard input twice", []string{"check", "-f", "-", "--cluster-policy", "-"}, "error: --cluster-policy, -f all read standard input, which can be read once"},
		{"KubeVirt as the ClusterPolicy", []string{"check", "-f", checkData("healthy.json"), "--cluster-policy", checkData("kubevirt.yaml")}, "'kubectl get clusterpolicies -o json'"},
		{"wrong kind", []string{"check", "-f", pods}, "error: " + pods + `: object 0 is a "Pod", not a Node; want the output of 'kubectl get nodes -o json'`},
		{"missing file", []string{"check", "-f", filepath.Join(filepath.Dir(malformed), "absent.json")}, "error: open " + filepath.Join(filepath.Dir(malformed), "absent.json") + ": no such file or directory"},
		{"ClusterPolicy of the wrong kind", []string{"check", "-f", checkData("healthy.json"), "--cluster-policy", checkData("kubevirt.yaml")}, `: object 0 is a "KubeVirt", not a ClusterPolicy`},
		{"unknown flag", []string{"check", "--nodes", "x"}, "error: unknown flag: --nodes"},
		{"bad --fail-on", []string{"check", "-f", checkData("healthy.json"), "--fail-on", "fatal"}, `error: --fail-on: invalid severity "fatal"`},
		{"bad output", []string{"check", "-f", checkData("healthy.json"), "-o", "xml"}, `error: --output "xml": valid values are table, json, yaml`},
		{"a conversion timeout with no unit", []string{"check", "-f", checkData("healthy.json"), "--conversion-timeout", "20ns"},
			"error: --conversion-timeout: 20ns is under one second; give the mode controller's --conversion-timeout, e.g. 20m"},
		{"cluster policy without a dump", []string{"check", "--cluster-policy", checkData("clusterpolicy-enabled.yaml")}, "error: --cluster-policy and --kubevirt need -f"},
		{"explain without nodes", []string{"explain", "-f", pods}, "error: -f " + pods + " needs --nodes"},
		{"explain of a node dump as a pod", []string{"explain", "-f", checkData("healthy.json"), "--nodes", checkData("healthy.json")}, ": holds 4 objects; want one Pod manifest"},
		{"a quantity that is none", []string{"check", "-f", notAQuantity},
			"error: " + notAQuantity + `: document 1: items[0]: status.allocatable[nvidia.com/gpu]: "four" is not a Kubernetes quantity, e.g. 4, 500m or 16Gi; want the output of 'kubectl get nodes -o json'`},
		{"the first of several bad items", []string{"check", "-f", secondBad},
			"error: " + secondBad + `: document 1: items[7]: status.allocatable[nvidia.com/gpu]: "four" is not a Kubernetes quantity`},
		{"a fractional GPU limit", []string{"explain", "-f", halfGPU, "--nodes", checkData("healthy.json")},
			"error: " + halfGPU + `: Pod/default/p: spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "500m": 500m is not a whole number of units from 0 to 65536`},
		{"a GPU request above its limit in a pod dump", []string{"advise", "--nodes", checkData("healthy.json"), "--pods", requestAboveLimit},
			"error: " + requestAboveLimit + `: Pod/lab/p: spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: "2": the API server requires an extended resource's request to equal its limit (1)`},
		{"explain with nothing", []string{"explain"}, "error: want `explain (pod|vmi|vm) NAME [-n NAMESPACE]` or `explain -f POD --nodes NODES`"},
		{"invalid mode", []string{"operands", "vgpu"}, `error: invalid GPU workload mode "vgpu": valid values are "container", "vm-passthrough", "vm-vgpu"`},
		{"too many args", []string{"operands", "container", "vm-vgpu"}, "error: accepts at most 1 arg(s), received 2"},
		{"unknown command", []string{"status"}, `error: unknown command "status"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := run(t, nil, tc.args...)
			if code != ExitUsage || !strings.Contains(stderr, tc.stderr) || strings.Contains(stderr, "goroutine") {
				t.Fatalf("exit %d, stderr %q; want exit 2 and %q", code, stderr, tc.stderr)
			}
		})
	}
}

func TestExplainGolden(t *testing.T) {
	nodes := checkData("seed-broken-node.json")
	enabled, disabled := checkData("clusterpolicy-enabled.yaml"), checkData("clusterpolicy-disabled.yaml")
	pod := func(name string) string { return filepath.Join(testdata, "explain", name) }
	golden(t, "explain-vm-a10", nil, "explain", "-f", pod("vm-a10.yaml"), "--nodes", nodes, "--cluster-policy", enabled)
	golden(t, "explain-vm-a10-sandbox-disabled", nil, "explain", "-f", pod("vm-a10.yaml"), "--nodes", nodes, "--cluster-policy", disabled)
	golden(t, "explain-vm-l40s", nil, "explain", "-f", pod("vm-l40s.yaml"), "--nodes", nodes, "--cluster-policy", enabled)
	// gpu-broken's mode label was written days before the dump was read: it
	// is mismatched, not converting, and its unit is not free.
	golden(t, "explain-vm-a10-mismatched-node", nil, "explain", "-f", pod("vm-a10.yaml"), "--nodes", checkData("seed-broken-node-timed.json"), "--cluster-policy", enabled)
	// The pod's reason and its code, for programs.
	golden(t, "explain-vm-l40s-json", nil, "explain", "-f", pod("vm-l40s.yaml"), "--nodes", nodes, "--cluster-policy", enabled, "-o", "json")
	// The deployed args choose another ClusterPolicy than the oldest.
	policies := pod("two-clusterpolicies.yaml")
	golden(t, "explain-vm-a10-shipped-args", nil, "explain", "-f", pod("vm-a10.yaml"), "--nodes", nodes, "--cluster-policy", policies)
	golden(t, "explain-vm-a10-deployed-args", nil, "explain", "-f", pod("vm-a10.yaml"), "--nodes", nodes, "--cluster-policy", policies,
		"--scheduler-config", pod("scheduler-config.yaml"))
	golden(t, "explain-cuda-json", nil, "explain", "-f", pod("cuda.yaml"), "--nodes", nodes, "--cluster-policy", enabled, "-o", "json")
	// A VM's vfio claim on DRA nodes: each device's verdict, and why none is usable.
	golden(t, "explain-vm-dra", nil, "explain", "-f", pod("vm-dra.yaml"), "--nodes", pod("dra-nodes.json"), "--cluster-policy", enabled, "--dra", pod("dra.yaml"))
	// Two vfio devices of one product: GPUWorkloadFit counts two free on
	// each node, and the allocator refuses the node whose two differ.
	golden(t, "explain-vm-dra-constraint", nil, "explain", "-f", pod("vm-pair.yaml"), "--nodes", pod("dra-pair-nodes.json"), "--cluster-policy", enabled, "--dra", pod("dra-pair.yaml"))
}

func TestAdviseGolden(t *testing.T) {
	data := func(name string) string { return filepath.Join(testdata, "advise", name) }
	enabled := checkData("clusterpolicy-enabled.yaml")
	golden(t, "advise-relabel", nil, "advise", "--nodes", data("nodes.json"), "--pods", data("pods.json"), "--cluster-policy", enabled)
	golden(t, "advise-relabel-json", nil, "advise", "--nodes", data("nodes.json"), "--pods", data("pods.json"), "--cluster-policy", enabled, "-o", "json")
	golden(t, "advise-vgpu-profile", nil, "advise", "--nodes", data("nodes.json"), "--pods", data("pods-vgpu-profile.json"), "--cluster-policy", enabled)
	golden(t, "advise-drain-first", nil, "advise", "--nodes", data("nodes.json"), "--pods", data("pods-more-than-empty-nodes.json"), "--cluster-policy", enabled)
	golden(t, "advise-sandbox-disabled", nil, "advise", "--nodes", data("nodes.json"), "--pods", data("pods.json"), "--cluster-policy", checkData("clusterpolicy-disabled.yaml"))
	golden(t, "advise-nothing-pending", nil, "advise", "--nodes", data("nodes.json"), "--pods", data("pods-running.json"), "--cluster-policy", enabled)
	golden(t, "advise-container-demand-served", nil, "advise", "--nodes", data("nodes.json"), "--pods", filepath.Join(testdata, "explain", "cuda.yaml"))
	golden(t, "advise-pods-without-nodes", nil, "advise", "--pods", data("pods.json"))
	// A VM larger than any node and a pod of two modes: nothing proposed, each with why.
	golden(t, "advise-unservable", nil, "advise", "--nodes", data("nodes.json"), "--pods", data("pods-unservable.json"), "--cluster-policy", enabled)
	// Every A10 is in use and the waiting VM needs more CPUs than any node has: the relabel the advisor finds places nothing in simulation, so it is withdrawn.
	golden(t, "advise-no-gain", nil, "advise", "--nodes", data("nodes.json"), "--pods", data("pods-no-gain.json"), "--cluster-policy", enabled)
	// An idle A100 SXM4 80GB container node and a VM asking for its family's vGPU type: the relabel names A100DX-20C.
	golden(t, "advise-a100-sxm4", nil, "advise", "--nodes", data("nodes-a100-sxm4.json"), "--pods", data("pods-a100dx-vm.json"), "--cluster-policy", enabled)
	// A pod pinned to Tesla-T4 beside an idle A10 container node: the idle passthrough T4 converts, and the simulated gain replays the nodeSelector.
	golden(t, "advise-pinned", nil, "advise", "--nodes", data("nodes-pinned.json"), "--pods", data("pods-pinned.json"), "--cluster-policy", enabled)
	// An idle DRA node and a waiting vGPU VM: the driver has no mode to change, so nothing is proposed.
	golden(t, "advise-dra-node", nil, "advise", "--nodes", data("nodes-dra.json"), "--pods", data("pods-vgpu-vm.json"), "--cluster-policy", enabled, "--dra", data("dra.yaml"))
}

func TestInventoryGolden(t *testing.T) {
	data := func(name string) string { return filepath.Join(testdata, "advise", name) }
	enabled := checkData("clusterpolicy-enabled.yaml")
	golden(t, "inventory", nil, "inventory", "--nodes", data("nodes.json"), "--pods", data("pods.json"), "--cluster-policy", enabled)
	golden(t, "inventory-json", nil, "inventory", "--nodes", data("nodes.json"), "--pods", data("pods.json"), "--cluster-policy", enabled, "-o", "json")
	// DRA nodes: devices by type and state, and a VM waiting for its vfio claim.
	dra := func(name string) string { return filepath.Join(testdata, "explain", name) }
	golden(t, "inventory-dra", nil, "inventory", "--nodes", dra("dra-nodes.json"), "--pods", dra("vm-dra.yaml"), "--cluster-policy", enabled, "--dra", dra("dra.yaml"))
}

func TestVMIDeviceNamesReportsMalformedLists(t *testing.T) {
	vmi := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"domain": map[string]any{"devices": map[string]any{
		"gpus":        []any{map[string]any{"name": "gpu1", "deviceName": "nvidia.com/GA102GL_A10"}, "nvidia.com/GA102GL_A40", map[string]any{"deviceName": int64(7)}, map[string]any{"claimName": "gpu"}},
		"hostDevices": "nvidia.com/GA102GL_A10",
	}}}}}
	names, fromClaims, malformed := vmiDeviceNames(vmi, nil)
	if want := []v1.ResourceName{"nvidia.com/GA102GL_A10"}; !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	if want := []string{"gpus"}; !slices.Equal(fromClaims, want) {
		t.Errorf("lists that take devices from claims %v, want %v", fromClaims, want)
	}
	want := []string{
		"spec.domain.devices.gpus[1]: a string, not an object",
		"spec.domain.devices.gpus[2].deviceName: a int64, not a string",
		"spec.domain.devices.hostDevices: .spec.domain.devices.hostDevices accessor error: nvidia.com/GA102GL_A10 is of the type string, expected []interface{}",
	}
	if !slices.Equal(malformed, want) {
		t.Errorf("malformed\n%q\nwant\n%q", malformed, want)
	}
}

// An API server that cannot be reached is a failure of the command, not a
// finding about the cluster; the message names the call and where the
// server came from.
func TestUnreachableClusterExitsWithFailure(t *testing.T) {
	for _, args := range [][]string{{"check"}, {"explain", "pod", "p"}, {"advise"}} {
		args = append(args, "--server", "https://127.0.0.1:1", "--insecure-skip-tls-verify", "--request-timeout", "5s")
		code, _, stderr := run(t, nil, args...)
		if code != ExitFailure || !strings.Contains(stderr, "list nodes") || !strings.Contains(stderr, "(server https://127.0.0.1:1 from --server)") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d naming the call that failed and the server", args, code, stderr, ExitFailure)
		}
	}
	kubeconfig := fileWriter(t)("kubeconfig", `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {}}]
contexts: [{name: lab, context: {cluster: c, user: u}}]
current-context: lab
`)
	code, _, stderr := run(t, nil, "check", "--kubeconfig", kubeconfig, "--request-timeout", "5s")
	if want := fmt.Sprintf("(server https://127.0.0.1:1 of context \"lab\" in kubeconfig %s)", kubeconfig); code != ExitFailure || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit %d and %s", code, stderr, ExitFailure, want)
	}
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	code, _, stderr = run(t, nil, "check", "--request-timeout", "5s")
	if code != ExitFailure || !strings.Contains(stderr, "no kubeconfig found in") || !strings.Contains(stderr, "give one with --kubeconfig or KUBECONFIG") {
		t.Errorf("without a kubeconfig: exit %d, stderr %q; want exit %d saying none was found", code, stderr, ExitFailure)
	}
}

// -v is klog's verbosity, as kubectl users expect; --version prints the version.
func TestVerbosityAndVersionFlags(t *testing.T) {
	if code, stdout, stderr := run(t, nil, "-v", "0", "operands"); code != ExitOK || strings.Contains(stdout, "kubectl-gpu_workload") {
		t.Errorf("-v 0 operands: exit %d, stdout %q, stderr %q; want the operands", code, stdout, stderr)
	}
	if code, stdout, _ := run(t, nil, "--version"); code != ExitOK || !strings.HasPrefix(stdout, "kubectl-gpu_workload") {
		t.Errorf("--version: exit %d, stdout %q", code, stdout)
	}
}

// Every document of a multi-document YAML dump, and every value of
// concatenated JSON, is read: the second node's finding is not lost.
func TestDumpsReadEveryDocument(t *testing.T) {
	healthy := `{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "gpu-1", "labels": {"nvidia.com/gpu.present": "true", "nvidia.com/gpu.workload.config": "container"}},
 "status": {"capacity": {"nvidia.com/gpu": "1"}, "allocatable": {"nvidia.com/gpu": "1"}}}`
	broken := `{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "gpu-2", "labels": {"nvidia.com/gpu.present": "true", "nvidia.com/gpu.workload.config": "vm"}}}`
	for name, dump := range map[string]string{
		"multi-document YAML": healthy + "\n---\n" + broken + "\n---\n",
		"concatenated JSON":   healthy + "\n" + broken,
	} {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := run(t, strings.NewReader(dump), "check", "-f", "-", "-o", "json")
			if code != 1 || !strings.Contains(stdout, `"object": "Node/gpu-2"`) || !strings.Contains(stdout, `"code": "ModeLabelIgnored"`) {
				t.Fatalf("exit %d, want 1 with gpu-2's ModeLabelIgnored\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// A large simulation reports, for each cluster it simulates, the pending
// pods tried and placed so far.
func TestAdviseReportsProgress(t *testing.T) {
	// Ten nodes per mode, four A10s each: the ten passthrough nodes take 40
	// VMs now, and the twenty empty others relabelled take 80 more.
	nodes, _ := writeNodeDump(t, 40)
	pods := writePendingVMs(t, 5000) // conversionplan reports every 5,000 pending pods
	code, _, stderr := run(t, nil, "advise", "--nodes", nodes, "--pods", pods, "--cluster-policy", checkData("clusterpolicy-enabled.yaml"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"advise: 20 relabel(s) proposed; simulating the cluster now and relabelled with 5000 pending GPU pods",
		"advise: cluster now: 5000 of 5000 pending GPU pods tried, 40 placed so far\n",
		"advise: cluster relabelled: 5000 of 5000 pending GPU pods tried, 120 placed so far\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
