// Command gpu-workload-scheduler is kube-scheduler with the GPUWorkloadFit and
// GPUStranding plugins. Every kube-scheduler flag works; --version prints
// this project's version.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"

	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpustranding"
	"github.com/gpu-workload-scheduler/scheduler/pkg/plugins/gpuworkloadfit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/version"
)

func main() {
	cmd := app.NewSchedulerCommand(
		app.WithPlugin(gpuworkloadfit.Name, gpuworkloadfit.New),
		app.WithPlugin(gpustranding.Name, gpustranding.New),
	)
	cmd.Use = "gpu-workload-scheduler"
	runScheduler := cmd.RunE
	// kube-scheduler's own --version would print the Kubernetes version only.
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if f := c.Flags().Lookup("version"); f != nil && f.Value.String() != "false" {
			fmt.Fprintln(c.OutOrStdout(), version.String("gpu-workload-scheduler"))
			return nil
		}
		return runScheduler(c, args)
	}
	os.Exit(cli.Run(cmd))
}
