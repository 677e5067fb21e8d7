package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Backoff is how long Supervise waits before it starts a command that
// exited again.
type Backoff struct {
	// Initial is the first wait, doubled after each exit up to Max.
	Initial, Max time.Duration
	// Reset is how long a run must last for the next wait to be Initial again.
	Reset time.Duration
}

// KubeletBackoff is the kubelet's CrashLoopBackOff: 10 s, doubling up to
// 5 minutes, back to 10 s after 10 minutes of running.
var KubeletBackoff = Backoff{Initial: 10 * time.Second, Max: 5 * time.Minute, Reset: 10 * time.Minute}

// next is the wait after a run of ran that followed a wait of previous
// (0 before the first exit).
func (b Backoff) next(previous, ran time.Duration) time.Duration {
	if previous == 0 || ran >= b.Reset {
		return b.Initial
	}
	return min(2*previous, b.Max)
}

// Supervise runs argv and starts it again whenever it exits, as the
// kubelet restarts a Deployment's container, with its output and a line on
// each start and exit going to out. When ctx ends it stops the command
// (SIGTERM, then SIGKILL after 15 s) and returns.
func Supervise(ctx context.Context, out io.Writer, argv []string, backoff Backoff) error {
	if len(argv) == 0 {
		return errors.New("supervise: no command given; usage: gpu-workload-lab supervise -- COMMAND [ARG...]")
	}
	var delay time.Duration
	for restarts := 0; ; restarts++ {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = out, out
		// The command goes with its supervisor, however that ends.
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		started := time.Now()
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("supervise: start %s: %w", argv[0], err)
		}
		fmt.Fprintf(out, "[supervise] started %s, pid %d, restarts %d\n", argv[0], cmd.Process.Pid, restarts)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		select {
		case err = <-done:
		case <-ctx.Done():
			return stopChild(cmd, done)
		}
		ran := time.Since(started)
		delay = backoff.next(delay, ran)
		fmt.Fprintf(out, "[supervise] %s exited (%v) after %s; starting it again in %s\n", argv[0], exitStatus(err), ran.Round(time.Millisecond), delay)
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil
		}
	}
}

func exitStatus(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// stopChild asks the command to stop, as the kubelet does, and kills it
// after the grace period.
func stopChild(cmd *exec.Cmd, done <-chan error) error {
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		if err := cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
			return err
		}
		<-done
	}
	return nil
}
