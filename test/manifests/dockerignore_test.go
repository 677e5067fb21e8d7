package manifests

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The image's build context leaves out the lab's state (its kubeconfig and
// private keys), binaries, history and test data, and keeps every source
// file the two binaries are built from.
func TestDockerignore(t *testing.T) {
	data, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, strings.TrimSuffix(strings.TrimPrefix(line, "/"), "/"))
		}
	}
	ignored := func(path string) bool {
		first := strings.Split(path, "/")[0]
		for _, p := range patterns {
			if ok, _ := filepath.Match(p, first); ok || strings.HasPrefix(path, p+"/") {
				return true
			}
		}
		return false
	}
	for _, secret := range []string{".lab/kubeconfig", ".lab/pki/ca.key", "bin/gpu-workload-scheduler", ".git/config", "test/testdata/check/StaleConversionTaint.json", "gpu-workload-lab"} {
		if !ignored(secret) {
			t.Errorf("%s is in the image's build context", secret)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{range .EmbedFiles}} {{.}}{{end}}",
		"../../cmd/gpu-workload-scheduler", "../../cmd/gpu-workload-controller").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		rel, err := filepath.Rel(root, fields[0])
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		for _, file := range fields[1:] {
			if path := filepath.ToSlash(filepath.Join(rel, file)); ignored(path) {
				t.Errorf("%s builds the image and is left out of its context", path)
			}
		}
	}
}
