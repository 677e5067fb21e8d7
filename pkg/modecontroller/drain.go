package modecontroller

import (
	"context"
	"fmt"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/kubectl/pkg/drain"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

// SafeToEvictAnnotation is cluster-autoscaler's per-pod switch: "false"
// keeps the pod from ever being evicted for a conversion; "true" lets a pod
// that declares no controller or has local storage be evicted, as
// cluster-autoscaler's scale-down does.
const SafeToEvictAnnotation = "cluster-autoscaler.kubernetes.io/safe-to-evict"

// moves is what emptying a node takes, judged whole before anything moves.
type moves struct {
	evict []*v1.Pod
	// migrate are the launcher pods of VMs KubeVirt can live-migrate.
	migrate []*v1.Pod
	// refused says, pod by pod, why the node cannot be drained.
	refused []string
}

// judgeDrain applies to the node's GPU pods the rules of the tools
// operators trust to take a node out of service, and checks every
// PodDisruptionBudget before anything is evicted: kubectl drain's filters
// (vendored k8s.io/kubectl/pkg/drain), cluster-autoscaler's safe-to-evict
// annotation and system-pod rule, and KubeVirt's LiveMigratable condition
// for VMs. Pods already being deleted are on their way and need nothing.
func (c *Controller) judgeDrain(ctx context.Context, pods []*v1.Pod) (moves, error) {
	var m moves
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if ref := gpuworkload.VMIOf(p); ref != nil {
			_, why, err := c.migratable(ctx, *ref)
			if err != nil {
				return m, err
			}
			if why != "" {
				m.refused = append(m.refused, why)
			} else {
				m.migrate = append(m.migrate, p)
			}
			continue
		}
		why, err := c.evictable(ctx, p)
		if err != nil {
			return m, err
		}
		if why != "" {
			m.refused = append(m.refused, fmt.Sprintf("pod %s/%s %s", p.Namespace, p.Name, why))
			continue
		}
		m.evict = append(m.evict, p)
	}
	refused, err := c.budgetsAllow(ctx, m.evict)
	m.refused = append(m.refused, refused...)
	return m, err
}

// evictable says why kubectl drain or cluster-autoscaler would not evict
// the pod; "" when both would.
func (c *Controller) evictable(ctx context.Context, p *v1.Pod) (string, error) {
	safe := p.Annotations[SafeToEvictAnnotation]
	if safe == "false" {
		return fmt.Sprintf("is annotated %s=false (cluster-autoscaler never evicts it)", SafeToEvictAnnotation), nil
	}
	// kubectl drain judges the pods it lists; listing this one pod alone
	// gives its verdict for it, not for the node's other pods, which a
	// conversion leaves running.
	helper := &drain.Helper{
		Ctx: ctx, Client: onePodClient{Interface: c.client, pod: p},
		IgnoreAllDaemonSets: true, GracePeriodSeconds: -1,
		DeleteEmptyDirData: c.opts.DeleteEmptyDirData || safe == "true",
		Force:              safe == "true",
	}
	list, errs := helper.GetPodsForDeletion(p.Spec.NodeName)
	if len(errs) > 0 {
		var messages []string
		for _, err := range errs {
			messages = append(messages, err.Error())
		}
		return fmt.Sprintf("is refused by kubectl drain's rules: %s (here --delete-emptydir-data allows local storage, and %s=true a pod with no controller or local storage)", strings.Join(messages, "; "), SafeToEvictAnnotation), nil
	}
	if list == nil || len(list.Pods()) == 0 {
		return "is a DaemonSet or static (mirror) pod, which kubectl drain leaves on the node: the node would convert under it; keep the DaemonSet off the node, or move the static pod, first", nil
	}
	return "", nil
}

// budgetsAllow checks, before the first eviction, that every budget lets
// all of the drain's pods go at once, as cluster-autoscaler does: a drain
// stopped half-way by a budget would leave pods evicted for nothing.
func (c *Controller) budgetsAllow(ctx context.Context, pods []*v1.Pod) ([]string, error) {
	byNamespace := map[string][]policyv1.PodDisruptionBudget{}
	need := map[string][]string{}
	budgets := map[string]*policyv1.PodDisruptionBudget{}
	var refused []string
	for _, p := range pods {
		pdbs, ok := byNamespace[p.Namespace]
		if !ok {
			list, err := c.client.PolicyV1().PodDisruptionBudgets(p.Namespace).List(ctx, metav1.ListOptions{})
			if err != nil {
				return nil, fmt.Errorf("list PodDisruptionBudgets in %s: %w", p.Namespace, err)
			}
			pdbs = list.Items
			byNamespace[p.Namespace] = pdbs
		}
		var matching []string
		for i := range pdbs {
			selector, err := metav1.LabelSelectorAsSelector(pdbs[i].Spec.Selector)
			if err == nil && selector.Matches(labels.Set(p.Labels)) {
				key := pdbs[i].Namespace + "/" + pdbs[i].Name
				matching = append(matching, key)
				budgets[key] = &pdbs[i]
			}
		}
		name := p.Namespace + "/" + p.Name
		switch {
		case len(matching) > 1:
			refused = append(refused, fmt.Sprintf("pod %s is covered by several PodDisruptionBudgets (%s), and the Eviction API refuses such a pod", name, strings.Join(matching, ", ")))
		case len(matching) == 0 && p.Namespace == metav1.NamespaceSystem && c.opts.SkipNodesWithSystemPods:
			refused = append(refused, fmt.Sprintf("pod %s is a kube-system pod without a PodDisruptionBudget (cluster-autoscaler's --skip-nodes-with-system-pods; give it a budget, or set the flag to false)", name))
		case len(matching) == 1:
			need[matching[0]] = append(need[matching[0]], name)
		}
	}
	keys := make([]string, 0, len(need))
	for key := range need {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		pdb, names := budgets[key], need[key]
		switch {
		case pdb.Status.ObservedGeneration < pdb.Generation:
			refused = append(refused, fmt.Sprintf("PodDisruptionBudget %s (of pod %s) is not yet observed by the disruption controller", key, strings.Join(names, ", ")))
		case int(pdb.Status.DisruptionsAllowed) < len(names):
			refused = append(refused, fmt.Sprintf("PodDisruptionBudget %s allows %d disruption(s) and the drain needs %d (pod %s)", key, pdb.Status.DisruptionsAllowed, len(names), strings.Join(names, ", ")))
		}
	}
	return refused, nil
}

// evict asks the Eviction API, as kubectl drain does, with the pod's own
// grace period.
func (c *Controller) evict(ctx context.Context, p *v1.Pod) error {
	helper := &drain.Helper{Ctx: ctx, Client: c.client, GracePeriodSeconds: -1}
	return helper.EvictPod(*p, policyv1.SchemeGroupVersion)
}

// onePodClient is the cluster as kubectl drain's filters see it when they
// judge one pod: the pod listed alone, everything else (the DaemonSet a
// pod names) read from the cluster.
type onePodClient struct {
	kubernetes.Interface
	pod *v1.Pod
}

func (c onePodClient) CoreV1() corev1client.CoreV1Interface {
	return onePodCore{CoreV1Interface: c.Interface.CoreV1(), pod: c.pod}
}

type onePodCore struct {
	corev1client.CoreV1Interface
	pod *v1.Pod
}

func (c onePodCore) Pods(namespace string) corev1client.PodInterface {
	return onePodList{PodInterface: c.CoreV1Interface.Pods(namespace), pod: c.pod}
}

type onePodList struct {
	corev1client.PodInterface
	pod *v1.Pod
}

func (l onePodList) List(context.Context, metav1.ListOptions) (*v1.PodList, error) {
	return &v1.PodList{Items: []v1.Pod{*l.pod}}, nil
}
