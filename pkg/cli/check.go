package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/gpu-workload-scheduler/scheduler/pkg/drasiblings"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/dradevices"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/hardware"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
	"github.com/gpu-workload-scheduler/scheduler/pkg/placement"
)

// ReportAPIVersion versions the JSON and YAML reports; docs/kubectl-plugin.md describes the schema.
const ReportAPIVersion = "kubectl-gpu-workload/v1"

// CheckReport is the output of check.
type CheckReport struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Findings   []ReportFinding `json:"findings"`
	Summary    CheckSummary    `json:"summary"`
}

// ReportFinding is one finding on one object.
type ReportFinding struct {
	// Object is Node/<name>, KubeVirt/<namespace>/<name> or VirtualMachineInstance/<namespace>/<name>.
	Object   string                  `json:"object"`
	Code     gpuworkload.FindingCode `json:"code"`
	Severity gpuworkload.Severity    `json:"severity"`
	Message  string                  `json:"message"`
	Fix      string                  `json:"fix"`
}

// CheckSummary counts what was checked and found.
type CheckSummary struct {
	Policy   string         `json:"policy"`
	KubeVirt string         `json:"kubeVirt,omitempty"`
	Nodes    int            `json:"nodes"`
	GPUNodes map[string]int `json:"gpuNodesByMode"`
	Findings map[string]int `json:"findingsBySeverity"`
	// Highest is the highest severity found, "" when there is none.
	Highest gpuworkload.Severity `json:"highest,omitempty"`
}

func newCheckCommand(o *rootOptions) *cobra.Command {
	var src sourceFlags
	var failOn string
	var conversionTimeout time.Duration
	cmd := &cobra.Command{
		Use:   "check [-f NODES] [--cluster-policy FILE] [--kubevirt FILE]",
		Short: "Check that every GPU node's mode label, advertised resources and operand labels agree, and that KubeVirt permits what nodes advertise",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			threshold, err := gpuworkload.ParseSeverity(failOn)
			if err != nil {
				return usageErrorf("--fail-on: %v", err)
			}
			if err := checkOutputFormat(o.output); err != nil {
				return err
			}
			var c *cluster
			if src.nodes != "" {
				c, err = loadOffline(src, o.inputs(cmd))
			} else {
				if src.clusterPolicy != "" || src.kubeVirt != "" || src.dra != "" {
					return usageErrorf("--cluster-policy and --kubevirt need -f: they complete a node dump; a live check reads them from the cluster")
				}
				c, err = loadLive(cmd.Context(), o.config, true)
			}
			if err != nil {
				return err
			}
			fitArgs, _, err := deployedArgs(cmd.Context(), c.Client, "", o.inputs(cmd))
			if err != nil {
				return err
			}
			c.FollowScheduler(fitArgs)
			if cmd.Flags().Changed("conversion-timeout") {
				if conversionTimeout < time.Second {
					return usageErrorf("--conversion-timeout: %s is under one second; give the mode controller's --conversion-timeout, e.g. 20m", conversionTimeout)
				}
				c.ConversionTimeout = conversionTimeout
			}
			report := buildCheckReport(cmd.Context(), c)
			if err := printCheckReport(o.out, o.output, report); err != nil {
				return err
			}
			if report.Summary.Highest.Rank() >= threshold.Rank() {
				return errFindings
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&src.nodes, "filename", "f", "", "node dump to check instead of the live cluster: "+nodesWanted+"; - reads standard input")
	cmd.Flags().StringVar(&src.clusterPolicy, "cluster-policy", "", "ClusterPolicy dump (with -f); without it the GPU Operator's defaults apply")
	cmd.Flags().StringVar(&src.kubeVirt, "kubevirt", "", "KubeVirt CR dump (with -f); without it permittedHostDevices is not checked")
	cmd.Flags().StringVar(&src.dra, "dra", "", "DRA dump (with -f): "+draWanted+"; without it DRA devices are not checked")
	cmd.Flags().StringVar(&failOn, "fail-on", string(gpuworkload.SeverityWarning), "exit 1 when a finding is at or above this severity: info, warning or error")
	cmd.Flags().DurationVar(&conversionTimeout, "conversion-timeout", gpuworkload.DefaultConversionTimeout,
		"how long a conversion takes at most: a node unsettled for longer is Mismatched, a conversion taint older is StaleConversionTaint; default: conversionTimeout of the scheduler's configuration (the installed ConfigMap, else the shipped one), which the mode controller's --conversion-timeout should equal")
	return cmd
}

func buildCheckReport(ctx context.Context, c *cluster) *CheckReport {
	states, classifier := c.States()
	report := &CheckReport{APIVersion: ReportAPIVersion, Kind: "CheckReport", Findings: []ReportFinding{}, Summary: CheckSummary{
		Policy:   describePolicy(c.Policy),
		KubeVirt: c.KubeVirt,
		Nodes:    len(states),
		GPUNodes: map[string]int{},
		Findings: map[string]int{},
	}}
	add := func(object string, findings []gpuworkload.Finding) {
		report.Findings = appendFindings(report.Findings, object, findings)
	}
	claimDevices := devicesByPod(c.DRA.Claims, c.DRADriver)
	bound := map[string][]*v1.Pod{}
	for _, p := range c.Assigned {
		bound[p.Spec.NodeName] = append(bound[p.Spec.NodeName], p)
	}
	for _, n := range c.Nodes {
		add("Node/"+n.Name, gpuworkload.StaleConversionFindings(n, c.Read, c.ConversionTimeout))
	}
	for _, s := range states {
		if s.GPUNode {
			report.Summary.GPUNodes[string(s.Mode.Mode)]++
			add("Node/"+s.Name, assumptionNoted(s, c.Policy))
			add("Node/"+s.Name, poddemand.OverCommitFindings(s, bound[s.Name], classifier))
			add("Node/"+s.Name, poddemand.OtherSchedulerFindings(bound[s.Name], classifier, placement.ProfileName, claimDevices))
		}
	}
	report.Findings = append(report.Findings, draFindings(c)...)
	advertised := gpuworkload.AdvertisementOf(states)
	gpus := gpuworkload.GPUsOf(c.Nodes, states)
	add(policyObject(c.Policy), gpuworkload.PolicyFindings(c.Policy, c.Permitted, advertised))
	add(c.KubeVirt, gpuworkload.CheckPermittedHostDevices(c.Permitted, c.Policy, advertised, gpus))
	for _, vmi := range c.VMIs {
		add(vmiObject(vmi), vmiFindings(ctx, c, vmi, classifier, advertised, gpus))
	}
	for _, f := range report.Findings {
		report.Summary.Findings[string(f.Severity)]++
		if f.Severity.Rank() > report.Summary.Highest.Rank() {
			report.Summary.Highest = f.Severity
		}
	}
	return report
}

// devicesByPod counts the driver's devices each pod holds through the
// claims reserved for it.
func devicesByPod(claims []*resourceapi.ResourceClaim, driver string) map[types.UID]int64 {
	out := map[types.UID]int64{}
	for _, claim := range claims {
		if claim.Status.Allocation == nil {
			continue
		}
		var devices int64
		for _, r := range claim.Status.Allocation.Devices.Results {
			if r.Driver == driver {
				devices++
			}
		}
		for _, consumer := range claim.Status.ReservedFor {
			if consumer.Resource == "pods" && consumer.APIGroup == "" {
				out[consumer.UID] += devices
			}
		}
	}
	return out
}

// assumptionNoted is a node's findings, each saying where the node's mode
// came from when that is an assumed policy rather than the node's label.
func assumptionNoted(s *gpuworkload.NodeState, policy gpuworkload.SandboxPolicy) []gpuworkload.Finding {
	if policy.Source.Kind != gpuworkload.SourceAssumedDefault || s.Mode.Reason == gpuworkload.ReasonLabelHonoured {
		return s.Findings
	}
	source := policy.Source.String()
	out := slices.Clone(s.Findings)
	for i := range out {
		if !strings.Contains(out[i].Message, source) {
			out[i].Message += fmt.Sprintf(" (mode %s from %s)", s.Mode.Mode, source)
		}
	}
	return out
}

// appendFindings appends the findings about object as report findings.
func appendFindings(out []ReportFinding, object string, findings []gpuworkload.Finding) []ReportFinding {
	for _, f := range findings {
		out = append(out, ReportFinding{Object: object, Code: f.Code, Severity: f.Severity, Message: f.Message, Fix: f.Fix})
	}
	return out
}

// printFindings is the findings table of check, and of explain for a VMI
// without a launcher pod.
func printFindings(out io.Writer, findings []ReportFinding) error {
	w := newTable(out)
	w.row("OBJECT", "CODE", "SEVERITY", "MESSAGE", "FIX")
	for _, f := range findings {
		w.row(f.Object, string(f.Code), string(f.Severity), f.Message, f.Fix)
	}
	return w.flush()
}

func vmiObject(vmi *unstructured.Unstructured) string {
	return fmt.Sprintf("VirtualMachineInstance/%s/%s", vmi.GetNamespace(), vmi.GetName())
}

// vmiFindings are what keeps KubeVirt from creating a VMI's launcher pod,
// or the pod from being scheduled: its devices, its claims' feature gates,
// with the FailedCreate events KubeVirt recorded.
func vmiFindings(ctx context.Context, c *cluster, vmi *unstructured.Unstructured, classifier *gpuworkload.Classifier, advertised gpuworkload.Advertisement, gpus []gpuworkload.NodeGPUs) []gpuworkload.Finding {
	names, fromClaims, malformed := vmiDeviceNames(vmi, classifier)
	findings := gpuworkload.CheckVMIDevices(names, c.Permitted, advertised, gpus)
	if c.KubeVirtGates != nil {
		findings = append(findings, gpuworkload.CheckVMIClaims(slices.Contains(fromClaims, "gpus"), slices.Contains(fromClaims, "hostDevices"), *c.KubeVirtGates, c.KubeVirt)...)
	}
	if len(findings) > 0 && c.Client != nil {
		failed, err := failedCreateEvents(ctx, c, vmi)
		if err != nil {
			failed = fmt.Sprintf("not read (%v)", err)
		}
		if failed != "" {
			for i := range findings {
				findings[i].Message += "; FailedCreate events: " + failed
			}
		}
	}
	if len(malformed) > 0 {
		findings = append(findings, gpuworkload.Finding{Code: gpuworkload.FindingVMIDevicesInvalid, Severity: gpuworkload.FindingVMIDevicesInvalid.Severity(),
			Message: "its device list cannot be read, so its GPUs are not checked: " + strings.Join(malformed, "; "),
			Fix:     "correct spec.domain.devices as KubeVirt's API defines it: lists of objects with a string deviceName"})
	}
	return findings
}

func describePolicy(p gpuworkload.SandboxPolicy) string {
	state := "disabled"
	if p.Enabled {
		state = fmt.Sprintf("enabled, defaultWorkload %s", p.DefaultWorkload)
	}
	return fmt.Sprintf("%s (sandboxWorkloads %s)", p.Source, state)
}

// draFindings judges what the NVIDIA DRA driver publishes and the claims
// that use it (docs/dra.md).
func draFindings(c *cluster) []ReportFinding {
	var out []ReportFinding
	add := func(object string, findings []gpuworkload.Finding) {
		out = appendFindings(out, object, findings)
	}
	driver := c.DRADriver
	draNodes := c.DRA.Nodes(driver)
	var served []dradevices.DRAExtendedResource
	for _, class := range c.DRA.Classes {
		if s, ok := dradevices.DRAExtendedResourceOf(class, driver); ok {
			served = append(served, s)
		}
	}
	for _, n := range c.Nodes {
		if dra := draNodes[n.Name]; dra != nil {
			add("Node/"+n.Name, dradevices.DRANodeFindings(n, dra, served))
		}
	}
	for _, s := range served {
		add("DeviceClass/"+s.DeviceClass, dradevices.DRAClassFindings(s, draNodes))
	}
	poolNodes := map[string]string{}
	for _, s := range c.DRA.Slices {
		if node, _ := dradevices.DRADevicesOf(s, driver); node != "" {
			poolNodes[s.Spec.Pool.Name] = node
		}
	}
	siblings := func(pool, device string) (string, []dradevices.DRADevice) {
		node := poolNodes[pool]
		return node, draNodes[node].Siblings(pool, device)
	}
	for _, conflict := range drasiblings.Conflicts(drasiblings.AllocationsOf(c.DRA.Claims, driver), siblings) {
		out = append(out, ReportFinding{Object: "Node/" + conflict.Node, Code: gpuworkload.FindingDRASiblingsAllocated,
			Severity: gpuworkload.FindingDRASiblingsAllocated.Severity(),
			Message:  conflict.String() + ": the second to be prepared fails on the node",
			Fix:      "delete one of the two pods so that its claim is freed; gpu-workload-scheduler's allocator never gives both devices of one GPU to the pods it schedules"})
	}
	return out
}

// policyObject names the sandbox policy's source as a report object.
func policyObject(p gpuworkload.SandboxPolicy) string {
	if p.Source.Kind == gpuworkload.SourceClusterPolicy {
		return "ClusterPolicy/" + p.Source.Name
	}
	return p.Source.String()
}

// vmiDeviceNames are the GPU resources a VMI's gpus and hostDevices request,
// the lists (gpus, hostDevices) that take devices from ResourceClaims, and
// what in those lists cannot be read, by field path.
func vmiDeviceNames(vmi *unstructured.Unstructured, classifier *gpuworkload.Classifier) (names []v1.ResourceName, fromClaims, malformed []string) {
	for _, field := range []string{"gpus", "hostDevices"} {
		path := "spec.domain.devices." + field
		devices, _, err := unstructured.NestedSlice(vmi.Object, "spec", "domain", "devices", field)
		if err != nil {
			malformed = append(malformed, fmt.Sprintf("%s: %v", path, err))
			continue
		}
		for i, d := range devices {
			m, ok := d.(map[string]any)
			if !ok {
				malformed = append(malformed, fmt.Sprintf("%s[%d]: a %T, not an object", path, i, d))
				continue
			}
			raw, present := m["deviceName"]
			name, isString := raw.(string)
			switch {
			case !present:
				// A DRA device names a claim instead.
				if _, claim := m["claimName"]; claim && !slices.Contains(fromClaims, field) {
					fromClaims = append(fromClaims, field)
				}
				continue
			case !isString:
				malformed = append(malformed, fmt.Sprintf("%s[%d].deviceName: a %T, not a string", path, i, raw))
				continue
			}
			if strings.HasPrefix(name, hardware.ResourceDomain) && !slices.Contains(names, v1.ResourceName(name)) {
				if field == "gpus" || classifier.Classify(v1.ResourceName(name)).IsGPU() {
					names = append(names, v1.ResourceName(name))
				}
			}
		}
	}
	return names, fromClaims, malformed
}

// failedCreateEvents joins the messages of a VMI's FailedCreate events.
func failedCreateEvents(ctx context.Context, c *cluster, vmi *unstructured.Unstructured) (string, error) {
	events, err := c.Client.CoreV1().Events(vmi.GetNamespace()).List(ctx, metav1.ListOptions{
		FieldSelector: "involvedObject.kind=VirtualMachineInstance,involvedObject.name=" + vmi.GetName() + ",reason=FailedCreate",
	})
	if err != nil {
		return "", err
	}
	var messages []string
	for _, e := range events.Items {
		if !slices.Contains(messages, e.Message) {
			messages = append(messages, e.Message)
		}
	}
	return strings.Join(messages, " | "), nil
}

func printCheckReport(out io.Writer, format string, r *CheckReport) error {
	if format != "table" {
		return printStructured(out, format, r)
	}
	if len(r.Findings) == 0 {
		fmt.Fprintln(out, "No findings: every GPU node's label, advertised resources and operand labels agree.")
	} else if err := printFindings(out, r.Findings); err != nil {
		return err
	}
	var modes []string
	for _, m := range gpuworkload.Modes {
		modes = append(modes, fmt.Sprintf("%s %d", m, r.Summary.GPUNodes[string(m)]))
	}
	var counts []string
	for _, s := range []gpuworkload.Severity{gpuworkload.SeverityError, gpuworkload.SeverityWarning, gpuworkload.SeverityInfo} {
		counts = append(counts, fmt.Sprintf("%d %s", r.Summary.Findings[string(s)], s))
	}
	kubevirt := "KubeVirt: none (permittedHostDevices not checked)"
	if r.Summary.KubeVirt != "" {
		kubevirt = "KubeVirt: " + r.Summary.KubeVirt
	}
	_, err := fmt.Fprintf(out, "\nSummary: %d node(s), GPU nodes by mode: %s. Policy: %s. %s. Findings: %s.\n",
		r.Summary.Nodes, strings.Join(modes, ", "), r.Summary.Policy, kubevirt, strings.Join(counts, ", "))
	return err
}
