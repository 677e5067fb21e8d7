package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
)

// FuzzReadNodes feeds the node dump reader arbitrary bytes, through its
// streaming JSON path and its YAML path: it never panics, an error is a
// usage error naming the input, and what it returns are nodes.
func FuzzReadNodes(f *testing.F) {
	for _, seed := range []string{
		`{"kind": "NodeList", "items": [{"metadata": {"name": "a"}}]}`,
		"kind: Node\nmetadata: {name: a}\n---\nkind: Node\nmetadata: {name: b}\n",
		`{"kind": "Node"}{"kind": "Node", "metadata": {"name": "b"}}`,
		"a: &a [*a, *a]\nb: &b [*a, *a]\n",
		`{"kind": "List", "items": [1]}`,
		`{"kind": "List", "items": [{"kind": "Node", "status": {"allocatable": {"nvidia.com/gpu": "1e400"}}}]}`,
		`{"items": [{"kind": "Node"}], "kind": "Pod"}`,
		`{"kind": "NodeList", "items": null}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		nodes, err := readNodes("-", inputSource{stdin: bytes.NewReader(data), limit: inputlimit.Default})
		if err != nil {
			if !strings.Contains(err.Error(), "standard input") {
				t.Fatalf("error %q does not name the input", err)
			}
			return
		}
		for i, n := range nodes {
			if n == nil || n.Kind != "Node" {
				t.Fatalf("object %d is not a node: %+v", i, n)
			}
		}
	})
}
