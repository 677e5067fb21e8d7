/*
Copyright The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package benchmark

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingapi "k8s.io/api/scheduling/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	cacheddiscovery "k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	coreinformers "k8s.io/client-go/informers/core/v1"
	schedulinginformers "k8s.io/client-go/informers/scheduling/v1beta1"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	schedutil "k8s.io/kubernetes/pkg/scheduler/util"
	testutils "k8s.io/kubernetes/test/utils"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"
	"sigs.k8s.io/yaml"
)

type WorkloadExecutor struct {
	scheduler                    *scheduler.Scheduler
	wg                           sync.WaitGroup
	collectorCancel              func(string)
	collectorWG                  sync.WaitGroup
	collectors                   []testDataCollector
	dataItems                    []DataItem
	numPodsScheduledPerNamespace map[string]int
	podInformer                  coreinformers.PodInformer
	podGroupInformer             schedulinginformers.PodGroupInformer
	throughputErrorMargin        float64
	testCase                     *testCase
	workload                     *Workload
	topicName                    string
	nextNodeIndex                int
	opts                         *schedulerPerfOptions
	cpuProfileFile               *os.File
}

func (e *WorkloadExecutor) wait() {
	e.collectorWG.Wait()
	e.wg.Wait()
}

func (e *WorkloadExecutor) runOp(tCtx ktesting.TContext, op realOp, opIndex int) error {
	switch concreteOp := op.(type) {
	case *createNodesOp:
		return e.runCreateNodesOp(tCtx, opIndex, concreteOp)
	case *createNamespacesOp:
		return e.runCreateNamespaceOp(tCtx, opIndex, concreteOp)
	case *createPodsOp:
		return e.runCreatePodsOp(tCtx, opIndex, concreteOp)
	case *deletePodsOp:
		return e.runDeletePodsOp(tCtx, opIndex, concreteOp)
	case *churnOp:
		return e.runChurnOp(tCtx, opIndex, concreteOp)
	case *barrierOp:
		return e.runBarrierOp(tCtx, opIndex, concreteOp)
	case *sleepOp:
		return e.runSleepOp(tCtx, concreteOp)
	case *createPodGroups:
		return e.runCreatePodGroupsOp(tCtx, concreteOp)
	case *startCollectingMetricsOp:
		return e.runStartCollectingMetricsOp(tCtx, opIndex, concreteOp)
	case *stopCollectingMetricsOp:
		return e.runStopCollectingMetrics(tCtx, opIndex)
	case *startCollectingProfileOp:
		return e.runStartCollectingProfileOp(tCtx, opIndex, concreteOp)
	case *stopCollectingProfileOp:
		return e.runStopCollectingProfileOp(tCtx, opIndex, concreteOp)
	default:
		return e.runDefaultOp(tCtx, opIndex, concreteOp)
	}
}

func (e *WorkloadExecutor) runCreateNodesOp(tCtx ktesting.TContext, opIndex int, op *createNodesOp) error {
	nodePreparer, err := getNodePreparer(fmt.Sprintf("node-%d-", opIndex), op, tCtx.Client())
	if err != nil {
		return err
	}
	if err := nodePreparer.PrepareNodes(tCtx, e.nextNodeIndex); err != nil {
		return err
	}
	e.nextNodeIndex += op.Count
	if e.opts != nil && e.opts.nodeUpdateFn != nil {
		nodes, err := waitListAllNodes(tCtx, tCtx.Client())
		if err != nil {
			return fmt.Errorf("failed to list nodes for nodeUpdateFn: %w", err)
		}
		if err := e.opts.nodeUpdateFn(tCtx, e.scheduler, e.workload, nodes); err != nil {
			return fmt.Errorf("nodeUpdateFn failed: %w", err)
		}
	}
	return nil
}

func (e *WorkloadExecutor) runCreateNamespaceOp(tCtx ktesting.TContext, opIndex int, op *createNamespacesOp) error {
	nsPreparer, err := newNamespacePreparer(tCtx, op)
	if err != nil {
		return err
	}
	if err := nsPreparer.prepare(tCtx); err != nil {
		err2 := nsPreparer.cleanup(tCtx)
		if err2 != nil {
			err = fmt.Errorf("prepare: %w; cleanup: %w", err, err2)
		}
		return err
	}
	for _, n := range nsPreparer.namespaces() {
		if _, ok := e.numPodsScheduledPerNamespace[n]; ok {
			// this namespace has been already created.
			continue
		}
		e.numPodsScheduledPerNamespace[n] = 0
	}
	return nil
}

func (e *WorkloadExecutor) runBarrierOp(tCtx ktesting.TContext, opIndex int, op *barrierOp) error {
	for _, namespace := range op.Namespaces {
		if _, ok := e.numPodsScheduledPerNamespace[namespace]; !ok {
			return fmt.Errorf("unknown namespace %s", namespace)
		}
	}
	switch op.StageRequirement {
	case Attempted:
		if err := waitUntilPodsAttempted(tCtx, e.podInformer, op.LabelSelector, op.Namespaces, e.numPodsScheduledPerNamespace); err != nil {
			return err
		}
	case Scheduled:
		// Default should be treated like "Scheduled", so handling both in the same way.
		fallthrough
	default:
		if err := waitUntilPodsScheduled(tCtx, e.podInformer, op.LabelSelector, op.Namespaces, e.numPodsScheduledPerNamespace); err != nil {
			return err
		}
		// At the end of the barrier, we can be sure that there are no pods
		// pending scheduling in the namespaces that we just blocked on.
		if len(op.Namespaces) == 0 {
			e.numPodsScheduledPerNamespace = make(map[string]int)
		} else {
			for _, namespace := range op.Namespaces {
				delete(e.numPodsScheduledPerNamespace, namespace)
			}
		}
	}
	return nil
}

func (e *WorkloadExecutor) runSleepOp(tCtx ktesting.TContext, op *sleepOp) error {
	select {
	case <-tCtx.Done():
	case <-time.After(op.Duration.Duration):
	}
	return nil
}

// runCreatePodGroupsOp executes the createPodGroups operation.
// It creates the configured number of PodGroups from a template and
// then waits for them to be visible in the scheduler's informer cache.
// This ensures that subsequent operations (like creating pods that reference these pod groups) won't fail due to cache lag.
// It timeouts after 10 seconds if the condition is not met.
func (e *WorkloadExecutor) runCreatePodGroupsOp(tCtx ktesting.TContext, op *createPodGroups) error {
	if err := createNamespaceIfNotPresent(tCtx, op.Namespace, &e.numPodsScheduledPerNamespace); err != nil {
		return err
	}

	tCtx.Logf("creating %d PodGroups in namespace %q", op.Count, op.Namespace)

	for index := range op.Count {
		env := make(map[string]any)
		maps.Copy(env, op.TemplateParams)
		env["Index"] = index

		obj := &schedulingapi.PodGroup{}
		if _, err := getSpecFromTextTemplateFile(op.TemplatePath, env, obj); err != nil {
			return fmt.Errorf("%s: %w", op.TemplatePath, err)
		}

		if err := e.createPodGroupWithRetry(tCtx, obj, op.Namespace, op.TemplatePath); err != nil {
			return err
		}
	}

	// Wait for pod groups to be visible in the scheduler's informer cache.
	// It times out after 10 seconds if the condition is not met.
	tCtx.Logf("waiting for %d PodGroups in namespace %q", op.Count, op.Namespace)
	err := wait.PollUntilContextTimeout(tCtx, 100*time.Millisecond, 10*time.Second, true, func(ctx context.Context) (bool, error) {
		podGroups, err := e.podGroupInformer.Lister().PodGroups(op.Namespace).List(labels.Everything())
		if err != nil {
			return false, err
		}
		if len(podGroups) >= op.Count {
			return true, nil
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("timed out waiting for PodGroups to be cached: %w", err)
	}

	return nil
}

func (e *WorkloadExecutor) createPodGroupWithRetry(tCtx ktesting.TContext, obj *schedulingapi.PodGroup, namespace, templatePath string) error {
	ctx, cancel := context.WithTimeout(tCtx, 20*time.Second)

	defer cancel()
	for {
		_, err := tCtx.Client().SchedulingV1beta1().PodGroups(namespace).Create(ctx, obj, metav1.CreateOptions{
			FieldValidation: "Strict",
		})

		if err == nil {
			return nil
		}

		// Fail fast on non-retriable client errors (invalid specs, bad requests, forbidden access).
		if apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || apierrors.IsForbidden(err) {
			return err
		}

		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: timed out (%w) while creating %q, last error was: %w", templatePath, context.Cause(ctx), klog.KObj(obj), err)
		case <-time.After(time.Second):
		}
	}
}

func (e *WorkloadExecutor) runStopCollectingMetrics(tCtx ktesting.TContext, opIndex int) error {
	items, err := stopCollectingMetrics(tCtx, e.collectorCancel, &e.collectorWG, e.workload.Threshold.Get(e.topicName), *e.workload.ThresholdMetricSelector, opIndex, e.collectors)
	if err != nil {
		return err
	}
	e.dataItems = append(e.dataItems, items...)
	e.collectorCancel = nil
	return nil
}

func (e *WorkloadExecutor) runCreatePodsOp(tCtx ktesting.TContext, opIndex int, op *createPodsOp) error {
	// define Pod's namespace automatically, and create that namespace.
	namespace := fmt.Sprintf("namespace-%d", opIndex)
	if op.Namespace != nil {
		namespace = *op.Namespace
	}
	err := createNamespaceIfNotPresent(tCtx, namespace, &e.numPodsScheduledPerNamespace)
	if err != nil {
		return err
	}
	if op.PodTemplatePath == nil {
		op.PodTemplatePath = e.testCase.DefaultPodTemplatePath
	}

	if op.CollectMetrics {
		if e.collectorCancel != nil {
			return fmt.Errorf("metrics collection is overlapping. Probably second collector was started before stopping a previous one")
		}
		var err error
		e.collectors, e.collectorCancel, err = startCollectingMetrics(tCtx, &e.collectorWG, e.podInformer, e.testCase.MetricsCollectorConfig, e.throughputErrorMargin, opIndex, namespace, []string{namespace}, nil)
		if err != nil {
			return err
		}
	}
	if err := createPodsRapidly(tCtx, namespace, op); err != nil {
		return err
	}
	switch {
	case op.SkipWaitToCompletion:
		// Only record those namespaces that may potentially require barriers
		// in the future.
		e.numPodsScheduledPerNamespace[namespace] += op.Count
	case op.SteadyState:
		if err := createPodsSteadily(tCtx, namespace, e.podInformer, op); err != nil {
			return err
		}
	default:
		// Default timeout is 10 minutes because even at the lowest observed QPS of ~10 pods/sec,
		// a standard 5000-node test completes. Heavy test suites (e.g. TAS) can configure a custom
		// podsSchedulingTimeout option to avoid meeting this strict default ceiling.
		timeout := 10 * time.Minute
		if e.opts != nil && e.opts.podsSchedulingTimeout > 0 {
			timeout = e.opts.podsSchedulingTimeout
		}
		if err := waitUntilPodsScheduledInNamespace(tCtx, e.podInformer, nil, namespace, op.Count, timeout); err != nil {
			return fmt.Errorf("error in waiting for pods to get scheduled: %w", err)
		}
	}
	if op.CollectMetrics {
		// CollectMetrics and SkipWaitToCompletion can never be true at the
		// same time, so if we're here, it means that all pods have been
		// scheduled.
		items, err := stopCollectingMetrics(tCtx, e.collectorCancel, &e.collectorWG, e.workload.Threshold.Get(e.topicName), *e.workload.ThresholdMetricSelector, opIndex, e.collectors)
		if err != nil {
			return err
		}
		e.dataItems = append(e.dataItems, items...)
		e.collectorCancel = nil
	}
	return nil
}

func (e *WorkloadExecutor) runDeletePodsOp(tCtx ktesting.TContext, opIndex int, op *deletePodsOp) error {
	labelSelector := labels.ValidatedSetSelector(op.LabelSelector)

	podsToDelete, err := e.podInformer.Lister().Pods(op.Namespace).List(labelSelector)
	if err != nil {
		return fmt.Errorf("error in listing pods in the namespace %s: %w", op.Namespace, err)
	}

	deletePods := func(opIndex int) {
		if op.DeletePodsPerSecond > 0 {
			ticker := time.NewTicker(time.Second / time.Duration(op.DeletePodsPerSecond))
			defer ticker.Stop()

			for i := range podsToDelete {
				select {
				case <-ticker.C:
					if err := tCtx.Client().CoreV1().Pods(op.Namespace).Delete(tCtx, podsToDelete[i].Name, metav1.DeleteOptions{}); err != nil {
						if errors.Is(err, context.Canceled) {
							return
						}
						tCtx.Errorf("op %d: unable to delete pod %v: %v", opIndex, podsToDelete[i].Name, err)
					}
				case <-tCtx.Done():
					return
				}
			}
			return
		}
		listOpts := metav1.ListOptions{
			LabelSelector: labelSelector.String(),
		}
		if err := tCtx.Client().CoreV1().Pods(op.Namespace).DeleteCollection(tCtx, metav1.DeleteOptions{}, listOpts); err != nil {
			if errors.Is(err, context.Canceled) {
				return
			}
			tCtx.Errorf("op %d: unable to delete pods in namespace %v: %v", opIndex, op.Namespace, err)
		}
	}

	if op.SkipWaitToCompletion {
		e.wg.Add(1)
		go func(opIndex int) {
			defer e.wg.Done()
			deletePods(opIndex)
		}(opIndex)
	} else {
		deletePods(opIndex)
	}
	return nil
}

func (e *WorkloadExecutor) runChurnOp(tCtx ktesting.TContext, opIndex int, op *churnOp) error {
	var namespace string
	if op.Namespace != nil {
		namespace = *op.Namespace
	} else {
		namespace = fmt.Sprintf("namespace-%d", opIndex)
	}
	restMapper := restmapper.NewDeferredDiscoveryRESTMapper(cacheddiscovery.NewMemCacheClient(tCtx.Client().Discovery()))
	// Ensure the namespace exists.
	nsObj := &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}
	if _, err := tCtx.Client().CoreV1().Namespaces().Create(tCtx, nsObj, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("unable to create namespace %v: %w", namespace, err)
	}

	var churnFns []func(name string) string

	for i, path := range op.TemplatePaths {
		unstructuredObj, gvk, err := getUnstructuredFromFile(path)
		if err != nil {
			return fmt.Errorf("unable to parse the %v-th template path: %w", i, err)
		}
		// Obtain GVR.
		mapping, err := restMapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			return fmt.Errorf("unable to find GVR for %v: %w", gvk, err)
		}
		gvr := mapping.Resource
		// Distinguish cluster-scoped with namespaced API objects.
		var dynRes dynamic.ResourceInterface
		if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
			dynRes = tCtx.Dynamic().Resource(gvr).Namespace(namespace)
		} else {
			dynRes = tCtx.Dynamic().Resource(gvr)
		}

		churnFns = append(churnFns, func(name string) string {
			if name != "" {
				if err := dynRes.Delete(tCtx, name, metav1.DeleteOptions{}); err != nil && !errors.Is(err, context.Canceled) {
					tCtx.Errorf("op %d: unable to delete %v: %v", opIndex, name, err)
				}
				return ""
			}

			live, err := dynRes.Create(tCtx, unstructuredObj, metav1.CreateOptions{})
			if err != nil {
				return ""
			}
			return live.GetName()
		})
	}

	var interval int64 = 500
	if op.IntervalMilliseconds != 0 {
		interval = op.IntervalMilliseconds
	}
	ticker := time.NewTicker(time.Duration(interval) * time.Millisecond)

	switch op.Mode {
	case Create:
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			defer ticker.Stop()
			count, threshold := 0, op.Number
			if threshold == 0 {
				threshold = math.MaxInt32
			}
			for count < threshold {
				select {
				case <-ticker.C:
					for i := range churnFns {
						churnFns[i]("")
					}
					count++
				case <-tCtx.Done():
					return
				}
			}
		}()
	case Recreate:
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			defer ticker.Stop()
			retVals := make([][]string, len(churnFns))
			// For each churn function, instantiate a slice of strings with length "op.Number".
			for i := range retVals {
				retVals[i] = make([]string, op.Number)
			}

			count := 0
			for {
				select {
				case <-ticker.C:
					for i := range churnFns {
						retVals[i][count%op.Number] = churnFns[i](retVals[i][count%op.Number])
					}
					count++
				case <-tCtx.Done():
					return
				}
			}
		}()
	}
	return nil
}

func (e *WorkloadExecutor) runDefaultOp(tCtx ktesting.TContext, opIndex int, op realOp) error {
	runnable, ok := op.(runnableOp)
	if !ok {
		return fmt.Errorf("invalid op %v", op)
	}
	for _, namespace := range runnable.requiredNamespaces() {
		err := createNamespaceIfNotPresent(tCtx, namespace, &e.numPodsScheduledPerNamespace)
		if err != nil {
			return err
		}
	}
	runnable.run(tCtx)
	return nil
}

func (e *WorkloadExecutor) runStartCollectingMetricsOp(tCtx ktesting.TContext, opIndex int, op *startCollectingMetricsOp) error {
	if e.collectorCancel != nil {
		return fmt.Errorf("metrics collection is overlapping. Probably second collector was started before stopping a previous one")
	}
	var err error
	e.collectors, e.collectorCancel, err = startCollectingMetrics(tCtx, &e.collectorWG, e.podInformer, e.testCase.MetricsCollectorConfig, e.throughputErrorMargin, opIndex, op.Name, op.Namespaces, op.LabelSelector)
	if err != nil {
		return err
	}
	return nil
}

// runStartCollectingProfileOp starts profile collection.
// The output file is created relative to dataItemsDir if it is set.
func (e *WorkloadExecutor) runStartCollectingProfileOp(tCtx ktesting.TContext, _ int, op *startCollectingProfileOp) error {
	switch strings.ToUpper(op.Type) {
	case "CPU":
		if e.cpuProfileFile != nil {
			return fmt.Errorf("cpu profile collection is already ongoing")
		}
		filePath := op.FilePath
		if dataItemsDir != nil && *dataItemsDir != "" {
			filePath = filepath.Join(*dataItemsDir, filePath)
		}
		if err := os.MkdirAll(filepath.Dir(filePath), 0750); err != nil {
			return fmt.Errorf("failed to create directory for cpu profile: %w", err)
		}
		f, err := os.Create(filePath)
		if err != nil {
			return fmt.Errorf("failed to create file %q for cpu profile: %w", filePath, err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			if closeErr := f.Close(); closeErr != nil {
				err = errors.Join(err, closeErr)
			}
			return fmt.Errorf("failed to start cpu profile: %w", err)
		}
		e.cpuProfileFile = f
		tCtx.Logf("Started CPU profile collection into %q", filePath)
		return nil
	default:
		return fmt.Errorf("unsupported profile type %q", op.Type)
	}
}

func (e *WorkloadExecutor) runStopCollectingProfileOp(tCtx ktesting.TContext, _ int, op *stopCollectingProfileOp) error {
	switch strings.ToUpper(op.Type) {
	case "CPU":
		if e.cpuProfileFile == nil {
			return fmt.Errorf("missing startCollectingProfile operation before stopping")
		}
		pprof.StopCPUProfile()
		err := e.cpuProfileFile.Close()
		e.cpuProfileFile = nil
		if err != nil {
			return fmt.Errorf("failed to close cpu profile file: %w", err)
		}
		tCtx.Log("Stopped CPU profile collection")
		return nil
	default:
		return fmt.Errorf("unsupported profile type %q", op.Type)
	}
}

func startCollectingMetrics(tCtx ktesting.TContext, collectorWG *sync.WaitGroup, podInformer coreinformers.PodInformer, mcc *metricsCollectorConfig, throughputErrorMargin float64, opIndex int, name string, namespaces []string, labelSelector map[string]string) ([]testDataCollector, func(string), error) {
	collectorCtx := tCtx.WithCancel()
	workloadName := tCtx.Name()

	// Clean up memory usage from the initial setup phase.
	runtime.GC()

	// The first part is the same for each workload, therefore we can strip it.
	workloadName = workloadName[strings.Index(name, "/")+1:]
	collectorsList := getTestDataCollectors(podInformer, fmt.Sprintf("%s/%s", workloadName, name), namespaces, labelSelector, mcc, throughputErrorMargin)
	for _, collector := range collectorsList {
		// Need loop-local variable for function below.
		err := collector.init()
		if err != nil {
			return nil, nil, fmt.Errorf("failed to initialize data collector: %w", err)
		}
		tCtx.TB().Cleanup(func() {
			collectorCtx.Cancel("cleaning up")
		})
		collectorWG.Add(1)
		go func() {
			defer collectorWG.Done()
			collector.run(collectorCtx)
		}()
	}
	startMemFileName := ""
	if enableMemProfile {
		gcForMemProfile()
		startMemFileName = startCumulativeProfile(tCtx, "allocs", "mem.prof")
	}
	startBlockFileName := ""
	if enableBlockProfile {
		// Rate of 1 captures every blocking event.
		runtime.SetBlockProfileRate(1)
		startBlockFileName = startCumulativeProfile(tCtx, "block", "block.prof")
	}
	startMutexFileName := ""
	if enableMutexProfile {
		// Fraction of 1 captures every mutex contention event.
		runtime.SetMutexProfileFraction(1)
		startMutexFileName = startCumulativeProfile(tCtx, "mutex", "mutex.prof")
	}
	var cpuProfile io.WriteCloser
	if enableCPUProfile {
		f, err := createOutputFile("-cpu.prof")
		tCtx.ExpectNoError(err, "create CPU profile")
		cpuProfile = f
		tCtx.ExpectNoError(pprof.StartCPUProfile(f), "start CPU profile")
	}
	var traceFile io.WriteCloser
	if enableTrace {
		f, err := createOutputFile("-trace.out")
		tCtx.ExpectNoError(err, "create trace file")
		traceFile = f
		tCtx.ExpectNoError(trace.Start(f), "start trace")
	}
	if b, ok := tCtx.TB().(*testing.B); ok {
		b.ResetTimer()
	}
	tCtx.Logf("Started metrics collection (%s)", perTestFilePrefix)
	cancel := func(reason string) {
		if cpuProfile != nil {
			pprof.StopCPUProfile()
			tCtx.ExpectNoError(cpuProfile.Close(), "close CPU profile")
		}
		if traceFile != nil {
			trace.Stop()
			tCtx.ExpectNoError(traceFile.Close(), "close trace file")
		}
		if enableBlockProfile {
			runtime.SetBlockProfileRate(0)
			endCumulativeProfile(tCtx, "block", "block.prof", startBlockFileName)
		}
		if enableMutexProfile {
			runtime.SetMutexProfileFraction(0)
			endCumulativeProfile(tCtx, "mutex", "mutex.prof", startMutexFileName)
		}
		if enableMemProfile {
			gcForMemProfile()
			endCumulativeProfile(tCtx, "allocs", "mem.prof", startMemFileName)
		}
		collectorCtx.Cancel(reason)
	}

	return collectorsList, cancel, nil
}

func stopCollectingMetrics(tCtx ktesting.TContext, collectorCancel func(string), collectorWG *sync.WaitGroup, threshold float64, tms thresholdMetricSelector, opIndex int, collectors []testDataCollector) ([]DataItem, error) {
	if b, ok := tCtx.TB().(*testing.B); ok {
		b.StopTimer()
	}
	if collectorCancel == nil {
		return nil, fmt.Errorf("missing startCollectingMetrics operation before stopping")
	}
	collectorCancel("collecting metrics, collector must stop first")
	collectorWG.Wait()
	var dataItems []DataItem
	for _, collector := range collectors {
		items := collector.collect()
		dataItems = append(dataItems, items...)
		err := applyThreshold(items, threshold, tms)
		if err != nil {
			tCtx.Errorf("op %d: %s", opIndex, err)
		}
	}
	tCtx.Logf("Stopped metrics collection (%s)", perTestFilePrefix)
	return dataItems, nil
}

type testDataCollector interface {
	init() error
	run(tCtx ktesting.TContext)
	collect() []DataItem
}

// var for mocking in tests.
var getTestDataCollectors = func(podInformer coreinformers.PodInformer, name string, namespaces []string, labelSelector map[string]string, mcc *metricsCollectorConfig, throughputErrorMargin float64) []testDataCollector {
	if mcc == nil {
		mcc = &defaultMetricsCollectorConfig
	}
	return []testDataCollector{
		newThroughputCollector(podInformer, map[string]string{"Name": name}, labelSelector, namespaces, throughputErrorMargin),
		newMetricsCollector(mcc, map[string]string{"Name": name}),
		newMemoryCollector(map[string]string{"Name": name}, 500*time.Millisecond),
		newSchedulingDurationCollector(map[string]string{"Name": name}),
	}
}

func createNamespaceIfNotPresent(tCtx ktesting.TContext, namespace string, podsPerNamespace *map[string]int) error {
	if _, ok := (*podsPerNamespace)[namespace]; !ok {
		// The namespace has not created yet.
		// So, create that and register it.
		_, err := tCtx.Client().CoreV1().Namespaces().Create(tCtx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("failed to create namespace for Pod: %v", namespace)
		}
		(*podsPerNamespace)[namespace] = 0
	}
	return nil
}

// createPodsRapidly implements the "create pods rapidly" mode of [createPodsOp].
// It's a nop when cpo.SteadyState is true.
func createPodsRapidly(tCtx ktesting.TContext, namespace string, cpo *createPodsOp) error {
	if cpo.SteadyState {
		return nil
	}
	strategy, err := getPodStrategy(cpo)
	if err != nil {
		return err
	}
	tCtx.Logf("creating %d pods in namespace %q", cpo.Count, namespace)
	config := NewTestPodCreatorConfig()
	config.AddStrategy(namespace, cpo.Count, strategy)
	podCreator := NewTestPodCreator(tCtx.Client(), config)
	return podCreator.CreatePods(tCtx)
}

// createPodsSteadily implements the "create pods and delete pods" mode of [createPodsOp].
// It's a nop when cpo.SteadyState is false.
func createPodsSteadily(tCtx ktesting.TContext, namespace string, podInformer coreinformers.PodInformer, cpo *createPodsOp) error {
	if !cpo.SteadyState {
		return nil
	}
	strategy, err := getPodStrategy(cpo)
	if err != nil {
		return err
	}
	tCtx.Logf("creating pods in namespace %q for %s", namespace, cpo.Duration)
	tCtx = tCtx.WithTimeout(cpo.Duration.Duration, fmt.Sprintf("the operation ran for the configured %s", cpo.Duration.Duration))

	// Start watching pods in the namespace. Any pod which is seen as being scheduled
	// gets deleted.
	scheduledPods := make(chan *v1.Pod, cpo.Count)
	defer close(scheduledPods)

	onPodChange := func(oldObj, newObj any) {
		oldPod, newPod, err := schedutil.As[*v1.Pod](oldObj, newObj)
		if err != nil {
			tCtx.Errorf("unexpected pod events: %v", err)
			return
		}

		if (oldPod == nil || oldPod.Spec.NodeName == "") && newPod.Spec.NodeName != "" {
			// Only ask for deletion in our namespace.
			if newPod.Namespace != namespace {
				return
			}
			select {
			case <-tCtx.Done():
			case scheduledPods <- newPod:
			}
		}
	}
	handle, err := podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			onPodChange(nil, obj)
		},
		UpdateFunc: func(oldObj, newObj any) {
			onPodChange(oldObj, newObj)
		},
	})
	if err != nil {
		return fmt.Errorf("register event handler: %w", err)
	}
	defer func() {
		tCtx.ExpectNoError(cache.ShutDownEventHandler(podInformer.Informer(), handle), "remove event handler")
	}()

	// Seed the namespace with the initial number of pods.
	// This is the backlog for the scheduler. Because we
	// delete each scheduled pod as soon as we see it and
	// create a new one, a) the scheduler's queue should never
	// be empty and b) the number of pods running concurrently
	// should be smaller than this number, i.e. the cluster
	// will typically be more or less in its starting condition
	// for each pod scheduling attempt.
	if err := strategy(tCtx, tCtx.Client(), namespace, cpo.Count); err != nil {
		return fmt.Errorf("create initial %d pods: %w", cpo.Count, err)
	}

	// Now loop until we are done. Report periodically how many pods were scheduled.
	countScheduledPods := 0
	lastCountScheduledPods := 0
	logPeriod := time.Second
	ticker := time.NewTicker(logPeriod)
	defer ticker.Stop()
	for {
		select {
		case <-tCtx.Done():
			tCtx.Logf("Completed after seeing %d scheduled pod: %v", countScheduledPods, context.Cause(tCtx))

			// Sanity check: at least one pod should have been scheduled,
			// giving us a non-zero average.
			//
			// This is important because otherwise "no pods scheduled because of constant
			// failure" would not get detected in unit tests. For benchmarks
			// it's less important, but indicates that the time period
			// might have been too small.
			//
			// The collector logs "Failed to measure SchedulingThroughput ... Increase pods and/or nodes to make scheduling take longer"
			// but that is hard to spot.
			//
			// The non-steady case blocks until all pods have been scheduled
			// and doesn't need this check.
			if countScheduledPods == 0 {
				return errors.New("no pod at all got scheduled, either because of a problem or because the test interval was too small")
			}
			return nil
		case pod := <-scheduledPods:
			countScheduledPods++
			// Delete the scheduled pod.
			err := tCtx.Client().CoreV1().Pods(pod.Namespace).Delete(tCtx, pod.Name, metav1.DeleteOptions{
				GracePeriodSeconds: new(int64(0)),
				PropagationPolicy:  new(metav1.DeletePropagationBackground), // Foreground will block.
			})
			// Ignore errors when the time is up. errors.Is(context.Canceled) would
			// be more precise, but doesn't work because client-go doesn't reliably
			// propagate it.
			if tCtx.Err() != nil {
				continue
			}
			if err != nil {
				// Worse, sometimes rate limiting gives up *before* the context deadline is reached.
				// Then we get here with this error:
				//   client rate limiter Wait returned an error: rate: Wait(n=1) would exceed context deadline
				//
				// This also can be ignored. We'll retry if the test is not done yet.
				if strings.Contains(err.Error(), "would exceed context deadline") {
					continue
				}
				return fmt.Errorf("delete scheduled pod: %w", err)
			}
			// Immediately create a new one to keep the scheduler busy.
			err = strategy(tCtx, tCtx.Client(), namespace, 1)
			if tCtx.Err() != nil {
				continue
			}
			if err != nil {
				return fmt.Errorf("create next batch of pods: %w", err)
			}
		case <-ticker.C:
			delta := countScheduledPods - lastCountScheduledPods
			lastCountScheduledPods = countScheduledPods
			func() {
				tCtx.Logf("%d pods got scheduled in total in namespace %q: %f pods/s in last interval",
					countScheduledPods, namespace,
					float64(delta)/logPeriod.Seconds(),
				)
			}()
		}
	}
}

// waitUntilPodsScheduled blocks until the all pods in the given namespaces are
// scheduled.
func waitUntilPodsScheduled(tCtx ktesting.TContext, podInformer coreinformers.PodInformer, labelSelector map[string]string, namespaces []string, numPodsScheduledPerNamespace map[string]int) error {
	// If unspecified, default to all known namespaces.
	if len(namespaces) == 0 {
		for namespace := range numPodsScheduledPerNamespace {
			namespaces = append(namespaces, namespace)
		}
	}
	for _, namespace := range namespaces {
		select {
		case <-tCtx.Done():
			return context.Cause(tCtx)
		default:
		}
		wantCount, ok := numPodsScheduledPerNamespace[namespace]
		if !ok {
			return fmt.Errorf("unknown namespace %s", namespace)
		}
		if err := waitUntilPodsScheduledInNamespace(tCtx, podInformer, labelSelector, namespace, wantCount, 10*time.Minute); err != nil {
			return fmt.Errorf("error waiting for pods in namespace %q: %w", namespace, err)
		}
	}
	return nil
}

// waitUntilPodsAttempted blocks until the all pods in the given namespaces are
// attempted (at least once went through a scheduling cycle).
func waitUntilPodsAttempted(tCtx ktesting.TContext, podInformer coreinformers.PodInformer, labelSelector map[string]string, namespaces []string, numPodsScheduledPerNamespace map[string]int) error {
	// If unspecified, default to all known namespaces.
	if len(namespaces) == 0 {
		for namespace := range numPodsScheduledPerNamespace {
			namespaces = append(namespaces, namespace)
		}
	}
	for _, namespace := range namespaces {
		select {
		case <-tCtx.Done():
			return context.Cause(tCtx)
		default:
		}
		wantCount, ok := numPodsScheduledPerNamespace[namespace]
		if !ok {
			return fmt.Errorf("unknown namespace %s", namespace)
		}
		if err := waitUntilPodsAttemptedInNamespace(tCtx, podInformer, labelSelector, namespace, wantCount); err != nil {
			return fmt.Errorf("error waiting for pods in namespace %q: %w", namespace, err)
		}
	}
	return nil
}

// waitUntilPodsAttemptedInNamespace blocks until all pods in the given
// namespace at least once went through a scheduling cycle.
// Times out after 10 minutes similarly to waitUntilPodsScheduledInNamespace.
func waitUntilPodsAttemptedInNamespace(tCtx ktesting.TContext, podInformer coreinformers.PodInformer, labelSelector map[string]string, namespace string, wantCount int) error {
	var pendingPod *v1.Pod

	err := wait.PollUntilContextTimeout(tCtx, 1*time.Second, 10*time.Minute, true, func(ctx context.Context) (bool, error) {
		select {
		case <-ctx.Done():
			return true, ctx.Err()
		default:
		}
		scheduled, attempted, unattempted, err := getScheduledPods(podInformer, labelSelector, namespace)
		if err != nil {
			return false, err
		}
		if len(scheduled)+len(attempted) >= wantCount {
			tCtx.Logf("all pods attempted to be scheduled")
			return true, nil
		}
		tCtx.Logf("namespace: %s, attempted pods: want %d, got %d", namespace, wantCount, len(scheduled)+len(attempted))
		if len(unattempted) > 0 {
			pendingPod = unattempted[0]
		} else {
			pendingPod = nil
		}
		return false, nil
	})

	if err != nil && pendingPod != nil {
		err = fmt.Errorf("at least pod %s is not attempted: %w", klog.KObj(pendingPod), err)
	}
	return err
}

func getNodePreparer(prefix string, cno *createNodesOp, clientset clientset.Interface) (TestNodePreparer, error) {
	var nodeStrategy PrepareNodeStrategy = &TrivialNodePrepareStrategy{}
	if cno.NodeAllocatableStrategy != nil {
		nodeStrategy = cno.NodeAllocatableStrategy
	} else if cno.LabelNodePrepareStrategy != nil {
		nodeStrategy = cno.LabelNodePrepareStrategy
	} else if cno.UniqueNodeLabelStrategy != nil {
		nodeStrategy = cno.UniqueNodeLabelStrategy
	}

	nodeTemplate := StaticNodeTemplate(makeBaseNode(prefix))
	if cno.NodeTemplatePath != nil {
		nodeTemplate = nodeTemplateWithParams{path: *cno.NodeTemplatePath, params: cno.TemplateParams}
	}

	return NewIntegrationTestNodePreparer(
		clientset,
		[]CountToStrategy{{Count: cno.Count, Strategy: nodeStrategy}},
		nodeTemplate,
	), nil
}

// waitUntilPodsScheduledInNamespace blocks until all pods in the given
// namespace are scheduled. Times out after 10 minutes by default because even at the
// lowest observed QPS of ~10 pods/sec, a 5000-node test should complete.
// Complex test suites (e.g. TAS where each pod gets scheduled multiple times for placements)
// may override this timeout via schedulerPerfOptions.
func waitUntilPodsScheduledInNamespace(tCtx ktesting.TContext, podInformer coreinformers.PodInformer, labelSelector map[string]string, namespace string, wantCount int, timeout time.Duration) error {
	var pendingPod *v1.Pod

	err := wait.PollUntilContextTimeout(tCtx, 1*time.Second, timeout, true, func(ctx context.Context) (bool, error) {
		select {
		case <-ctx.Done():
			return true, ctx.Err()
		default:
		}
		scheduled, attempted, unattempted, err := getScheduledPods(podInformer, labelSelector, namespace)
		if err != nil {
			return false, err
		}
		if len(scheduled) >= wantCount {
			tCtx.Logf("scheduling succeed")
			return true, nil
		}
		tCtx.Logf("namespace: %s, pods: want %d, got %d", namespace, wantCount, len(scheduled))
		if len(attempted) > 0 {
			pendingPod = attempted[0]
		} else if len(unattempted) > 0 {
			pendingPod = unattempted[0]
		} else {
			pendingPod = nil
		}
		return false, nil
	})

	if err != nil && pendingPod != nil {
		err = fmt.Errorf("at least pod %s is not scheduled: %w", klog.KObj(pendingPod), err)
	}
	return err
}

func getPodStrategy(cpo *createPodsOp) (TestPodCreateStrategy, error) {
	podTemplate := StaticPodTemplate(makeBasePod())
	if cpo.PodTemplatePath != nil {
		podTemplate = podTemplateWithParams{path: *cpo.PodTemplatePath, params: cpo.TemplateParams, batchSize: cpo.SignatureBatchSize}
	}
	if cpo.PersistentVolumeClaimTemplatePath == nil {
		return NewCustomCreatePodStrategy(podTemplate), nil
	}

	pvTemplate, err := getPersistentVolumeSpecFromFile(cpo.PersistentVolumeTemplatePath)
	if err != nil {
		return nil, err
	}
	pvcTemplate, err := getPersistentVolumeClaimSpecFromFile(cpo.PersistentVolumeClaimTemplatePath)
	if err != nil {
		return nil, err
	}
	return NewCreatePodWithPersistentVolumeStrategy(pvcTemplate, getCustomVolumeFactory(pvTemplate), podTemplate), nil
}

type nodeTemplateWithParams struct {
	path   string
	params map[string]any
}

func (n nodeTemplateWithParams) GetNodeTemplate(index, count int) (*v1.Node, error) {
	env := make(map[string]any)
	maps.Copy(env, n.params)
	env["Index"] = index
	env["Count"] = count
	nodeSpec := &v1.Node{}
	if _, err := getSpecFromTextTemplateFile(n.path, env, nodeSpec); err != nil {
		return nil, fmt.Errorf("parsing Node: %w", err)
	}
	return nodeSpec, nil
}

type podTemplateWithParams struct {
	path      string
	params    map[string]any
	batchSize int
}

func (p podTemplateWithParams) GetPodTemplate(index, count int) (*v1.Pod, error) {
	env := make(map[string]any)
	maps.Copy(env, p.params)
	env["Index"] = index
	env["Count"] = count
	podSpec := &v1.Pod{}
	if _, err := getSpecFromTextTemplateFile(p.path, env, podSpec); err != nil {
		return nil, fmt.Errorf("parsing Pod: %w", err)
	}

	if podSpec.Labels == nil {
		podSpec.Labels = make(map[string]string)
	}
	podSpec.Labels["signature"] = fmt.Sprintf("signature-label-%d", index/p.batchSize)

	return podSpec, nil
}

func getPersistentVolumeSpecFromFile(path *string) (*v1.PersistentVolume, error) {
	persistentVolumeSpec := &v1.PersistentVolume{}
	if err := getSpecFromFile(path, persistentVolumeSpec); err != nil {
		return nil, fmt.Errorf("parsing PersistentVolume: %w", err)
	}
	return persistentVolumeSpec, nil
}

func getPersistentVolumeClaimSpecFromFile(path *string) (*v1.PersistentVolumeClaim, error) {
	persistentVolumeClaimSpec := &v1.PersistentVolumeClaim{}
	if err := getSpecFromFile(path, persistentVolumeClaimSpec); err != nil {
		return nil, fmt.Errorf("parsing PersistentVolumeClaim: %w", err)
	}
	return persistentVolumeClaimSpec, nil
}

func getCustomVolumeFactory(pvTemplate *v1.PersistentVolume) func(id int) *v1.PersistentVolume {
	return func(id int) *v1.PersistentVolume {
		pv := pvTemplate.DeepCopy()
		volumeID := fmt.Sprintf("vol-%d", id)
		pv.ObjectMeta.Name = volumeID
		pvs := pv.Spec.PersistentVolumeSource
		if pvs.CSI != nil {
			pvs.CSI.VolumeHandle = volumeID
		} else if pvs.AWSElasticBlockStore != nil {
			pvs.AWSElasticBlockStore.VolumeID = volumeID
		}
		return pv
	}
}

// namespacePreparer holds configuration information for the test namespace preparer.
type namespacePreparer struct {
	count  int
	prefix string
	spec   *v1.Namespace
}

func newNamespacePreparer(tCtx ktesting.TContext, cno *createNamespacesOp) (*namespacePreparer, error) {
	ns := &v1.Namespace{}
	if cno.NamespaceTemplatePath != nil {
		if err := getSpecFromFile(cno.NamespaceTemplatePath, ns); err != nil {
			return nil, fmt.Errorf("parsing NamespaceTemplate: %w", err)
		}
	}

	return &namespacePreparer{
		count:  cno.Count,
		prefix: cno.Prefix,
		spec:   ns,
	}, nil
}

// namespaces returns namespace names have been (or will be) created by this namespacePreparer
func (p *namespacePreparer) namespaces() []string {
	namespaces := make([]string, p.count)
	for i := 0; i < p.count; i++ {
		namespaces[i] = fmt.Sprintf("%s-%d", p.prefix, i)
	}
	return namespaces
}

// prepare creates the namespaces.
func (p *namespacePreparer) prepare(tCtx ktesting.TContext) error {
	base := &v1.Namespace{}
	if p.spec != nil {
		base = p.spec
	}
	tCtx.Logf("Making %d namespaces with prefix %q and template %v", p.count, p.prefix, *base)
	for i := 0; i < p.count; i++ {
		n := base.DeepCopy()
		n.Name = fmt.Sprintf("%s-%d", p.prefix, i)
		if err := testutils.RetryWithExponentialBackOff(func() (bool, error) {
			_, err := tCtx.Client().CoreV1().Namespaces().Create(tCtx, n, metav1.CreateOptions{})
			return err == nil || apierrors.IsAlreadyExists(err), nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// cleanup deletes existing test namespaces.
func (p *namespacePreparer) cleanup(tCtx ktesting.TContext) error {
	var errRet error
	for i := 0; i < p.count; i++ {
		n := fmt.Sprintf("%s-%d", p.prefix, i)
		if err := tCtx.Client().CoreV1().Namespaces().Delete(tCtx, n, metav1.DeleteOptions{}); err != nil {
			tCtx.Errorf("Deleting Namespace: %v", err)
			errRet = err
		}
	}
	return errRet
}

func getUnstructuredFromFile(path string) (*unstructured.Unstructured, *schema.GroupVersionKind, error) {
	bytes, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}

	bytes, err = yaml.YAMLToJSONStrict(bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot covert YAML to JSON: %w", err)
	}

	obj, gvk, err := unstructured.UnstructuredJSONScheme.Decode(bytes, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	unstructuredObj, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, nil, fmt.Errorf("cannot convert spec file in %v to an unstructured obj", path)
	}
	return unstructuredObj, gvk, nil
}

// gcForMemProfile forces the runtime to update memory profile statistics.
// According to https://go.dev/wiki/Performance#memory-profiler, memprof stats
// are updated in a deferred way. Several consecutive GCs push the update
// pipeline forward to present a consistent snapshot.
func gcForMemProfile() {
	runtime.GC()
	runtime.GC()
	runtime.GC()
}

// startCumulativeProfile writes an initial snapshot of the named pprof profile
// to a "-start-<fileSuffix>" output file.
// Returns the path of the snapshot file to be passed to endCumulativeProfile.
func startCumulativeProfile(tCtx ktesting.TContext, pprofName, fileSuffix string) string {
	f, err := createOutputFile("-start-" + fileSuffix)
	tCtx.ExpectNoError(err, "create start "+pprofName+" profile")
	startFileName := f.Name()
	tCtx.ExpectNoError(pprof.Lookup(pprofName).WriteTo(f, 0), "write to "+pprofName+" profile")
	tCtx.ExpectNoError(f.Close(), "close start "+pprofName+" profile")
	return startFileName
}

// endCumulativeProfile writes a final snapshot of the named pprof profile to a
// "-end-<fileSuffix>" file and computes a "-delta-<fileSuffix>" file via
// go tool pprof. Developers don't need to remember the go tool pprof invocation
// for deltas.
func endCumulativeProfile(tCtx ktesting.TContext, pprofName, fileSuffix, startFileName string) {
	f, err := createOutputFile("-end-" + fileSuffix)
	tCtx.ExpectNoError(err, "create end "+pprofName+" profile")
	endFileName := f.Name()
	tCtx.ExpectNoError(pprof.Lookup(pprofName).WriteTo(f, 0), "write to "+pprofName+" profile")
	tCtx.ExpectNoError(f.Close(), "close end "+pprofName+" profile")

	deltaFileName := strings.ReplaceAll(endFileName, "-end-"+fileSuffix, "-delta-"+fileSuffix)
	cmdString := fmt.Sprintf("go tool pprof -proto -output=%s -base=%s %s", deltaFileName, startFileName, endFileName)
	tCtx.Log(cmdString)
	cmd := exec.Command("go", "tool", "pprof", "-proto", "-output="+deltaFileName, "-base="+startFileName, endFileName)
	out, err := cmd.CombinedOutput()
	tCtx.ExpectNoError(err, cmdString+":\n"+string(out))
}
