package manifests

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// kustomizationBlock is the overlay docs/install.md tells users to write.
// The page indents it under a list item.
var kustomizationBlock = regexp.MustCompile("(?s)```yaml\n( *apiVersion: kustomize.config.k8s.io/v1beta1\n.*?) *```")

// The overlay of docs/install.md, written beside a checkout as the page
// says, builds, and both Deployments then run the image it names.
func TestInstallOverlayOfTheDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/install.md")
	if err != nil {
		t.Fatal(err)
	}
	m := kustomizationBlock.FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/install.md has no kustomization overlay in a yaml block")
	}
	var overlay string
	for line := range strings.Lines(string(m[1])) {
		overlay += strings.TrimPrefix(line, "   ")
	}
	overlay = strings.NewReplacer("<registry>", "images", "<version>", "v9.9.9").Replace(overlay)
	repository, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(repository, filepath.Join(dir, "gpu-workload-scheduler")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "my-overlay"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "my-overlay", "kustomization.yaml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), filepath.Join(dir, "my-overlay"))
	if err != nil {
		t.Fatalf("kustomize build of the overlay in docs/install.md: %v\n%s", err, overlay)
	}
	deployments := 0
	for _, r := range resources.Resources() {
		if r.GetKind() != "Deployment" {
			continue
		}
		deployments++
		data, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		var d appsv1.Deployment
		if err := yaml.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		for _, c := range d.Spec.Template.Spec.Containers {
			if c.Image != "images/gpu-workload-scheduler:v9.9.9" {
				t.Errorf("Deployment %s, container %s: image %q, want the overlay's images/gpu-workload-scheduler:v9.9.9", d.Name, c.Name, c.Image)
			}
		}
	}
	if deployments != 2 {
		t.Errorf("%d Deployments, want the scheduler's and the controller's", deployments)
	}
}
