package cli

import (
	"strings"
	"testing"
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
			pods, err := readPods("-", strings.NewReader(tc.input))
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
