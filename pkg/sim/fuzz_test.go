package sim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
)

// FuzzLoadPods feeds the workload loader CSV and YAML: it never panics, and
// whatever it accepts is within the documented limits.
func FuzzLoadPods(f *testing.F) {
	for _, seed := range []string{
		"name,gpus\ntrain,2\n",
		"name,count,arrival,departure,cpu,gpus\np,1000000000,9999999999,Inf,1e400,9223372036854775807\n",
		"pods:\n- {name: p, count: 1000000, arrival: 1e400}\n",
		"name,gpu,gpus,mode\np,nvidia.com/,1,\n",
	} {
		f.Add(seed, seed[0] == 'p')
	}
	f.Fuzz(func(t *testing.T, content string, asYAML bool) {
		name := "pods.csv"
		if asYAML {
			name = "pods.yaml"
		}
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		pods, err := LoadPods(path, inputlimit.Default)
		if err != nil {
			return
		}
		if len(pods) > MaxPods {
			t.Fatalf("%d pods accepted, the limit is %d", len(pods), MaxPods)
		}
		for _, p := range pods {
			if p.Arrival < 0 || p.Arrival > MaxTime || p.Duration < 0 || p.Duration > MaxTime || p.MilliCPU < 0 || p.Memory < 0 || p.GPUCount < 0 || p.GPUCount > MaxGPUs {
				t.Fatalf("pod out of bounds accepted: %+v", p)
			}
		}
	})
}
