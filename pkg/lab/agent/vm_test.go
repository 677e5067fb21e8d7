package agent

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
)

// A VirtualMachine to run gets its VMI from spec.template, schedulerName
// and labels included and owned by the VM, once; a halted one gets none.
func TestSyncVM(t *testing.T) {
	for _, tc := range []struct {
		name, run string
		wantVMI   bool
	}{
		{"runStrategy Always", "runStrategy: Always", true},
		{"running: true", "running: true", true},
		{"runStrategy Halted", "runStrategy: Halted", false},
		{"neither", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vm := &unstructured.Unstructured{}
			manifest := `
apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: vm-desktop, namespace: vms, uid: "42"}
spec:
  ` + tc.run + `
  template:
    metadata: {labels: {app: desktop}}
    spec:
      schedulerName: gpu-workload-scheduler
      domain: {devices: {gpus: [{name: gpu1, deviceName: nvidia.com/GA102GL_A10}]}}
`
			if err := yaml.Unmarshal([]byte(manifest), &vm.Object); err != nil {
				t.Fatal(err)
			}
			vms := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			vmis := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			if err := vms.Add(vm); err != nil {
				t.Fatal(err)
			}
			dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{clusterstate.VMIGVR: "VirtualMachineInstanceList"})
			a := &agent{dynamic: dyn, recorder: events.NewFakeRecorder(10),
				vms:  cache.NewGenericLister(vms, clusterstate.VMGVR.GroupResource()),
				vmis: cache.NewGenericLister(vmis, clusterstate.VMIGVR.GroupResource())}
			for range 2 {
				if err := a.syncVM(context.Background(), "vms", "vm-desktop"); err != nil {
					t.Fatal(err)
				}
			}
			got, err := dyn.Resource(clusterstate.VMIGVR).Namespace("vms").Get(context.Background(), "vm-desktop", metav1.GetOptions{})
			if !tc.wantVMI {
				if !apierrors.IsNotFound(err) {
					t.Fatalf("a VMI for a VM not to run: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			scheduler, _, _ := unstructured.NestedString(got.Object, "spec", "schedulerName")
			owners := got.GetOwnerReferences()
			if scheduler != "gpu-workload-scheduler" || got.GetLabels()["app"] != "desktop" || len(owners) != 1 || owners[0].Kind != "VirtualMachine" || owners[0].UID != "42" || owners[0].Controller == nil || !*owners[0].Controller {
				t.Fatalf("VMI %+v", got.Object)
			}
		})
	}
}
