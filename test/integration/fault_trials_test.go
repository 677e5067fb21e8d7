package integration

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
)

// The over-commit reproduction, in trials paired by binder: 30 nodes of 2
// A10s, 150 VMs created, kube-apiserver killed and restarted at once, then
// the over-committed nodes are counted. FAULT_KILL=after-create kills it
// 0.9-1.5 s after the last create (the reproduction, which the lab
// hit with kubectl apply); by default 0-200 ms after the first pod is seen
// bound, when bindings are in flight. Neither made DefaultBinder
// over-commit here (docs/configuration.md gives the counts).
// With VerifyingBinder there must be none; with the framework's
// DefaultBinder alone they are counted only. Not in make test (a trial
// takes about a minute): FAULT_TRIALS=6 go test ./test/integration -run
// TestAPIServerRestartTrials -v.
func TestAPIServerRestartTrials(t *testing.T) {
	trials, err := strconv.Atoi(os.Getenv("FAULT_TRIALS"))
	if err != nil || trials < 1 {
		t.Skip("set FAULT_TRIALS to the number of trials per binder to run them")
	}
	overCommitted := map[string][]int{}
	for i := range trials {
		for _, binder := range []string{"VerifyingBinder", "DefaultBinder"} {
			t.Run(fmt.Sprintf("%s-%d", binder, i), func(t *testing.T) {
				n := apiServerRestartTrial(t, binder)
				overCommitted[binder] = append(overCommitted[binder], n)
				if binder == "VerifyingBinder" && n > 0 {
					t.Errorf("%d node(s) over-committed with VerifyingBinder", n)
				}
			})
		}
	}
	t.Logf("over-committed nodes per trial: %v", overCommitted)
}

// apiServerRestartTrial runs one trial with the binder and returns the
// number of nodes holding more VMs than GPUs.
func apiServerRestartTrial(t *testing.T, binder string) int {
	const nodes, gpusPerNode, vms = 30, 2, 150
	e := newEnv(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	config, err := controlplane.SchedulerConfig(repoRoot+"/"+controlplane.InstallConfigMap, e.cp.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	if binder == "DefaultBinder" {
		config = withoutBindConfig(t, config)
	}
	e.startSchedulerWithConfig(t, "scheduler", e.cp.Kubeconfig, config)
	e.createA10VMs(t, nodes, gpusPerNode, vms)
	// The fault's moment, not a wait for a state: a random delay after the
	// last create, or after binding is seen to start.
	killAfter := rand.N(200 * time.Millisecond)
	if os.Getenv("FAULT_KILL") == "after-create" {
		killAfter = 900*time.Millisecond + rand.N(600*time.Millisecond)
	} else {
		e.waitBindingStarted(t)
	}
	time.Sleep(killAfter)
	if err := e.cp.RestartAPIServer(e.ctx); err != nil {
		t.Fatalf("restart kube-apiserver: %v", err)
	}
	var pods []v1.Pod
	e.poll(t, "every GPU taken and every other VM explained", func(ctx context.Context) (bool, error) {
		list, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		pods = list.Items
		bound := 0
		for i := range pods {
			if pods[i].Spec.NodeName != "" {
				bound++
			} else if unschedulableMessage(&pods[i]) == "" {
				return false, nil
			}
		}
		return bound >= nodes*gpusPerNode, nil
	})
	over := len(overCommitted(pods, gpusPerNode))
	t.Logf("%s: kube-apiserver killed %s after the last create or the first binding; %d node(s) over-committed", binder, killAfter.Round(time.Millisecond), over)
	return over
}

// withoutBindConfig drops the profile's bind plugins, so that the
// framework's DefaultBinder binds alone.
func withoutBindConfig(t *testing.T, config []byte) []byte {
	t.Helper()
	var c map[string]any
	if err := yaml.Unmarshal(config, &c); err != nil {
		t.Fatal(err)
	}
	delete(c["profiles"].([]any)[0].(map[string]any)["plugins"].(map[string]any), "bind")
	out, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
