package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/gpu-workload-scheduler/scheduler/pkg/explanation"
	"github.com/gpu-workload-scheduler/scheduler/pkg/reasons"
)

// ErrFixFailed means a Pending pod's fix commands ran and the pod did not land.
var ErrFixFailed = errors.New("a Pending pod's fix did not make it schedulable")

// fixTimeout bounds the wait for a pod to land after its fix ran: the
// agent's conversion and the scheduler's retry.
const fixTimeout = 60 * time.Second

// freshExplanationTimeout bounds the wait for an explanation newer than the
// last fix: the scheduler retries a pod when nodes change, after a backoff
// of at most 10 s; an explanation that did not change keeps its old event.
const freshExplanationTimeout = 10 * time.Second

// fixRun is what following the fixes of the Pending pods gave.
type fixRun struct {
	pending, withCommands, landed, landedBefore int
	failures                                    []string
}

// followFixes runs, for each Pending pod in name order, the commands of its
// latest GPUWorkloadUnschedulable event, and waits for the pod to land. A
// pod an earlier fix placed is counted apart; a pod whose explanation came
// before an earlier fix waits for a fresh one.
func (l *lab) followFixes(s *Scenario) (fixRun, error) {
	var run fixRun
	outcomes, err := l.outcomes(l.ctx, s)
	if err != nil {
		return run, err
	}
	names := make([]string, 0, len(outcomes))
	for name, o := range outcomes {
		if o.node == "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	fmt.Fprintf(l.Out, "\n== Following each Pending pod's fix (the %s annotation of its %s event)\n", explanation.AnnotationFixCommands, reasons.EventReasonUnschedulable)
	var lastChange time.Time
	for _, name := range names {
		run.pending++
		namespace, pod := outcomes[name].namespace, outcomes[name].pod
		if pod == "" {
			fmt.Fprintf(l.Out, "%s: no launcher pod: %s\n", name, outcomes[name].message)
			continue
		}
		if outcomes[name].deleting {
			fmt.Fprintf(l.Out, "%s: being deleted: the scheduler no longer places it\n", name)
			continue
		}
		if node := l.nodeOf(namespace, pod); node != "" {
			run.landedBefore++
			fmt.Fprintf(l.Out, "%s: landed on %s after an earlier fix\n", name, node)
			continue
		}
		commands, err := l.fixCommands(namespace, pod, lastChange)
		if err != nil {
			return run, err
		}
		if len(commands) == 0 {
			fmt.Fprintf(l.Out, "%s: no command to run (the fix is to wait, change the pod or add hardware)\n", name)
			continue
		}
		run.withCommands++
		start := time.Now()
		if out, err := l.runCommands(commands); err != nil {
			run.failures = append(run.failures, fmt.Sprintf("pod %s: %v\n%s", name, err, out))
			continue
		}
		var node string
		_ = wait.PollUntilContextTimeout(l.ctx, 200*time.Millisecond, fixTimeout, true, func(context.Context) (bool, error) {
			node = l.nodeOf(namespace, pod)
			return node != "", nil
		})
		lastChange = time.Now()
		if s.Expect != nil && s.Expect.Pods[name].Fix == FixFails {
			if node != "" {
				run.failures = append(run.failures, fmt.Sprintf("pod %s: ran %s; landed on %s, but %s says its fix fails", name, strings.Join(commands, "; "), node, ExpectFile))
			}
			fmt.Fprintf(l.Out, "%s: ran %s; still Pending, as %s expects: %s\n", name, strings.Join(commands, "; "), ExpectFile, l.messageOf(namespace, pod))
			continue
		}
		if node == "" {
			run.failures = append(run.failures, fmt.Sprintf("pod %s: ran %s; still Pending after %s: %s", name, strings.Join(commands, "; "), fixTimeout, l.messageOf(namespace, pod)))
			fmt.Fprintf(l.Out, "%s: ran %s; still Pending\n", name, strings.Join(commands, "; "))
			continue
		}
		run.landed++
		fmt.Fprintf(l.Out, "%s: ran %s; landed on %s in %s\n", name, strings.Join(commands, "; "), node, time.Since(start).Round(100*time.Millisecond))
	}
	if run.withCommands > 0 {
		fmt.Fprintf(l.Out, "fix-success rate: %d of %d Pending pod(s) with fix commands landed (%.0f%%)", run.landed, run.withCommands, 100*float64(run.landed)/float64(run.withCommands))
	} else {
		fmt.Fprint(l.Out, "fix-success rate: no Pending pod had fix commands")
	}
	fmt.Fprintf(l.Out, "; %d Pending pod(s) in all, %d placed by an earlier fix\n", run.pending, run.landedBefore)
	for _, f := range run.failures {
		fmt.Fprintln(l.Out, "  -", f)
	}
	if len(run.failures) > 0 {
		return run, ErrFixFailed
	}
	return run, nil
}

func (l *lab) nodeOf(namespace, name string) string {
	pod, err := l.client.CoreV1().Pods(namespace).Get(l.ctx, name, metav1.GetOptions{})
	if err != nil {
		return ""
	}
	return pod.Spec.NodeName
}

func (l *lab) messageOf(namespace, name string) string {
	if e, err := l.latestExplanation(namespace, name); err == nil && e != nil {
		return e.Note
	}
	return "(no explanation event)"
}

// fixCommands are the commands of the pod's latest explanation, one newer
// than since when one comes in time; none without an explanation.
func (l *lab) fixCommands(namespace, name string, since time.Time) ([]string, error) {
	var latest *eventsv1.Event
	_ = wait.PollUntilContextTimeout(l.ctx, 200*time.Millisecond, freshExplanationTimeout, true, func(context.Context) (bool, error) {
		e, err := l.latestExplanation(namespace, name)
		if err != nil {
			return false, err
		}
		latest = e
		return e != nil && observed(e).After(since), nil
	})
	if latest == nil {
		// A pod rejected for its own fields gets no explanation: its
		// FailedScheduling message says what to change.
		return nil, nil
	}
	value, ok := latest.Annotations[explanation.AnnotationFixCommands]
	if !ok {
		return nil, nil
	}
	var commands []string
	if err := json.Unmarshal([]byte(value), &commands); err != nil {
		return nil, fmt.Errorf("event %s/%s: annotation %s: %w", latest.Namespace, latest.Name, explanation.AnnotationFixCommands, err)
	}
	return commands, nil
}

func (l *lab) latestExplanation(namespace, name string) (*eventsv1.Event, error) {
	list, err := l.client.EventsV1().Events(namespace).List(l.ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var latest *eventsv1.Event
	for i := range list.Items {
		e := &list.Items[i]
		if e.Reason == reasons.EventReasonUnschedulable && e.Regarding.Name == name && (latest == nil || observed(e).After(observed(latest))) {
			latest = e
		}
	}
	return latest, nil
}

// observed is when the event was last seen.
func observed(e *eventsv1.Event) time.Time {
	if e.Series != nil {
		return e.Series.LastObservedTime.Time
	}
	return e.EventTime.Time
}

// runCommands runs each command with a shell, as a user pastes it, against
// the lab with its binaries first on PATH.
func (l *lab) runCommands(commands []string) (string, error) {
	var out strings.Builder
	for _, c := range commands {
		cmd := exec.CommandContext(l.ctx, "sh", "-c", c)
		cmd.Env = append(os.Environ(), "KUBECONFIG="+l.kubeconfig(), "PATH="+l.Bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return out.String(), fmt.Errorf("%s: %w", c, err)
		}
	}
	return out.String(), nil
}
