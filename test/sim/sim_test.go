package sim_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/manifests/install"
	"github.com/gpu-workload-scheduler/scheduler/pkg/sim"
	"github.com/gpu-workload-scheduler/scheduler/test/sim/scenariogen"
)

var update = flag.Bool("update", false, "regenerate test/sim/scenarios")

const scenariosDir = "scenarios"

// TestShippedScenarios keeps the committed scenarios equal to what the
// generator writes.
func TestShippedScenarios(t *testing.T) {
	dir := t.TempDir()
	if *update {
		dir = scenariosDir
	}
	for _, spec := range scenariogen.Shipped() {
		if err := scenariogen.Write(dir, spec); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"scenario.yaml", "nodes.csv", "pods.csv"} {
			want, err := os.ReadFile(filepath.Join(dir, spec.Name, name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(scenariosDir, spec.Name, name))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s/%s/%s differs from the generator's output: run go test ./test/sim -run TestShippedScenarios -update", scenariosDir, spec.Name, name)
			}
		}
	}
}

func shippedProfile(t testing.TB) sim.Options {
	data, err := install.SchedulerConfiguration()
	if err != nil {
		t.Fatal(err)
	}
	profile, percentage, err := sim.LoadProfile(data, install.ConfigMapFile)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Options{Profile: profile, Percentage: percentage}
}

func testContext(t testing.TB) context.Context {
	return klog.NewContext(t.Context(), klog.Background())
}
