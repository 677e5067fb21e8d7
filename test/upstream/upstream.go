// Package upstream gives tests the verbatim upstream files of
// ../shared/data/upstream (beside the repository): the GPU Operator's
// ClusterPolicy CRD, sample and vGPU configuration, the sandbox device
// plugin's pci.ids and example KubeVirt CR. A test built on them skips,
// saying why, when the folder is absent.
package upstream

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Dir is the upstream folder beside the repository, found from the test's
// working directory (its package's folder): builds with -trimpath, as make
// builds, record no source paths to find it from.
func Dir() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "data", "upstream")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Read returns the upstream file at path (e.g.
// NVIDIA+gpu-operator/config/samples/v1_clusterpolicy.yaml), or skips the
// test when it is absent.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(), path))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is absent: the upstream data folder (../shared/data/upstream) is not beside the repository", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// CheckGenerated fails the test unless the committed file (a path from the
// test's folder) is what generator (the hack/ program named so) makes of the
// upstream file at source, or skips it when that file is absent.
func CheckGenerated(t *testing.T, source, committed, generator string, generate func(data []byte, source string) ([]byte, error)) {
	t.Helper()
	generated, err := generate(Read(t, source), source)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(generated, want) {
		t.Fatalf("%s is not what go run ./hack/%s %s generates", committed, generator, filepath.Join(Dir(), source))
	}
}
