package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

func readTemplate(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../" + krewTemplate)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The krew manifest lists linux and darwin, each on amd64 and arm64.
func TestKrewPlatforms(t *testing.T) {
	platforms, err := krewPlatforms(readTemplate(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []platform{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}}
	if !slices.Equal(platforms, want) {
		t.Errorf("platforms %v, want %v", platforms, want)
	}
}

// Each platform gets the uri of its archive in the release and the
// archive's checksum; nothing of the template is left empty.
func TestFillKrew(t *testing.T) {
	template := readTemplate(t)
	platforms, err := krewPlatforms(template)
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for i, p := range platforms {
		sums[p.archive()] = strings.Repeat(string(rune('a'+i)), 64)
	}
	out, err := fillKrew(template, "v1.2.3", sums)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Spec struct {
			Version   string `json:"version"`
			Platforms []struct {
				URI    string `json:"uri"`
				SHA256 string `json:"sha256"`
				Bin    string `json:"bin"`
			} `json:"platforms"`
		} `json:"spec"`
	}
	if err := yaml.UnmarshalStrict(out, &m); err != nil && !strings.Contains(err.Error(), "unknown field") {
		t.Fatal(err)
	}
	if m.Spec.Version != "v1.2.3" || len(m.Spec.Platforms) != len(platforms) {
		t.Fatalf("version %q, %d platforms; want v1.2.3, %d", m.Spec.Version, len(m.Spec.Platforms), len(platforms))
	}
	for i, p := range m.Spec.Platforms {
		want := downloads + "v1.2.3/kubectl-gpu_workload_" + platforms[i].os + "_" + platforms[i].arch + ".tar.gz"
		if p.URI != want || p.SHA256 != sums[platforms[i].archive()] || p.Bin != plugin {
			t.Errorf("platform %d: uri %s, sha256 %s, bin %s; want %s, %s, %s", i, p.URI, p.SHA256, p.Bin, want, sums[platforms[i].archive()], plugin)
		}
	}

	delete(sums, platforms[3].archive())
	if _, err := fillKrew(template, "v1.2.3", sums); err == nil || !strings.Contains(err.Error(), platforms[3].archive()) {
		t.Errorf("a platform without its archive: %v, want an error naming %s", err, platforms[3].archive())
	}
}

// A build that is not a release tag is refused before anything is written.
func TestReleaseNeedsATag(t *testing.T) {
	out := t.TempDir() + "/release"
	for _, version := range []string{"fce460aa", "v1.2", "1.2.3", ""} {
		err := run(version, "", out)
		if err == nil || !strings.Contains(err.Error(), "VERSION=v0.1.0") {
			t.Errorf("version %q: %v, want the error that says how to name a release", version, err)
		}
		if _, statErr := os.Stat(out); !os.IsNotExist(statErr) {
			t.Errorf("version %q: %s was written", version, out)
		}
	}
}
