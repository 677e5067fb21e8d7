// Command kubectl-gpu_workload is the kubectl plugin "kubectl gpu-workload".
package main

import (
	"os"

	"github.com/gpu-workload-scheduler/scheduler/pkg/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
