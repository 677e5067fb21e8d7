package main

import (
	"debug/elf"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What cannot run in an image with no base is refused, saying why.
func TestBuildRefusesWhatCannotRunWithoutABase(t *testing.T) {
	script := filepath.Join(t.TempDir(), "gpu-workload-scheduler")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"no binaries":            nil,
		"not a Linux executable": {script},
	}
	// A dynamically linked executable of the machine, when it has one.
	for _, path := range []string{"/bin/ls", "/usr/bin/env"} {
		if f, err := elf.Open(path); err == nil {
			for _, p := range f.Progs {
				if p.Type == elf.PT_INTERP {
					cases["dynamically linked: build it with CGO_ENABLED=0"] = []string{path}
				}
			}
			f.Close()
		}
	}
	for want, binaries := range cases {
		if _, err := build(binaries); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("build(%v): %v, want an error saying %q", binaries, err, want)
		}
	}
}
