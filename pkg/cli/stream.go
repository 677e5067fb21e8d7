package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	sjson "sigs.k8s.io/json"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
)

// typedObject is a pointer to a typed Kubernetes object such as *v1.Node.
type typedObject[T any] interface {
	*T
	metav1.Object
	GetObjectKind() schema.ObjectKind
}

// readTyped reads a dump of one kind: objects or Lists, JSON or YAML. JSON,
// what kubectl writes and what large dumps are, is decoded as it streams,
// one List item at a time straight into its typed object: a 20,000-node
// dump then takes a small multiple of its size in memory rather than the
// twenty times that generic maps took. From the first document that is not
// a JSON object on, the rest goes through decodeObjects.
func readTyped[T any, PT typedObject[T]](path, kind, want string, in inputSource) ([]*T, error) {
	r, closeInput, err := openInput(path, in)
	if err != nil {
		return nil, err
	}
	defer closeInput()
	rest := io.MultiReader(r)
	var out []*T
	// An empty List ('kubectl get pods -o json' without pods) is a dump of
	// nothing; an input without any document is not a dump.
	decoded := false
	for doc := 1; ; doc++ {
		first, err := nextNonSpace(rest)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, usageErrorf("%s: %v", displayName(path), err)
		}
		rest = io.MultiReader(bytes.NewReader([]byte{first}), rest)
		if first != '{' {
			data, err := inputlimit.ReadAll(displayName(path), rest, in.limit)
			if err != nil {
				return nil, usageErrorf("%v", err)
			}
			objs, err := readTypedYAML[T, PT](data, path, kind, want)
			if err != nil {
				return nil, err
			}
			out, decoded = append(out, objs...), true
			break
		}
		dec := json.NewDecoder(rest)
		objs, err := decodeJSONDocument[T, PT](dec)
		if err != nil {
			return nil, usageErrorf("%s: document %d: %v; want %s", displayName(path), doc, err, want)
		}
		out, decoded = append(out, objs...), true
		rest = io.MultiReader(dec.Buffered(), rest)
	}
	if !decoded {
		return nil, usageErrorf("%s: not a Kubernetes object; want %s", displayName(path), want)
	}
	for i, obj := range out {
		if got := PT(obj).GetObjectKind().GroupVersionKind().Kind; got != kind {
			return nil, usageErrorf("%s: object %d is a %+q, not a %s; want %s", displayName(path), i, got, kind, want)
		}
	}
	return out, nil
}

// nextNonSpace reads up to the first byte that is not white space.
func nextNonSpace(r io.Reader) (byte, error) {
	var b [1]byte
	for {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return 0, err
		}
		if !strings.ContainsRune(" \t\r\n", rune(b[0])) {
			return b[0], nil
		}
	}
}

// readTypedYAML is readTyped for YAML, through generic objects.
func readTypedYAML[T any, PT typedObject[T]](data []byte, path, kind, want string) ([]*T, error) {
	objs, err := decodeObjects(data, path, want)
	if err != nil {
		return nil, err
	}
	if err := requireKind(objs, kind, path, want); err != nil {
		return nil, err
	}
	out := make([]*T, len(objs))
	for i, o := range objs {
		out[i] = new(T)
		if err := convert(o, out[i]); err != nil {
			return nil, usageErrorf("%s: %s %+q: %v; want %s", displayName(path), strings.ToLower(kind), o.GetName(), err, want)
		}
		trim(PT(out[i]))
	}
	return out, nil
}

// decodeJSONDocument decodes one top-level JSON value: a List, whose items
// it decodes one by one, or one object.
func decodeJSONDocument[T any, PT typedObject[T]](dec *json.Decoder) ([]*T, error) {
	if _, err := dec.Token(); err != nil {
		return nil, notJSON(err)
	}
	fields := map[string]json.RawMessage{}
	var items []*T
	hasItems := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, notJSON(err)
		}
		if _, seen := fields[key.(string)]; seen || key == "items" && hasItems {
			return nil, fmt.Errorf("duplicate field %+q: a key given twice would be read as its last value; keep one", key)
		}
		if key != "items" {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, notJSON(err)
			}
			fields[key.(string)] = raw
			continue
		}
		hasItems = true
		if items, err = decodeItems[T, PT](dec); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, notJSON(err)
	}
	var listKind string
	if raw, ok := fields["kind"]; ok {
		if err := json.Unmarshal(raw, &listKind); err != nil {
			return nil, fmt.Errorf("kind: %w", err)
		}
	}
	if !strings.HasSuffix(listKind, "List") {
		if hasItems {
			return nil, fmt.Errorf("has items but kind %+q is not a List", listKind)
		}
		data, err := json.Marshal(fields)
		if err != nil {
			return nil, err
		}
		obj := new(T)
		if err := unmarshalStrict(data, obj); err != nil {
			return nil, namedDecodeError(data, err)
		}
		trim(PT(obj))
		return []*T{obj}, nil
	}
	itemKind := strings.TrimSuffix(listKind, "List")
	for _, item := range items {
		if gvk := PT(item).GetObjectKind(); itemKind != "" && gvk.GroupVersionKind().Kind == "" {
			gvk.SetGroupVersionKind(gvk.GroupVersionKind().GroupVersion().WithKind(itemKind))
		}
	}
	return items, nil
}

// decodeItems decodes a List's items array into typed objects, trimming
// each as it is decoded. One goroutine reads the items' bytes in order,
// and the cores decode them into typed objects, the costly part: a
// bounded queue keeps memory near that of decoding one at a time. An
// error names the first item that fails.
func decodeItems[T any, PT typedObject[T]](dec *json.Decoder) ([]*T, error) {
	open, err := dec.Token()
	if err != nil {
		return nil, notJSON(err)
	}
	if open == nil {
		return nil, nil
	}
	if open != json.Delim('[') {
		return nil, fmt.Errorf("items is not a list")
	}
	type item struct {
		index int
		raw   json.RawMessage
	}
	workers := runtime.GOMAXPROCS(0)
	queue := make(chan item, 4*workers)
	var mu sync.Mutex
	var items []*T
	failed := map[int]error{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for it := range queue {
				obj := new(T)
				err := unmarshalStrict(it.raw, obj)
				if err == nil {
					trim(PT(obj))
				}
				mu.Lock()
				if err != nil {
					failed[it.index] = fmt.Errorf("items[%d]: %w", it.index, namedDecodeError(it.raw, err))
				} else {
					items[it.index] = obj
				}
				mu.Unlock()
			}
		})
	}
	var scanErr error
	scanned := 0
	for ; dec.More(); scanned++ {
		var raw json.RawMessage
		if scanErr = dec.Decode(&raw); scanErr != nil {
			break
		}
		mu.Lock()
		items = append(items, nil)
		mu.Unlock()
		queue <- item{index: scanned, raw: raw}
	}
	close(queue)
	wg.Wait()
	// The items before the one that would not scan were read first.
	if len(failed) > 0 {
		return nil, failed[slices.Min(slices.Collect(maps.Keys(failed)))]
	}
	if scanErr != nil {
		return nil, notJSON(scanErr)
	}
	if _, err := dec.Token(); err != nil {
		return nil, notJSON(err)
	}
	return items, nil
}

// notJSON is a syntax error, a truncated document included.
func notJSON(err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("not valid JSON or YAML (%v)", err)
}

// trim drops what no command reads and dumps hold most of: managed fields
// (but a node's writes of its conversion labels, which time a conversion),
// and a node's list of container images.
func trim(obj metav1.Object) {
	node, ok := obj.(*v1.Node)
	if !ok {
		obj.SetManagedFields(nil)
		return
	}
	node.ManagedFields = gpuworkload.ConversionLabelWrites(node.ManagedFields)
	node.Status.Images = nil
}

// openInput opens a file, or standard input for "-", to be read up to
// the input limit; a regular file over it is refused by its size.
func openInput(path string, in inputSource) (io.Reader, func(), error) {
	if path == "-" {
		return inputlimit.Reader(displayName(path), in.stdin, in.limit), func() {}, nil
	}
	f, err := inputlimit.Open(path, in.limit)
	if err != nil {
		return nil, nil, usageErrorf("%v", err)
	}
	return f, func() { f.Close() }, nil
}

// unmarshalStrict decodes JSON as the API server does, case-sensitively,
// and refuses a key given twice, which encoding/json reads as its last value.
func unmarshalStrict(data []byte, obj any) error {
	strict, err := sjson.UnmarshalStrict(data, obj, sjson.DisallowDuplicateFields)
	if err != nil {
		return err
	}
	if len(strict) > 0 {
		return fmt.Errorf("%w: a key given twice would be read as its last value; keep one", strict[0])
	}
	return nil
}

// namedDecodeError names the field behind a typed decode error:
// encoding/json does not say which quantity failed to parse.
func namedDecodeError(data []byte, err error) error {
	var obj map[string]any
	if json.Unmarshal(data, &obj) != nil {
		return err
	}
	lists := []string{"status.capacity", "status.allocatable", "spec.overhead", "spec.resources.requests", "spec.resources.limits"}
	for _, kind := range []string{"initContainers", "containers"} {
		containers, _, _ := unstructured.NestedSlice(obj, "spec", kind)
		for i := range containers {
			for _, list := range []string{"requests", "limits"} {
				lists = append(lists, fmt.Sprintf("spec.%s[%d].resources.%s", kind, i, list))
			}
		}
	}
	for _, list := range lists {
		quantities, ok := nestedMap(obj, list)
		if !ok {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(quantities)) {
			text := fmt.Sprint(quantities[name])
			if _, parseErr := resource.ParseQuantity(text); parseErr != nil {
				return fmt.Errorf("%s[%s]: %+q is not a Kubernetes quantity, e.g. 4, 500m or 16Gi", list, name, text)
			}
		}
	}
	return err
}

// nestedMap follows a path like spec.containers[0].resources.limits.
func nestedMap(obj map[string]any, path string) (map[string]any, bool) {
	var current any = obj
	for _, part := range strings.Split(path, ".") {
		name, index, indexed := strings.Cut(part, "[")
		m, ok := current.(map[string]any)
		if !ok {
			return nil, false
		}
		current = m[name]
		if indexed {
			list, ok := current.([]any)
			i, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
			if !ok || err != nil || i >= len(list) {
				return nil, false
			}
			current = list[i]
		}
	}
	m, ok := current.(map[string]any)
	return m, ok
}
