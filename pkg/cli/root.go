// Package cli implements kubectl gpu-workload.
package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gpu-workload-scheduler/scheduler/pkg/version"
)

// Exit codes are part of the plugin's interface.
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitUsage    = 2
)

// usageError marks errors caused by the invocation or its input files.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// NewCommand builds the kubectl-gpu_workload command tree.
func NewCommand(out io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "kubectl gpu-workload",
		Short:         "Inspect GPU workload modes (container, vm-passthrough, vm-vgpu) of GPU Operator nodes",
		Version:       version.String("kubectl-gpu_workload"),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(out)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newOperandsCommand(out))
	return root
}

// Run executes the command and maps the outcome to an exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	cmd := NewCommand(stdout)
	cmd.SetArgs(args)
	cmd.SetErr(stderr)
	err := cmd.Execute()
	if err == nil {
		return ExitOK
	}
	fmt.Fprintln(stderr, "error:", err)
	var usage usageError
	if errors.As(err, &usage) || isCobraUsageError(err) {
		return ExitUsage
	}
	return ExitFindings
}

// isCobraUsageError recognises cobra's own argument and command errors,
// which it returns as plain errors.
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires ", "invalid argument"} {
		if len(msg) >= len(prefix) && msg[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}
