package gpuworkload

import (
	"fmt"
	"strings"
)

// Mode is the GPU workload a node is prepared for. A node runs exactly one.
type Mode string

const (
	ModeContainer   Mode = "container"
	ModePassthrough Mode = "vm-passthrough"
	ModeVGPU        Mode = "vm-vgpu"
)

// Modes lists every valid mode in the order the GPU Operator documents them.
// It is an array so that per-mode tables can be sized by len(Modes).
var Modes = [...]Mode{ModeContainer, ModePassthrough, ModeVGPU}

// ModeNames are the modes' label values, for messages and validation.
func ModeNames() []string {
	names := make([]string, len(Modes))
	for i, m := range Modes {
		names[i] = string(m)
	}
	return names
}

// Node labels the GPU Operator and its operands read or write.
const (
	LabelWorkloadConfig    = "nvidia.com/gpu.workload.config"
	LabelGPUPresent        = "nvidia.com/gpu.present"
	LabelGPUCount          = "nvidia.com/gpu.count"
	LabelGPUProduct        = "nvidia.com/gpu.product"
	LabelDeployOperands    = "nvidia.com/gpu.deploy.operands"
	LabelVGPUConfig        = "nvidia.com/vgpu.config"
	LabelVGPUConfigState   = "nvidia.com/vgpu.config.state"
	DeployLabelPrefix      = "nvidia.com/gpu.deploy."
	PausedForVGPUChange    = "paused-for-vgpu-change"
	VGPUConfigStatePending = "pending"
	VGPUConfigStateSuccess = "success"
	VGPUConfigStateFailed  = "failed"
)

// AnnotationConvertedFor is the resource the mode controller last converted
// a node for. The advisor keeps the node in that mode while pods requesting
// the resource wait, so that demand that caused a conversion never undoes it.
const AnnotationConvertedFor = "gpu-workload.io/converted-for"

// nfdGPULabels are the Node Feature Discovery labels from which the operator
// concludes that a node has an NVIDIA PCI device.
var nfdGPULabels = []string{
	"feature.node.kubernetes.io/pci-10de.present",
	"feature.node.kubernetes.io/pci-0302_10de.present",
	"feature.node.kubernetes.io/pci-0300_10de.present",
}

// ParseMode accepts exactly the three label values the GPU Operator accepts.
func ParseMode(value string) (Mode, error) {
	for _, m := range Modes {
		if value == string(m) {
			return m, nil
		}
	}
	return "", fmt.Errorf("invalid GPU workload mode %+q: valid values are %s", value, validModes())
}

func validModes() string {
	quoted := make([]string, len(Modes))
	for i, m := range Modes {
		quoted[i] = fmt.Sprintf("%+q", m)
	}
	return strings.Join(quoted, ", ")
}

// IsSandbox reports whether the mode serves virtual machines.
func (m Mode) IsSandbox() bool {
	return m == ModePassthrough || m == ModeVGPU
}

// ResourceClass is the class of extended resource a node in this mode
// advertises: the inverse of ResourceClass.Mode, from the same table.
func (m Mode) ResourceClass() ResourceClass {
	for _, c := range GPUClasses {
		if modeOfClass[c] == m {
			return c
		}
	}
	return ClassNotGPU
}
