package gpuworkload

import "fmt"

// Severity orders findings: info < warning < error.
type Severity string

const (
	SeverityInfo    Severity = "info"
	SeverityWarning Severity = "warning"
	SeverityError   Severity = "error"
)

// Rank is the severity's order, for --fail-on style thresholds.
func (s Severity) Rank() int {
	switch s {
	case SeverityInfo:
		return 1
	case SeverityWarning:
		return 2
	case SeverityError:
		return 3
	}
	return 0
}

// ParseSeverity accepts info, warning or error.
func ParseSeverity(s string) (Severity, error) {
	if sev := Severity(s); sev.Rank() > 0 {
		return sev, nil
	}
	return "", fmt.Errorf("invalid severity %+q: valid values are \"info\", \"warning\", \"error\"", s)
}

// FindingCode is a stable identifier of one kind of disagreement.
type FindingCode string

// The finding codes are a public interface: the kubectl plugin prints them and
// users filter on them. Each has one severity.
const (
	FindingModeLabelIgnored     FindingCode = "ModeLabelIgnored"
	FindingInvalidModeLabel     FindingCode = "InvalidModeLabel"
	FindingForeignResource      FindingCode = "ForeignResource"
	FindingMixedResourceClasses FindingCode = "MixedResourceClasses"
	FindingNothingAdvertised    FindingCode = "NothingAdvertised"
	// FindingMismatchedNode: the node stayed unsettled longer than a conversion takes.
	FindingMismatchedNode       FindingCode = "MismatchedNode"
	FindingVGPUProfileMismatch  FindingCode = "VGPUProfileMismatch"
	FindingVGPUConfigPending    FindingCode = "VGPUConfigPending"
	FindingVGPUConfigFailed     FindingCode = "VGPUConfigFailed"
	FindingVGPUCountMismatch    FindingCode = "VGPUCountMismatch"
	FindingDeployLabelsMismatch FindingCode = "DeployLabelsMismatch"
	FindingOperandsPaused       FindingCode = "OperandsPaused"
	FindingOperandLabelsAbsent  FindingCode = "OperandLabelsAbsent"
	FindingOperandsDisabled     FindingCode = "OperandsDisabled"
	FindingStaleZeroResource    FindingCode = "StaleZeroResource"
	FindingNotGPUResource       FindingCode = "NotGPUResource"
	FindingUncountableResource  FindingCode = "UncountableResource"
	FindingUnhealthyDevices     FindingCode = "UnhealthyDevices"
	FindingInvalidGPUCountLabel FindingCode = "InvalidGPUCountLabel"
	FindingInvalidVGPUConfig    FindingCode = "InvalidVGPUConfig"
	FindingVGPUProfileNotOnCard FindingCode = "VGPUProfileNotOnCard"
	// FindingOverCommitted: the node's bound pods request more GPU units than it has.
	FindingOverCommitted FindingCode = "OverCommitted"
	// FindingOtherSchedulerGPUPods: another scheduler bound GPU pods to the node.
	FindingOtherSchedulerGPUPods FindingCode = "OtherSchedulerGPUPods"
	// FindingStaleConversionTaint: the mode controller's taint outlived its timeout.
	FindingStaleConversionTaint FindingCode = "StaleConversionTaint"

	// KubeVirt's permittedHostDevices and VMIs.
	FindingResourceNotPermitted   FindingCode = "ResourceNotPermitted"
	FindingPermittedNotExternal   FindingCode = "PermittedNotExternal"
	FindingPermittedNotAdvertised FindingCode = "PermittedNotAdvertised"
	FindingPermittedNameMismatch  FindingCode = "PermittedNameMismatch"
	FindingVMIDeviceNotPermitted  FindingCode = "VMIDeviceNotPermitted"
	FindingVMIDeviceNotAdvertised FindingCode = "VMIDeviceNotAdvertised"
	FindingVMIDevicesInvalid      FindingCode = "VMIDevicesInvalid"
	// FindingPermittedNeedsSandbox is on the policy: permitted VM GPUs are not
	// advertised because sandbox workloads are disabled.
	FindingPermittedNeedsSandbox FindingCode = "PermittedNeedsSandbox"

	// GPUs through DRA (docs/dra.md).
	FindingDRADualServed          FindingCode = "DRADualServed"
	FindingDRAVFIONoPCIBusID      FindingCode = "DRAVFIONoPCIBusID"
	FindingDRAClassMatchesNothing FindingCode = "DRAClassMatchesNothing"
	FindingDRASiblingsAllocated   FindingCode = "DRASiblingsAllocated"
	FindingDRADevicesTainted      FindingCode = "DRADevicesTainted"
	FindingVMIClaimsGateOff       FindingCode = "VMIClaimsGateOff"
)

var findingSeverity = map[FindingCode]Severity{
	FindingModeLabelIgnored:      SeverityWarning,
	FindingInvalidModeLabel:      SeverityError,
	FindingForeignResource:       SeverityError,
	FindingMixedResourceClasses:  SeverityError,
	FindingNothingAdvertised:     SeverityWarning,
	FindingMismatchedNode:        SeverityError,
	FindingVGPUProfileMismatch:   SeverityWarning,
	FindingVGPUConfigPending:     SeverityWarning,
	FindingVGPUConfigFailed:      SeverityError,
	FindingVGPUCountMismatch:     SeverityWarning,
	FindingDeployLabelsMismatch:  SeverityWarning,
	FindingOperandsPaused:        SeverityWarning,
	FindingOperandLabelsAbsent:   SeverityInfo,
	FindingOperandsDisabled:      SeverityInfo,
	FindingStaleZeroResource:     SeverityInfo,
	FindingNotGPUResource:        SeverityInfo,
	FindingUncountableResource:   SeverityError,
	FindingUnhealthyDevices:      SeverityWarning,
	FindingInvalidGPUCountLabel:  SeverityWarning,
	FindingInvalidVGPUConfig:     SeverityError,
	FindingOverCommitted:         SeverityError,
	FindingOtherSchedulerGPUPods: SeverityInfo,
	FindingVGPUProfileNotOnCard:  SeverityError,
	FindingStaleConversionTaint:  SeverityWarning,

	FindingResourceNotPermitted:   SeverityError,
	FindingPermittedNotExternal:   SeverityWarning,
	FindingPermittedNotAdvertised: SeverityWarning,
	FindingPermittedNameMismatch:  SeverityError,
	FindingVMIDeviceNotPermitted:  SeverityError,
	FindingVMIDeviceNotAdvertised: SeverityError,
	FindingVMIDevicesInvalid:      SeverityError,
	FindingPermittedNeedsSandbox:  SeverityWarning,

	FindingDRADualServed:          SeverityError,
	FindingDRAVFIONoPCIBusID:      SeverityWarning,
	FindingDRAClassMatchesNothing: SeverityWarning,
	FindingDRASiblingsAllocated:   SeverityError,
	FindingDRADevicesTainted:      SeverityInfo,
	FindingVMIClaimsGateOff:       SeverityError,
}

// FindingCodes lists every code, in the order findings are reported.
var FindingCodes = []FindingCode{
	FindingModeLabelIgnored,
	FindingInvalidModeLabel,
	FindingForeignResource,
	FindingMixedResourceClasses,
	FindingNothingAdvertised,
	FindingMismatchedNode,
	FindingInvalidVGPUConfig,
	FindingVGPUProfileNotOnCard,
	FindingVGPUProfileMismatch,
	FindingVGPUConfigPending,
	FindingVGPUConfigFailed,
	FindingVGPUCountMismatch,
	FindingDeployLabelsMismatch,
	FindingOperandsPaused,
	FindingOperandLabelsAbsent,
	FindingOperandsDisabled,
	FindingStaleZeroResource,
	FindingNotGPUResource,
	FindingUncountableResource,
	FindingUnhealthyDevices,
	FindingInvalidGPUCountLabel,
	FindingOverCommitted,
	FindingOtherSchedulerGPUPods,
	FindingStaleConversionTaint,
	FindingResourceNotPermitted,
	FindingPermittedNotExternal,
	FindingPermittedNotAdvertised,
	FindingPermittedNameMismatch,
	FindingVMIDeviceNotPermitted,
	FindingVMIDeviceNotAdvertised,
	FindingVMIDevicesInvalid,
	FindingPermittedNeedsSandbox,
	FindingDRADualServed,
	FindingDRAVFIONoPCIBusID,
	FindingDRAClassMatchesNothing,
	FindingDRASiblingsAllocated,
	FindingDRADevicesTainted,
	FindingVMIClaimsGateOff,
}

// Severity is the code's fixed severity.
func (c FindingCode) Severity() Severity { return findingSeverity[c] }

// Finding is one disagreement on one object, with what to do about it.
type Finding struct {
	Code     FindingCode
	Severity Severity
	Message  string
	Fix      string
}

// NewFinding is a finding of code, its severity the code's.
func NewFinding(code FindingCode, fix string, format string, args ...any) Finding {
	return Finding{Code: code, Severity: code.Severity(), Message: fmt.Sprintf(format, args...), Fix: fix}
}
