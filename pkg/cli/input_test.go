package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
)

// An empty List, what 'kubectl get pods -o json' prints without pods, is a
// dump of nothing, in JSON and in YAML; an input without any object is an
// error that says what to give.
func TestEmptyListIsADumpOfNothing(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		wantErr     bool
	}{
		{name: "JSON List", input: `{"apiVersion": "v1", "items": [], "kind": "List", "metadata": {"resourceVersion": ""}}`},
		{name: "YAML List", input: "apiVersion: v1\nitems: []\nkind: List\n"},
		{name: "nothing", input: "\n", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pods, err := readPods("-", inputSource{stdin: strings.NewReader(tc.input), limit: inputlimit.Default})
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "not a Kubernetes object; want the output of 'kubectl get pods") {
					t.Fatalf("pods %v, error %v; want the usage error", pods, err)
				}
				return
			}
			if err != nil || len(pods) != 0 {
				t.Fatalf("pods %v, error %v; want none and no error", pods, err)
			}
		})
	}
}

// zeros reads NUL bytes until n are read.
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), z.n)
	clear(p[:n])
	z.n -= n
	return n, nil
}

// Crafted inputs are errors naming them, before memory grows: 100 MB of NUL
// bytes on standard input, -f /dev/zero, a dump over --max-input-size.
func TestInputsAreBounded(t *testing.T) {
	dump := fileWriter(t)("nodes.json", `{"kind": "List", "items": []}`+strings.Repeat(" ", 1<<20))
	for _, tc := range []struct {
		name  string
		args  []string
		stdin io.Reader
		want  string
	}{
		{name: "100 MB of NUL bytes", args: []string{"check", "-f", "-"}, stdin: &zeros{n: 100 << 20}, want: "standard input: byte 0 is NUL: not JSON, YAML or CSV text"},
		{name: "/dev/zero as the pod", args: []string{"explain", "-f", "/dev/zero", "--nodes", dump}, want: "/dev/zero: byte 0 is NUL: not JSON, YAML or CSV text"},
		{name: "/dev/zero as the nodes", args: []string{"check", "-f", "/dev/zero"}, want: "/dev/zero: byte 0 is NUL: not JSON, YAML or CSV text"},
		{name: "a dump over the limit", args: []string{"check", "-f", dump, "--max-input-size", "512Ki"}, want: dump + " is larger than the input limit of 512Ki"},
		{name: "a bad limit", args: []string{"check", "-f", dump, "--max-input-size", "-1"}, want: `--max-input-size "-1": want a positive size such as 128Mi or 1Gi`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			code := Run(context.Background(), tc.args, tc.stdin, io.Discard, &stderr)
			runtime.ReadMemStats(&after)
			if code != ExitUsage || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, %q; want %d saying %q", code, stderr.String(), ExitUsage, tc.want)
			}
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 256<<20 {
				t.Errorf("allocated %d bytes, want at most 256 MiB", grown)
			}
		})
	}
}

// A key given twice is an error naming it, and its line in YAML, where a
// decoder would read the last value silently: the seed's ClusterPolicy with
// sandboxWorkloads.enabled twice, a node dump whose node has a label twice,
// a dump with its items twice.
func TestDuplicateKeysAreErrors(t *testing.T) {
	write := fileWriter(t)
	nodes := write("nodes.json", `{"kind": "List", "items": [{"kind": "Node", "metadata": {"name": "a"}}]}`)
	policy := write("policy.yaml", "apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata: {name: cluster-policy}\nspec:\n  sandboxWorkloads:\n    enabled: false\n    enabled: true\n")
	labels := write("labels.json", `{"kind": "List", "items": [{"kind": "Node", "metadata": {"name": "a", "labels": {"nvidia.com/gpu.workload.config": "container", "nvidia.com/gpu.workload.config": "vm-passthrough"}}}]}`)
	items := write("items.json", `{"kind": "List", "items": [], "items": [{"kind": "Node", "metadata": {"name": "a"}}]}`)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{name: "ClusterPolicy in YAML", args: []string{"check", "-f", nodes, "--cluster-policy", policy},
			want: []string{policy + ": document 1:", `line 7: key "enabled" already set in map`, "a key given twice would be read as its last value; keep one"}},
		{name: "a node's label in JSON", args: []string{"check", "-f", labels},
			want: []string{`items[0]: duplicate field "metadata.labels.nvidia.com/gpu.workload.config"`, "keep one"}},
		{name: "a List's items", args: []string{"check", "-f", items}, want: []string{`duplicate field "items"`, "keep one"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := Run(context.Background(), tc.args, nil, io.Discard, &stderr)
			for _, want := range tc.want {
				if code != ExitUsage || !strings.Contains(stderr.String(), want) {
					t.Errorf("exit %d, %q; want %d saying %q", code, stderr.String(), ExitUsage, want)
				}
			}
		})
	}
}

// A pod with 4,001 GPU requests gets an explain report of a few kilobytes
// (993 KB before messages were bounded), its reason naming ten requests
// and counting the rest.
func TestExplainOfManyRequestsIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: big, namespace: ns}\nspec:\n  containers:\n    - name: c\n      resources:\n        limits:\n          nvidia.com/gpu: 1\n")
	for i := range 4_000 {
		fmt.Fprintf(&b, "          nvidia.com/NVIDIA_A10-%dQ: 1\n", i)
	}
	pod := fileWriter(t)("pod.yaml", b.String())
	var out bytes.Buffer
	Run(context.Background(), []string{"explain", "-f", pod, "--nodes", filepath.Join(testdata, "explain", "dra-nodes.json"), "-o", "json"}, nil, &out, io.Discard)
	if out.Len() > 8<<10 || !strings.Contains(out.String(), " and 3,991 more)") {
		t.Errorf("explain of 4,001 requests: %d bytes: %.500s", out.Len(), out.String())
	}
}
