// Package perf runs scheduler_perf workloads for the three GPU modes, each
// twice in one run: with the default plugins only (the baseline) and with
// GPUWorkloadFit and GPUStranding. docs/performance.md says how to run and
// compare them.
package perf

import (
	"fmt"
	"os"
	"testing"

	_ "k8s.io/component-base/logs/json/register"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"

	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpustranding"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
)

// certFixtures is where the in-process kube-apiserver of scheduler_perf keeps
// its generated serving certificates: beside its vendored source, where
// vendoring leaves no testdata directory. .gitignore ignores it.
const certFixtures = "../../vendor/k8s.io/kubernetes/cmd/kube-apiserver/app/testing/testdata"

func TestMain(m *testing.M) {
	if err := os.MkdirAll(certFixtures, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "create %s: %v\n", certFixtures, err)
		os.Exit(1)
	}
	if err := perf.InitTests(); err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		os.Exit(1)
	}
	m.Run()
}

// BenchmarkPerfScheduling runs the workloads the -perf-scheduling-label-filter
// selects: integration-test (500 nodes, in make test) or performance (5,000
// nodes, make perf).
func BenchmarkPerfScheduling(b *testing.B) {
	registry := frameworkruntime.Registry{
		gpuworkloadfit.Name: gpuworkloadfit.New,
		gpustranding.Name:   gpustranding.New,
	}
	perf.RunBenchmarkPerfScheduling(b, "config/performance-config.yaml", "gpuworkload", registry)
}
