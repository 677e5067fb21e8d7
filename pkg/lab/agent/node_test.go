package agent

import (
	"context"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/workqueue"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// A relabel converts a node in two steps: the old resource to 0 with the
// vGPU state pending, then the new advertisement from the GPUs and the
// profile table; a profile the card lacks ends in failed, with nothing
// advertised.
func TestConversion(t *testing.T) {
	for _, tc := range []struct {
		name        string
		labels      map[string]string
		advertised  v1.ResourceList
		state       string
		warning     string
		deployLabel string
	}{
		{
			name: "vGPU profile change", labels: map[string]string{gpuworkload.LabelVGPUConfig: "A10-4Q"},
			advertised: v1.ResourceList{"nvidia.com/NVIDIA_A10-12Q": resource.MustParse("0"), "nvidia.com/NVIDIA_A10-4Q": resource.MustParse("6")},
			state:      gpuworkload.VGPUConfigStateSuccess, deployLabel: "nvidia.com/gpu.deploy.vgpu-manager",
		},
		{
			name: "a profile the card lacks", labels: map[string]string{gpuworkload.LabelVGPUConfig: "A10-7Q"},
			advertised: v1.ResourceList{"nvidia.com/NVIDIA_A10-12Q": resource.MustParse("0")},
			state:      gpuworkload.VGPUConfigStateFailed, warning: "LabConversionFailed", deployLabel: "nvidia.com/gpu.deploy.vgpu-manager",
		},
		{
			name: "to vm-passthrough", labels: map[string]string{gpuworkload.LabelWorkloadConfig: "vm-passthrough"},
			advertised:  v1.ResourceList{"nvidia.com/NVIDIA_A10-12Q": resource.MustParse("0"), "nvidia.com/GA102GL_A10": resource.MustParse("1")},
			deployLabel: "nvidia.com/gpu.deploy.vfio-manager",
		},
		{
			name: "to container", labels: map[string]string{gpuworkload.LabelWorkloadConfig: "container"},
			advertised:  v1.ResourceList{"nvidia.com/NVIDIA_A10-12Q": resource.MustParse("0"), "nvidia.com/gpu": resource.MustParse("1")},
			deployLabel: "nvidia.com/gpu.deploy.device-plugin",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			node := &v1.Node{
				ObjectMeta: metav1.ObjectMeta{Name: "gpu", Labels: map[string]string{gpuworkload.LabelWorkloadConfig: "vm-vgpu", gpuworkload.LabelVGPUConfigState: "success"},
					Annotations: map[string]string{AnnotationHardware: "1 x A10", AnnotationConversionDelay: "0s", annotationPrepared: "vm-vgpu/default"}},
				Status: v1.NodeStatus{Capacity: v1.ResourceList{"nvidia.com/NVIDIA_A10-12Q": resource.MustParse("2")}},
			}
			a, client, nodes := newTestAgent(t, node)
			for k, v := range tc.labels {
				node.Labels[k] = v
			}
			if _, err := client.CoreV1().Nodes().Update(context.Background(), node, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			var got *v1.Node
			// Start, then finish once the node is seen converting.
			for range 2 {
				current, err := client.CoreV1().Nodes().Get(context.Background(), "gpu", metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if err := nodes.Update(current); err != nil {
					t.Fatal(err)
				}
				if err := a.syncNode(context.Background(), "gpu"); err != nil {
					t.Fatal(err)
				}
				got, _ = client.CoreV1().Nodes().Get(context.Background(), "gpu", metav1.GetOptions{})
				if got.Annotations[annotationConverting] != "" && tc.state != "" && got.Labels[gpuworkload.LabelVGPUConfigState] != gpuworkload.VGPUConfigStatePending {
					t.Fatalf("converting, vGPU state %q, want pending", got.Labels[gpuworkload.LabelVGPUConfigState])
				}
			}
			if got.Annotations[annotationConverting] != "" || got.Labels[gpuworkload.LabelVGPUConfigState] != tc.state || got.Labels[tc.deployLabel] != "true" {
				t.Errorf("after the conversion: annotations %v, labels %v; want it done, vGPU state %q and %s", got.Annotations, got.Labels, tc.state, tc.deployLabel)
			}
			// GPU feature discovery's labels are those of the node in its
			// mode: the product and count in container mode only.
			mode := gpuworkload.Mode(got.Labels[gpuworkload.LabelWorkloadConfig])
			inv, err := gpuworkload.NewGPUInventory(1, "A10", "")
			if err != nil {
				t.Fatal(err)
			}
			want := gpuworkload.LabelsInMode(got.Labels, mode, inv)
			for _, key := range []string{gpuworkload.LabelGPUProduct, gpuworkload.LabelGPUCount} {
				if got.Labels[key] != want[key] {
					t.Errorf("label %s = %q in mode %s, want %q", key, got.Labels[key], mode, want[key])
				}
			}
			for name, want := range tc.advertised {
				if q := got.Status.Capacity[name]; q.Cmp(want) != 0 {
					t.Errorf("capacity %s = %s, want %s", name, q.String(), want.String())
				}
			}
			warning := ""
			select {
			case e := <-a.recorder.(*events.FakeRecorder).Events:
				warning = e
			default:
			}
			if (tc.warning == "") != (warning == "") {
				t.Errorf("event %q, want one of reason %q", warning, tc.warning)
			}
		})
	}
}

func newTestAgent(t *testing.T, node *v1.Node) (*agent, *fake.Clientset, cache.Indexer) {
	t.Helper()
	client := fake.NewClientset(node.DeepCopy())
	nodes := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	policies := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	policy := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "nvidia.com/v1", "kind": "ClusterPolicy",
		"metadata": map[string]any{"name": "cluster-policy"}, "spec": map[string]any{"sandboxWorkloads": map[string]any{"enabled": true}}}}
	if err := policies.Add(policy); err != nil {
		t.Fatal(err)
	}
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[key]())
	t.Cleanup(queue.ShutDown)
	a := &agent{
		client: client, opts: Options{ConversionDelay: time.Second},
		nodes:    corelisters.NewNodeLister(nodes),
		policies: cache.NewGenericLister(policies, clusterstate.ClusterPolicyGVR.GroupResource()),
		recorder: events.NewFakeRecorder(10),
		queue:    queue,
	}
	return a, client, nodes
}

// A node the agent first sees without deploy labels gets its mode's, as the
// GPU Operator labels a node; one with deploy labels keeps them as they are.
func TestFirstSightLabelsOperands(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   map[string]string
	}{
		{
			name:   "no deploy labels",
			labels: map[string]string{gpuworkload.LabelWorkloadConfig: "vm-passthrough"},
			want:   map[string]string{"nvidia.com/gpu.deploy.vfio-manager": "true", "nvidia.com/gpu.deploy.sandbox-device-plugin": "true", "nvidia.com/gpu.deploy.device-plugin": ""},
		},
		{
			name:   "the scenario's own deploy labels",
			labels: map[string]string{gpuworkload.LabelWorkloadConfig: "vm-passthrough", "nvidia.com/gpu.deploy.device-plugin": "true"},
			want:   map[string]string{"nvidia.com/gpu.deploy.device-plugin": "true", "nvidia.com/gpu.deploy.vfio-manager": ""},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "gpu", Labels: tc.labels, Annotations: map[string]string{AnnotationHardware: "1 x A10"}}}
			a, client, nodes := newTestAgent(t, node)
			if err := nodes.Add(node); err != nil {
				t.Fatal(err)
			}
			if err := a.syncNode(context.Background(), "gpu"); err != nil {
				t.Fatal(err)
			}
			got, err := client.CoreV1().Nodes().Get(context.Background(), "gpu", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for key, want := range tc.want {
				if got.Labels[key] != want {
					t.Errorf("label %s = %q, want %q (labels %v)", key, got.Labels[key], want, got.Labels)
				}
			}
			if got.Annotations[annotationPrepared] != "vm-passthrough" {
				t.Errorf("annotations %v, want the node prepared for vm-passthrough", got.Annotations)
			}
		})
	}
}
