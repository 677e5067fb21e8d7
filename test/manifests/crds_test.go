package manifests

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/lab"
	"github.com/gpu-workload-scheduler/scheduler/test/upstream"
)

// crdSchema admits objects to a CRD's v1 schema as the API server does:
// unknown fields pruned, nulls of non-nullable fields dropped, defaults
// applied, then validated.
type crdSchema struct {
	structural *structuralschema.Structural
	validator  validation.SchemaValidator
}

func (s crdSchema) admit(obj map[string]any) field.ErrorList {
	obj = runtime.DeepCopyJSON(obj)
	structuralpruning.Prune(obj, s.structural, true)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, s.structural)
	structuraldefaulting.Default(obj, s.structural)
	return validation.ValidateCustomResource(nil, obj, s.validator)
}

func crdValidator(t *testing.T, data []byte, source string) crdSchema {
	t.Helper()
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatalf("%s: %v", source, err)
	}
	for _, v := range crd.Spec.Versions {
		if v.Name != "v1" || v.Schema == nil {
			continue
		}
		var internal apiextensions.JSONSchemaProps
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &internal, nil); err != nil {
			t.Fatalf("%s: %v", source, err)
		}
		validator, _, err := validation.NewSchemaValidator(&internal)
		if err != nil {
			t.Fatalf("%s: %v", source, err)
		}
		structural, err := structuralschema.NewStructural(&internal)
		if err != nil {
			t.Fatalf("%s: not a structural schema: %v", source, err)
		}
		return crdSchema{structural: structural, validator: validator}
	}
	t.Fatalf("%s: no v1 schema", source)
	return crdSchema{}
}

// The lab's ClusterPolicy CRD accepts what the GPU Operator's accepts: the
// operator's sample, and every ClusterPolicy the lab, the examples and the
// tests create; and it rejects what the real one rejects in the fields the
// scheduler reads.
func TestLabClusterPolicyCRDAcceptsWhatTheOperatorsDoes(t *testing.T) {
	operator := crdValidator(t, upstream.Read(t, "NVIDIA+gpu-operator/config/crd/bases/nvidia.com_clusterpolicies.yaml"), "the GPU Operator's CRD")
	labFile := "manifests/lab/crds/clusterpolicies.nvidia.com.yaml"
	labData, err := os.ReadFile("../../" + labFile)
	if err != nil {
		t.Fatal(err)
	}
	labCRD := crdValidator(t, labData, labFile)

	var sample map[string]any
	if err := yaml.Unmarshal(upstream.Read(t, "NVIDIA+gpu-operator/config/samples/v1_clusterpolicy.yaml"), &sample); err != nil {
		t.Fatal(err)
	}
	// Each object with whether the operator's CRD admits it.
	objects := map[string]map[string]any{"the operator's sample": sample}
	admitted := map[string]bool{"the operator's sample": true}
	variant := func(name string, admit bool, value any, path ...string) {
		obj := runtime.DeepCopyJSON(sample)
		if err := unstructured.SetNestedField(obj, value, path...); err != nil {
			t.Fatal(err)
		}
		objects[name], admitted[name] = obj, admit
	}
	variant("sandbox enabled", true, true, "spec", "sandboxWorkloads", "enabled")
	variant("enabled not a boolean", false, "yes", "spec", "sandboxWorkloads", "enabled")
	variant("defaultWorkload vm-vgpu", true, "vm-vgpu", "spec", "sandboxWorkloads", "defaultWorkload")
	variant("defaultWorkload not a mode", false, "vm", "spec", "sandboxWorkloads", "defaultWorkload")
	variant("mode kata", true, "kata", "spec", "sandboxWorkloads", "mode")
	variant("mode not a runtime", false, "vmware", "spec", "sandboxWorkloads", "mode")
	variant("sandbox device plugin off", true, false, "spec", "sandboxDevicePlugin", "enabled")
	variant("sandbox device plugin not a boolean", false, "no", "spec", "sandboxDevicePlugin", "enabled")
	variant("vGPU config default", true, "A10-4Q", "spec", "vgpuDeviceManager", "config", "default")
	variant("vGPU config default not a string", false, int64(4), "spec", "vgpuDeviceManager", "config", "default")
	for _, file := range clusterPolicyManifests(t) {
		for i, obj := range file.objects {
			name := fmt.Sprintf("%s, ClusterPolicy %d", file.path, i+1)
			objects[name], admitted[name] = obj, true
		}
	}
	objects["lab.ClusterPolicy"], admitted["lab.ClusterPolicy"] = lab.ClusterPolicy("cluster-policy", map[string]any{"enabled": true}).Object, true

	for name, obj := range objects {
		operatorErrs, labErrs := operator.admit(obj), labCRD.admit(obj)
		if (len(operatorErrs) == 0) != admitted[name] {
			t.Errorf("%s: the operator's CRD says %v, want admitted %v", name, operatorErrs.ToAggregate(), admitted[name])
		}
		if (len(operatorErrs) == 0) != (len(labErrs) == 0) {
			t.Errorf("%s: the operator's CRD says %v, the lab's %v", name, operatorErrs.ToAggregate(), labErrs.ToAggregate())
		}
	}
}

type manifestFile struct {
	path    string
	objects []map[string]any
}

// clusterPolicyManifests are the ClusterPolicies of manifests/ that the lab
// and the examples create on an API server.
func clusterPolicyManifests(t *testing.T) []manifestFile {
	t.Helper()
	var out []manifestFile
	err := filepath.WalkDir("../../manifests", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		file := manifestFile{path: strings.TrimPrefix(path, "../../")}
		for _, doc := range strings.Split(string(data), "\n---") {
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(doc), &obj); err != nil || obj["kind"] != "ClusterPolicy" {
				continue
			}
			file.objects = append(file.objects, obj)
		}
		if len(file.objects) > 0 {
			out = append(out, file)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no ClusterPolicy under manifests/")
	}
	return out
}
