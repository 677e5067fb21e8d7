// Command gpu-workload-lab runs the local lab behind `make lab` and `make lab-down`.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gpu-workload-scheduler/scheduler/pkg/lab"
	"github.com/gpu-workload-scheduler/scheduler/pkg/lab/agent"
	"github.com/gpu-workload-scheduler/scheduler/pkg/lab/kubecontrollers"
)

const usage = `usage:
  gpu-workload-lab up --dir DIR --repo REPO --bin BIN --scenario DIR [--check]
  gpu-workload-lab down --dir DIR [--clean]
  gpu-workload-lab agent --kubeconfig FILE [--conversion-delay 3s]
  gpu-workload-lab controllers --kubeconfig FILE
  gpu-workload-lab supervise -- COMMAND [ARG...]`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "up":
		fs := flag.NewFlagSet("up", flag.ExitOnError)
		opts := lab.Options{Out: os.Stdout}
		fs.StringVar(&opts.Dir, "dir", ".lab", "lab directory: certificates, kubeconfig, logs, pid files")
		fs.StringVar(&opts.Repo, "repo", ".", "repository root")
		fs.StringVar(&opts.Bin, "bin", "bin", "directory of the built binaries")
		fs.StringVar(&opts.Scenario, "scenario", "manifests/examples/lab", "scenario directory")
		fs.BoolVar(&opts.Check, "check", false, "compare with the scenario's expect.yaml, print differences, tear down; exit 1 on a difference")
		_ = fs.Parse(os.Args[2:])
		err = lab.Up(ctx, opts)
	case "down":
		fs := flag.NewFlagSet("down", flag.ExitOnError)
		dir := fs.String("dir", ".lab", "lab directory")
		clean := fs.Bool("clean", false, "also remove the lab directory")
		_ = fs.Parse(os.Args[2:])
		err = lab.Down(*dir, *clean, os.Stdout)
	case "agent":
		fs := flag.NewFlagSet("agent", flag.ExitOnError)
		kubeconfig := fs.String("kubeconfig", "", "the lab's kubeconfig")
		opts := agent.Options{}
		fs.DurationVar(&opts.ConversionDelay, "conversion-delay", agent.DefaultConversionDelay, "how long a GPU node's conversion takes, unless its "+agent.AnnotationConversionDelay+" annotation says otherwise")
		_ = fs.Parse(os.Args[2:])
		var config *rest.Config
		if config, err = clientcmd.BuildConfigFromFlags("", *kubeconfig); err == nil {
			err = agent.Run(ctx, config, opts)
		}
	case "controllers":
		fs := flag.NewFlagSet("controllers", flag.ExitOnError)
		kubeconfig := fs.String("kubeconfig", "", "the lab's kubeconfig")
		_ = fs.Parse(os.Args[2:])
		var config *rest.Config
		if config, err = clientcmd.BuildConfigFromFlags("", *kubeconfig); err == nil {
			err = kubecontrollers.Run(ctx, config)
		}
	case "supervise":
		fs := flag.NewFlagSet("supervise", flag.ExitOnError)
		_ = fs.Parse(os.Args[2:])
		err = lab.Supervise(ctx, os.Stdout, fs.Args(), lab.KubeletBackoff)
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		if !errors.Is(err, lab.ErrExpectations) && !errors.Is(err, lab.ErrFixFailed) {
			fmt.Fprintln(os.Stderr, "[lab] error:", err)
		} else {
			fmt.Fprintln(os.Stderr, "[lab]", err)
		}
		os.Exit(1)
	}
}
