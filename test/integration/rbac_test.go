package integration

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	resourceapi "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
)

// applyInstallRBAC creates the ServiceAccount and RBAC objects of manifests/install, as built by kustomize.
func (e *env) applyInstallRBAC(t *testing.T) {
	t.Helper()
	e.applyRBAC(t, "manifests/install", func(string) bool { return true })
}

// applyRBAC creates the ServiceAccounts, RBAC objects and admission
// policies a kustomization of the repository builds, those whose name keep
// accepts.
func (e *env) applyRBAC(t *testing.T, dir string, keep func(name string) bool) {
	t.Helper()
	resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), repoRoot+"/"+dir)
	if err != nil {
		t.Fatal(err)
	}
	rbac := e.client.RbacV1()
	for _, r := range resources.Resources() {
		if !keep(r.GetName()) {
			continue
		}
		data, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		ns := r.GetNamespace()
		switch r.GetKind() {
		case "ServiceAccount":
			err = createFrom(data, func(o *v1.ServiceAccount) error {
				_, err := e.client.CoreV1().ServiceAccounts(ns).Create(e.ctx, o, metav1.CreateOptions{})
				return err
			})
		case "ClusterRole":
			err = createFrom(data, func(o *rbacv1.ClusterRole) error {
				_, err := rbac.ClusterRoles().Create(e.ctx, o, metav1.CreateOptions{})
				return err
			})
		case "ClusterRoleBinding":
			err = createFrom(data, func(o *rbacv1.ClusterRoleBinding) error {
				_, err := rbac.ClusterRoleBindings().Create(e.ctx, o, metav1.CreateOptions{})
				return err
			})
		case "Role":
			err = createFrom(data, func(o *rbacv1.Role) error {
				_, err := rbac.Roles(ns).Create(e.ctx, o, metav1.CreateOptions{})
				return err
			})
		case "ValidatingAdmissionPolicy":
			err = createFrom(data, func(o *admissionregistrationv1.ValidatingAdmissionPolicy) error {
				_, err := e.client.AdmissionregistrationV1().ValidatingAdmissionPolicies().Create(e.ctx, o, metav1.CreateOptions{})
				return err
			})
		case "ValidatingAdmissionPolicyBinding":
			err = createFrom(data, func(o *admissionregistrationv1.ValidatingAdmissionPolicyBinding) error {
				_, err := e.client.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(e.ctx, o, metav1.CreateOptions{})
				return err
			})
		case "RoleBinding":
			err = createFrom(data, func(o *rbacv1.RoleBinding) error {
				_, err := rbac.RoleBindings(ns).Create(e.ctx, o, metav1.CreateOptions{})
				return err
			})
		}
		if err != nil {
			t.Fatalf("create %s %s/%s: %v", r.GetKind(), ns, r.GetName(), err)
		}
	}
}

func createFrom[T any](data []byte, create func(*T) error) error {
	var obj T
	if err := yaml.UnmarshalStrict(data, &obj); err != nil {
		return err
	}
	return create(&obj)
}

// Scenario 9: with RBAC on, the scheduler runs as the ServiceAccount of
// manifests/install, bound to exactly its roles: it works, and it is denied
// what it must not do.
func TestSchedulerRunsWithInstallRBAC(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	s, kubeconfig := e.startSchedulerWithInstallRBAC(t)
	e.seedNodes(t)

	e.createPod(t, gpuPod("virt-launcher-vm-a10-x7k2p", "vm-a10", map[string]string{a10: "1"}))
	if node := e.waitBound(t, "virt-launcher-vm-a10-x7k2p"); node != "gpu-passthrough" {
		t.Fatalf("bound to %s, want gpu-passthrough", node)
	}
	e.createPod(t, gpuPod("virt-launcher-vm-a10-second-m2k8s", "vm-a10-second", map[string]string{a10: "1"}))
	e.waitEvent(t, "virt-launcher-vm-a10-second-m2k8s", "GPUWorkloadUnschedulable",
		"VirtualMachineInstance/default/vm-a10-second (pod virt-launcher-vm-a10-second-m2k8s) needs 1 x nvidia.com/GA102GL_A10 (vm-passthrough mode). "+
			"GPU nodes by mode: container 1, vm-passthrough 1, vm-vgpu 1. nvidia.com/GA102GL_A10: 0 free of 1 on 1 node(s). "+
			"Fix: free units are used up; let running GPU pods finish, let preemption make room for a higher priority, "+
			"or convert idle node gpu-vgpu, which has this hardware: kubectl label node gpu-vgpu nvidia.com/gpu.workload.config=vm-passthrough --overwrite")

	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	as := kubernetes.NewForConfigOrDie(config)
	for what, err := range map[string]error{
		"delete a node": as.CoreV1().Nodes().Delete(e.ctx, "cpu-1", metav1.DeleteOptions{}),
		"read secrets":  func() error { _, err := as.CoreV1().Secrets("default").List(e.ctx, metav1.ListOptions{}); return err }(),
		"create pods": func() error {
			_, err := as.CoreV1().Pods("default").Create(e.ctx, gpuPod("intruder", "", nil), metav1.CreateOptions{})
			return err
		}(),
		"delete a ClusterPolicy": func() error {
			return e.dynamicAs(t, kubeconfig).Resource(clusterstate.ClusterPolicyGVR).Delete(e.ctx, "cluster-policy", metav1.DeleteOptions{})
		}(),
	} {
		if !apierrors.IsForbidden(err) {
			t.Errorf("the scheduler's ServiceAccount may %s: %v, want Forbidden", what, err)
		}
	}

	wantNothingForbidden(t, s.LogPath)
}

// startSchedulerWithInstallRBAC runs the scheduler as the ServiceAccount of
// manifests/install, bound to exactly its roles.
func (e *env) startSchedulerWithInstallRBAC(t *testing.T) (*controlplane.Scheduler, string) {
	t.Helper()
	e.applyInstallRBAC(t)
	token, err := e.client.CoreV1().ServiceAccounts(schedulerName).CreateToken(e.ctx, schedulerName,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig := filepath.Join(e.cp.Dir, "service-account.kubeconfig")
	if err := e.cp.WriteKubeconfig(kubeconfig, schedulerName, token.Status.Token); err != nil {
		t.Fatal(err)
	}
	return e.startSchedulerAs(t, "scheduler", kubeconfig), kubeconfig
}

// wantNothingForbidden checks that whatever a component tried on its own
// was allowed: a missing rule shows up as "forbidden" in its log.
func wantNothingForbidden(t *testing.T, logPath string) {
	t.Helper()
	logData, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(logData), "\n") {
		if strings.Contains(line, "forbidden") {
			t.Errorf("%s: denied something it needs: %s", filepath.Base(logPath), line)
		}
	}
}

// DRA under the install RBAC: the scheduler reads slices, classes, claims
// and DeviceTaintRules, and writes claims; when it first schedules it
// deletes the DeviceTaintRule an earlier version wrote (here on the device
// the VM gets at the end) and leaves another's, which the admission policy
// forbids it to delete; it fences the container device of the VM's GPU,
// and the policy refuses it a rule that selects more than one device.
func TestDRAWithInstallRBAC(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	rules := e.client.ResourceV1().DeviceTaintRules()
	rule := func(name string, labels map[string]string, device string) *resourceapi.DeviceTaintRule {
		return &resourceapi.DeviceTaintRule{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Spec: resourceapi.DeviceTaintRuleSpec{
			DeviceSelector: &resourceapi.DeviceTaintSelector{Driver: ptr.To("gpu.nvidia.com"), Pool: ptr.To("dra-a"), Device: ptr.To(device)},
			Taint:          resourceapi.DeviceTaint{Key: "example.com/taint", Effect: resourceapi.DeviceTaintEffectNoSchedule}}}
	}
	for _, r := range []*resourceapi.DeviceTaintRule{
		rule("gpu-workload-sibling-0123456789abcdef", map[string]string{drasiblings.ManagedByLabel: drasiblings.ManagedBy}, "gpu-vfio-0"),
		rule("maintenance", nil, "gpu-vfio-9"),
	} {
		if _, err := rules.Create(e.ctx, r, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	s, kubeconfig := e.startSchedulerWithInstallRBAC(t)
	e.createDriverDeviceClasses(t)
	e.publishGPUs(t, "dra-a", 1, true)

	e.createPod(t, e.claimPod(t, "cuda-claim", "", "gpu.nvidia.com"))
	if node := e.waitBound(t, "cuda-claim"); node != "dra-a" {
		t.Fatalf("cuda-claim bound to %s, want dra-a", node)
	}
	e.poll(t, "only the foreign DeviceTaintRule left", func(ctx context.Context) (bool, error) {
		list, err := rules.List(ctx, metav1.ListOptions{})
		return err == nil && len(list.Items) == 1 && list.Items[0].Name == "maintenance", err
	})
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	asScheduler, err := kubernetes.NewForConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	// The API server loads a new policy in the background: until it does,
	// the delete would go through, so the attempts are dry runs, which
	// admission judges all the same.
	e.poll(t, "the policy to refuse the scheduler deleting a DeviceTaintRule it did not write", func(ctx context.Context) (bool, error) {
		err := asScheduler.ResourceV1().DeviceTaintRules().Delete(ctx, "maintenance", metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}})
		if err == nil {
			return false, nil
		}
		if apierrors.IsForbidden(err) && strings.Contains(err.Error(), "may delete only the DeviceTaintRules labelled app.kubernetes.io/managed-by: gpu-workload-scheduler") {
			return true, nil
		}
		return false, err
	})
	err = asScheduler.ResourceV1().DeviceTaintRules().Delete(e.ctx, "maintenance", metav1.DeleteOptions{})
	if !apierrors.IsForbidden(err) {
		t.Fatalf("the scheduler deleting a DeviceTaintRule it did not write: %v, want the admission policy's refusal", err)
	}

	e.createPod(t, e.claimPod(t, "virt-launcher-vm-dra-x7k2p", "vm-dra", "vfio.gpu.nvidia.com"))
	e.waitMessage(t, "virt-launcher-vm-dra-x7k2p", "0/1 nodes are available: 1 the node's free devices of DeviceClass vfio.gpu.nvidia.com are "+
		"GPUs in use through another device (claim default/cuda-claim holds gpu-0).")

	if err := e.client.CoreV1().Pods("default").Delete(e.ctx, "cuda-claim", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil {
		t.Fatal(err)
	}
	e.releaseClaim(t, "cuda-claim")
	if node := e.waitBound(t, "virt-launcher-vm-dra-x7k2p"); node != "dra-a" {
		t.Fatalf("the VM bound to %s, want dra-a", node)
	}
	if device := e.allocatedDevice(t, "virt-launcher-vm-dra-x7k2p"); device != "gpu-vfio-0" {
		t.Fatalf("the VM's claim got %s, want gpu-vfio-0", device)
	}
	e.poll(t, "the foreign DeviceTaintRule and the VM's fence", func(ctx context.Context) (bool, error) {
		list, err := rules.List(ctx, metav1.ListOptions{})
		if err != nil || len(list.Items) != 2 {
			return false, err
		}
		names := []string{list.Items[0].Name, list.Items[1].Name}
		fence := drasiblings.Fence{Driver: "gpu.nvidia.com", Pool: "dra-a", Device: "gpu-0"}.RuleName()
		return slices.Contains(names, "maintenance") && slices.Contains(names, fence), nil
	})
	wholePool := rule("whole-pool", map[string]string{drasiblings.ManagedByLabel: drasiblings.ManagedBy}, "")
	wholePool.Spec.DeviceSelector.Device = nil
	wholePool.Spec.Taint.Key = drasiblings.FenceTaintKey
	_, err = asScheduler.ResourceV1().DeviceTaintRules().Create(e.ctx, wholePool, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "may create only DeviceTaintRules labelled") {
		t.Fatalf("the scheduler creating a DeviceTaintRule on a whole pool: %v, want the admission policy's refusal", err)
	}
	wantNothingForbidden(t, s.LogPath)
}
