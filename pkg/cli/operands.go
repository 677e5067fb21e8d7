package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

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

func newOperandsCommand(out io.Writer) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "operands [MODE]",
		Short: "Print which GPU Operator operands run in each mode (the embedded operand table)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			modes := gpuworkload.Modes
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
			return printOperands(out, output, rows)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "table", "output format: table, json or yaml")
	return cmd
}

func printOperands(out io.Writer, format string, rows []operandRow) error {
	switch format {
	case "table":
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "MODE\tDEPLOY LABEL\tDAEMONSET\tREQUIRED\tRUNTIME\tPURPOSE")
		for _, r := range rows {
			runtime := r.Runtime
			if runtime == "" {
				runtime = "any"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%t\t%s\t%s\n", r.Mode, r.DeployLabel, r.DaemonSet, r.Required, runtime, r.Purpose)
		}
		return w.Flush()
	case "json":
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	case "yaml":
		data, err := yaml.Marshal(rows)
		if err != nil {
			return err
		}
		_, err = out.Write(data)
		return err
	}
	return usageErrorf("--output %q: valid values are table, json, yaml", format)
}
