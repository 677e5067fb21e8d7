// Package lab runs the local lab: a real etcd and kube-apiserver on loopback,
// the scheduler with the shipped configuration, and a scenario of nodes and
// pods, then reports where everything went and why. docs/lab.md describes it.
package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/gpu-workload-scheduler/scheduler/manifests/install"
	"github.com/gpu-workload-scheduler/scheduler/pkg/cli"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/lab/agent"
	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
)

// Options configure Up.
type Options struct {
	// Dir holds everything the lab writes: certificates, kubeconfig, logs, pid files.
	Dir string
	// Repo is the repository root, for manifests/.
	Repo string
	// Bin holds etcd, kube-apiserver, kubectl, gpu-workload-scheduler and kubectl-gpu_workload.
	Bin string
	// Scenario is the scenario directory.
	Scenario string
	// Check compares the outcome with the scenario's expect.yaml, and tears the lab down.
	Check bool
	Out   io.Writer
}

// ErrExpectations means the outcome differs from expect.yaml.
var ErrExpectations = errors.New("the outcome differs from the scenario's expect.yaml")

// settleTimeout bounds the wait for every pod to be bound or reported unschedulable.
const settleTimeout = 90 * time.Second

// expectTimeout bounds the wait for settled pods to meet the expectations,
// conversions by the mode controller and pods' active deadlines included.
const expectTimeout = 60 * time.Second

type lab struct {
	Options
	ctx     context.Context
	config  *rest.Config
	client  kubernetes.Interface
	dynamic dynamic.Interface
	mapper  *restmapper.DeferredDiscoveryRESTMapper
	// schedulerURL is the scheduler's secure port, which serves /metrics.
	schedulerURL string
	// controllerLog is the mode controller's log.
	controllerLog string
}

// step runs one step and prints one line with its duration. A failure names
// the step and, when given, its log file.
func (l *lab) step(name, logFile string, run func() error) error {
	start := time.Now()
	err := run()
	took := time.Since(start).Round(10 * time.Millisecond)
	if err != nil {
		where := ""
		if logFile != "" {
			where = fmt.Sprintf(" (log: %s)", filepath.Join(l.Dir, logFile))
		}
		fmt.Fprintf(l.Out, "[lab] %-44s FAILED after %s%s\n", name, took, where)
		return fmt.Errorf("%s: %w%s", name, err, where)
	}
	fmt.Fprintf(l.Out, "[lab] %-44s %s\n", name, took)
	return nil
}

// Up starts the lab and runs the scenario. With Check it tears the lab down
// again and returns ErrExpectations when the outcome differs.
func Up(ctx context.Context, opts Options) (err error) {
	l := &lab{Options: opts, ctx: ctx}
	if running, err := l.running(); err != nil || running {
		if err == nil {
			err = fmt.Errorf("a lab is already running in %s (KUBECONFIG=%s); stop it first: %s", l.Dir, l.kubeconfig(), l.downCommand())
		}
		return err
	}
	scenario, err := LoadScenario(l.Scenario)
	if err != nil {
		return err
	}
	if opts.Check && scenario.Expect == nil {
		return fmt.Errorf("scenario %s has no %s to check against", l.Scenario, ExpectFile)
	}
	if err := l.fresh(); err != nil {
		return err
	}
	defer func() {
		if err != nil || opts.Check {
			if _, stopErr := controlplane.StopDetached(l.Dir); stopErr != nil {
				err = errors.Join(err, stopErr)
			}
		}
	}()

	var cp *controlplane.ControlPlane
	if err := l.step("start etcd and kube-apiserver", "apiserver.log", func() error {
		cp, err = controlplane.Start(ctx, controlplane.Options{Dir: l.Dir, BinDir: l.Bin, Detached: true})
		return err
	}); err != nil {
		return err
	}
	l.config = cp.AdminConfig
	l.client = kubernetes.NewForConfigOrDie(l.config)
	l.dynamic = dynamic.NewForConfigOrDie(l.config)
	l.mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(discovery.NewDiscoveryClientForConfigOrDie(l.config)))

	if err := l.step("install ClusterPolicy and KubeVirt CRDs", "apiserver.log", func() error {
		if err := cp.InstallCRDs(ctx, filepath.Join(l.Repo, "manifests", "lab", "crds")); err != nil {
			return err
		}
		l.mapper.Reset()
		return nil
	}); err != nil {
		return err
	}
	if err := l.step("apply scenario nodes and cluster objects", "", func() error { return l.apply(scenario, false) }); err != nil {
		return err
	}
	if err := l.step("start the node and KubeVirt agent", "agent.log", func() error {
		if _, err := cp.StartProcess("agent", filepath.Join(l.Bin, "gpu-workload-lab"), "agent", "--kubeconfig", l.kubeconfig()); err != nil {
			return err
		}
		return l.waitForAgent()
	}); err != nil {
		return err
	}
	if err := l.step("start the disruption, ReplicaSet and node-lifecycle controllers", "kube-controllers.log", func() error {
		_, err := cp.StartProcess("kube-controllers", filepath.Join(l.Bin, "gpu-workload-lab"), "controllers", "--kubeconfig", l.kubeconfig())
		return err
	}); err != nil {
		return err
	}
	if err := l.step("start gpu-workload-scheduler", "scheduler.log", func() error { return l.startScheduler(cp) }); err != nil {
		return err
	}
	if err := l.step("start kube-scheduler's default profile beside it", "default-scheduler.log", func() error { return l.startDefaultScheduler(cp) }); err != nil {
		return err
	}
	if err := l.step("apply the chart's routing policies ("+RoutingManifest+")", "apiserver.log", l.applyRouting); err != nil {
		return err
	}
	if err := l.step("apply scenario pods", "", func() error { return l.apply(scenario, true) }); err != nil {
		return err
	}
	if err := l.step("wait for every pod to be placed or explained", "scheduler.log", func() error { return l.settle(scenario) }); err != nil {
		return err
	}
	if err := l.step("start gpu-workload-controller (--operation="+string(scenario.Controller.Operation)+")", "controller.log", func() error {
		return l.startController(cp, scenario.Controller)
	}); err != nil {
		return err
	}
	var diffs []string
	if scenario.Expect != nil {
		// A pod's first outcome may be a retry on its way (a DRA allocation
		// rejected at Reserve, say), and the mode controller acts over
		// several passes: the expectations must hold, and go on holding
		// through two more of its passes, so that what it must not do is
		// seen not done rather than not done yet.
		heldSince := -1
		_ = wait.PollUntilContextTimeout(l.ctx, 200*time.Millisecond, expectTimeout, true, func(context.Context) (bool, error) {
			diffs = l.compare(scenario)
			if len(diffs) > 0 {
				heldSince = -1
				return false, nil
			}
			passes := l.controllerPasses()
			if heldSince < 0 {
				heldSince = passes
			}
			return passes >= heldSince+2, nil
		})
	}
	if err := l.report(scenario); err != nil {
		return err
	}
	if scenario.Expect != nil {
		if len(diffs) > 0 {
			fmt.Fprintf(l.Out, "\n== Expectations (%s): %d difference(s)\n", filepath.Join(l.Scenario, ExpectFile), len(diffs))
			for _, d := range diffs {
				fmt.Fprintln(l.Out, "  -", d)
			}
			if opts.Check {
				return ErrExpectations
			}
		} else {
			verdict := fmt.Sprintf("all %d pod(s) as expected", len(scenario.Expect.Pods)+len(scenario.Expect.VMIs))
			if n := len(scenario.Expect.Nodes); n > 0 {
				verdict += fmt.Sprintf(", all %d node(s)", n)
			}
			if n := len(scenario.Expect.Metrics); n > 0 {
				verdict += fmt.Sprintf(", all %d metric(s)", n)
			}
			if n := len(scenario.Expect.Explain); n > 0 {
				verdict += fmt.Sprintf(", all %d explanation(s)", n)
			}
			fmt.Fprintf(l.Out, "\n== Expectations (%s): %s\n", filepath.Join(l.Scenario, ExpectFile), verdict)
		}
	}
	if opts.Check {
		// Following the fixes changes the cluster: only a lab about to be torn down does it.
		_, err := l.followFixes(scenario)
		return err
	}
	l.nextSteps(scenario)
	return nil
}

func (l *lab) kubeconfig() string { return filepath.Join(l.Dir, "kubeconfig") }

// fresh empties the lab directory of a previous lab's state, refusing a
// directory the lab did not make.
func (l *lab) fresh() error {
	entries, err := os.ReadDir(l.Dir)
	if err == nil && len(entries) > 0 {
		if _, err := os.Stat(filepath.Join(l.Dir, "etcd-data")); err != nil {
			return fmt.Errorf("%s is not empty and holds no lab (no etcd-data): choose another LAB_DIR", l.Dir)
		}
		if err := os.RemoveAll(l.Dir); err != nil {
			return err
		}
	}
	return os.MkdirAll(l.Dir, 0o700)
}

// running reports whether a lab runs in Dir. A lab whose processes are only
// partly alive is stale: it is stopped and its state removed.
func (l *lab) running() (bool, error) {
	pidFiles, _ := filepath.Glob(filepath.Join(l.Dir, "*.pid"))
	if len(pidFiles) == 0 {
		return false, nil
	}
	alive := 0
	for _, f := range pidFiles {
		if _, ok := controlplane.PidAlive(f); ok {
			alive++
		}
	}
	if alive == len(pidFiles) {
		return true, nil
	}
	fmt.Fprintf(l.Out, "[lab] stale lab in %s (%d of %d processes alive): stopping it\n", l.Dir, alive, len(pidFiles))
	_, err := controlplane.StopDetached(l.Dir)
	return false, err
}

// Down stops exactly the processes the lab started, and removes the lab
// directory when clean is set.
func Down(dir string, clean bool, out io.Writer) error {
	stopped, err := controlplane.StopDetached(dir)
	if len(stopped) == 0 {
		fmt.Fprintf(out, "[lab] no lab processes in %s\n", dir)
	}
	for _, s := range stopped {
		if s.WasRunning {
			fmt.Fprintf(out, "[lab] stopped %s\n", s.Name)
		} else {
			fmt.Fprintf(out, "[lab] %s had already exited (log: %s)\n", s.Name, filepath.Join(dir, s.Name+".log"))
		}
	}
	if err != nil {
		return err
	}
	if clean {
		fmt.Fprintf(out, "[lab] removed %s\n", dir)
		return os.RemoveAll(dir)
	}
	return nil
}

// apply creates the scenario's objects: pods only, or everything else. A
// node's status block, and a ResourceClaim's (its allocation, as a dump of
// the cluster shows it), is applied through the status subresource.
func (l *lab) apply(s *Scenario, pods bool) error {
	for _, obj := range s.Objects {
		if (obj.GetKind() == "Pod") != pods {
			continue
		}
		if err := l.create(obj.DeepCopy()); err != nil {
			return fmt.Errorf("%s %s: %w", obj.GetKind(), obj.GetName(), err)
		}
	}
	return nil
}

func (l *lab) create(obj *unstructured.Unstructured) error {
	gvk := obj.GroupVersionKind()
	mapping, err := l.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return err
	}
	resource := l.dynamic.Resource(mapping.Resource)
	var ri dynamic.ResourceInterface = resource
	if mapping.Scope.Name() == "namespace" {
		if obj.GetNamespace() == "" {
			obj.SetNamespace("default")
		}
		ri = resource.Namespace(obj.GetNamespace())
	}
	status, hasStatus, _ := unstructured.NestedMap(obj.Object, "status")
	unstructured.RemoveNestedField(obj.Object, "status")
	if _, err := ri.Create(l.ctx, obj, metav1.CreateOptions{}); err != nil {
		return err
	}
	if obj.GetDeletionTimestamp() != nil {
		// A scenario replays an object being deleted as the API makes one:
		// created, then deleted, and kept by its finalizers.
		return ri.Delete(l.ctx, obj.GetName(), metav1.DeleteOptions{})
	}
	if hasStatus && (obj.GetKind() == "Node" || obj.GetKind() == "ResourceClaim") {
		patch, err := json.Marshal(map[string]any{"status": status})
		if err != nil {
			return err
		}
		_, err = ri.Patch(l.ctx, obj.GetName(), types.MergePatchType, patch, metav1.PatchOptions{}, "status")
		return err
	}
	return nil
}

// waitForAgent waits until the agent has taken every node with hardware in
// hand: a relabel before that would be taken for the node's first state.
func (l *lab) waitForAgent() error {
	return wait.PollUntilContextTimeout(l.ctx, 100*time.Millisecond, agentTimeout, true, func(ctx context.Context) (bool, error) {
		nodes, err := l.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		for i := range nodes.Items {
			if n := &nodes.Items[i]; n.Annotations[agent.AnnotationHardware] != "" && !agent.Took(n) {
				return false, nil
			}
		}
		return true, nil
	})
}

// agentTimeout bounds the wait for the agent to start and see the nodes.
const agentTimeout = 30 * time.Second

// labConversionTimeout is how long a conversion takes at most in the lab,
// whose agent converts a node in seconds: the scheduler's conversionTimeout
// (and so kubectl gpu-workload's) and the mode controller's.
const labConversionTimeout = 30 * time.Second

// startController runs the mode controller with the lab's pace: a pass
// every 2 s, demand and idleness counted at once; it returns after its
// first pass.
func (l *lab) startController(cp *controlplane.ControlPlane, settings ControllerSettings) error {
	args := append([]string{"--kubeconfig", l.kubeconfig(),
		"--operation=" + string(settings.Operation), "--interval=2s", "--demand-wait=0", "--idle-for=0", "--leader-elect=false", "--secure-port=0", "--v=2",
		"--conversion-timeout=" + labConversionTimeout.String()}, settings.Args...)
	p, err := cp.StartProcess("controller", filepath.Join(l.Bin, "gpu-workload-controller"), args...)
	if err != nil {
		return err
	}
	l.controllerLog = p.LogPath
	return wait.PollUntilContextTimeout(l.ctx, 100*time.Millisecond, agentTimeout, true, func(context.Context) (bool, error) {
		return l.controllerPasses() >= 1, nil
	})
}

// controllerPasses counts the controller's passes so far, from its log at
// --v=2: each ends with a plan or says why it did not plan.
func (l *lab) controllerPasses() int {
	data, err := os.ReadFile(l.controllerLog)
	if err != nil {
		return 0
	}
	return bytes.Count(data, []byte(`"Planned"`)) + bytes.Count(data, []byte(`"Not planning:`))
}

func (l *lab) startScheduler(cp *controlplane.ControlPlane) error {
	if _, err := l.client.CoreV1().Namespaces().Create(l.ctx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "gpu-workload-scheduler"}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	config, err := controlplane.SchedulerConfig(filepath.Join(l.Repo, controlplane.InstallConfigMap), l.kubeconfig())
	if err != nil {
		return err
	}
	if config, err = controlplane.WithFitArg(config, "conversionTimeout", labConversionTimeout.String()); err != nil {
		return err
	}
	// Installed as a Deployment's is, so that kubectl gpu-workload reads
	// the configuration the scheduler runs.
	namespace, name, err := install.ConfigMapRef()
	if err != nil {
		return err
	}
	cm := &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, Data: map[string]string{"config.yaml": string(config)}}
	if _, err := l.client.CoreV1().ConfigMaps(namespace).Create(l.ctx, cm, metav1.CreateOptions{}); err != nil {
		return err
	}
	// A Deployment's scheduler is started again when it exits (it does
	// when it loses its lease): so is the lab's.
	s, err := cp.StartScheduler(l.ctx, controlplane.SchedulerOptions{Binary: filepath.Join(l.Bin, "gpu-workload-scheduler"), Config: config, Name: "scheduler",
		Supervisor: []string{filepath.Join(l.Bin, "gpu-workload-lab"), "supervise", "--"}})
	if err == nil {
		l.schedulerURL = s.URL
	}
	return err
}

// outcome is a pod's placement, or its unschedulable message; for a VMI,
// its launcher pod's, or virt-controller's FailedCreate message.
type outcome struct {
	node, message string
	phase         v1.PodPhase
	// namespace and pod name the pod; pod is empty for a VMI without one.
	// vmi names the VirtualMachineInstance whose launcher pod it is.
	namespace, pod, vmi string
	failedCreate        bool
	// deleting is a Pending pod being deleted, which the scheduler skips.
	deleting bool
	// scheduler is the pod's schedulerName, as admission left it.
	scheduler string
}

// outcomes are the scenario pods' and VMIs' outcomes by expectation key:
// <pod> in default, <namespace>/<pod>, and vmi/<name> or vmi/<namespace>/<name>.
func (l *lab) outcomes(ctx context.Context, s *Scenario) (map[string]outcome, error) {
	out := map[string]outcome{}
	for _, p := range s.Pods() {
		pod, err := l.client.CoreV1().Pods(p.GetNamespace()).Get(ctx, p.GetName(), metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		out[podKey(p.GetNamespace(), p.GetName())] = podOutcome(pod)
	}
	for _, vmi := range s.VMIs() {
		o, err := l.vmiOutcome(ctx, vmi.GetNamespace(), vmi.GetName())
		if err != nil {
			return nil, err
		}
		out[vmiPrefix+podKey(vmi.GetNamespace(), vmi.GetName())] = o
	}
	return out, nil
}

// vmiPrefix starts a VMI's expectation key.
const vmiPrefix = "vmi/"

// podOutcome reads a pod being deleted and not bound as Pending "being
// deleted": the scheduler does not try it, so it may have no reason.
func podOutcome(pod *v1.Pod) outcome {
	o := outcome{node: pod.Spec.NodeName, phase: pod.Status.Phase, namespace: pod.Namespace, pod: pod.Name, scheduler: pod.Spec.SchedulerName}
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse {
			o.message = c.Message
		}
	}
	if pod.DeletionTimestamp != nil && o.node == "" {
		o.deleting = true
		o.message = "being deleted since " + pod.DeletionTimestamp.UTC().Format(time.RFC3339)
	}
	return o
}

func (l *lab) vmiOutcome(ctx context.Context, namespace, name string) (outcome, error) {
	vmi, err := l.dynamic.Resource(clusterstate.VMIGVR).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		// A VirtualMachine's, not created yet.
		return outcome{namespace: namespace, message: "no VirtualMachineInstance yet"}, nil
	}
	if err != nil {
		return outcome{}, err
	}
	pods, err := l.client.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: "kubevirt.io/created-by=" + string(vmi.GetUID())})
	if err != nil {
		return outcome{}, err
	}
	if len(pods.Items) > 0 {
		o := podOutcome(&pods.Items[0])
		o.vmi = name
		return o, nil
	}
	events, err := l.client.EventsV1().Events(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return outcome{}, err
	}
	for _, e := range events.Items {
		if e.Reason == "FailedCreate" && e.Regarding.UID == vmi.GetUID() {
			return outcome{namespace: namespace, message: e.Note, failedCreate: true}, nil
		}
	}
	return outcome{namespace: namespace}, nil
}

func podKey(namespace, name string) string {
	if namespace == "default" {
		return name
	}
	return namespace + "/" + name
}

func (l *lab) settle(s *Scenario) error {
	return wait.PollUntilContextTimeout(l.ctx, 200*time.Millisecond, settleTimeout, true, func(ctx context.Context) (bool, error) {
		outcomes, err := l.outcomes(ctx, s)
		if err != nil {
			return false, err
		}
		for _, o := range outcomes {
			if o.node == "" && o.message == "" {
				return false, nil
			}
		}
		return true, nil
	})
}

func (l *lab) compare(s *Scenario) []string {
	outcomes, err := l.outcomes(l.ctx, s)
	if err != nil {
		return []string{err.Error()}
	}
	var diffs []string
	for _, expected := range []struct {
		kind, prefix string
		wants        map[string]PodExpectation
	}{{"pod", "", s.Expect.Pods}, {"VMI", vmiPrefix, s.Expect.VMIs}} {
		names := make([]string, 0, len(expected.wants))
		for name := range expected.wants {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			want := expected.wants[name]
			got, ok := outcomes[expected.prefix+name]
			what := expected.kind + " " + name
			switch {
			case !ok:
				diffs = append(diffs, fmt.Sprintf("%s: expected, but the scenario has no such %s", what, expected.kind))
			case want.FailedCreate != "" && (!got.failedCreate || !strings.Contains(got.message, want.FailedCreate)):
				diffs = append(diffs, fmt.Sprintf("%s: launcher pod %+q on %+q (message: %s), want FailedCreate containing %+q", what, got.pod, got.node, got.message, want.FailedCreate))
			case want.Scheduler != "" && got.scheduler != want.Scheduler:
				diffs = append(diffs, fmt.Sprintf("%s: schedulerName %+q, want %s", what, got.scheduler, want.Scheduler))
			case want.Node != "" && got.node != want.Node:
				diffs = append(diffs, fmt.Sprintf("%s: on %+q, want node %s (message: %s)", what, got.node, want.Node, got.message))
			case want.Phase != "" && got.phase != want.Phase:
				diffs = append(diffs, fmt.Sprintf("%s: %s on %s, want %s", what, got.phase, got.node, want.Phase))
			case want.Pending != "" && got.node != "":
				diffs = append(diffs, fmt.Sprintf("%s: bound to %s, want Pending with %+q", what, got.node, want.Pending))
			case want.Pending != "" && !strings.Contains(got.message, want.Pending):
				diffs = append(diffs, fmt.Sprintf("%s: Pending with %+q, want a reason containing %+q", what, got.message, want.Pending))
			}
		}
	}
	diffs = append(diffs, l.compareNodes(s.Expect.Nodes)...)
	diffs = append(diffs, l.compareMetrics(s.Expect.Metrics)...)
	if len(diffs) > 0 {
		// Each explanation is a process reading the cluster: only for a
		// lab that meets the rest.
		return diffs
	}
	return l.compareExplain(s.Expect.Explain)
}

// compareExplain runs kubectl gpu-workload explain as a user would.
func (l *lab) compareExplain(want map[string]string) []string {
	var diffs []string
	for _, args := range slices.Sorted(maps.Keys(want)) {
		var out bytes.Buffer
		cmd := exec.CommandContext(l.ctx, filepath.Join(l.Bin, "kubectl-gpu_workload"), append(append([]string{"explain"}, strings.Fields(args)...), "--kubeconfig", l.kubeconfig())...)
		cmd.Stdout, cmd.Stderr = &out, &out
		var exit *exec.ExitError
		if err := cmd.Run(); err != nil && !(errors.As(err, &exit) && exit.ExitCode() == cli.ExitFindings) {
			diffs = append(diffs, fmt.Sprintf("kubectl gpu-workload explain %s: %v: %s", args, err, out.String()))
			continue
		}
		if !strings.Contains(out.String(), want[args]) {
			diffs = append(diffs, fmt.Sprintf("kubectl gpu-workload explain %s: output lacks %+q:\n%s", args, want[args], out.String()))
		}
	}
	return diffs
}

// compareNodes reads each expected node and the events about it.
func (l *lab) compareNodes(want map[string]NodeExpectation) []string {
	if len(want) == 0 {
		return nil
	}
	events, err := l.client.CoreV1().Events("").List(l.ctx, metav1.ListOptions{FieldSelector: "involvedObject.kind=Node"})
	if err != nil {
		return []string{err.Error()}
	}
	var diffs []string
	for _, name := range slices.Sorted(maps.Keys(want)) {
		node, err := l.client.CoreV1().Nodes().Get(l.ctx, name, metav1.GetOptions{})
		if err != nil {
			diffs = append(diffs, fmt.Sprintf("node %s: %v", name, err))
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(want[name].Labels)) {
			if got, value := node.Labels[key], want[name].Labels[key]; got != value {
				diffs = append(diffs, fmt.Sprintf("node %s: label %s=%+q, want %+q", name, key, got, value))
			}
		}
		if wantTaints, _ := want[name].taints(); wantTaints != nil {
			got := make([]string, len(node.Spec.Taints))
			for i := range node.Spec.Taints {
				got[i] = node.Spec.Taints[i].ToString()
			}
			slices.Sort(got)
			if !slices.Equal(got, wantTaints) {
				diffs = append(diffs, fmt.Sprintf("node %s: taints %+q, want %+q", name, got, wantTaints))
			}
		}
		for _, e := range want[name].Events {
			reason, text, _ := strings.Cut(e, ": ")
			if !slices.ContainsFunc(events.Items, func(got v1.Event) bool {
				return got.InvolvedObject.Name == name && got.Reason == reason && strings.Contains(got.Message, text)
			}) {
				diffs = append(diffs, fmt.Sprintf("node %s: no %s event containing %+q", name, reason, text))
			}
		}
	}
	return diffs
}

// compareMetrics scrapes the scheduler's /metrics as the lab's admin.
func (l *lab) compareMetrics(want map[string]float64) []string {
	if len(want) == 0 {
		return nil
	}
	got, err := controlplane.ScrapeGPUWorkloadMetrics(l.ctx, l.schedulerURL, l.config.BearerToken)
	if err != nil {
		return []string{err.Error()}
	}
	var diffs []string
	for _, series := range slices.Sorted(maps.Keys(want)) {
		if value, ok := got[series]; !ok || value != want[series] {
			diffs = append(diffs, fmt.Sprintf("metric %s = %v (served: %v), want %v", series, value, ok, want[series]))
		}
	}
	return diffs
}

// report prints where pods went, why the others wait, and the checker's verdict.
func (l *lab) report(s *Scenario) error {
	fmt.Fprintln(l.Out, "\n== Pods (kubectl get pods -A -o wide)")
	l.runTool("kubectl", "get", "pods", "-A", "-o", "wide")

	events, err := l.client.CoreV1().Events("").List(l.ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	sort.Slice(events.Items, func(i, j int) bool { return events.Items[i].InvolvedObject.Name < events.Items[j].InvolvedObject.Name })
	for _, section := range []struct{ title, reason string }{
		{"Why pods are Pending (FailedScheduling)", "FailedScheduling"},
		{"GPUWorkloadUnschedulable (the scheduler's explanation and fix)", "GPUWorkloadUnschedulable"},
	} {
		fmt.Fprintf(l.Out, "\n== %s\n", section.title)
		seen := map[string]bool{}
		for _, e := range events.Items {
			key := e.InvolvedObject.Name + e.Message
			if e.Reason == section.reason && !seen[key] {
				seen[key] = true
				fmt.Fprintf(l.Out, "%s: %s\n", podKey(e.InvolvedObject.Namespace, e.InvolvedObject.Name), e.Message)
			}
		}
		if len(seen) == 0 {
			fmt.Fprintln(l.Out, "(none)")
		}
	}
	l.reportRouting(s)
	if err := l.reportController(s); err != nil {
		return err
	}
	fmt.Fprintln(l.Out, "\n== kubectl gpu-workload check (labels versus advertisements)")
	l.runTool("kubectl-gpu_workload", "check")
	fmt.Fprintln(l.Out, "\n== kubectl gpu-workload inventory (what the scheduler's gpu_workload_ metrics give)")
	l.runTool("kubectl-gpu_workload", "inventory")
	return nil
}

// reportController lists the mode controller's events. Events reach the API
// after the pass that made them: a second pass has planned first.
func (l *lab) reportController(s *Scenario) error {
	_ = wait.PollUntilContextTimeout(l.ctx, 100*time.Millisecond, agentTimeout, true, func(context.Context) (bool, error) {
		return l.controllerPasses() >= 2, nil
	})
	events, err := l.client.CoreV1().Events("").List(l.ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	sort.SliceStable(events.Items, func(i, j int) bool {
		return events.Items[i].EventTime.Before(&events.Items[j].EventTime)
	})
	fmt.Fprintf(l.Out, "\n== The mode controller (--operation=%s; kubectl get events -A --field-selector reportingComponent=%s)\n", s.Controller.Operation, modecontroller.Name)
	shown := 0
	for _, e := range events.Items {
		if e.ReportingController == modecontroller.Name {
			shown++
			name := e.InvolvedObject.Name
			if e.InvolvedObject.Namespace != "" {
				name = e.InvolvedObject.Namespace + "/" + name
			}
			fmt.Fprintf(l.Out, "%s/%s %s: %s\n", e.InvolvedObject.Kind, name, e.Reason, e.Message)
		}
	}
	if shown == 0 {
		fmt.Fprintln(l.Out, "(none)")
	}
	return nil
}

// runTool runs one of the lab's binaries against the lab and copies its
// output. Findings are part of the report, which counts them in its summary
// line; only a tool that failed to do its job is reported as such.
func (l *lab) runTool(name string, args ...string) {
	cmd := exec.CommandContext(l.ctx, filepath.Join(l.Bin, name), append(args, "--kubeconfig", l.kubeconfig())...)
	cmd.Stdout, cmd.Stderr = l.Out, l.Out
	var exit *exec.ExitError
	if err := cmd.Run(); errors.As(err, &exit) && exit.ExitCode() != cli.ExitFindings {
		fmt.Fprintf(l.Out, "(%s failed: exit %d)\n", name, exit.ExitCode())
	} else if err != nil && exit == nil {
		fmt.Fprintf(l.Out, "(%s: %v)\n", name, err)
	}
}

func (l *lab) nextSteps(s *Scenario) {
	var pending outcome
	if outcomes, err := l.outcomes(l.ctx, s); err == nil {
		for _, o := range outcomes {
			if o.node == "" && o.pod != "" && (pending.pod == "" || o.pod < pending.pod) {
				pending = o
			}
		}
	}
	fmt.Fprintf(l.Out, "\n== The lab is running. Go on with:\n")
	fmt.Fprintf(l.Out, "  export KUBECONFIG=%s PATH=%s:$PATH\n", l.kubeconfig(), l.Bin)
	fmt.Fprintln(l.Out, "  kubectl get nodes -L nvidia.com/gpu.workload.config")
	fmt.Fprintln(l.Out, "  kubectl gpu-workload check")
	if pending.pod != "" {
		if pending.vmi != "" {
			fmt.Fprintf(l.Out, "  kubectl gpu-workload explain vmi %s -n %s\n", pending.vmi, pending.namespace)
		} else {
			fmt.Fprintf(l.Out, "  kubectl gpu-workload explain pod %s -n %s\n", pending.pod, pending.namespace)
		}
		if commands, err := l.fixCommands(pending.namespace, pending.pod, time.Time{}); err == nil && len(commands) > 0 {
			fmt.Fprintf(l.Out, "  # follow the scheduler's fix for %s, then wait for the node to convert and the pod to land:\n", pending.pod)
			for _, c := range commands {
				fmt.Fprintln(l.Out, "  "+c)
			}
			fmt.Fprintf(l.Out, "  kubectl wait --for=condition=PodScheduled pod/%s -n %s --timeout=2m && kubectl get pod %s -n %s -o wide && kubectl get nodes -L %s\n",
				pending.pod, pending.namespace, pending.pod, pending.namespace, gpuworkload.LabelWorkloadConfig)
		}
	}
	fmt.Fprintf(l.Out, "  curl -sk -H \"Authorization: Bearer $(kubectl config view --raw -o jsonpath='{.users[0].user.token}')\" %s/metrics | grep ^gpu_workload_\n", l.schedulerURL)
	fmt.Fprintf(l.Out, "  kubectl get events -A --field-selector reportingComponent=%s   # the mode controller (--operation=%s)\n", modecontroller.Name, s.Controller.Operation)
	fmt.Fprintf(l.Out, "  logs: %s/{etcd,apiserver,scheduler,agent,controller}.log\n", l.Dir)
	fmt.Fprintf(l.Out, "  %s   # stop it (LAB_CLEAN=1 also removes the lab directory)\n", l.downCommand())
}

// downCommand stops this lab: make lab-down with the lab's directory.
func (l *lab) downCommand() string {
	return fmt.Sprintf("make lab-down LAB_DIR=%s", l.Dir)
}
