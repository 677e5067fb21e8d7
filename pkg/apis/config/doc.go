// Package config holds the typed arguments of the gpu-workload-scheduler
// plugins: how they are decoded from a KubeSchedulerConfiguration's
// pluginConfig, defaulted and validated.
package config
