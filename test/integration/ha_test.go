package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
)

// auditPolicy records every pod binding, so that the test counts bindings
// rather than trusting the end state.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived", "ResponseStarted"]
rules:
  - level: Metadata
    verbs: ["create"]
    resources:
      - group: ""
        resources: ["pods/binding"]
  - level: None
`

// newEnvWithBindingAudit is newEnv with kube-apiserver writing every pod
// binding to the audit log it returns.
func newEnvWithBindingAudit(t *testing.T) (*env, string) {
	t.Helper()
	dir := t.TempDir()
	policyPath, auditLog := filepath.Join(dir, "audit-policy.yaml"), filepath.Join(dir, "audit.log")
	if err := os.WriteFile(policyPath, []byte(auditPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	return newEnv(t, "--audit-policy-file="+policyPath, "--audit-log-path="+auditLog), auditLog
}

// Scenario 10: two schedulers with leader election share 200 pending pods;
// the leader stops mid-stream and the other takes over. Every pod is bound
// exactly once.
func TestHighAvailability(t *testing.T) {
	e, auditLog := newEnvWithBindingAudit(t)
	e.installCRDs(t)
	e.applyClusterPolicy(t, "cluster-policy", true)
	for i := range 20 {
		createNode(e.ctx, t, e.client, fmt.Sprintf("gpu-%02d", i), map[string]string{"nvidia.com/gpu.workload.config": "container"}, map[string]string{"nvidia.com/gpu": "10"})
	}
	schedulers := map[string]*controlplane.Scheduler{
		"scheduler-a": e.startScheduler(t, "scheduler-a"),
		"scheduler-b": e.startScheduler(t, "scheduler-b"),
	}
	leader := e.waitLeader(t, schedulers, "")

	const pods = 200
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range pods {
			if _, err := e.client.CoreV1().Pods("default").Create(e.ctx, gpuPod(fmt.Sprintf("cuda-%03d", i), "", map[string]string{"nvidia.com/gpu": "1"}), metav1.CreateOptions{}); err != nil {
				t.Errorf("create pod %d: %v", i, err)
				return
			}
		}
	}()
	e.poll(t, "a quarter of the pods bound", func(ctx context.Context) (bool, error) {
		n, err := e.boundPods(ctx)
		return n >= pods/4, err
	})
	if err := schedulers[leader].Stop(); err != nil {
		t.Fatalf("stop leader %s: %v", leader, err)
	}
	t.Logf("stopped leader %s", leader)
	e.waitLeader(t, schedulers, leader)
	wg.Wait()
	e.poll(t, "all pods bound", func(ctx context.Context) (bool, error) {
		n, err := e.boundPods(ctx)
		return n == pods, err
	})

	// Leader election must keep two schedulers from ever deciding for the
	// same pod: then no binding request of a pod was refused with 409
	// Conflict, and at most one succeeded. Requests in flight when the leader
	// stopped may be cut off (5xx), stored or not; when not, the new leader
	// binds the pod again, which is one decision after the other, not two at once.
	var bindings map[string][]int
	// The audit entry of a request may be written a moment after its effect is visible.
	e.poll(t, "the audit log to record every binding", func(context.Context) (bool, error) {
		bindings = bindingCodes(t, auditLog)
		return len(bindings) >= pods, nil
	})
	interrupted := 0
	for i := range pods {
		name := fmt.Sprintf("cuda-%03d", i)
		codes := bindings[name]
		created, cutOff := 0, 0
		for _, code := range codes {
			switch {
			case code == 201:
				created++
			case code >= 500:
				cutOff++
			default:
				t.Errorf("pod %s: binding responses %v; %d means two schedulers decided for it", name, codes, code)
			}
		}
		if created > 1 || created+cutOff == 0 {
			t.Errorf("pod %s: binding responses %v, want at most one 201 after any cut-off 5xx", name, codes)
		}
		interrupted += cutOff
	}
	t.Logf("%d binding request(s) cut off by the leader's stop", interrupted)
	// Both shared the stream: the first leader before it stopped, the other
	// after. Logs show who bound; the audit log above is what counts, because a
	// stopped scheduler may not flush its last lines.
	for name, s := range schedulers {
		data, err := os.ReadFile(s.LogPath)
		if err != nil {
			t.Fatal(err)
		}
		n := strings.Count(string(data), "Successfully bound pod to node")
		t.Logf("%s bound %d pods", name, n)
		if n == 0 {
			t.Errorf("%s bound no pod", name)
		}
	}
}

// waitLeader waits until a scheduler other than notThis logs that it
// acquired the lease, and returns its name.
func (e *env) waitLeader(t *testing.T, schedulers map[string]*controlplane.Scheduler, notThis string) string {
	t.Helper()
	var leader string
	e.poll(t, "a leader", func(context.Context) (bool, error) {
		for name, s := range schedulers {
			data, err := os.ReadFile(s.LogPath)
			if err != nil {
				return false, err
			}
			if name != notThis && strings.Contains(string(data), "Successfully acquired lease") {
				leader = name
				return true, nil
			}
		}
		return false, nil
	})
	return leader
}

func (e *env) boundPods(ctx context.Context) (int, error) {
	list, err := e.client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName!="})
	if err != nil {
		return 0, err
	}
	return len(list.Items), nil
}

// bindingCodes lists, per pod, the response codes of its pods/binding creations.
func bindingCodes(t *testing.T, auditLog string) map[string][]int {
	t.Helper()
	f, err := os.Open(auditLog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	codes := map[string][]int{}
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for scanner.Scan() {
		var event struct {
			Stage     string `json:"stage"`
			ObjectRef struct {
				Name        string `json:"name"`
				Subresource string `json:"subresource"`
			} `json:"objectRef"`
			ResponseStatus struct {
				Code int `json:"code"`
			} `json:"responseStatus"`
		}
		if err := json.Unmarshal(scanner.Bytes(), &event); err != nil {
			t.Fatalf("audit log line: %v", err)
		}
		if event.ObjectRef.Subresource == "binding" {
			codes[event.ObjectRef.Name] = append(codes[event.ObjectRef.Name], event.ResponseStatus.Code)
		}
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	return codes
}
