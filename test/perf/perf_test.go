// Package perf runs scheduler_perf workloads for the three GPU modes, each
// twice in one run: with the default plugins only (the baseline) and with
// GPUWorkloadFit and GPUStranding. docs/performance.md says how to run and
// compare them.
package perf

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	_ "k8s.io/component-base/logs/json/register"
	"k8s.io/component-base/metrics/legacyregistry"
	fwk "k8s.io/kube-scheduler/framework"
	kubeapiservertesting "k8s.io/kubernetes/cmd/kube-apiserver/app/testing"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"

	"github.com/gpu-workload-scheduler/scheduler/pkg/inventory"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/profiles"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// certFixtures makes the directory where the in-process kube-apiserver of
// scheduler_perf keeps its generated serving certificates: testdata beside
// its source, which it finds from its own file name. Built without -trimpath
// that is its vendored source, where vendoring leaves no testdata directory
// (.gitignore ignores it). With -trimpath, as make builds, the file name is
// module@version/package, which the server completes with Bazel's
// TEST_SRCDIR and TEST_WORKSPACE: they point it into a directory of this
// test's, which it returns for removal.
func certFixtures() (temporary string, err error) {
	file, _ := goruntime.FuncForPC(reflect.ValueOf(kubeapiservertesting.StartTestServer).Pointer()).FileLine(0)
	if filepath.IsAbs(file) {
		return "", os.MkdirAll(filepath.Join(filepath.Dir(file), "testdata"), 0o755)
	}
	root, err := os.MkdirTemp("", "perf-cert-fixtures-")
	if err != nil {
		return "", err
	}
	os.Setenv("TEST_SRCDIR", root)
	os.Setenv("TEST_WORKSPACE", "trimmed")
	return root, os.MkdirAll(filepath.Join(root, "trimmed", filepath.Dir(file), "testdata"), 0o755)
}

func TestMain(m *testing.M) {
	temporary, err := certFixtures()
	if err == nil {
		err = perf.InitTests()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		os.Exit(1)
	}
	metrics.Register(legacyregistry.MustRegister, legacyregistry.CustomMustRegister)
	code := m.Run()
	if temporary != "" {
		os.RemoveAll(temporary)
	}
	os.Exit(code)
}

var scrapeInterval = flag.Duration("scrape-interval", 0,
	"gather the metrics kube-scheduler serves on /metrics (ours with them) this often while the workloads run, as Prometheus scrapes; 0: never")

// BenchmarkPerfScheduling runs the workloads the -perf-scheduling-label-filter
// selects: integration-test (500 nodes, in make test) or performance (5,000
// nodes, make perf).
func BenchmarkPerfScheduling(b *testing.B) {
	if *scrapeInterval > 0 {
		defer scrapeEvery(*scrapeInterval)()
	}
	perf.RunBenchmarkPerfScheduling(b, "config/performance-config.yaml", "gpuworkload", registryPerScheduler())
}

// metrics are the process's, served by each workload's scheduler in turn.
var metrics = inventory.NewMetrics()

// registryPerScheduler is profiles.Registry with a GPU cluster state per
// scheduler: scheduler_perf starts one scheduler, with its own informers,
// per workload in this process, where the binary runs one.
func registryPerScheduler() frameworkruntime.Registry {
	var mu sync.Mutex
	states := map[informers.SharedInformerFactory]*schedulerstate.Service{}
	registry := frameworkruntime.Registry{}
	for name := range profiles.Registry(nil) {
		registry[name] = func(ctx context.Context, args runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
			mu.Lock()
			state, ok := states[h.SharedInformerFactory()]
			if !ok {
				state = schedulerstate.New(metrics)
				states[h.SharedInformerFactory()] = state
			}
			mu.Unlock()
			return profiles.Registry(state)[name](ctx, args, h)
		}
	}
	return registry
}

// scrapeEvery gathers the registry kube-scheduler serves every interval
// until stop is called, which prints how many gathers ran and their mean
// duration. The baseline's scheduler is gathered too: only our gauges differ.
func scrapeEvery(interval time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	var gathers int
	var spent time.Duration
	wg.Go(func() {
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
				start := time.Now()
				if _, err := legacyregistry.DefaultGatherer.Gather(); err != nil {
					fmt.Fprintf(os.Stderr, "gather /metrics: %v\n", err)
				}
				spent += time.Since(start)
				gathers++
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		if gathers > 0 {
			fmt.Printf("scrapes: %d every %s, %s each on average\n", gathers, interval, spent/time.Duration(gathers))
		}
	}
}
