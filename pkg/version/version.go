// Package version holds the build's version, set by the Makefile through
// -ldflags "-X github.com/gpu-workload-scheduler/scheduler/pkg/version.Version=...".
package version

// Version is "dev" in builds that bypass the Makefile.
var Version = "dev"
