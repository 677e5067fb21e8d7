package gpustranding

import (
	"math"
	"sync"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand/constrainttest"
)

func TestDemandModelLearnsRecentRequests(t *testing.T) {
	m := NewDemandModel()
	if got := m.Current(); len(got) != 0 {
		t.Fatalf("a new model knows %v", got)
	}
	m.Observe("nvidia.com/gpu", 0, 1000, 0, poddemand.NodeConstraint{})
	if got := m.Current(); len(got) != 0 {
		t.Fatalf("a request of 0 units was learned: %v", got)
	}
	for range 100 {
		m.Observe("nvidia.com/gpu", 1, 8000, 32<<30, poddemand.NodeConstraint{})
	}
	for range 100 {
		m.Observe("nvidia.com/gpu", 4, 32000, 128<<30, poddemand.NodeConstraint{})
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
		m.Observe("nvidia.com/GA102GL_A10", 1, 8000, 0, poddemand.NodeConstraint{})
	}
	demand := m.Current()
	shares := map[string]float64{"nvidia.com/GA102GL_A10": demand["nvidia.com/GA102GL_A10"].Share, "nvidia.com/gpu": demand["nvidia.com/gpu"].Share}
	if a10, gpu := shares["nvidia.com/GA102GL_A10"], shares["nvidia.com/gpu"]; math.Abs(a10+gpu-1) > 1e-9 || a10 <= 0.5 || a10 >= 1 {
		t.Errorf("resource shares %v: want the recent A10 requests to weigh more than half, together 1", shares)
	}
}

// Requests of one unit are classed by the power of two their CPU falls in;
// larger ones by size alone, their CPU averaged. A mean of equal requests
// is exact: a node with that much CPU free holds one.
func TestDemandModelBandsOneUnitRequestsByCPU(t *testing.T) {
	m := NewDemandModel()
	for range 100 {
		m.Observe("nvidia.com/gpu", 1, 16000, 64<<30, poddemand.NodeConstraint{})
		m.Observe("nvidia.com/gpu", 1, 4000, 16<<30, poddemand.NodeConstraint{})
		m.Observe("nvidia.com/gpu", 1, 3000, 16<<30, poddemand.NodeConstraint{})
	}
	m.Observe("nvidia.com/gpu", 8, 64000, 256<<30, poddemand.NodeConstraint{})
	m.Observe("nvidia.com/gpu", 8, 120000, 720<<30, poddemand.NodeConstraint{})
	type class struct {
		units    int64
		milliCPU float64
	}
	var got []class
	for _, c := range m.Current()["nvidia.com/gpu"].Classes {
		got = append(got, class{c.Units, c.MilliCPU})
	}
	// 3000m and 4000m share the band [2048m, 4096m); the later requests weigh
	// a little more in the means.
	want := []class{{1, 3500}, {1, 16000}, {8, 92000}}
	if len(got) != len(want) || got[1] != want[1] || got[0].units != 1 || math.Abs(got[0].milliCPU-3500) > 35 || got[2].units != 8 || math.Abs(got[2].milliCPU-92000) > 920 {
		t.Fatalf("classes %+v, want about %+v", got, want)
	}
	if fit := slots(m.Current()["nvidia.com/gpu"].Classes[1], freeUnits{units: 2, milliCPU: 16000, memory: 64 << 30}); fit != 1 {
		t.Errorf("a node with 16 CPUs and 64Gi free holds %d of the 16-CPU class, want 1", fit)
	}
}

// Scoring reads the demand while PreFilter observes: a copy it holds does not
// change, and a read after the observations sees all of them.
func TestDemandModelCopiesForReaders(t *testing.T) {
	m := NewDemandModel()
	m.Observe("nvidia.com/gpu", 1, 1000, 0, poddemand.NodeConstraint{})
	held := m.Current()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				m.Observe("nvidia.com/gpu", 2, 1000, 0, poddemand.NodeConstraint{})
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

// A demand class pinned to some nodes can use a node's free unit exactly
// where kube-scheduler's NodeAffinity would let its pods run: taking the
// unit leaves nothing unusable there, and elsewhere makes one unusable
// unit fewer.
func TestUnusableAgreesWithNodeAffinity(t *testing.T) {
	verdict := constrainttest.NodeAffinityVerdict(t)
	g := constrainttest.NewGenerator(3)
	for i := range 2000 {
		node := g.Node()
		pod := g.Constrain(&v1.Pod{})
		classes := []DemandClass{{Units: 1, Share: 1, Constraint: poddemand.NodeConstraintOf(pod)}}
		usable := unusableGrowth(classes, node, freeUnits{1, 64000, 64 << 30}, freeUnits{0, 64000, 64 << 30}) == 0
		if want := verdict(pod, node); usable != want {
			t.Fatalf("case %d: the free unit usable by the class: %v, NodeAffinity says its pods may run there: %v\nnode labels %v\nnodeSelector %v affinity %+v",
				i, usable, want, node.Labels, pod.Spec.NodeSelector, pod.Spec.Affinity)
		}
	}
}

// A DRA node's free GPUs serve every resource a DeviceClass serves: their
// classes merge by size and constraint, weighed by the resources' shares; a
// resource the driver does not serve (vGPU) is left out.
func TestPooledDemand(t *testing.T) {
	pinned := poddemand.NodeConstraint{Key: "pinned"}
	demand := Demand{
		"nvidia.com/gpu":            newResourceDemand([]DemandClass{{Units: 1, Share: 0.5, MilliCPU: 8000}, {Units: 2, Share: 0.5, MilliCPU: 16000}}, 0.6),
		"nvidia.com/GA102GL_A10":    newResourceDemand([]DemandClass{{Units: 1, Share: 0.5, MilliCPU: 4000}, {Units: 1, Share: 0.5, MilliCPU: 2000, Constraint: pinned}}, 0.2),
		"nvidia.com/NVIDIA_A10-12Q": newResourceDemand([]DemandClass{{Units: 4, Share: 1, MilliCPU: 2000}}, 0.2),
	}
	pooled := demand.Pooled(func(name v1.ResourceName) bool { return name != "nvidia.com/NVIDIA_A10-12Q" })
	want := []DemandClass{{Units: 1, Share: 0.5, MilliCPU: 7000}, {Units: 1, Share: 0.125, MilliCPU: 2000, Constraint: pinned}, {Units: 2, Share: 0.375, MilliCPU: 16000}}
	if len(pooled.Classes) != len(want) || math.Abs(pooled.Share-0.8) > 1e-9 {
		t.Fatalf("pooled %+v, want classes %+v of share 0.8", pooled, want)
	}
	for i, w := range want {
		if c := pooled.Classes[i]; c.Units != w.Units || c.Constraint.Key != w.Constraint.Key || math.Abs(c.Share-w.Share) > 1e-9 || math.Abs(c.MilliCPU-w.MilliCPU) > 1e-6 {
			t.Errorf("class %d: %+v, want %+v", i, c, w)
		}
	}
	if none := demand.Pooled(func(v1.ResourceName) bool { return false }); len(none.Classes) != 0 || none.Share != 0 {
		t.Errorf("pooled over no resource: %+v, want nothing", none)
	}
}
