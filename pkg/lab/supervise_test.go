package lab

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// The waits between restarts follow the kubelet's CrashLoopBackOff.
func TestBackoffNext(t *testing.T) {
	b := KubeletBackoff
	for _, tc := range []struct {
		previous, ran, want time.Duration
	}{
		{previous: 0, ran: time.Second, want: 10 * time.Second},
		{previous: 10 * time.Second, ran: time.Second, want: 20 * time.Second},
		{previous: 160 * time.Second, ran: time.Second, want: 5 * time.Minute},
		{previous: 5 * time.Minute, ran: time.Second, want: 5 * time.Minute},
		{previous: 5 * time.Minute, ran: 10 * time.Minute, want: 10 * time.Second},
	} {
		if got := b.next(tc.previous, tc.ran); got != tc.want {
			t.Errorf("next(%s, %s) = %s, want %s", tc.previous, tc.ran, got, tc.want)
		}
	}
}

// lockedBuffer is the supervisor's output, read while it writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A command that exits is started again; one that runs is stopped when the
// supervisor's context ends, and the supervisor returns.
func TestSupervise(t *testing.T) {
	for _, tc := range []struct {
		name   string
		argv   []string
		starts int
	}{
		{name: "exits", argv: []string{"sh", "-c", "echo ran; exit 3"}, starts: 3},
		{name: "runs", argv: []string{"sleep", "600"}, starts: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := &lockedBuffer{}
			returned := make(chan error, 1)
			go func() {
				returned <- Supervise(ctx, out, tc.argv, Backoff{Initial: time.Millisecond, Max: 4 * time.Millisecond, Reset: time.Hour})
			}()
			if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
				return strings.Count(out.String(), "[supervise] started") >= tc.starts, nil
			}); err != nil {
				t.Fatalf("want %d starts, output:\n%s", tc.starts, out)
			}
			if tc.starts > 1 && !strings.Contains(out.String(), "exited (exit status 3)") {
				t.Errorf("the exit is not logged:\n%s", out)
			}
			cancel()
			select {
			case err := <-returned:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("Supervise did not return after its context ended:\n%s", out)
			}
		})
	}
	if err := Supervise(context.Background(), &lockedBuffer{}, nil, KubeletBackoff); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Errorf("no command: %v, want a usage error", err)
	}
}
