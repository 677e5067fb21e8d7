# gpu-workload-scheduler. `make help` lists the targets.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

GO      ?= go
BIN     := $(CURDIR)/bin
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/gpu-workload-scheduler/scheduler/pkg/version.Version=$(VERSION)
# Static binaries without build paths or VCS stamps (LDFLAGS gives the
# version), for an image with no base and the same digest from the same
# source in any checkout; tests build with the same settings, so that every
# package compiles once.
export CGO_ENABLED := 0
export GOFLAGS += -trimpath -buildvcs=false
# The vendored tools are rebuilt only when the dependency set changes.
TOOL_DEPS := go.mod vendor/modules.txt

# The lab: LAB_SCENARIO replays your own inventory, LAB_CHECK=1 compares with
# its expect.yaml and tears down, LAB_CLEAN=1 makes lab-down remove LAB_DIR.
LAB_DIR      ?= $(CURDIR)/.lab
LAB_SCENARIO ?= $(CURDIR)/manifests/examples/lab

# install-plugin puts kubectl-gpu_workload here; it must be on PATH for kubectl to find it.
PLUGIN_DIR ?= $(HOME)/.local/bin

# make sim writes the shipped scenarios' comparison here (docs/simulation.md).
SIM_OUT ?= $(CURDIR)/docs/simulation
OPENB ?= $(CURDIR)/../shared/data/openb
DRA_SHARES ?= 0,25,50,100

.PHONY: help build tools manifests image release test test-unit test-fuzz test-integration verify vendor lab lab-down perf sim sim-traces sim-openb sim-dra sim-controller install-plugin clean

help: ## List the targets with one line each
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-17s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## Build bin/gpu-workload-scheduler, bin/gpu-workload-controller, bin/kubectl-gpu_workload and bin/gpu-workload-sim
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/ ./cmd/gpu-workload-scheduler ./cmd/gpu-workload-controller ./cmd/kubectl-gpu_workload ./cmd/gpu-workload-sim

manifests: ## Write manifests/install and manifests/monitoring from the Helm chart charts/gpu-workload-scheduler (its default values)
	$(GO) run ./hack/gen-manifests

image: build ## Build the image of the scheduler and the controller, no base image, no Docker: OCI layout bin/image (crane push) and docker archive bin/image.tar (docker load, podman load, kind load image-archive)
	$(GO) run ./hack/image -tag $(VERSION) -out $(BIN)/image $(BIN)/gpu-workload-scheduler $(BIN)/gpu-workload-controller

release: ## Write a release's artifacts to bin/release (VERSION=vX.Y.Z unless HEAD is tagged): the chart package, kubectl-gpu_workload for linux and darwin on amd64 and arm64, SHA256SUMS, the filled-in krew manifest
	$(GO) run ./hack/release -version $(VERSION) -ldflags "$(LDFLAGS)" -out $(BIN)/release

tools: $(BIN)/etcd $(BIN)/kube-apiserver $(BIN)/kubectl ## Build bin/etcd, bin/kube-apiserver and bin/kubectl from vendor/

$(BIN)/etcd: $(TOOL_DEPS)
	$(GO) build -o $@ go.etcd.io/etcd/server/v3

$(BIN)/kube-apiserver: $(TOOL_DEPS)
	$(GO) build -o $@ k8s.io/kubernetes/cmd/kube-apiserver

$(BIN)/kubectl: $(TOOL_DEPS)
	$(GO) build -o $@ k8s.io/kubernetes/cmd/kubectl

test: verify test-unit test-fuzz test-integration ## Run verify (gofmt, vet, vendor in sync), unit, fuzz and integration tests: what CI runs

test-unit: ## Run the unit tests of cmd/, pkg/ and hack/ (the table generators)
	$(GO) test ./cmd/... ./pkg/... ./hack/...

test-fuzz: ## Run every fuzz target on 2,000 generated inputs (FUZZTIME, default 2000x)
	hack/fuzz.sh

test-integration: tools build ## Run the integration, lab, manifest and scheduler_perf smoke tests against a real control plane
	$(GO) build -o $(BIN)/gpu-workload-lab ./cmd/gpu-workload-lab
	PATH="$(BIN):$$PATH" $(GO) test -timeout 30m ./test/...
	@# The 500-node scheduler_perf workloads, once each, so that the harness cannot rot.
	smoke=$$(mktemp -d) && cd test/perf && PATH="$(BIN):$$PATH" $(GO) test -timeout 30m -run '^$$' \
	  -bench BenchmarkPerfScheduling -benchtime 1x -perf-scheduling-label-filter integration-test -data-items-dir "$$smoke" \
	  | grep -E '^(Benchmark|ok|PASS|FAIL)' ; rm -rf "$$smoke"

verify: ## Check gofmt, go vet, and that go.mod, go.sum and vendor/ are tidy and in sync
	hack/verify.sh

vendor: ## Tidy go.mod and rewrite vendor/ (the only way to change vendor/)
	hack/update-vendor.sh

lab: ## Run the local lab: real control plane, scheduler, scenario, report (docs/lab.md)
	@start=$$(date +%s%N); \
	$(MAKE) --no-print-directory -s tools build >/dev/null && \
	$(GO) build -o $(BIN)/gpu-workload-lab ./cmd/gpu-workload-lab && \
	awk -v ms=$$(( ($$(date +%s%N) - start) / 1000000 )) 'BEGIN { printf "[lab] %-44s %.2fs\n", "build tools and binaries", ms / 1000 }'
	@$(BIN)/gpu-workload-lab up --dir "$(LAB_DIR)" --repo "$(CURDIR)" --bin "$(BIN)" --scenario "$(LAB_SCENARIO)" $(if $(LAB_CHECK),--check)

lab-down: ## Stop the processes the lab started (LAB_CLEAN=1 also removes the lab directory)
	@if [ -x $(BIN)/gpu-workload-lab ]; then $(BIN)/gpu-workload-lab down --dir "$(LAB_DIR)" $(if $(LAB_CLEAN),--clean); \
	else echo "[lab] no lab binary in $(BIN): nothing to stop"; fi

PERF_RESULTS := test/perf/results/$(shell date +%Y-%m-%d)

# make perf runs the workloads PERF_PAIRS times; each run is one pair per mix (its baseline, then ours).
PERF_PAIRS ?= 3

perf: tools ## Run the 5,000-node scheduler_perf workloads against the baseline PERF_PAIRS times (default 3, interleaved pairs), /metrics gathered every 5 s; per-pair and mean ratios ± SE in test/perf/results/<date>/compare.txt, full log in bin/perf.log
	mkdir -p $(PERF_RESULTS)
	: > $(BIN)/perf.log
	for pair in $$(seq $(PERF_PAIRS)); do \
	  (cd test/perf && PATH="$(BIN):$$PATH" $(GO) test -timeout 3h -run '^$$' -bench BenchmarkPerfScheduling -benchtime 1x \
	    -perf-scheduling-label-filter performance -scrape-interval 5s -data-items-dir "$(CURDIR)/$(PERF_RESULTS)") 2>&1 | tee -a $(BIN)/perf.log \
	    | grep -E '^(goos|goarch|pkg|cpu|Benchmark|scrapes|PASS|ok)' | tee -a "$(CURDIR)/$(PERF_RESULTS)/benchstat.txt"; \
	done
	$(GO) run ./test/perf/compare $$(ls -tr $(PERF_RESULTS)/BenchmarkPerfScheduling_*.json | tail -n $(PERF_PAIRS)) | tee $(PERF_RESULTS)/compare.txt

sim: build ## Compare the scoring policies on the shipped scenarios; table, JSON and plots in SIM_OUT (docs/simulation)
	@mkdir -p "$(SIM_OUT)"
	$(BIN)/gpu-workload-sim --plot-dir "$(SIM_OUT)" --json "$(SIM_OUT)/results.json" test/sim/scenarios/*/scenario.yaml | tee "$(SIM_OUT)/results.txt"

sim-traces: ## Compare the policies on each shipped scenario and 40 more traces of it: means, wins and differences per trace in SIM_OUT/traces.txt (about 8 min)
	@mkdir -p "$(SIM_OUT)"
	$(GO) run ./test/sim/traces | tee "$(SIM_OUT)/traces.txt"

sim-openb: ## Compare the policies on the Alibaba openb trace (OPENB) by FGD's method, 10 seeded draws per scenario: multigpu50, gpuspec10 and gpuspec20 (tasks kept to GPU models), each in the container and the three-mode mapping; SIM_OUT/openb-<list>.txt and the allocation curves SIM_OUT/openb-*-allocation.svg
	@mkdir -p "$(SIM_OUT)"
	$(GO) run ./test/sim/openb -data "$(OPENB)" -draws 10 -out "$(SIM_OUT)"
	for list in gpuspec10 gpuspec20; do \
	  $(GO) run ./test/sim/openb -data "$(OPENB)" -pods "$(OPENB)/openb_pod_list_$$list.csv" -draws 10 -out "$(SIM_OUT)" || exit 1; \
	done

sim-controller: ## The mode controller's policy against the advisor by hand, GPUStranding: drift and vgpu-profiles (41 traces) with the shipped settings, without the rate limit and without the hysteresis (demand wait, idle time, node cool-down), and openb-three-mode (10 draws); SIM_OUT/controller.txt (about 12 min)
	@mkdir -p "$(SIM_OUT)"
	$(GO) run ./test/sim/traces -controller -scenarios drift,vgpu-profiles -policies gpu-stranding > "$(SIM_OUT)/controller.txt"
	$(GO) run ./test/sim/traces -controller -max-conversions 1000 -scenarios drift,vgpu-profiles -policies gpu-stranding >> "$(SIM_OUT)/controller.txt"
	$(GO) run ./test/sim/traces -controller -demand-wait 0 -idle-for 0 -node-cooldown 0 -scenarios drift,vgpu-profiles -policies gpu-stranding >> "$(SIM_OUT)/controller.txt"
	$(GO) run ./test/sim/openb -data "$(OPENB)" -draws 10 -scenarios openb-three-mode -policies gpu-stranding -controller >> "$(SIM_OUT)/controller.txt"
	@cat "$(SIM_OUT)/controller.txt"

sim-dra: ## Stranding as 0, 25, 50 and 100% of the nodes the DRA driver can serve move to it: drift (11 traces) and openb-three-mode (10 draws); SIM_OUT/dra-share.txt and SIM_OUT/<scenario>-dra-share.svg (about 6 min)
	@mkdir -p "$(SIM_OUT)"
	$(GO) run ./test/sim/traces -scenarios drift -seeds 11-20 -policies default,gpu-stranding -dra-shares $(DRA_SHARES) -plot-dir "$(SIM_OUT)" > "$(SIM_OUT)/dra-share.txt"
	$(GO) run ./test/sim/openb -data "$(OPENB)" -draws 10 -scenarios openb-three-mode -policies default,gpu-stranding -dra-shares $(DRA_SHARES) -out "$(SIM_OUT)" >> "$(SIM_OUT)/dra-share.txt"
	@cat "$(SIM_OUT)/dra-share.txt"

install-plugin: build ## Install kubectl-gpu_workload into PLUGIN_DIR (default ~/.local/bin) for `kubectl gpu-workload`
	install -d $(PLUGIN_DIR)
	install -m 0755 $(BIN)/kubectl-gpu_workload $(PLUGIN_DIR)/kubectl-gpu_workload
	@case ":$$PATH:" in *":$(PLUGIN_DIR):"*) ;; *) echo "note: $(PLUGIN_DIR) is not on PATH; add it, or set PLUGIN_DIR" >&2 ;; esac

clean: ## Remove build outputs (bin/)
	rm -rf $(BIN)
