package integration

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gpu-workload-scheduler/scheduler/pkg/controlplane"
)

// startControlPlane starts a control plane in a temporary directory, stops it when
// the test ends, and logs the tail of each component's log if the test failed.
func startControlPlane(t testing.TB, extraAPIServerFlags ...string) *controlplane.ControlPlane {
	t.Helper()
	dir := t.TempDir()
	cp, err := controlplane.Start(context.Background(), controlplane.Options{Dir: dir, ExtraAPIServerFlags: extraAPIServerFlags})
	if err != nil {
		logTails(t, dir)
		t.Fatalf("start control plane: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			logTails(t, dir)
		}
		if err := cp.Stop(); err != nil {
			t.Errorf("stop control plane: %v", err)
		}
	})
	return cp
}

const tailLines = 40

func logTails(t testing.TB, dir string) {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, path := range logs {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		var lines []string
		scanner := bufio.NewScanner(f)
		scanner.Buffer(make([]byte, 0, 64*1024), 1024*1024)
		for scanner.Scan() {
			lines = append(lines, scanner.Text())
			if len(lines) > tailLines {
				lines = lines[1:]
			}
		}
		f.Close()
		t.Logf("--- last %d lines of %s ---", len(lines), filepath.Base(path))
		for _, line := range lines {
			t.Log(line)
		}
	}
}
