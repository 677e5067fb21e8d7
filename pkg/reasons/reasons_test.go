package reasons

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	fwk "k8s.io/kube-scheduler/framework"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload/poddemand"
)

// docs/reasons.md is the public catalogue: every reason the code can give
// has a row that starts with its template verbatim and its code, both in
// backticks, and no two reasons share a code.
func TestReasonsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/reasons.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[Code]string{}
	for _, reason := range All() {
		if !camelCase.MatchString(string(reason.Code)) {
			t.Errorf("reason %q has code %q, want a CamelCase code", reason.Format, reason.Code)
		}
		if other, dup := seen[reason.Code]; dup {
			t.Errorf("code %s names both %q and %q", reason.Code, reason.Format, other)
		}
		seen[reason.Code] = reason.Format
		if row := "| `" + reason.Format + "` | `" + string(reason.Code) + "` |"; !strings.Contains(string(doc), row) {
			t.Errorf("docs/reasons.md lacks the row start %q", row)
		}
	}
	if !strings.Contains(string(doc), "`"+EventReasonUnschedulable+"`") {
		t.Errorf("docs/reasons.md lacks the event reason %q", EventReasonUnschedulable)
	}
}

// No reason code is a check finding code: a program that joins them must
// not take one fact for another.
func TestReasonCodesSharedWithFindings(t *testing.T) {
	codes := make([]Code, 0, len(catalogue))
	for _, reason := range All() {
		codes = append(codes, reason.Code)
	}
	for _, finding := range gpuworkload.FindingCodes {
		code := Code(finding)
		if slices.Contains(codes, code) {
			t.Errorf("finding code %s is also a reason code", finding)
		}
	}
}

var camelCase = regexp.MustCompile(`^[A-Z][A-Za-z]+$`)

// A reason keeps the code of the template it was made from, and a pod-level
// reason names a VM's VMI first.
func TestReasonsCarryTheirCode(t *testing.T) {
	vm := &poddemand.PodDemand{VMI: &gpuworkload.VMIRef{Namespace: "vms", Name: "vm"}}
	for _, tc := range []struct {
		got  Reason
		want Reason
	}{
		{Insufficient.With("nvidia.com/GA102GL_A10"), Reason{"Insufficient", "insufficient free nvidia.com/GA102GL_A10"}},
		{NoGPUs.Plain(), Reason{"NoGPUs", "node has no NVIDIA GPUs"}},
		{OtherResource(gpuworkload.ClassPassthroughGPU), Reason{"OtherModel", "node's passthrough GPUs are another model"}},
		{NotAdvertisedFor(vm, "nvidia.com/AD102GL_L40S", nil), Reason{"NotAdvertised", "VirtualMachineInstance/vms/vm: no node advertises nvidia.com/AD102GL_L40S; the cluster advertises no GPU resources"}},
		{LargerThanAnyNode.About(&poddemand.PodDemand{}, 16, "nvidia.com/gpu", 8), Reason{"LargerThanAnyNode", "no node has 16 x nvidia.com/gpu in total; the largest has 8"}},
	} {
		if tc.got != tc.want {
			t.Errorf("got %+v, want %+v", tc.got, tc.want)
		}
	}
}

// A reason's status says what the reason says, as the framework reports it,
// and carries its code to whoever reads the status; a status no reason made
// carries none.
func TestStatusCarriesTheCode(t *testing.T) {
	reason := Insufficient.With("nvidia.com/GA102GL_A10")
	status := reason.Status(fwk.Unschedulable)
	if status.Code() != fwk.Unschedulable || !slices.Equal(status.Reasons(), []string{reason.Message}) || status.Message() != reason.Message {
		t.Errorf("status %s %q, want %s %q", status.Code(), status.Reasons(), fwk.Unschedulable, reason.Message)
	}
	status.SetPlugin("GPUWorkloadFit")
	if got := CodeOf(status); got != reason.Code {
		t.Errorf("CodeOf = %q, want %q", got, reason.Code)
	}
	for _, other := range []*fwk.Status{nil, fwk.NewStatus(fwk.Unschedulable, reason.Message), fwk.AsStatus(errors.New(reason.Message))} {
		if got := CodeOf(other); got != "" {
			t.Errorf("CodeOf(%v) = %q, want none", other, got)
		}
	}
}
