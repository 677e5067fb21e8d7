package placement

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
	internalcache "k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/names"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"

	"github.com/gpu-workload-scheduler/scheduler/manifests/install"
	"github.com/gpu-workload-scheduler/scheduler/pkg/clusterstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpudynamicresources"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/profiles"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
)

// ProfileName is the profile of the shipped configuration a Cluster runs.
const ProfileName = "gpu-workload-scheduler"

// ShippedOptions run the profile the install manifests ship
// (manifests/install/config.yaml), as the Deployment runs it.
func ShippedOptions() (Options, error) {
	data, err := install.SchedulerConfiguration()
	if err != nil {
		return Options{}, err
	}
	profile, percentage, err := LoadProfile(data, install.ConfigMapFile)
	if err != nil {
		return Options{}, err
	}
	return Options{Profile: profile, Percentage: percentage}, nil
}

// LoadProfile decodes a KubeSchedulerConfiguration as kube-scheduler does
// (defaults and validation included) and returns the profile the
// Deployment's pods use, with the configuration's node sampling.
func LoadProfile(data []byte, source string) (*schedconfig.KubeSchedulerProfile, *int32, error) {
	obj, _, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", source, err)
	}
	cfg, ok := obj.(*schedconfig.KubeSchedulerConfiguration)
	if !ok {
		return nil, nil, fmt.Errorf("%s: a %T is not a KubeSchedulerConfiguration", source, obj)
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", source, err)
	}
	if err := profiles.Validate(cfg); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", source, err)
	}
	for i := range cfg.Profiles {
		if p := &cfg.Profiles[i]; p.SchedulerName == ProfileName {
			percentage := p.PercentageOfNodesToScore
			if percentage == nil {
				percentage = cfg.PercentageOfNodesToScore
			}
			return p, percentage, nil
		}
	}
	return nil, nil, fmt.Errorf("%s: profiles: no profile has schedulerName %s", source, ProfileName)
}

var schedulerMetrics sync.Once

// initSchedulerMetrics creates kube-scheduler's metrics, which the cache and
// framework record, without registering them: nobody scrapes a simulation,
// and unregistered metrics are no-ops. Registered, the per-plugin counters
// that engines side by side increment were 12% of advise's time. A
// scheduler in the same process (tests) has created them already.
func initSchedulerMetrics() {
	schedulerMetrics.Do(func() {
		if metrics.PluginEvaluationTotal == nil {
			metrics.InitMetrics()
		}
	})
}

// engine is one scheduler: a framework built from a profile, with its own
// cache and snapshot, driven one pod at a time.
type engine struct {
	framework  framework.Framework
	cache      internalcache.Cache
	snapshot   *internalcache.Snapshot
	tracker    *clusterstate.Tracker
	percentage *int32
	// nextStart rotates where filtering starts, as kube-scheduler does.
	nextStart int
	feasible  []fwk.NodeInfo
	positions []int
	// verdicts are by node position (filter).
	verdicts []verdict
	// The framework's client, informers and DRA manager, which hold
	// nothing but what pods with claims need (claimEngine).
	client           *fake.Clientset
	informers        informers.SharedInformerFactory
	draManager       fwk.SharedDRAManager
	draClaims        *assumecache.AssumeCache
	draSlices        *resourceslicetracker.Tracker
	dynamicResources interface {
		fwk.ReservePlugin
		fwk.PreBindPlugin
	}
}

// idlePlugins are the extension points the simulator's objects leave
// nothing to decide. Leaving them out changes no placement
// (TestIdlePluginsDecideNothing) and halves a run's cost at 20,000 nodes:
//   - NodeResourcesFit's Filter: simNode.holds, checked first, is its verdict
//     (the node object advertises what holds counts; pods request no more).
//   - Scores equal on every node, which add the same to every total: no node
//     has taints (TaintToleration) or images (ImageLocality), no pod has
//     volumes (VolumeBinding), and, in a run without VMs of several cards,
//     no claim has firstAvailable alternatives, the only thing
//     GPUDynamicResources (DynamicResources) ranks.
var idlePlugins = struct{ filter, score []string }{
	filter: []string{names.NodeResourcesFit},
	score:  []string{names.TaintToleration, names.ImageLocality, names.VolumeBinding, gpudynamicresources.Name},
}

// withoutIdlePlugins is the profile without idlePlugins' extension points;
// with claims, GPUDynamicResources ranks their alternatives.
func withoutIdlePlugins(profile *schedconfig.KubeSchedulerProfile, claims bool) *schedconfig.KubeSchedulerProfile {
	profile = profile.DeepCopy()
	score := idlePlugins.score
	if claims {
		score = slices.DeleteFunc(slices.Clone(score), func(name string) bool { return name == gpudynamicresources.Name })
	}
	// Enabled at the extension point or through multiPoint.
	drop := func(set *schedconfig.PluginSet, idle []string) {
		set.Enabled = slices.DeleteFunc(set.Enabled, func(p schedconfig.Plugin) bool { return slices.Contains(idle, p.Name) })
		for _, name := range idle {
			set.Disabled = append(set.Disabled, schedconfig.Plugin{Name: name})
		}
	}
	drop(&profile.Plugins.Filter, idlePlugins.filter)
	drop(&profile.Plugins.Score, score)
	return profile
}

// newEngine builds the framework as kube-scheduler would. The framework's
// client and informers hold no objects but what a claimEngine writes:
// plugins that list volumes or namespaces find none, which is what the
// simulated pods use.
func newEngine(ctx context.Context, profile *schedconfig.KubeSchedulerProfile, percentage *int32, extra frameworkruntime.Registry, state *schedulerstate.Service, policy gpuworkload.SandboxPolicy) (*engine, error) {
	initSchedulerMetrics()
	e := &engine{
		cache:      internalcache.New(ctx, nil, false, false),
		snapshot:   internalcache.NewEmptySnapshot(),
		percentage: percentage,
	}
	registry := plugins.NewInTreeRegistry()
	ours := profiles.Registry(state)
	newGPUDynamicResources := ours[gpudynamicresources.Name]
	ours[gpudynamicresources.Name] = func(ctx context.Context, args runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
		pl, err := newGPUDynamicResources(ctx, args, h)
		if err == nil {
			e.dynamicResources = pl.(*gpudynamicresources.GPUDynamicResources).DynamicResources
		}
		return pl, err
	}
	for _, r := range []frameworkruntime.Registry{ours, extra} {
		if err := registry.Merge(r); err != nil {
			return nil, err
		}
	}
	newDynamicResources := registry[names.DynamicResources]
	registry[names.DynamicResources] = func(ctx context.Context, args runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
		pl, err := newDynamicResources(ctx, args, h)
		if err == nil {
			e.dynamicResources = pl.(*dynamicresources.DynamicResources)
		}
		return pl, err
	}
	// Not NewClientset: its field-managed tracker builds a REST mapper for
	// every write, which was half of a run with claims.
	client := fake.NewSimpleClientset()
	informerFactory := informers.NewSharedInformerFactory(client, 0)
	e.client, e.informers = client, informerFactory
	draManager, err := e.startDRAManager(ctx)
	if err != nil {
		return nil, err
	}
	f, err := frameworkruntime.NewFramework(ctx, registry, profile,
		frameworkruntime.WithClientSet(client),
		frameworkruntime.WithInformerFactory(informerFactory),
		frameworkruntime.WithSharedDRAManager(draManager),
		frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(informerFactory.Storage().V1().CSINodes().Lister())),
		frameworkruntime.WithSnapshotSharedLister(e.snapshot),
		frameworkruntime.WithParallelism(1),
	)
	if err != nil {
		return nil, fmt.Errorf("build the scheduler framework: %w", err)
	}
	informerFactory.Start(ctx.Done())
	informerFactory.WaitForCacheSync(ctx.Done())
	if e.tracker = state.Tracker(); e.tracker == nil {
		return nil, fmt.Errorf("profile %s does not enable %s", profile.SchedulerName, gpuworkloadfit.Name)
	}
	e.tracker.SetPolicy(&policy)
	e.framework = f
	return e, nil
}

// startDRAManager is what kube-scheduler builds when DynamicResourceAllocation
// is on: the DynamicResources plugin looks up device classes for extended
// resources, and claims, through it.
func (e *engine) startDRAManager(ctx context.Context) (fwk.SharedDRAManager, error) {
	if !feature.DefaultFeatureGate.Enabled(features.DynamicResourceAllocation) {
		return nil, nil
	}
	e.draClaims = assumecache.NewAssumeCache(klog.FromContext(ctx), e.informers.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	var err error
	e.draSlices, err = resourceslicetracker.StartTracker(ctx, resourceslicetracker.Options{
		EnableDeviceTaintRules:   feature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
		EnableConsumableCapacity: feature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
		SliceInformer:            e.informers.Resource().V1().ResourceSlices(),
		TaintInformer:            e.informers.Resource().V1().DeviceTaintRules(),
		KubeClient:               e.client,
	})
	if err != nil {
		return nil, fmt.Errorf("start the resource slice tracker: %w", err)
	}
	e.draManager = dynamicresources.NewDRAManager(ctx, e.draClaims, e.draSlices, e.informers)
	return e.draManager, nil
}

func (e *engine) addNode(logger klog.Logger, node *v1.Node) {
	e.cache.AddNode(logger, node)
	e.tracker.UpsertNode(node)
}

func (e *engine) updateNode(logger klog.Logger, old, node *v1.Node) {
	e.cache.UpdateNode(logger, old, node)
	e.tracker.UpsertNode(node)
}

// schedule runs one scheduling cycle as kube-scheduler's schedulePod does:
// PreFilter, Filter over a rotating sample of nodes, PreScore, Score, and the
// highest total. It returns "" when no node fits. knownUnplaceable says the
// pod's shape found no node since capacity was last freed: at thousands of
// waiting pods, filtering every node for each is what made runs quadratic.
// nodes tells which nodes lack the pod's resources: Filter would reject
// them, so they count as filtered without running the plugins, which in a
// filling cluster were most of a run's time. The cycle's state goes with
// the node, for Reserve.
func (e *engine) schedule(ctx context.Context, pod *v1.Pod, knownUnplaceable bool, nodes podNodes) (string, fwk.CycleState, error) {
	logger := klog.FromContext(ctx)
	if err := e.cache.UpdateSnapshot(logger, e.snapshot); err != nil {
		return "", nil, err
	}
	all, err := e.snapshot.NodeInfos().List()
	if err != nil || len(all) == 0 {
		return "", nil, err
	}
	state := framework.NewCycleState()
	preResult, status, _ := e.framework.RunPreFilterPlugins(ctx, state, pod)
	if !status.IsSuccess() {
		if status.IsRejected() {
			return "", nil, nil
		}
		return "", nil, status.AsError()
	}
	if knownUnplaceable {
		// Filter would reject every node: skip it, keeping what the pass
		// changes, PreFilter's learning.
		return "", nil, nil
	}
	// A node PreFilter left out is rejected without Filter, as by the
	// framework. The sample is taken over all nodes, so that narrowing,
	// which rejects only nodes Filter would reject too, changes no
	// placement: the simulator skips those cheaply anyway (nodes.full). Nodes
	// that do not serve the pod's resource are skipped without being
	// looked at; the sample and the next start are what the framework's
	// walk over every position gives.
	want := e.numFeasibleNodesToFind(len(all))
	e.feasible = e.feasible[:0]
	positions := nodes.serving(all)
	if positions == nil {
		positions = e.everyPosition(len(all))
	}
	first := sort.SearchInts(positions, e.nextStart)
	processed := len(all)
	shape := nodes.shape()
	for k := range positions {
		i := positions[(first+k)%len(positions)]
		ni := all[i]
		if !preResult.AllNodes() && !preResult.NodeNames.Has(ni.Node().Name) || nodes.full(i) {
			continue
		}
		feasible, err := e.filter(ctx, state, pod, ni, i, shape)
		if err != nil {
			return "", nil, err
		}
		if feasible {
			e.feasible = append(e.feasible, ni)
		}
		if len(e.feasible) == want {
			processed = (i-e.nextStart+len(all))%len(all) + 1
			break
		}
	}
	e.nextStart = (e.nextStart + processed) % len(all)
	switch len(e.feasible) {
	case 0:
		return "", nil, nil
	case 1:
		return e.feasible[0].Node().Name, state, nil
	}
	if status := e.framework.RunPreScorePlugins(ctx, state, pod, e.feasible); !status.IsSuccess() {
		return "", nil, status.AsError()
	}
	scores, status := e.framework.RunScorePlugins(ctx, state, pod, e.feasible)
	if !status.IsSuccess() {
		return "", nil, status.AsError()
	}
	return framework.NewSortedScoredNodes(scores).Pop().Name, state, nil
}

// filter runs the Filter plugins on the node at the position, or gives
// the verdict they gave a pod of the same shape when the node has not
// changed since. In the simulator a verdict depends on nothing else:
// simulated pods have no ports, volumes, pod affinity or spread
// constraints, so no filter looks past the node, and the tracker's view of
// a node changes only with its object and its pods, which change its
// generation (a counter over all NodeInfos, so a position that holds
// another node never matches). shape 0 is never remembered: a claim's
// Filter records the allocation its Reserve needs.
func (e *engine) filter(ctx context.Context, state fwk.CycleState, pod *v1.Pod, ni fwk.NodeInfo, position, shape int) (bool, error) {
	for len(e.verdicts) <= position {
		e.verdicts = append(e.verdicts, verdict{})
	}
	v := &e.verdicts[position]
	if shape != 0 && v.shape == shape && v.generation == ni.GetGeneration() {
		return v.feasible, nil
	}
	status := e.framework.RunFilterPlugins(ctx, state, pod, ni)
	if !status.IsSuccess() && !status.IsRejected() {
		return false, status.AsError()
	}
	if shape != 0 {
		*v = verdict{generation: ni.GetGeneration(), shape: shape, feasible: status.IsSuccess()}
	}
	return status.IsSuccess(), nil
}

// verdict is the Filter verdict on a node for the last pod shape filtered
// there, at the node's generation then.
type verdict struct {
	generation int64
	shape      int
	feasible   bool
}

// podNodes is what the simulator knows of the nodes for one pod before
// any plugin runs, by position in the scheduler's node list.
type podNodes interface {
	// serving lists in ascending order the positions of the nodes that
	// serve the pod's GPU resource; nil: every node may hold the pod.
	serving(all []fwk.NodeInfo) []int
	// full says the node at the position lacks the pod's resources.
	full(position int) bool
	// shape numbers the pod's shape from 1 for the Filter verdicts the
	// engine remembers; 0 runs Filter whatever it gave before.
	shape() int
}

// everyPosition is 0 to n-1.
func (e *engine) everyPosition(n int) []int {
	for len(e.positions) < n {
		e.positions = append(e.positions, len(e.positions))
	}
	return e.positions[:n]
}

// numFeasibleNodesToFind is kube-scheduler's adaptive node sampling.
func (e *engine) numFeasibleNodesToFind(all int) int {
	const minNodes, minPercentage = 100, 5
	if all < minNodes {
		return all
	}
	percentage := 0
	if e.percentage != nil {
		percentage = int(*e.percentage)
	}
	if percentage == 0 {
		percentage = max(50-all/125, minPercentage)
	}
	return max(all*percentage/100, minNodes)
}

func (e *engine) bind(logger klog.Logger, pod *v1.Pod, node string) error {
	pod.Spec.NodeName = node
	return e.cache.AddPod(logger, pod)
}

func (e *engine) remove(logger klog.Logger, pod *v1.Pod) error {
	return e.cache.RemovePod(logger, pod)
}
