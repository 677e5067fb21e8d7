// Command release writes a release's artifacts to -out: the Helm chart's
// package, the kubectl plugin for each platform of the krew manifest as
// kubectl-gpu_workload_<os>_<arch>.tar.gz, SHA256SUMS of them all, and the
// krew manifest with each platform's uri and sha256 filled in.
//
//	go run ./hack/release -version v0.1.0 -ldflags "$(LDFLAGS)" -out bin/release
//
// runs from the repository root (make release VERSION=v0.1.0), linking the
// plugin with make's LDFLAGS, which set the version it prints.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"sigs.k8s.io/yaml"

	"github.com/gpu-workload-scheduler/scheduler/pkg/installchart"
)

const (
	krewTemplate = "manifests/krew/gpu-workload.yaml"
	plugin       = "kubectl-gpu_workload"
	// downloads is where a release's assets are published.
	downloads = "https://github.com/gpu-workload-scheduler/scheduler/releases/download/"
)

// releaseVersion is a release tag: the chart's version without the v.
var releaseVersion = regexp.MustCompile(`^v(\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$`)

func main() {
	version := flag.String("version", "", "the release's tag, vMAJOR.MINOR.PATCH")
	ldflags := flag.String("ldflags", "", "the linker flags of make build, which set the version the plugin prints")
	out := flag.String("out", "bin/release", "directory the artifacts are written to")
	flag.Parse()
	if err := run(*version, *ldflags, *out); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(version, ldflags, out string) error {
	m := releaseVersion.FindStringSubmatch(version)
	if m == nil {
		return fmt.Errorf("-version %q is not a release tag vMAJOR.MINOR.PATCH: tag the commit, or give VERSION=v0.1.0 to make release", version)
	}
	chart, err := installchart.Load(installchart.Dir)
	if err != nil {
		return err
	}
	template, err := os.ReadFile(krewTemplate)
	if err != nil {
		return err
	}
	platforms, err := krewPlatforms(template)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	chart.Metadata.Version, chart.Metadata.AppVersion = m[1], version
	chartPackage, err := chartutil.Save(chart, out)
	if err != nil {
		return err
	}
	artifacts := []string{filepath.Base(chartPackage)}
	sums := map[string]string{}
	for _, p := range platforms {
		archive, err := buildPlugin(ldflags, p, out)
		if err != nil {
			return err
		}
		artifacts = append(artifacts, archive)
	}
	var list strings.Builder
	for _, name := range artifacts {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		sums[name] = hex.EncodeToString(sum[:])
		fmt.Fprintf(&list, "%s  %s\n", sums[name], name)
	}
	if err := os.WriteFile(filepath.Join(out, "SHA256SUMS"), []byte(list.String()), 0o644); err != nil {
		return err
	}
	manifest, err := fillKrew(template, version, sums)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, filepath.Base(krewTemplate)), manifest, 0o644); err != nil {
		return err
	}
	fmt.Print(list.String())
	return nil
}

type platform struct{ os, arch string }

func (p platform) archive() string { return fmt.Sprintf("%s_%s_%s.tar.gz", plugin, p.os, p.arch) }

// krewManifest is the part of krew's Plugin the release fills in.
type krewManifest struct {
	Spec struct {
		Platforms []struct {
			Selector struct {
				MatchLabels map[string]string `json:"matchLabels"`
			} `json:"selector"`
		} `json:"platforms"`
	} `json:"spec"`
}

// krewPlatforms are the platforms the krew manifest lists.
func krewPlatforms(template []byte) ([]platform, error) {
	var m krewManifest
	if err := yaml.Unmarshal(template, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", krewTemplate, err)
	}
	var out []platform
	for i, p := range m.Spec.Platforms {
		labels := p.Selector.MatchLabels
		if labels["os"] == "" || labels["arch"] == "" {
			return nil, fmt.Errorf("%s: spec.platforms[%d].selector.matchLabels needs os and arch", krewTemplate, i)
		}
		out = append(out, platform{labels["os"], labels["arch"]})
	}
	return out, nil
}

// fillKrew sets the manifest's version and, for each platform, the uri of
// its archive in the release and the archive's sha256.
func fillKrew(template []byte, version string, sums map[string]string) ([]byte, error) {
	var m map[string]any
	if err := yaml.Unmarshal(template, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", krewTemplate, err)
	}
	platforms, err := krewPlatforms(template)
	if err != nil {
		return nil, err
	}
	spec, _ := m["spec"].(map[string]any)
	entries, _ := spec["platforms"].([]any)
	spec["version"] = version
	for i, p := range platforms {
		sum, ok := sums[p.archive()]
		if !ok {
			return nil, fmt.Errorf("no archive %s for the platform %s/%s of %s", p.archive(), p.os, p.arch, krewTemplate)
		}
		entry, _ := entries[i].(map[string]any)
		entry["uri"] = downloads + version + "/" + p.archive()
		entry["sha256"] = sum
	}
	return yaml.Marshal(m)
}

// buildPlugin builds the kubectl plugin for p, static and without build
// paths, with make build's linker flags, and archives it with the LICENSE, every
// timestamp the epoch.
func buildPlugin(ldflags string, p platform, out string) (string, error) {
	tmp, err := os.MkdirTemp("", "release-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	binary := filepath.Join(tmp, plugin)
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", binary, "./cmd/"+plugin)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.os, "GOARCH="+p.arch)
	if output, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s for %s/%s: %w\n%s", plugin, p.os, p.arch, err, output)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct{ path, name string }{{binary, plugin}, {"LICENSE", "LICENSE"}} {
		data, err := os.ReadFile(f.path)
		if err != nil {
			return "", err
		}
		mode := int64(0o644)
		if f.name == plugin {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: mode, Size: int64(len(data)), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return "", err
		}
		if _, err := tw.Write(data); err != nil {
			return "", err
		}
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		return "", err
	}
	return p.archive(), os.WriteFile(filepath.Join(out, p.archive()), buf.Bytes(), 0o644)
}
