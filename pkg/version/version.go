// Package version holds the build's version, set by the Makefile through
// -ldflags "-X github.com/gpu-workload-scheduler/scheduler/pkg/version.Version=...".
package version

import (
	"fmt"
	"runtime/debug"
)

// Version is "dev" in builds that bypass the Makefile.
var Version = "dev"

// String names this build and the Kubernetes library it is built on, e.g.
// "gpu-workload-scheduler v0.1.0 (k8s.io/kubernetes v1.37.2)".
func String(program string) string {
	return fmt.Sprintf("%s %s (k8s.io/kubernetes %s)", program, Version, kubernetesVersion())
}

func kubernetesVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, dep := range info.Deps {
		if dep.Path == "k8s.io/kubernetes" {
			return dep.Version
		}
	}
	return "unknown"
}
