package inventory

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/component-base/metrics"

	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
)

// countingSource reports one resource per count and counts the counts.
type countingSource struct{ counts int }

func (s *countingSource) Inventory(context.Context) (Report, error) {
	s.counts++
	return Report{Resources: make([]Resource, s.counts)}, nil
}

func (s *countingSource) SiblingConflicts() ([]drasiblings.Conflict, error) { return nil, nil }

// newMetrics are metrics registered, as the binary registers them, in a
// registry of the test's own.
func newMetrics() *Metrics {
	m := NewMetrics()
	registry := metrics.NewKubeRegistry()
	m.Register(registry.MustRegister, registry.CustomMustRegister)
	return m
}

func scrape(c *collector) int {
	ch := make(chan metrics.Metric, 1000)
	c.CollectWithStability(ch)
	close(ch)
	return len(ch)
}

// A scrape within maxAge of the last count gets that count; an older one,
// or one of another source, counts again.
func TestGaugesAreCountedAtMostOncePerMaxAge(t *testing.T) {
	m := newMetrics()
	source := &countingSource{}
	m.Serve(t.Context(), source)
	first := scrape(m.collector)
	if got := scrape(m.collector); got != first || source.counts != 1 {
		t.Fatalf("a scrape within the max age: %d series after %d counts, want the first count's %d", got, source.counts, first)
	}
	m.collector.last.at = time.Now().Add(-maxAge)
	if got := scrape(m.collector); got <= first || source.counts != 2 {
		t.Fatalf("a scrape after the max age: %d series after %d counts, want a second count with more than %d", got, source.counts, first)
	}
	other := &countingSource{}
	m.Serve(t.Context(), other)
	if scrape(m.collector); other.counts != 1 {
		t.Fatal("a scrape after another source was served did not count it")
	}
}

// The gauges count the state of the running scheduler: once its context
// ends, a stopped scheduler's caches are no longer served as the inventory.
func TestGaugesForgetAStoppedSource(t *testing.T) {
	m := newMetrics()
	ctx, cancel := context.WithCancel(context.Background())
	m.Serve(ctx, &countingSource{})
	if scrape(m.collector) == 0 {
		t.Fatal("the served source is not counted")
	}
	cancel()
	if err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, 5*time.Second, true, func(context.Context) (bool, error) {
		return m.collector.source.Load() == nil, nil
	}); err != nil {
		t.Fatal("the gauges still count the stopped source")
	}
	if got := scrape(m.collector); got != 0 {
		t.Fatalf("a scrape after the source stopped: %d series, want none", got)
	}
}
