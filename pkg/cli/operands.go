package cli

import (
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
)

type operandRow struct {
	Mode        gpuworkload.Mode           `json:"mode"`
	DeployLabel string                     `json:"deployLabel"`
	DaemonSet   string                     `json:"daemonSet"`
	Required    bool                       `json:"required"`
	Runtime     gpuworkload.SandboxRuntime `json:"runtime,omitempty"`
	Purpose     string                     `json:"purpose"`
}

func newOperandsCommand(o *rootOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "operands [MODE]",
		Short: "Print which GPU Operator operands run in each mode (the embedded operand table)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			modes := gpuworkload.Modes[:]
			if len(args) == 1 {
				mode, err := gpuworkload.ParseMode(args[0])
				if err != nil {
					return usageError{err}
				}
				modes = []gpuworkload.Mode{mode}
			}
			var rows []operandRow
			for _, mode := range modes {
				for _, o := range gpuworkload.Operands().Modes[mode] {
					rows = append(rows, operandRow{Mode: mode, DeployLabel: o.LabelKey(), DaemonSet: o.DaemonSet, Required: o.Required, Runtime: o.Runtime, Purpose: o.Purpose})
				}
			}
			return printOperands(o.out, o.output, rows)
		},
	}
}

func printOperands(out io.Writer, format string, rows []operandRow) error {
	if err := checkOutputFormat(format); err != nil {
		return err
	}
	if format != "table" {
		return printStructured(out, format, rows)
	}
	w := newTable(out)
	w.row("MODE", "DEPLOY LABEL", "DAEMONSET", "REQUIRED", "RUNTIME", "PURPOSE")
	for _, r := range rows {
		runtime := r.Runtime
		if runtime == "" {
			runtime = "any"
		}
		w.row(string(r.Mode), r.DeployLabel, r.DaemonSet, strconv.FormatBool(r.Required), string(runtime), r.Purpose)
	}
	return w.flush()
}
