package integration

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
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
	"github.com/gpu-workload-scheduler/scheduler/pkg/draguard"
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

// DRA under the install RBAC: the scheduler reads slices, classes and
// claims, allocates, and its sibling guard creates and deletes its
// DeviceTaintRules, with no permission beyond manifests/install.
func TestDRAWithInstallRBAC(t *testing.T) {
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	s, _ := e.startSchedulerWithInstallRBAC(t)
	e.createDriverDeviceClasses(t)
	e.publishGPUs(t, "dra-a", 1, true)

	e.createPod(t, e.claimPod(t, "cuda-claim", "", "gpu.nvidia.com"))
	if node := e.waitBound(t, "cuda-claim"); node != "dra-a" {
		t.Fatalf("cuda-claim bound to %s, want dra-a", node)
	}
	e.poll(t, "the guard's DeviceTaintRule on gpu-vfio-0", func(ctx context.Context) (bool, error) {
		rules, err := e.client.ResourceV1().DeviceTaintRules().List(ctx, metav1.ListOptions{LabelSelector: draguard.ManagedByLabel + "=" + draguard.ManagedBy})
		return err == nil && len(rules.Items) == 1 && *rules.Items[0].Spec.DeviceSelector.Device == "gpu-vfio-0", err
	})
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
	wantNothingForbidden(t, s.LogPath)
}
