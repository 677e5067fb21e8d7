// Command gpu-workload-controller carries out the mode advisor's plans: it
// converts idle GPU nodes to the mode waiting pods need (docs/controller.md).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/apiserver/pkg/server/healthz"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/gpu-workload-scheduler/scheduler/pkg/advisor"
	"github.com/gpu-workload-scheduler/scheduler/pkg/conversionplan"
	"github.com/gpu-workload-scheduler/scheduler/pkg/modecontroller"
	"github.com/gpu-workload-scheduler/scheduler/pkg/version"
)

func main() {
	opts := modecontroller.Defaults()
	fs := flag.NewFlagSet(modecontroller.Name, flag.ExitOnError)
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig file; empty: the in-cluster service account")
	operation := fs.String("operation", string(opts.Operation), "what the controller may do: "+strings.Join(operationNames(), " or "))
	fs.DurationVar(&opts.Interval, "interval", opts.Interval, "how often it plans and advances conversions")
	fs.DurationVar(&opts.DemandWait, "demand-wait", opts.DemandWait, "how long a pod must have been unschedulable to count as demand")
	fs.DurationVar(&opts.IdleFor, "idle-for", opts.IdleFor, "how long a node must have run no GPU pod to be converted")
	fs.IntVar(&opts.MaxConversions, "max-conversions", opts.MaxConversions, "conversions that may start within --window")
	fs.DurationVar(&opts.Window, "window", opts.Window, "the rate limit's window")
	fs.DurationVar(&opts.ConversionTimeout, "conversion-timeout", opts.ConversionTimeout, "how long a relabelled node has to advertise its new resource before it is rolled back; give GPUWorkloadFitArgs conversionTimeout the same value")
	fs.DurationVar(&opts.Backoff, "backoff", opts.Backoff, "how long a rolled-back node is left alone")
	fs.DurationVar(&opts.NodeCooldown, "node-cooldown", opts.NodeCooldown, "how long after a node's conversion ended no other conversion of that node starts")
	schedulerNames := fs.String("scheduler-name", strings.Join(opts.SchedulerNames, ","), "comma-separated schedulers whose pending pods may drive conversions")
	fs.Func("expendable-pods-priority-cutoff", fmt.Sprintf("pending pods of a lower priority do not drive conversions (default %d)", opts.PriorityCutoff), func(s string) error {
		v, err := strconv.ParseInt(s, 10, 32)
		opts.PriorityCutoff = int32(v)
		return err
	})
	namespaceSelector := fs.String("demand-namespace-selector", "", "label selector of the namespaces whose pending pods may drive conversions; empty: every namespace")
	fs.BoolVar(&opts.DeleteEmptyDirData, "delete-emptydir-data", opts.DeleteEmptyDirData, "drain: evict pods with emptyDir volumes (kubectl drain's flag)")
	fs.BoolVar(&opts.SkipNodesWithSystemPods, "skip-nodes-with-system-pods", opts.SkipNodesWithSystemPods, "drain: refuse kube-system pods without a PodDisruptionBudget (cluster-autoscaler's flag)")
	fs.Float64Var(&opts.MaxTotalUnreadyPercentage, "max-total-unready-percentage", opts.MaxTotalUnreadyPercentage, "no conversion starts while more than this percentage of nodes, and more than --ok-total-unready-count, are not Ready (cluster-autoscaler's flag)")
	fs.IntVar(&opts.OkTotalUnreadyCount, "ok-total-unready-count", opts.OkTotalUnreadyCount, "nodes that may be not Ready whatever the percentage (cluster-autoscaler's flag)")
	leaderElect := fs.Bool("leader-elect", true, "run only while holding the lease, so that of several replicas one acts")
	fs.StringVar(&opts.Namespace, "lease-namespace", opts.Namespace, "namespace of the leader election Lease "+modecontroller.Name+" and of the history ConfigMap "+modecontroller.HistoryConfigMap)
	printVersion := fs.Bool("version", false, "print the version and exit")
	klog.InitFlags(fs)
	serving := newServingOptions()
	flags := pflag.NewFlagSet(modecontroller.Name, pflag.ExitOnError)
	flags.AddGoFlagSet(fs)
	serving.addFlags(flags)
	_ = flags.Parse(os.Args[1:])
	if *printVersion {
		fmt.Println(version.String(modecontroller.Name))
		return
	}
	opts.Operation = modecontroller.Operation(*operation)
	opts.SchedulerNames = nil
	for name := range strings.SplitSeq(*schedulerNames, ",") {
		opts.SchedulerNames = append(opts.SchedulerNames, strings.TrimSpace(name))
	}
	selector, err := modecontroller.ParseNamespaceSelector(*namespaceSelector)
	if err == nil {
		opts.NamespaceSelector = selector
		err = errors.Join(append([]error{opts.Validate()}, serving.validate()...)...)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", modecontroller.Name, err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *kubeconfig, opts, *leaderElect, serving); err != nil {
		klog.ErrorS(err, "Controller failed")
		os.Exit(1)
	}
}

func operationNames() []string {
	out := make([]string, len(modecontroller.Operations))
	for i, op := range modecontroller.Operations {
		out[i] = string(op)
	}
	return out
}

func run(ctx context.Context, kubeconfig string, opts modecontroller.Options, leaderElect bool, serving servingOptions) error {
	logger := klog.FromContext(ctx)
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return err
	}
	dyn, err := dynamic.NewForConfig(config)
	if err != nil {
		return err
	}
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	broadcaster.StartRecordingToSink(ctx.Done())
	defer broadcaster.Shutdown()
	recorder := broadcaster.NewRecorder(scheme.Scheme, modecontroller.Name)
	planner := func(ctx context.Context, narrowing advisor.Narrowing) (modecontroller.Plan, error) {
		report, err := conversionplan.Live(ctx, rest.CopyConfig(config), narrowing)
		if err != nil {
			return modecontroller.Plan{}, err
		}
		return modecontroller.Plan{Plan: report.Plan, Refit: report.Refit}, nil
	}
	metrics := modecontroller.NewMetrics()
	metrics.Register(legacyregistry.MustRegister)
	controller, err := modecontroller.New(client, dyn, planner, opts, clock.RealClock{}, recorder, metrics)
	if err != nil {
		return err
	}
	// The lease's watchdog fails liveness when this replica leads but has
	// not renewed the lease for 20 s past its deadline, as kube-scheduler's.
	watchdog := leaderelection.NewLeaderHealthzAdaptor(20 * time.Second)
	if serving.enabled() {
		health := endpoints{ready: []healthz.HealthChecker{apiServerReachable(client)}}
		if leaderElect {
			health.live = append(health.live, watchdog)
			health.ready = append(health.ready, watchdog)
		}
		if err := serving.serve(ctx, health); err != nil {
			return fmt.Errorf("secure port: %w", err)
		}
	}
	logger.Info("Starting", "version", version.String(modecontroller.Name), "options", opts)
	if !leaderElect {
		controller.Run(ctx)
		return nil
	}
	host, err := os.Hostname()
	if err != nil {
		return err
	}
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: opts.Namespace, Name: modecontroller.Name},
		Client:     client.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: host + "_" + string(uuid.NewUUID())},
	}
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock, Name: modecontroller.Name, ReleaseOnCancel: true, WatchDog: watchdog,
		LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: controller.Run,
			OnStoppedLeading: func() { logger.Info("Stopped leading") },
		},
	})
	// A replica that lost the lease may have been mid-step: it exits, to be
	// restarted as a candidate, and the new leader resumes the node's
	// conversion from its record.
	if ctx.Err() == nil {
		return errors.New("lost the leader election lease")
	}
	return nil
}
