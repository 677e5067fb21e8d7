package gpustranding

import (
	"math"
	"sync"
	"testing"
)

func TestDemandModelLearnsRecentRequests(t *testing.T) {
	m := NewDemandModel()
	if got := m.Current(); len(got) != 0 {
		t.Fatalf("a new model knows %v", got)
	}
	m.Observe("nvidia.com/gpu", 0, 1000, 0)
	if got := m.Current(); len(got) != 0 {
		t.Fatalf("a request of 0 units was learned: %v", got)
	}
	for range 100 {
		m.Observe("nvidia.com/gpu", 1, 8000, 32<<30)
	}
	for range 100 {
		m.Observe("nvidia.com/gpu", 4, 32000, 128<<30)
	}
	classes := m.Current()["nvidia.com/gpu"].Classes
	if len(classes) != 2 || classes[0].Units != 1 || classes[1].Units != 4 {
		t.Fatalf("classes %+v, want sizes 1 and 4 in order", classes)
	}
	if sum := classes[0].Share + classes[1].Share; math.Abs(sum-1) > 1e-9 {
		t.Errorf("shares sum to %v, want 1", sum)
	}
	// The 4-unit requests came last: decay makes them weigh more.
	if classes[1].Share <= classes[0].Share {
		t.Errorf("shares %v and %v: the recent class should weigh more", classes[0].Share, classes[1].Share)
	}
	if math.Abs(classes[0].MilliCPU-8000) > 1e-6 || math.Abs(classes[1].Memory-128<<30) > 1 {
		t.Errorf("averages %+v, want 8000m CPU for size 1 and 128Gi for size 4", classes)
	}
	if _, ok := m.Current()["nvidia.com/GA102GL_A10"]; ok {
		t.Error("a resource never requested has classes")
	}
	for range 100 {
		m.Observe("nvidia.com/GA102GL_A10", 1, 8000, 0)
	}
	demand := m.Current()
	shares := map[string]float64{"nvidia.com/GA102GL_A10": demand["nvidia.com/GA102GL_A10"].Share, "nvidia.com/gpu": demand["nvidia.com/gpu"].Share}
	if a10, gpu := shares["nvidia.com/GA102GL_A10"], shares["nvidia.com/gpu"]; math.Abs(a10+gpu-1) > 1e-9 || a10 <= 0.5 || a10 >= 1 {
		t.Errorf("resource shares %v: want the recent A10 requests to weigh more than half, together 1", shares)
	}
}

// Scoring reads the demand while PreFilter observes: a copy it holds does not
// change, and a read after the observations sees all of them.
func TestDemandModelCopiesForReaders(t *testing.T) {
	m := NewDemandModel()
	m.Observe("nvidia.com/gpu", 1, 1000, 0)
	held := m.Current()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				m.Observe("nvidia.com/gpu", 2, 1000, 0)
				if d := m.Current()["nvidia.com/gpu"]; len(d.Classes) == 0 {
					t.Error("a read during observations found no classes")
					return
				}
			}
		})
	}
	wg.Wait()
	if classes := held["nvidia.com/gpu"].Classes; len(classes) != 1 || classes[0].Share != 1 {
		t.Errorf("the copy read before the observations changed: %+v", classes)
	}
	classes := m.Current()["nvidia.com/gpu"].Classes
	if len(classes) != 2 || classes[1].Units != 2 || classes[1].Share < 0.99 {
		t.Errorf("after 800 observations of 2 units: %+v, want the 2-unit class at nearly all of the share", classes)
	}
}
