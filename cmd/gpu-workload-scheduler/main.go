// Command gpu-workload-scheduler is kube-scheduler with the GPUWorkloadFit,
// GPUStranding, VerifyingBinder and GPUDynamicResources plugins. Every kube-scheduler flag works; --version prints
// this project's version.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"

	"github.com/gpu-workload-scheduler/scheduler/pkg/inventory"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/profiles"
	"github.com/gpu-workload-scheduler/scheduler/pkg/schedulerstate"
	"github.com/gpu-workload-scheduler/scheduler/pkg/version"
)

func main() {
	// The process's GPU metrics and cluster state, built once for every
	// profile, as kube-scheduler builds its SharedDRAManager.
	metrics := inventory.NewMetrics()
	metrics.Register(legacyregistry.MustRegister, legacyregistry.CustomMustRegister)
	var plugins []app.Option
	for name, factory := range profiles.Registry(schedulerstate.New(metrics)) {
		plugins = append(plugins, app.WithPlugin(name, factory))
	}
	cmd := app.NewSchedulerCommand(plugins...)
	cmd.Use = "gpu-workload-scheduler"
	runScheduler := cmd.RunE
	// kube-scheduler's own --version would print the Kubernetes version only.
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if f := c.Flags().Lookup("version"); f != nil && f.Value.String() != "false" {
			fmt.Fprintln(c.OutOrStdout(), version.String("gpu-workload-scheduler"))
			return nil
		}
		if err := validateConfig(c); err != nil {
			return err
		}
		return runScheduler(c, args)
	}
	os.Exit(cli.Run(cmd))
}

// validateConfig stops startup on a profile our plugins cannot run in, which
// kube-scheduler's own validation lets through.
func validateConfig(c *cobra.Command) error {
	f := c.Flags().Lookup("config")
	if f == nil || f.Value.String() == "" {
		return nil
	}
	cfg, err := options.LoadConfigFromFile(klog.Background(), f.Value.String())
	if err != nil {
		return err
	}
	if err := profiles.Validate(cfg); err != nil {
		return fmt.Errorf("%s: %w", f.Value.String(), err)
	}
	return nil
}
