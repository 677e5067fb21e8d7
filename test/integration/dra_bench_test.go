package integration

import (
	"context"
	"fmt"
	"testing"
	"time"

	eventsv1 "k8s.io/api/events/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices/dratest"
)

// BenchmarkDRACostlySelectorCycle schedules a VM whose claim carries a
// selector the API server accepts (dratest.CostlySelector, an estimated
// cost of 630,948 of 1,000,000) on 100 DRA nodes with 8 passthrough GPUs
// each, 800 vfio devices, and reports how long the scheduler's first
// attempt took: from the pod's creation to the time of its first
// FailedScheduling event. The allocator's filterTimeout (10 s) bounds the
// attempt's allocations on all nodes together, and the explanation ends by
// then too, so that the attempt ends within about 11 s.
func BenchmarkDRACostlySelectorCycle(b *testing.B) {
	const draNodes, gpusPerNode = 100, 8
	e := newDRAClusterWithoutScheduler(b)
	for i := range draNodes {
		e.publishGPUs(b, fmt.Sprintf("dra-%03d", i), gpusPerNode, true)
	}
	e.startScheduler(b, "scheduler")
	attempt := 0
	for b.Loop() {
		attempt++
		name := fmt.Sprintf("virt-launcher-vm-costly-%d", attempt)
		pod := e.claimPodFor(b, name, fmt.Sprintf("vm-costly-%d", attempt), resourceapi.ExactDeviceRequest{
			DeviceClassName: dradevices.DRAClassVFIO, Count: 1, Selectors: []resourceapi.DeviceSelector{dratest.CostlySelector()}})
		created := time.Now()
		e.createPod(b, pod)
		var first *eventsv1.Event
		e.poll(b, "the first FailedScheduling event of "+name, func(ctx context.Context) (bool, error) {
			list, err := e.client.EventsV1().Events("default").List(ctx, metav1.ListOptions{FieldSelector: "regarding.name=" + name + ",reason=FailedScheduling"})
			if err != nil || len(list.Items) == 0 {
				return false, err
			}
			first = &list.Items[0]
			return true, nil
		})
		b.ReportMetric(first.EventTime.Sub(created).Seconds(), "s/attempt")
		b.Logf("first attempt: %s", first.Note)
		e.waitEventMatching(b, name, "GPUWorkloadUnschedulable", "the explanation", func(message string) bool {
			b.Logf("explanation: %s", message)
			return true
		})
		if err := e.client.CoreV1().Pods("default").Delete(e.ctx, name, metav1.DeleteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
