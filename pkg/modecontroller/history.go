package modecontroller

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// HistoryConfigMap is the ConfigMap, in the controller's namespace, that
// holds the conversions started within the rate limit's window and the
// nodes' cool-downs: an API object, so that a restarted controller or a
// new leader counts every start, however many nodes or however often one
// node flipped.
const HistoryConfigMap = Name + "-history"

const historyKey = "conversions"

// maxHistory bounds the ConfigMap whatever the options: entries older
// than the window and the cool-down are dropped first, and
// --max-conversions may not exceed it, so that every start in the window
// is kept.
const maxHistory = 1000

// conversionEntry is one conversion: when it started and, once it did,
// when it ended (succeeded, aborted or rolled back).
type conversionEntry struct {
	Node    string       `json:"node"`
	Started metav1.Time  `json:"started"`
	Ended   *metav1.Time `json:"ended,omitempty"`
}

// last is when the conversion last kept its node busy: its end, or, while
// none is recorded, now, and never later than the timeout after its start
// (a conversion ends by then; an end lost to a conflict is not waited for).
func (e conversionEntry) last(now time.Time, timeout time.Duration) time.Time {
	if e.Ended != nil {
		return e.Ended.Time
	}
	if deadline := e.Started.Add(timeout); deadline.Before(now) {
		return deadline
	}
	return now
}

// history is the ConfigMap as read at the start of a pass.
type history struct {
	configMap *v1.ConfigMap
	entries   []conversionEntry
}

func (c *Controller) readHistory(ctx context.Context) (*history, error) {
	cm, err := c.client.CoreV1().ConfigMaps(c.opts.Namespace).Get(ctx, HistoryConfigMap, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return &history{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get ConfigMap %s/%s: %w", c.opts.Namespace, HistoryConfigMap, err)
	}
	h := &history{configMap: cm}
	if raw := cm.Data[historyKey]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &h.entries); err != nil {
			return nil, fmt.Errorf("ConfigMap %s/%s: data.%s is not the controller's history (%v); delete the ConfigMap to start a new one, which resets the rate limit", c.opts.Namespace, HistoryConfigMap, historyKey, err)
		}
	}
	return h, nil
}

// startedWithin counts the conversions started less than window before now.
func (h *history) startedWithin(now time.Time, window time.Duration) int {
	n := 0
	for _, e := range h.entries {
		if now.Sub(e.Started.Time) < window {
			n++
		}
	}
	return n
}

// cooling says until when the node's last conversion keeps others off
// it: the cool-down after it ended.
func (h *history) cooling(node string, now time.Time, o Options) (time.Time, bool) {
	var last time.Time
	for _, e := range h.entries {
		if at := e.last(now, o.ConversionTimeout); e.Node == node && at.After(last) {
			last = at
		}
	}
	return last.Add(o.NodeCooldown), !last.IsZero() && o.Cooling(now.Sub(last))
}

// remember adds a start to the history, or marks the node's running
// conversion ended, and writes the ConfigMap with the resourceVersion it
// was read at: of two controllers only one writes. ok is false on a
// conflict.
func (c *Controller) remember(ctx context.Context, h *history, node string, at time.Time, ended bool) (ok bool, err error) {
	entries := slices.Clone(h.entries)
	stamp := metav1.NewTime(at.UTC().Truncate(time.Second))
	if ended {
		for i := range entries {
			if entries[i].Node == node && entries[i].Ended == nil {
				entries[i].Ended = &stamp
			}
		}
	} else {
		entries = append(entries, conversionEntry{Node: node, Started: stamp})
	}
	entries = slices.DeleteFunc(entries, func(e conversionEntry) bool {
		return at.Sub(e.Started.Time) >= c.opts.Window && at.Sub(e.last(at, c.opts.ConversionTimeout)) >= c.opts.NodeCooldown
	})
	if len(entries) > maxHistory {
		entries = entries[len(entries)-maxHistory:]
	}
	raw, err := json.Marshal(entries)
	if err != nil {
		return false, err
	}
	cm, err := writeHistory(ctx, c.client, c.opts.Namespace, h.configMap, string(raw))
	if apierrors.IsConflict(err) || apierrors.IsAlreadyExists(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("write ConfigMap %s/%s: %w", c.opts.Namespace, HistoryConfigMap, err)
	}
	h.configMap, h.entries = cm, entries
	return true, nil
}

func writeHistory(ctx context.Context, client kubernetes.Interface, namespace string, read *v1.ConfigMap, raw string) (*v1.ConfigMap, error) {
	if read == nil {
		return client.CoreV1().ConfigMaps(namespace).Create(ctx, &v1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: HistoryConfigMap, Namespace: namespace},
			Data:       map[string]string{historyKey: raw},
		}, metav1.CreateOptions{FieldManager: Name})
	}
	next := read.DeepCopy()
	if next.Data == nil {
		next.Data = map[string]string{}
	}
	next.Data[historyKey] = raw
	return client.CoreV1().ConfigMaps(namespace).Update(ctx, next, metav1.UpdateOptions{FieldManager: Name})
}
