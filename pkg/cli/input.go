package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// readInput reads a file, or standard input for "-".
func readInput(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, usageErrorf("standard input: %v", err)
		}
		return data, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return data, nil
}

func displayName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

// decodeObjects parses JSON or YAML holding one object or a List, and returns
// the objects with their kinds. want describes the expected input for errors.
func decodeObjects(data []byte, path, want string) ([]*unstructured.Unstructured, error) {
	jsonData, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, usageErrorf("%s: not valid JSON or YAML (%v); want %s", displayName(path), err, want)
	}
	var obj map[string]any
	if err := json.Unmarshal(jsonData, &obj); err != nil || obj == nil {
		return nil, usageErrorf("%s: not a Kubernetes object; want %s", displayName(path), want)
	}
	u := &unstructured.Unstructured{Object: obj}
	if !strings.HasSuffix(u.GetKind(), "List") {
		return []*unstructured.Unstructured{u}, nil
	}
	items, _, err := unstructured.NestedSlice(obj, "items")
	if err != nil {
		return nil, usageErrorf("%s: items: %v; want %s", displayName(path), err, want)
	}
	out := make([]*unstructured.Unstructured, 0, len(items))
	for i, item := range items {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, usageErrorf("%s: items[%d] is not an object; want %s", displayName(path), i, want)
		}
		item := &unstructured.Unstructured{Object: m}
		if kind := strings.TrimSuffix(u.GetKind(), "List"); kind != "" && item.GetKind() == "" {
			item.SetKind(kind)
		}
		out = append(out, item)
	}
	return out, nil
}

// requireKind checks every object is of the kind.
func requireKind(objs []*unstructured.Unstructured, kind, path, want string) error {
	for i, o := range objs {
		if o.GetKind() != kind {
			return usageErrorf("%s: object %d is a %q, not a %s; want %s", displayName(path), i, o.GetKind(), kind, want)
		}
	}
	return nil
}

const nodesWanted = "the output of 'kubectl get nodes -o json' (a NodeList, a List of Nodes, or one Node), as JSON or YAML"

// readNodes reads a node dump.
func readNodes(path string, stdin io.Reader) ([]*v1.Node, error) {
	return readTyped[v1.Node](path, "Node", nodesWanted, stdin)
}

// readPods reads a pod dump.
func readPods(path string, stdin io.Reader) ([]*v1.Pod, error) {
	return readTyped[v1.Pod](path, "Pod", podsWanted, stdin)
}

// readTyped reads a dump of one kind: one object or a List.
func readTyped[T any](path, kind, want string, stdin io.Reader) ([]*T, error) {
	objs, err := readKind(path, kind, want, stdin)
	if err != nil {
		return nil, err
	}
	out := make([]*T, len(objs))
	for i, o := range objs {
		out[i] = new(T)
		if err := convert(o, out[i]); err != nil {
			return nil, usageErrorf("%s: %s %q: %v; want %s", displayName(path), strings.ToLower(kind), o.GetName(), err, want)
		}
	}
	return out, nil
}

const podWanted = "one Pod manifest, as JSON or YAML"

// readPod reads one pod manifest.
func readPod(path string, stdin io.Reader) (*v1.Pod, error) {
	data, err := readInput(path, stdin)
	if err != nil {
		return nil, err
	}
	objs, err := decodeObjects(data, path, podWanted)
	if err != nil {
		return nil, err
	}
	if len(objs) != 1 {
		return nil, usageErrorf("%s: holds %d objects; want %s", displayName(path), len(objs), podWanted)
	}
	if err := requireKind(objs, "Pod", path, podWanted); err != nil {
		return nil, err
	}
	pod := &v1.Pod{}
	if err := convert(objs[0], pod); err != nil {
		return nil, usageErrorf("%s: %v; want %s", displayName(path), err, podWanted)
	}
	if pod.Namespace == "" {
		pod.Namespace = "default"
	}
	return pod, nil
}

// readObjectsOfKind reads a ClusterPolicy or KubeVirt dump: one object or a List.
func readObjectsOfKind(path, kind string, stdin io.Reader) ([]*unstructured.Unstructured, error) {
	want := fmt.Sprintf("a %s object or a List of them ('kubectl get %s -o json'), as JSON or YAML", kind, strings.ToLower(kind)+"s")
	return readKind(path, kind, want, stdin)
}

// readKind reads one object or a List, all of the kind; want describes the
// expected input for errors.
func readKind(path, kind, want string, stdin io.Reader) ([]*unstructured.Unstructured, error) {
	data, err := readInput(path, stdin)
	if err != nil {
		return nil, err
	}
	objs, err := decodeObjects(data, path, want)
	if err != nil {
		return nil, err
	}
	if err := requireKind(objs, kind, path, want); err != nil {
		return nil, err
	}
	return objs, nil
}

// convert fills a typed object from an unstructured one. Fields this build
// does not know are ignored: dumps may come from newer clusters.
func convert(u *unstructured.Unstructured, into any) error {
	data, err := json.Marshal(u.Object)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}
