package controlplane

import (
	"os"
	"path/filepath"
	"testing"
)

// A pid file is trusted only for the executable it recorded: a reused pid
// running another program is not ours to signal.
func TestPidAliveChecksTheExecutable(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, executable string
		alive            bool
	}{
		{name: "ours", executable: self, alive: true},
		{name: "another program under our pid", executable: "/bin/sh", alive: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidFile := filepath.Join(dir, "x.pid")
			if err := writePidFile(pidFile, os.Getpid(), tc.executable); err != nil {
				t.Fatal(err)
			}
			if pid, alive := PidAlive(pidFile); pid != os.Getpid() || alive != tc.alive {
				t.Fatalf("PidAlive = %d, %v; want %d, %v", pid, alive, os.Getpid(), tc.alive)
			}
		})
	}
	legacy := filepath.Join(dir, "legacy.pid")
	if err := os.WriteFile(legacy, []byte("1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, alive := PidAlive(legacy); alive {
		t.Fatal("a pid file without an executable names pid 1 as ours")
	}
}
