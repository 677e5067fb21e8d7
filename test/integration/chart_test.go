package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/installchart"
)

// The chart's objects, rendered with its default values and with
// ci/non-default-values.yaml, are all accepted by the API server (a
// server-side dry run of each, as helm install --dry-run=server sends them),
// and the scheduler runs from the ConfigMap the non-default values render:
// it binds a pod that names the scheduler those values name.
func TestChartOnTheControlPlane(t *testing.T) {
	e := newEnv(t)
	dir := repoRoot + "/" + installchart.Dir
	chart, err := installchart.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	nonDefault, err := installchart.NonDefaultValues(dir)
	if err != nil {
		t.Fatal(err)
	}
	e.createNamespace(t, "gpus")
	var nonDefaultRender map[string]string
	for _, tc := range []struct {
		name, namespace string
		values          map[string]any
	}{
		{"default", installchart.Namespace, nil},
		{"non-default", "gpus", nonDefault},
	} {
		rendered, err := installchart.Render(chart, tc.namespace, tc.values)
		if err != nil {
			t.Fatal(err)
		}
		if tc.name == "non-default" {
			nonDefaultRender = rendered
		}
		docs, err := installchart.Documents(rendered)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), tc.name+".yaml")
		if err := os.WriteFile(file, []byte(strings.Join(docs, "\n---\n")), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("kubectl", "--kubeconfig", e.cp.Kubeconfig, "apply", "--server-side", "--dry-run=server", "-f", file).CombinedOutput()
		if err != nil {
			t.Fatalf("%s values: kubectl apply --server-side --dry-run=server: %v\n%s", tc.name, err, out)
		}
		if applied := strings.Count(string(out), "(server dry run)"); applied != len(docs) {
			t.Errorf("%s values: %d of %d objects applied in the dry run:\n%s", tc.name, applied, len(docs), out)
		}
	}

	configMap := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(configMap, []byte(nonDefaultRender["templates/config.yaml"]), 0o600); err != nil {
		t.Fatal(err)
	}
	config, err := controlplane.SchedulerConfig(configMap, e.cp.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	e.startSchedulerWithConfig(t, "chart-scheduler", e.cp.Kubeconfig, config)
	createNode(e.ctx, t, e.client, "gpu-container", map[string]string{"nvidia.com/gpu.workload.config": "container"}, map[string]string{"nvidia.com/gpu": "1"})
	pod := gpuPod("chart-pod", "", map[string]string{"nvidia.com/gpu": "1"})
	pod.Spec.SchedulerName = "gpu-vm-scheduler"
	e.createPod(t, pod)
	if node := e.waitBound(t, "chart-pod"); node != "gpu-container" {
		t.Fatalf("chart-pod bound to %s, want gpu-container", node)
	}
}
