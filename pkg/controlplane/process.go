package controlplane

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// process is a started component; done closes when it has exited.
type process struct {
	cmd     *exec.Cmd
	done    chan struct{}
	waitErr error
}

// spawn starts a component whose output goes to logPath. The child is killed
// if this process dies, so that no component outlives a crashed test.
func (cp *ControlPlane) spawn(bin string, args []string, logPath string) (*process, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if cp.detached {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	if cp.detached {
		pidFile := strings.TrimSuffix(logPath, ".log") + ".pid"
		if err := writePidFile(pidFile, cmd.Process.Pid, cmd.Path); err != nil {
			_ = cmd.Process.Kill()
			logFile.Close()
			return nil, err
		}
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	cp.processes = append(cp.processes, p)
	go func() {
		p.waitErr = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	return p, nil
}

// Process is a component StartProcess started.
type Process struct {
	LogPath string
	process *process
}

// StartProcess runs another component against this control plane, logging
// to <name>.log in its directory (detached: with a pid file beside it, so
// that StopDetached stops it too), and returns once it has started.
func (cp *ControlPlane) StartProcess(name, bin string, args ...string) (*Process, error) {
	logPath := filepath.Join(cp.Dir, name+".log")
	p, err := cp.spawn(bin, args, logPath)
	if err != nil {
		return nil, err
	}
	return &Process{LogPath: logPath, process: p}, nil
}

// Kill ends the component at once, as a crash would.
func (p *Process) Kill() error { return p.process.kill() }

// exited returns an error once the process has exited.
func (p *process) exited() error {
	select {
	case <-p.done:
		return fmt.Errorf("%s exited: %v", filepath.Base(p.cmd.Path), p.waitErr)
	default:
		return nil
	}
}

// kill ends the process at once, as a crash would, and waits for it.
func (p *process) kill() error {
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	<-p.done
	return nil
}

// Stop terminates the components in reverse start order, politely first.
func (cp *ControlPlane) Stop() error {
	var errs []error
	for i := len(cp.processes) - 1; i >= 0; i-- {
		errs = append(errs, stopProcess(cp.processes[i]))
	}
	cp.processes = nil
	return errors.Join(errs...)
}

func stopProcess(p *process) error {
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-p.done:
		return nil
	case <-time.After(15 * time.Second):
		return p.cmd.Process.Kill()
	}
}

// Stopped says what StopDetached found of one component.
type Stopped struct {
	Name string
	// WasRunning is false for a component that had exited on its own.
	WasRunning bool
}

// StopDetached stops the components whose pid files are in dir, politely
// first, and removes the pid files.
func StopDetached(dir string) ([]Stopped, error) {
	pidFiles, err := filepath.Glob(filepath.Join(dir, "*.pid"))
	if err != nil {
		return nil, err
	}
	// Clients first, the store last: a scheduler that loses its API server
	// exits on its own, and would then look as if it had crashed.
	stopRank := map[string]int{"apiserver.pid": 1, "etcd.pid": 2}
	slices.SortStableFunc(pidFiles, func(a, b string) int { return stopRank[filepath.Base(a)] - stopRank[filepath.Base(b)] })
	var stopped []Stopped
	var errs []error
	for _, pidFile := range pidFiles {
		name := strings.TrimSuffix(filepath.Base(pidFile), ".pid")
		pid, alive := PidAlive(pidFile)
		if alive {
			if err := stopPid(pid); err != nil {
				errs = append(errs, fmt.Errorf("%s (pid %d): %w", name, pid, err))
				continue
			}
		}
		stopped = append(stopped, Stopped{Name: name, WasRunning: alive})
		if err := os.Remove(pidFile); err != nil {
			errs = append(errs, err)
		}
	}
	return stopped, errors.Join(errs...)
}

// writePidFile records the process and its executable, "<pid> <path>", so
// that a later stop can tell the process from another that reuses its pid.
func writePidFile(path string, pid int, executable string) error {
	exe, err := filepath.Abs(executable)
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return fmt.Errorf("pid file %s: %w", path, err)
	}
	return os.WriteFile(path, []byte(fmt.Sprintf("%d %s\n", pid, exe)), 0o600)
}

// PidAlive reads a pid file and reports whether its process still runs: the
// pid must belong to a live process running the recorded executable, so that
// a pid the kernel has given to another program is never taken for ours.
func PidAlive(pidFile string) (int, bool) {
	data, err := os.ReadFile(pidFile)
	if err != nil {
		return 0, false
	}
	pidText, exe, ok := strings.Cut(strings.TrimSpace(string(data)), " ")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil || pid <= 0 {
		return 0, false
	}
	running, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return pid, false
	}
	// A binary rebuilt while the lab runs shows as deleted; it is still ours.
	return pid, strings.TrimSuffix(running, " (deleted)") == exe
}

// stopPid sends SIGTERM, waits for the process to go, and kills it after 15 s.
func stopPid(pid int) error {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return fmt.Errorf("SIGTERM: %w", err)
	}
	err := wait.PollUntilContextTimeout(context.Background(), 50*time.Millisecond, 15*time.Second, true, func(context.Context) (bool, error) {
		return syscall.Kill(pid, 0) != nil, nil
	})
	if err == nil {
		return nil
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("SIGKILL after 15 s: %w", err)
	}
	return nil
}
