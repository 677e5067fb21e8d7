package cli

import (
	"strings"
	"testing"
)

// FuzzDecodeObjects feeds the dump decoder arbitrary bytes: it never
// panics, and an error is a usage error naming the input.
func FuzzDecodeObjects(f *testing.F) {
	for _, seed := range []string{
		`{"kind": "NodeList", "items": [{"metadata": {"name": "a"}}]}`,
		"kind: Node\nmetadata: {name: a}\n---\nkind: Node\nmetadata: {name: b}\n",
		`{"kind": "Node"}{"kind": "Node"}`,
		"a: &a [*a, *a]\nb: &b [*a, *a]\n",
		`{"kind": "List", "items": [1]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := decodeObjects(data, "dump.json", nodesWanted)
		if err != nil {
			if !strings.Contains(err.Error(), "dump.json") {
				t.Fatalf("error %q does not name the input", err)
			}
			return
		}
		for i, o := range objs {
			if o == nil || o.Object == nil {
				t.Fatalf("object %d is empty", i)
			}
		}
	})
}
