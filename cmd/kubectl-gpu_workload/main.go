// Command kubectl-gpu_workload is the kubectl plugin "kubectl gpu-workload".
package main

import (
	"context"
	"os"

	"github.com/gpu-workload-scheduler/scheduler/pkg/cli"
)

func main() {
	os.Exit(cli.Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
