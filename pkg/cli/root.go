// Package cli implements kubectl gpu-workload.
package cli

import (
	"context"
	"errors"
	goflag "flag"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/klog/v2"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
	"github.com/gpu-workload-scheduler/scheduler/pkg/version"
)

// Exit codes are part of the plugin's interface.
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitUsage    = 2
	// ExitFailure: the command could not do its job, e.g. the API server
	// refused or could not be reached. It is never a verdict on the cluster.
	ExitFailure = 3
)

// usageError marks errors caused by the invocation or its input files.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// errFindings ends a command whose report has findings at or above
// --fail-on, or an explain whose pod fits nowhere; the report says why.
var errFindings = errors.New("findings")

type rootOptions struct {
	config *genericclioptions.ConfigFlags
	output string
	out    io.Writer
	// maxInputSize is --max-input-size; maxInput the bytes it allows.
	maxInputSize string
	maxInput     int64
}

// inputs is where the command reads its files and standard input.
func (o *rootOptions) inputs(cmd *cobra.Command) inputSource {
	return inputSource{stdin: cmd.InOrStdin(), limit: o.maxInput}
}

// NewCommand builds the kubectl-gpu_workload command tree.
func NewCommand(out io.Writer) *cobra.Command {
	o := &rootOptions{config: genericclioptions.NewConfigFlags(true), out: out}
	root := &cobra.Command{
		Use:           "gpu-workload",
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl gpu-workload"},
		Short:         "Inspect GPU workload modes (container, vm-passthrough, vm-vgpu) of GPU Operator nodes",
		Version:       version.String("kubectl-gpu_workload"),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetOut(out)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	o.config.AddFlags(root.PersistentFlags())
	// -v is klog's verbosity, as in kubectl; --version has no shorthand.
	klogFlags := goflag.NewFlagSet("klog", goflag.ContinueOnError)
	klog.InitFlags(klogFlags)
	verbosity := pflag.PFlagFromGoFlag(klogFlags.Lookup("v"))
	verbosity.Shorthand = "v"
	root.PersistentFlags().AddFlag(verbosity)
	root.PersistentFlags().StringVarP(&o.output, "output", "o", "table", "output format: table, json or yaml")
	root.PersistentFlags().StringVar(&o.maxInputSize, strings.TrimPrefix(inputlimit.Flag, "--"), resource.NewQuantity(inputlimit.Default, resource.BinarySI).String(),
		"the most one input file or standard input may hold, such as 512Mi; a larger one is an error before it is read whole")
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		limit, err := inputlimit.Parse(o.maxInputSize)
		if err != nil {
			return usageError{err}
		}
		o.maxInput = limit
		return nil
	}
	root.AddCommand(newCheckCommand(o), newExplainCommand(o), newOperandsCommand(o), newAdviseCommand(o), newInventoryCommand(o))
	return root
}

// Run executes the command and maps the outcome to an exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := NewCommand(stdout)
	cmd.SetArgs(args)
	cmd.SetIn(stdin)
	cmd.SetErr(stderr)
	err := cmd.ExecuteContext(ctx)
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errFindings):
		return ExitFindings
	}
	fmt.Fprintln(stderr, "error:", err)
	var usage usageError
	var selector *dradevices.InvalidSelectorError
	if errors.As(err, &usage) || errors.As(err, &selector) || isCobraUsageError(err) {
		return ExitUsage
	}
	return ExitFailure
}

// isCobraUsageError recognises cobra's own argument and command errors,
// which it returns as plain errors.
func isCobraUsageError(err error) bool {
	for _, prefix := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires ", "invalid argument"} {
		if strings.HasPrefix(err.Error(), prefix) {
			return true
		}
	}
	return false
}
