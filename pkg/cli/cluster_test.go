package cli

import (
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/apis/config"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterview"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
)

// The tools read DRA GPUs from the driver the scheduler's args name, as the
// scheduler does: a node is a DRA node when that driver publishes its GPUs,
// and the operator's view (check, advise) reads the driver's default name.
func TestStatesReadTheSchedulersDRADriver(t *testing.T) {
	slice := dradevices.DriverSlice("dra-1", 1)
	slice.Spec.Driver = "gpu.example.com"
	c := &clusterview.Cluster{Nodes: []*v1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "dra-1"}}}, DRA: clusterview.DRAObjects{Slices: []*resourceapi.ResourceSlice{slice}},
		Read: time.Now(), ConversionTimeout: gpuworkload.DefaultConversionTimeout}
	scheduler := func(driver string) clusterview.View {
		args := &config.GPUWorkloadFitArgs{DRADriverName: driver}
		config.SetDefaultsGPUWorkloadFitArgs(args)
		return clusterview.SchedulerView(args)
	}
	for _, tc := range []struct {
		name string
		view clusterview.View
		dra  bool
	}{
		{name: "the scheduler's driver", view: scheduler("gpu.example.com"), dra: true},
		{name: "another driver", view: scheduler(dradevices.DRADriver)},
		{name: "the operator's view", view: clusterview.OperatorView()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := c.ReadAs(tc.view); err != nil {
				t.Fatal(err)
			}
			states, _ := c.States()
			if states[0].DRA != tc.dra {
				t.Fatalf("node dra-1 a DRA node: %v, want %v", states[0].DRA, tc.dra)
			}
		})
	}
}
