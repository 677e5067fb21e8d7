package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/installchart"
)

// manifests/install and manifests/monitoring are the chart's render: edit the
// chart, then make manifests.
func TestManifestsAreGenerated(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := installchart.GenerateManifests(filepath.Join(root, installchart.Dir))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range files {
		got, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not the chart's render: run make manifests", path)
		}
	}
}
