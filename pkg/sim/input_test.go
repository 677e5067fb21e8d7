package sim

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpu-workload-scheduler/scheduler/pkg/gpuworkload"
	"github.com/gpu-workload-scheduler/scheduler/pkg/inputlimit"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadSimpleForm(t *testing.T) {
	nodes, err := LoadNodes(writeFile(t, "nodes.csv", "name,gpus,model\ngpu-node,4,A10\n"), inputlimit.Default)
	if err != nil {
		t.Fatal(err)
	}
	n := nodes[0]
	if n.Mode != gpuworkload.ModeContainer || n.Inventory.GPUs != 4 || n.MilliCPU != 64000 {
		t.Fatalf("node %+v: want a container node with 4 GPUs and the default 64 CPUs", n)
	}
	pods, err := LoadPods(writeFile(t, "pods.csv", "name,gpus\ntrain,2\n"), inputlimit.Default)
	if err != nil {
		t.Fatal(err)
	}
	if p := pods[0]; p.GPU != gpuworkload.ResourceGPU || p.GPUCount != 2 || p.Arrival != 0 || p.Duration != 0 || p.VM {
		t.Fatalf("pod %+v: want 2 x nvidia.com/gpu arriving at 0 and running to the end", p)
	}
}

func TestLoadFullForm(t *testing.T) {
	nodes, err := LoadNodes(writeFile(t, "nodes.yaml", `nodes:
- {name: pt, count: 2, cpu: "32", memory: 256Gi, gpus: 4, model: A10, mode: vm-passthrough}
- {name: vgpu, gpus: 2, model: A10, mode: vm-vgpu, profile: A10-4Q}
- {name: dra, gpus: 8, model: A10, mode: dra}
`), inputlimit.Default)
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 4 || nodes[0].Name != "pt-0001" || nodes[1].Name != "pt-0002" {
		t.Fatalf("nodes %v: want pt-0001, pt-0002, vgpu, dra", nodes)
	}
	if n := nodes[3]; !n.DRA || n.Inventory.GPUs != 8 || nodes[0].DRA {
		t.Fatalf("node %+v: want a DRA node with 8 GPUs, and pt-0001 not one", n)
	}
	if name, count, _ := nodes[2].Inventory.Advertisement(nodes[2].Mode); name != "nvidia.com/NVIDIA_A10-4Q" || count != 12 {
		t.Fatalf("vGPU node advertises %d %s, want 12 nvidia.com/NVIDIA_A10-4Q", count, name)
	}
	pods, err := LoadPods(writeFile(t, "pods.csv", `name,arrival,departure,cpu,memory,gpu,gpus,mode,model,profile
by-name,90,1h30m,4,16Gi,nvidia.com/GA102GL_A10,1,,,
by-model,60,120,,,,2,vm-passthrough,A10,
by-profile,30,90,,,,1,vm-vgpu,,A10-4Q
`), inputlimit.Default)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name     string
		gpu      string
		arrival  time.Duration
		duration time.Duration
	}{
		{"by-profile", "nvidia.com/NVIDIA_A10-4Q", 30 * time.Second, time.Minute},
		{"by-model", "nvidia.com/GA102GL_A10", time.Minute, time.Minute},
		{"by-name", "nvidia.com/GA102GL_A10", 90 * time.Second, 88*time.Minute + 30*time.Second},
	}
	for i, w := range want {
		p := pods[i]
		if p.Name != w.name || string(p.GPU) != w.gpu || p.Arrival != w.arrival || p.Duration != w.duration || !p.VM {
			t.Errorf("pod %d: %+v, want %+v as a VM (pods sorted by arrival)", i, p, w)
		}
	}
}

func TestLoadRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, file, content, want string
		pods                      bool
	}{
		{"unknown column", "n.csv", "name,gpu_count\nx,1\n", `header column 2 "gpu_count" is unknown; valid columns are name,count,cpu,memory,gpus,model,mode,profile`, false},
		{"bad mode", "n.csv", "name,gpus,model,mode\nx,4,A10,vm\n", `n.csv:2: mode: invalid GPU workload mode "vm": valid values are "container", "vm-passthrough", "vm-vgpu", or "dra" for a node whose GPUs the DRA driver publishes`, false},
		{"DRA node without GPUs", "n.csv", "name,mode\nx,dra\n", `n.csv:2: mode: a dra node publishes its GPUs through the DRA driver: give gpus`, false},
		{"DRA node with a vGPU profile", "n.csv", "name,gpus,model,mode,profile\nx,4,A10,dra,A10-12Q\n", `n.csv:2: mode: the DRA driver offers no vGPU: remove profile "A10-12Q", or make the node vm-vgpu`, false},
		{"DRA node without a known passthrough device", "n.csv", "name,gpus,model,mode\nx,4,A100D,dra\n", `n.csv:2: mode: a dra node serves passthrough VMs through a vfio DeviceClass, and the passthrough device name of GPU A100D is unknown: give the PCI device name, e.g. GA102GL_A10`, false},
		{"passthrough without known device", "n.csv", "name,gpus,model,mode\nx,4,A100D,vm-passthrough\n", `n.csv:2: model: the passthrough device name of GPU A100D is unknown: give the PCI device name, e.g. GA102GL_A10`, false},
		{"unknown model", "n.csv", "name,gpus,model,mode\nx,4,H42,container\n", `n.csv:2: model/profile: GPU model "H42" is neither a vGPU family`, false},
		{"profile for another card", "n.csv", "name,gpus,model,mode,profile\nx,4,A10,vm-vgpu,L4-12Q\n", `model/profile: vGPU profile "L4-12Q" is for vGPU family L4, not A10 (model A10)`, false},
		{"duplicate node", "n.csv", "name,gpus\nx,1\nx,2\n", `n.csv:3: name: node "x" is already described at`, false},
		{"bad quantity", "n.csv", "name,cpu\nx,lots\n", `n.csv:2: cpu: "lots" is not a non-negative Kubernetes quantity, e.g. 500m or 4`, false},
		{"unknown yaml field", "n.yaml", "nodes:\n- {name: x, gpu: 4}\n", `n.yaml: nodes[0]: field "gpu" is unknown`, false},
		{"unknown format", "n.txt", "x", "unknown format: name the file .csv, .yaml or .json", false},
		{"a 10 MB header cell", "n.csv", "name," + strings.Repeat("g", 10<<20) + "\nx,1\n", "n.csv: header column 2 is 10,485,760 bytes long; no field of a description is longer than 1024", false},
		{"a 2 KB value", "p.csv", "name,gpus\np," + strings.Repeat("9", 2048) + "\n", "p.csv:2: gpus is 2,048 bytes long; no field of a description is longer than 1024", true},
		{"a 2 KB YAML value", "n.yaml", "nodes:\n- {name: " + strings.Repeat("x", 2048) + "}\n", "n.yaml: nodes[0]: name is 2,048 bytes long", false},
		{"a key given twice", "n.yaml", "nodes:\n- name: x\n  gpus: 4\n  gpus: 8\n", `n.yaml: want a YAML map with a list under "nodes": error converting YAML to JSON: yaml: unmarshal errors:` + "\n" + `  line 4: key "gpus" already set in map`, false},
		{"departure before arrival", "p.csv", "name,arrival,departure,gpus\np,100,50,1\n", "p.csv:2: departure: 50s is not after arrival 1m40s", true},
		{"both request forms", "p.csv", "name,gpu,gpus,mode\np,nvidia.com/gpu,1,container\n", "give the GPU request as a resource name (gpu) or as mode/model/profile, not both", true},
		{"not an NVIDIA resource", "p.csv", "name,gpu,gpus\np,amd.com/gpu,1\n", `p.csv:2: gpu: "amd.com/gpu" is not an NVIDIA resource`, true},
		{"count without units", "p.csv", "name,mode\np,vm-passthrough\n", "p.csv:2: gpus: required with gpu, mode or models", true},
		{"models without units", "p.csv", "name,models\np,A10\n", "p.csv:2: gpus: required with gpu, mode or models", true},
		{"unknown model in models", "p.csv", "name,gpus,models\np,1,A10|H42\n", `p.csv:2: models: "A10|H42": want cards separated by |`, true},
		{"empty model in models", "p.csv", "name,gpus,models\np,1,A10||T4\n", `p.csv:2: models: "A10||T4": want cards separated by |`, true},
		{"VM of one card named twice", "p.csv", "name,gpus,mode,models\np,1,vm-passthrough,A10|GA102GL_A10\n", "models: A10 and GA102GL_A10 name one card, NVIDIA A10: give it once", true},
		{"VM with model and models", "p.csv", "name,gpus,mode,model,models\np,1,vm-passthrough,A10,T4\n", "models: give the VM's card as model or as models, not both", true},
		{"vGPU VM with models", "p.csv", "name,gpus,mode,profile,models\np,1,vm-vgpu,A10-4Q,A10\n", "models: a vGPU profile names its card: give profile, not models", true},
		{"model resource with models", "p.csv", "name,gpu,gpus,models\np,nvidia.com/GA102GL_A10,1,A10\n", "models: nvidia.com/GA102GL_A10 names its model already", true},
		{"bad time", "p.csv", "name,arrival\np,soon\n", `p.csv:2: arrival: "soon" is not seconds from the start; want e.g. 90 or 1h30m`, true},
		{"empty NVIDIA name", "p.csv", "name,gpu,gpus\np,nvidia.com/,1\n", `gpu: "nvidia.com/" is not an NVIDIA resource`, true},
		{"vGPU profile the table lacks", "p.csv", "name,gpu,gpus\np,nvidia.com/NVIDIA_A10-7Q,1\n", "gpu: vGPU profile A10-7Q is not in the vGPU profile table", true},
		// Bounds (issue: bad input never gives a wrong answer).
		{"a billion nodes", "n.csv", "name,count\nx,1000000000\n", `n.csv:2: count: "1000000000" is not a whole number from 1 to 100000`, false},
		{"more nodes than the limit", "n.yaml", "nodes:\n- {name: a, count: 50000}\n- {name: b, count: 1}\n", `n.yaml: nodes[1]: count: the nodes exceed the limit of 50000 nodes`, false},
		{"YAML integer of a million", "n.yaml", "nodes:\n- {name: a, count: 1000000}\n", `count: "1000000" is not a whole number from 1 to 100000`, false},
		{"CPU beyond the limit", "n.csv", "name,cpu\nx,1e400\n", `n.csv:2: cpu: "1e400" is more than the limit of 100k`, false},
		{"CPU of 2^63-1", "n.csv", "name,cpu\nx,9223372036854775807\n", `cpu: "9223372036854775807" is more than the limit of 100k`, false},
		{"memory beyond the limit", "n.csv", "name,memory\nx,2Pi\n", `memory: "2Pi" is more than the limit of 1Pi`, false},
		{"GPUs of 2^63-1", "n.csv", "name,gpus\nx,9223372036854775807\n", `gpus: "9223372036854775807" is not a whole number from 0 to 1024`, false},
		{"pod CPU beyond the limit", "p.csv", "name,cpu\np,1e400\n", `p.csv:2: cpu: "1e400" is more than the limit of 100k`, true},
		{"arrival beyond the limit", "p.csv", "name,arrival\np,9999999999\n", `arrival: "9999999999" is later than a year after the start, the limit`, true},
		{"infinite arrival", "p.csv", "name,arrival\np,Inf\n", `arrival: "Inf" is not seconds from the start`, true},
		{"departure beyond the limit", "p.csv", "name,departure\np,20000h\n", `departure: "20000h" is later than a year after the start, the limit`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.content)
			var err error
			if tc.pods {
				_, err = LoadPods(path, inputlimit.Default)
			} else {
				_, err = LoadNodes(path, inputlimit.Default)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// A scenario's sandboxWorkloads without enabled keeps sandbox workloads on,
// and an advisor without timings takes the documented defaults; timings out
// of bounds are rejected with the field named.
func TestScenarioDefaultsAndAdvisorBounds(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"nodes.csv": "name,gpus\nx,1\n", "pods.csv": "name,gpus\np,1\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	scenario := func(extra string) string {
		path := filepath.Join(dir, "s.yaml")
		if err := os.WriteFile(path, []byte("nodes: nodes.csv\npods: pods.csv\n"+extra), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	s, advisor, err := LoadScenario(scenario("sandboxWorkloads: {defaultWorkload: vm-passthrough}\nadvisor: {}\n"), inputlimit.Default)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Policy.Enabled || s.Policy.DefaultWorkload != gpuworkload.ModePassthrough {
		t.Errorf("policy %+v: want sandbox workloads enabled with defaultWorkload vm-passthrough", s.Policy)
	}
	if advisor == nil || advisor.Interval != DefaultAdvisorInterval || advisor.Conversion != DefaultAdvisorConversion {
		t.Errorf("advisor %+v: want the defaults %s and %s", advisor, DefaultAdvisorInterval, DefaultAdvisorConversion)
	}
	for extra, want := range map[string]string{
		"advisor: {interval: 1ns}\n":   "advisor.interval 1ns: want from 1s to a year",
		"advisor: {conversion: -1m}\n": "advisor.conversion -1m0s: want from 0s to a year",
	} {
		if _, _, err := LoadScenario(scenario(extra), inputlimit.Default); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to contain %q", extra, err, want)
		}
	}
}

// The models column pins a container pod by node affinity on each card's
// GPU product label, gives a passthrough VM its one card's device, and a VM
// of several cards a claim with an alternative for each, in order.
func TestLoadModels(t *testing.T) {
	pods, err := LoadPods(writeFile(t, "pods.csv", `name,gpu,gpus,mode,models
container,,1,,A10|T4|A10
by-name,nvidia.com/gpu,2,,T4
vm,,1,vm-passthrough,T4
vm-of-two,,2,vm-passthrough,T4|NVIDIA-A10|TU104GL_TESLA_T4
`), inputlimit.Default)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		gpu      string
		products []string
		claim    []string
	}{
		{"nvidia.com/gpu", []string{"NVIDIA-A10", "Tesla-T4"}, nil},
		{"nvidia.com/gpu", []string{"Tesla-T4"}, nil},
		{"nvidia.com/TU104GL_TESLA_T4", nil, nil},
		{"gpu.nvidia.com", nil, []string{"Tesla T4", "NVIDIA A10"}},
	} {
		p := pods[i]
		var products []string
		if p.RequiredNodeAffinity != nil {
			products = p.RequiredNodeAffinity.NodeSelectorTerms[0].MatchExpressions[0].Values
		}
		if string(p.GPU) != want.gpu || !slices.Equal(products, want.products) || !slices.Equal(p.ClaimProducts, want.claim) {
			t.Errorf("pod %s: %s pinned to %v, claim of %q; want %s pinned to %v, claim of %q", p.Name, p.GPU, products, p.ClaimProducts, want.gpu, want.products, want.claim)
		}
	}
}
