package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
)

// readInput reads a file, or standard input for "-".
func readInput(path string, in inputSource) ([]byte, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = inputlimit.ReadAll(displayName(path), in.stdin, in.limit)
	} else {
		data, err = inputlimit.ReadFile(path, in.limit)
	}
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return data, nil
}

// inputSource is where the commands read: standard input for "-", and the
// most any one input may hold.
type inputSource struct {
	stdin io.Reader
	limit int64
}

func displayName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

// decodeObjects parses JSON or YAML holding objects or Lists: every
// document of a multi-document YAML file and every value of concatenated
// JSON. It returns the objects with their kinds, Lists flattened. want
// describes the expected input for errors.
func decodeObjects(data []byte, path, want string) ([]*unstructured.Unstructured, error) {
	decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []*unstructured.Unstructured
	objects := 0
	for doc := 0; ; doc++ {
		var obj map[string]any
		err := decoder.Decode(&obj)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, usageErrorf("%s: document %d: not valid JSON or YAML (%v); want %s", displayName(path), doc+1, err, want)
		}
		if obj == nil {
			continue // an empty document, e.g. after a trailing ---
		}
		objects++
		items, err := flattenList(&unstructured.Unstructured{Object: obj}, path, want)
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
	}
	// An empty List ('kubectl get pods -o json' without pods) is a dump of
	// nothing; an input without any object is not a dump.
	if objects == 0 {
		return nil, usageErrorf("%s: not a Kubernetes object; want %s", displayName(path), want)
	}
	if err := noDuplicateKeys(data); err != nil {
		return nil, usageErrorf("%s: %v: a key given twice would be read as its last value; keep one", displayName(path), err)
	}
	return out, nil
}

// noDuplicateKeys refuses an input, already decoded without error, in
// which an object gives a key twice, as the API server refuses it: YAML
// documents converted strictly (the error names the key and its line),
// JSON values decoded strictly (it names the field's path).
func noDuplicateKeys(data []byte) error {
	if first := bytes.TrimLeft(data, " \t\r\n"); len(first) > 0 && (first[0] == '{' || first[0] == '[') {
		dec := json.NewDecoder(bytes.NewReader(data))
		for doc := 1; ; doc++ {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil
			}
			var value any
			if strict, err := sjson.UnmarshalStrict(raw, &value, sjson.DisallowDuplicateFields); err == nil && len(strict) > 0 {
				return fmt.Errorf("document %d: %w", doc, strict[0])
			}
		}
	}
	documents := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for doc := 1; ; doc++ {
		document, err := documents.Read()
		if err != nil {
			return nil
		}
		if _, err := sigsyaml.YAMLToJSONStrict(document); err != nil {
			return fmt.Errorf("document %d: %s", doc, strings.Join(strings.Fields(err.Error()), " "))
		}
	}
}

// flattenList returns a List's items, or the object itself.
func flattenList(u *unstructured.Unstructured, path, want string) ([]*unstructured.Unstructured, error) {
	if !strings.HasSuffix(u.GetKind(), "List") {
		return []*unstructured.Unstructured{u}, nil
	}
	items, _, err := unstructured.NestedSlice(u.Object, "items")
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
			return usageErrorf("%s: object %d is a %+q, not a %s; want %s", displayName(path), i, o.GetKind(), kind, want)
		}
	}
	return nil
}

const nodesWanted = "the output of 'kubectl get nodes -o json' (a NodeList, a List of Nodes, or one Node), as JSON or YAML"

// readNodes reads a node dump; node names must be unique.
func readNodes(path string, in inputSource) ([]*v1.Node, error) {
	nodes, err := readTyped[v1.Node, *v1.Node](path, "Node", nodesWanted, in)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]int, len(nodes))
	for i, n := range nodes {
		if first, dup := seen[n.Name]; dup {
			return nil, usageErrorf("%s: node %+q appears as object %d and object %d; a dump holds each node once", displayName(path), n.Name, first, i)
		}
		seen[n.Name] = i
	}
	return nodes, nil
}

// readPods reads a pod dump.
func readPods(path string, in inputSource) ([]*v1.Pod, error) {
	pods, err := readTyped[v1.Pod, *v1.Pod](path, "Pod", podsWanted, in)
	if err != nil {
		return nil, err
	}
	for _, pod := range pods {
		if err := checkGPUResources(path, pod); err != nil {
			return nil, err
		}
	}
	return pods, nil
}

// checkGPUResources rejects the GPU resources the API server would reject
// or no node can serve: a file never met the API server's validation.
func checkGPUResources(path string, pod *v1.Pod) error {
	if errs := gpuworkload.PodGPUResourceErrors(pod); len(errs) > 0 {
		return usageErrorf("%s: Pod/%s/%s: %v", displayName(path), pod.Namespace, pod.Name, errs.ToAggregate())
	}
	return nil
}

const podWanted = "one Pod manifest, as JSON or YAML"

// readPod reads one pod manifest.
func readPod(path string, in inputSource) (*v1.Pod, error) {
	data, err := readInput(path, in)
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
	if err := checkGPUResources(path, pod); err != nil {
		return nil, err
	}
	return pod, nil
}

// resourcePlurals are the resources of the kinds read by readObjectsOfKind,
// as kubectl names them.
var resourcePlurals = map[string]string{"ClusterPolicy": "clusterpolicies", "KubeVirt": "kubevirts"}

// readObjectsOfKind reads a ClusterPolicy or KubeVirt dump: one object or a List.
func readObjectsOfKind(path, kind string, in inputSource) ([]*unstructured.Unstructured, error) {
	want := fmt.Sprintf("a %s object or a List of them ('kubectl get %s -o json'), as JSON or YAML", kind, resourcePlurals[kind])
	return readKind(path, kind, want, in)
}

// readKind reads one object or a List, all of the kind; want describes the
// expected input for errors.
func readKind(path, kind, want string, in inputSource) ([]*unstructured.Unstructured, error) {
	data, err := readInput(path, in)
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
	if err := json.Unmarshal(data, into); err != nil {
		return namedDecodeError(data, err)
	}
	return nil
}
