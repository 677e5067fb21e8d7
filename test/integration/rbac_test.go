package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
)

// applyInstallRBAC creates the ServiceAccount and RBAC objects of manifests/install, as built by kustomize.
func (e *env) applyInstallRBAC(t *testing.T) {
	t.Helper()
	resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), repoRoot+"/manifests/install")
	if err != nil {
		t.Fatal(err)
	}
	rbac := e.client.RbacV1()
	for _, r := range resources.Resources() {
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
	s := e.startSchedulerAs(t, "scheduler", kubeconfig)
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

	// Whatever the scheduler tried on its own was allowed: a missing rule shows up as "forbidden" in its log.
	logData, err := os.ReadFile(s.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(logData), "\n") {
		if strings.Contains(line, "forbidden") {
			t.Errorf("scheduler was denied something it needs: %s", line)
		}
	}
}
