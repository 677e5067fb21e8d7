package profiles

import (
	"testing"

	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
)

const header = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: gpu-workload-scheduler
`

// shipped is the plugins section of manifests/install/config.yaml.
const shipped = `  plugins:
    preFilter:
      enabled: [{name: GPUWorkloadFit}, {name: GPUStranding}]
    filter:
      disabled: [{name: NodeResourcesFit}, {name: DynamicResources}]
      enabled: [{name: GPUWorkloadFit}, {name: NodeResourcesFit}, {name: DynamicResources}]
    reserve:
      enabled: [{name: GPUWorkloadFit}]
    preScore:
      enabled: [{name: GPUStranding}]
    score:
      enabled: [{name: GPUStranding, weight: 5}]
`

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name, config, want string
	}{
		{name: "the shipped profile", config: shipped},
		{name: "the default profile", config: ""},
		{name: "GPUWorkloadFit alone", config: `  plugins:
    preFilter: {enabled: [{name: GPUWorkloadFit}]}
    filter: {enabled: [{name: GPUWorkloadFit}]}
    reserve: {enabled: [{name: GPUWorkloadFit}]}
`},
		{name: "both through multiPoint, in order", config: `  plugins:
    multiPoint: {enabled: [{name: GPUWorkloadFit}, {name: GPUStranding}]}
`},
		{name: "GPUStranding without GPUWorkloadFit", config: `  plugins:
    multiPoint: {enabled: [{name: GPUStranding}]}
`, want: "profiles[0].plugins.preFilter.enabled: Invalid value: \"GPUStranding\": GPUStranding reads the demand GPUWorkloadFit's PreFilter computes: enable GPUWorkloadFit before it at preFilter"},
		{name: "GPUStranding scoring only", config: `  plugins:
    preFilter: {enabled: [{name: GPUWorkloadFit}]}
    score: {enabled: [{name: GPUStranding}]}
`, want: "[profiles[0].plugins.preFilter.enabled: Required value: GPUStranding learns the pods' requests at preFilter: enable it there, after GPUWorkloadFit, profiles[0].plugins.preScore.enabled: Required value: GPUStranding reads the pod's demand once per cycle at preScore: enable it there]"},
		{name: "GPUWorkloadFit filtering without its PreFilter", config: `  plugins:
    filter: {enabled: [{name: GPUWorkloadFit}]}
    reserve: {enabled: [{name: GPUWorkloadFit}]}
`, want: "profiles[0].plugins.preFilter.enabled: Required value: GPUWorkloadFit filters with what its PreFilter learns: enable it at preFilter too"},
		{name: "a misspelt pluginConfig name", config: shipped + `  pluginConfig:
  - name: GPUStrandng
    args: {emptyNodePenalty: 0}
`, want: "profiles[0].pluginConfig[0].name: Invalid value: \"GPUStrandng\": no plugin of that name is registered, so its args would be ignored; did you mean GPUStranding?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj, _, err := scheme.Codecs.UniversalDecoder().Decode([]byte(header+tc.config), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := Validate(obj.(*config.KubeSchedulerConfiguration)); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
