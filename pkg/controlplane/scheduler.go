package controlplane

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/manifests/install"
)

// InstallConfigMap is the shipped scheduler configuration, relative to the repository root.
const InstallConfigMap = install.ConfigMapFile

// SchedulerConfig returns the KubeSchedulerConfiguration shipped in the
// install ConfigMap, pointed at a kubeconfig: the only change, because a
// Deployment gets its connection from its ServiceAccount instead.
func SchedulerConfig(configMapPath, kubeconfig string) ([]byte, error) {
	data, err := os.ReadFile(configMapPath)
	if err != nil {
		return nil, err
	}
	raw, err := install.SchedulerConfigurationOf(data, configMapPath)
	if err != nil {
		return nil, err
	}
	var config map[string]any
	if err := yaml.Unmarshal(raw, &config); err != nil {
		return nil, fmt.Errorf("%s: data.config.yaml: %w", configMapPath, err)
	}
	config["clientConnection"] = map[string]any{"kubeconfig": kubeconfig}
	return yaml.Marshal(config)
}

// DefaultSchedulerName is kube-scheduler's own profile name, which pods
// without a schedulerName get.
const DefaultSchedulerName = "default-scheduler"

// DefaultSchedulerConfig is kube-scheduler as it ships, pointed at a
// kubeconfig: one profile, default-scheduler, with the default plugins and
// sampling. Our binary runs it with none of our plugins, as the second
// scheduler of a cluster.
func DefaultSchedulerConfig(kubeconfig string) []byte {
	return fmt.Appendf(nil, `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: %q
leaderElection:
  leaderElect: false
profiles:
  - schedulerName: %s
`, kubeconfig, DefaultSchedulerName)
}

// WithFitArg sets one of GPUWorkloadFit's args in a KubeSchedulerConfiguration
// whose profiles configure it.
func WithFitArg(config []byte, key string, value any) ([]byte, error) {
	var c map[string]any
	if err := yaml.Unmarshal(config, &c); err != nil {
		return nil, err
	}
	set := 0
	profiles, _ := c["profiles"].([]any)
	for _, p := range profiles {
		profile, _ := p.(map[string]any)
		pluginConfig, _ := profile["pluginConfig"].([]any)
		for _, pc := range pluginConfig {
			entry, _ := pc.(map[string]any)
			if args, ok := entry["args"].(map[string]any); ok && entry["name"] == "GPUWorkloadFit" {
				args[key] = value
				set++
			}
		}
	}
	if set == 0 {
		return nil, fmt.Errorf("no profile configures GPUWorkloadFit's args: cannot set %s", key)
	}
	return yaml.Marshal(c)
}

// SchedulerOptions configure StartScheduler.
type SchedulerOptions struct {
	// Binary is the gpu-workload-scheduler executable.
	Binary string
	// Config is the KubeSchedulerConfiguration to run with.
	Config []byte
	// Name distinguishes the log and config files of several schedulers.
	Name string
	// Kubeconfig authenticates the scheduler's delegated authentication and
	// authorization; empty means the admin kubeconfig.
	Kubeconfig string
	// ExtraArgs are appended to the command line.
	ExtraArgs []string
	// Supervisor, when set, is a command that runs the scheduler's command
	// line (appended to it) and starts it again when it exits.
	Supervisor []string
}

// Scheduler is a running scheduler process.
type Scheduler struct {
	LogPath string
	// URL is the scheduler's secure port: https://127.0.0.1:<port>.
	URL     string
	process *process
}

// StartScheduler runs a scheduler against this control plane and waits until
// its secure port reports healthy.
func (cp *ControlPlane) StartScheduler(ctx context.Context, opts SchedulerOptions) (*Scheduler, error) {
	if opts.Name == "" {
		opts.Name = "scheduler"
	}
	if opts.Kubeconfig == "" {
		opts.Kubeconfig = cp.Kubeconfig
	}
	configPath := filepath.Join(cp.Dir, opts.Name+"-config.yaml")
	if err := os.WriteFile(configPath, opts.Config, 0o600); err != nil {
		return nil, err
	}
	ports, err := FreePorts(1)
	if err != nil {
		return nil, err
	}
	args := append([]string{
		"--config=" + configPath,
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(ports[0]),
		"--cert-dir=" + filepath.Join(cp.Dir, opts.Name+"-certs"),
		"--authentication-kubeconfig=" + opts.Kubeconfig,
		"--authorization-kubeconfig=" + opts.Kubeconfig,
		// The control plane has no client CA for delegated authentication to look up.
		"--authentication-skip-lookup=true",
		"--v=2",
	}, opts.ExtraArgs...)
	logPath := filepath.Join(cp.Dir, opts.Name+".log")
	binary := opts.Binary
	if len(opts.Supervisor) > 0 {
		binary, args = opts.Supervisor[0], append(append(slices.Clone(opts.Supervisor[1:]), opts.Binary), args...)
	}
	proc, err := cp.spawn(binary, args, logPath)
	if err != nil {
		return nil, err
	}
	s := &Scheduler{LogPath: logPath, URL: fmt.Sprintf("https://127.0.0.1:%d", ports[0]), process: proc}
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
		// The scheduler's serving certificate is self-signed; only health is read.
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
	}}
	url := s.URL + "/healthz"
	err = waitFor(ctx, 60*time.Second, opts.Name, logPath, func() error {
		if err := proc.exited(); err != nil {
			return err
		}
		return healthy(client, url)
	})
	return s, err
}

// Stop terminates this scheduler only, as a rollout would.
func (s *Scheduler) Stop() error {
	return stopProcess(s.process)
}

// Kill ends this scheduler at once, as a crash or an OOM kill would: it
// neither releases its lease nor finishes the bindings in flight.
func (s *Scheduler) Kill() error { return s.process.kill() }
