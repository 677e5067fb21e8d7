package config

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

// FuzzDecodeGPUWorkloadFitArgs feeds the args decoder arbitrary bytes: it
// never panics, and what it accepts is valid.
func FuzzDecodeGPUWorkloadFitArgs(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"sandboxWorkloads":{"enabled":true,"defaultWorkload":"vm-passthrough","mode":"kata"}}`,
		`{"resourceClasses":{"cpu":"container-gpu","":"vgpu-profile","not a resource!!":"not-gpu"}}`,
		`{"sandboxWorkloads":{"enabeld":true}}`,
		`{"draDriverName":"Not_A_DNS_Name"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		args, err := DecodeGPUWorkloadFitArgs(&runtime.Unknown{Raw: data, ContentType: runtime.ContentTypeJSON})
		if err != nil {
			return
		}
		if errs := ValidateGPUWorkloadFitArgs(args); len(errs) > 0 {
			t.Fatalf("accepted args that do not validate: %v", errs)
		}
		args.Policy()
		args.Classes()
	})
}
