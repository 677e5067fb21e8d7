package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices/dratest"
)

// The scale of the kubectl plugin's limits (docs/kubectl-plugin.md).
const (
	benchNodes       = 20_000
	benchPendingPods = 25_000
)

// BenchmarkLargeDump runs check, and explain of one VM, on a 20,000-node
// dump shaped like 'kubectl get nodes -o json' (labels, annotations, managed
// fields, images) and reports the heap's peak as a multiple of the input's
// size.
func BenchmarkLargeDump(b *testing.B) {
	nodes, size := writeNodeDump(b, benchNodes)
	policy := checkData("clusterpolicy-enabled.yaml")
	vm := filepath.Join(testdata, "explain", "vm-a10.yaml")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"check", []string{"check", "-f", nodes, "--cluster-policy", policy, "--fail-on", "error"}},
		{"explain", []string{"explain", "-f", vm, "--nodes", nodes, "--cluster-policy", policy}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				peak := peakHeap(func() {
					var out bytes.Buffer
					if code := Run(context.Background(), tc.args, nil, &out, &out); code != 0 {
						b.Fatalf("%s exited %d: %.2000s", tc.name, code, out.String())
					}
				})
				b.ReportMetric(float64(peak)/float64(size), "peak-heap/input")
			}
			b.ReportMetric(float64(size)/1e6, "input-MB")
		})
	}
}

// BenchmarkAdviseLargeCluster runs advise on 20,000 GPU nodes with 25,000
// pending VMs: a relabel plan and its two simulations.
func BenchmarkAdviseLargeCluster(b *testing.B) {
	nodes, _ := writeNodeDump(b, benchNodes)
	pods := writePendingVMs(b, benchPendingPods)
	policy := checkData("clusterpolicy-enabled.yaml")
	for b.Loop() {
		if code := Run(context.Background(), []string{"advise", "--nodes", nodes, "--pods", pods, "--cluster-policy", policy}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("advise exited %d", code)
		}
	}
}

// peakHeap runs f and samples the bytes of heap objects, live or not yet
// swept, every millisecond.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	<-sampled
	return peak.Load()
}

// writeNodeDump writes a List of nodes, a quarter per mode and a quarter
// without GPUs, with what real node objects carry besides.
func writeNodeDump(b testing.TB, n int) (string, int64) {
	return writeList(b, "nodes.json", n, func(i int) any { return benchNode(i) })
}

// writeList writes a List of n objects as kubectl does, one item at a time.
func writeList(b testing.TB, name string, n int, item func(int) any) (string, int64) {
	b.Helper()
	path := filepath.Join(b.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	fmt.Fprint(w, `{"apiVersion":"v1","kind":"List","items":[`)
	enc := json.NewEncoder(w)
	for i := range n {
		if i > 0 {
			fmt.Fprint(w, ",")
		}
		if err := enc.Encode(item(i)); err != nil {
			b.Fatal(err)
		}
	}
	fmt.Fprint(w, `],"metadata":{"resourceVersion":""}}`)
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	info, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	return path, info.Size()
}

func benchNode(i int) *v1.Node {
	name := fmt.Sprintf("node-%05d", i)
	labels := map[string]string{
		"kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
		"topology.kubernetes.io/zone": fmt.Sprintf("zone-%d", i%3), "node.kubernetes.io/instance-type": "gpu-a10-4",
		"feature.node.kubernetes.io/cpu-model.vendor_id": "Intel", "feature.node.kubernetes.io/kernel-version.major": "6",
	}
	quantities := v1.ResourceList{v1.ResourceCPU: resource.MustParse("64"), v1.ResourceMemory: resource.MustParse("512Gi"), v1.ResourcePods: resource.MustParse("110")}
	modes := []gpuworkload.Mode{gpuworkload.ModeContainer, gpuworkload.ModePassthrough, gpuworkload.ModeVGPU}
	if i%4 < 3 {
		mode := modes[i%4]
		labels[gpuworkload.LabelGPUPresent] = "true"
		labels[gpuworkload.LabelGPUProduct] = "NVIDIA-A10"
		labels[gpuworkload.LabelGPUCount] = "4"
		labels[gpuworkload.LabelWorkloadConfig] = string(mode)
		for _, key := range gpuworkload.Operands().ExpectedDeployLabels(mode, gpuworkload.RuntimeKubeVirt) {
			labels[key] = "true"
		}
		switch mode {
		case gpuworkload.ModeContainer:
			quantities[gpuworkload.ResourceGPU] = resource.MustParse("4")
		case gpuworkload.ModePassthrough:
			quantities["nvidia.com/GA102GL_A10"] = resource.MustParse("4")
		case gpuworkload.ModeVGPU:
			quantities["nvidia.com/NVIDIA_A10-12Q"] = resource.MustParse("8")
		}
	}
	node := &v1.Node{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Labels: labels, UID: types.UID("uid-" + name), ResourceVersion: "123456",
			Annotations: map[string]string{
				"node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true",
				"nfd.node.kubernetes.io/feature-labels": "cpu-model.vendor_id,kernel-version.major,pci-10de.present",
			},
			ManagedFields: []metav1.ManagedFieldsEntry{{
				Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", FieldsType: "FieldsV1",
				FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{"f:kubernetes.io/hostname":{},"f:kubernetes.io/os":{}}},"f:status":{"f:allocatable":{"f:cpu":{},"f:memory":{}},"f:capacity":{"f:cpu":{},"f:memory":{}},"f:conditions":{"k:{\"type\":\"Ready\"}":{"f:lastHeartbeatTime":{}}}}}`)},
			}},
		},
		Status: v1.NodeStatus{
			Capacity: quantities, Allocatable: quantities,
			Addresses: []v1.NodeAddress{{Type: v1.NodeInternalIP, Address: fmt.Sprintf("10.0.%d.%d", i/256, i%256)}, {Type: v1.NodeHostName, Address: name}},
			NodeInfo:  v1.NodeSystemInfo{KernelVersion: "6.1.0", OSImage: "Debian GNU/Linux 12", ContainerRuntimeVersion: "containerd://2.0.0", KubeletVersion: "v1.37.2", Architecture: "amd64", OperatingSystem: "linux"},
		},
	}
	for _, condition := range []v1.NodeConditionType{v1.NodeReady, v1.NodeMemoryPressure, v1.NodeDiskPressure, v1.NodePIDPressure} {
		node.Status.Conditions = append(node.Status.Conditions, v1.NodeCondition{Type: condition, Status: v1.ConditionFalse, Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available"})
	}
	for j := range 12 {
		node.Status.Images = append(node.Status.Images, v1.ContainerImage{
			Names:     []string{fmt.Sprintf("example.com/gpu-operator/image-%d@sha256:%064d", j, j), fmt.Sprintf("example.com/gpu-operator/image-%d:v25.3.%d", j, j)},
			SizeBytes: int64(100_000_000 + j),
		})
	}
	return node
}

// writePendingVMs writes a List of pending virt-launcher pods, each asking for
// one passthrough A10.
func writePendingVMs(b testing.TB, n int) string {
	path, _ := writeList(b, "pods.json", n, func(i int) any {
		return &v1.Pod{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{
				Name: fmt.Sprintf("virt-launcher-vm-%05d-abcde", i), Namespace: "vms",
				Labels:      map[string]string{"kubevirt.io": "virt-launcher", "kubevirt.io/created-by": fmt.Sprintf("uid-vm-%05d", i)},
				Annotations: map[string]string{"kubevirt.io/domain": fmt.Sprintf("vm-%05d", i)},
			},
			Spec: v1.PodSpec{SchedulerName: "gpu-workload-scheduler", Containers: []v1.Container{{Name: "compute", Resources: v1.ResourceRequirements{
				Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"), v1.ResourceMemory: resource.MustParse("16Gi"), "nvidia.com/GA102GL_A10": resource.MustParse("1")},
				Limits:   v1.ResourceList{"nvidia.com/GA102GL_A10": resource.MustParse("1")},
			}}}},
			Status: v1.PodStatus{Phase: v1.PodPending},
		}
	})
	return path
}

// selectorExplainArgs are explain's arguments for a VM whose claim asks
// for a vfio device with selector, on draNodes DRA nodes with 8
// passthrough GPUs each.
func selectorExplainArgs(tb testing.TB, draNodes int, selector resourceapi.DeviceSelector) []string {
	const gpusPerNode = 8
	nodes, _ := writeList(tb, "nodes.json", draNodes, func(i int) any {
		return &v1.Node{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("dra-%03d", i), Labels: map[string]string{"nvidia.com/gpu.present": "true"}}}
	})
	items := func(i int) any {
		switch {
		case i < draNodes:
			slice := dradevices.DriverSlice(fmt.Sprintf("dra-%03d", i), gpusPerNode)
			slice.TypeMeta = metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceSlice"}
			for _, d := range slice.Spec.Devices {
				d.Attributes["productName"] = resourceapi.DeviceAttribute{StringValue: ptr.To("NVIDIA A10")}
			}
			return slice
		case i == draNodes:
			class := dradevices.DriverDeviceClass(dradevices.DRAClassVFIO, dradevices.DRATypeVFIO, "")
			class.TypeMeta = metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "DeviceClass"}
			return class
		}
		return &resourceapi.ResourceClaim{TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
			ObjectMeta: metav1.ObjectMeta{Name: "vm-costly-gpu", Namespace: "vms"},
			Spec: resourceapi.ResourceClaimSpec{Devices: resourceapi.DeviceClaim{Requests: []resourceapi.DeviceRequest{{Name: "gpu", Exactly: &resourceapi.ExactDeviceRequest{
				DeviceClassName: dradevices.DRAClassVFIO, Count: 1, Selectors: []resourceapi.DeviceSelector{selector}}}}}}}
	}
	dra, _ := writeList(tb, "dra.json", draNodes+2, items)
	pod, _ := writeList(tb, "pod.json", 1, func(int) any {
		return &v1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{Name: "virt-launcher-vm-costly-abcde", Namespace: "vms",
				Labels: map[string]string{"kubevirt.io": "virt-launcher", "kubevirt.io/created-by": "uid-vm-costly"}, Annotations: map[string]string{"kubevirt.io/domain": "vm-costly"}},
			Spec: v1.PodSpec{SchedulerName: "gpu-workload-scheduler", ResourceClaims: []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("vm-costly-gpu")}},
				Containers: []v1.Container{{Name: "compute", Resources: v1.ResourceRequirements{Claims: []v1.ResourceClaim{{Name: "gpu"}}}}}}}
	})
	return []string{"explain", "-f", pod, "--nodes", nodes, "--cluster-policy", checkData("clusterpolicy-enabled.yaml"), "--dra", dra, "-o", "json"}
}

// BenchmarkExplainCostlySelector explains a VM whose claim carries a
// selector the API server accepts (dratest.CostlySelector, an estimated
// cost of 630,948 of 1,000,000) on 100 DRA nodes with 8 passthrough GPUs
// each, 800 vfio devices. explain asks
// the allocator on every node and then explains; both share one deadline,
// the allocator's 10 s, so that explain ends within it and a second.
func BenchmarkExplainCostlySelector(b *testing.B) {
	args := selectorExplainArgs(b, 100, dratest.CostlySelector())
	for b.Loop() {
		var out bytes.Buffer
		start := time.Now()
		Run(context.Background(), args, nil, &out, io.Discard)
		b.ReportMetric(time.Since(start).Seconds(), "s/explain")
		var report ExplainReport
		if err := json.Unmarshal(out.Bytes(), &report); err != nil {
			b.Fatalf("explain's report: %v\n%.2000s", err, out.String())
		}
		undecided := 0
		for _, n := range report.Nodes {
			if n.Verdict == VerdictUndecided {
				undecided++
			}
		}
		b.ReportMetric(float64(undecided), "undecided-nodes")
	}
}
