// Package image tests the image make image builds from bin/: the same
// binaries give the same digest, and the image runs the source's binaries
// as user 65532, with nothing else in it.
package image

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

const repoRoot = "../.."

var binaries = []string{"gpu-workload-scheduler", "gpu-workload-controller"}

// makeImage runs what make image runs, on the binaries of bin/ (make test
// builds them first).
func makeImage(t *testing.T, out, tag string) {
	t.Helper()
	args := []string{"run", "./hack/image", "-tag", tag, "-out", out}
	for _, b := range binaries {
		path, err := exec.LookPath(b)
		if err != nil {
			t.Fatalf("%s is not on PATH (fix: make build, then put bin/ on PATH): %v", b, err)
		}
		args = append(args, path)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func onlyImage(t *testing.T, dir string) (v1.Image, v1.Descriptor) {
	t.Helper()
	index, err := layout.ImageIndexFromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := index.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(manifest.Manifests) != 1 {
		t.Fatalf("%s/index.json lists %d images, want 1", dir, len(manifest.Manifests))
	}
	img, err := index.Image(manifest.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	return img, manifest.Manifests[0]
}

func TestImage(t *testing.T) {
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first"), filepath.Join(dir, "second")
	makeImage(t, first, "v9.9.9")
	makeImage(t, second, "v9.9.9")
	img, desc := onlyImage(t, first)
	if _, again := onlyImage(t, second); again.Digest != desc.Digest {
		t.Errorf("the same binaries gave two digests: %s and %s", desc.Digest, again.Digest)
	}
	if ref := desc.Annotations["org.opencontainers.image.ref.name"]; ref != "v9.9.9" {
		t.Errorf("the layout names the image %q, want the tag v9.9.9", ref)
	}
	archived, err := tarball.ImageFromPath(first+".tar", nil)
	if err != nil {
		t.Fatal(err)
	}
	// A docker archive keeps no manifest, so its image is known by its config.
	wantConfig, err := img.ConfigName()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := archived.ConfigName(); err != nil || got != wantConfig {
		t.Errorf("the docker archive holds the image with config %s (%v), want the layout's %s", got, err, wantConfig)
	}

	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.OS != "linux" || cfg.Architecture != runtime.GOARCH || cfg.Config.User != "65532:65532" ||
		!slices.Equal(cfg.Config.Entrypoint, []string{"/gpu-workload-scheduler"}) || len(cfg.Config.Env) != 0 || !cfg.Created.IsZero() {
		t.Errorf("config: os %s, architecture %s, user %q, entrypoint %v, env %v, created %v; want linux, %s, 65532:65532, [/gpu-workload-scheduler], no env, the epoch",
			cfg.OS, cfg.Architecture, cfg.Config.User, cfg.Config.Entrypoint, cfg.Config.Env, cfg.Created, runtime.GOARCH)
	}

	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("%d layers (%v), want one", len(layers), err)
	}
	unpacked := t.TempDir()
	files := unpack(t, layers[0], unpacked)
	if !slices.Equal(files, binaries) {
		t.Fatalf("the layer holds %v, want only %v: no shell, no base", files, binaries)
	}

	out, err := exec.Command("git", "-C", repoRoot, "describe", "--tags", "--always", "--dirty").Output()
	if err != nil {
		t.Fatalf("git describe (the version make build gives the binaries): %v", err)
	}
	version := strings.TrimSpace(string(out))
	for _, b := range files {
		got, err := exec.Command(filepath.Join(unpacked, b), "--version").CombinedOutput()
		if err != nil {
			t.Fatalf("%s --version from the image: %v\n%s", b, err, got)
		}
		if fields := strings.Fields(string(got)); len(fields) < 2 || fields[0] != b || fields[1] != version {
			t.Errorf("%s from the image prints %q, want %s %s: the source's version", b, got, b, version)
		}
	}
}

// unpack writes the layer's files into dir and returns their names.
func unpack(t *testing.T, layer v1.Layer, dir string) []string {
	t.Helper()
	rc, err := layer.Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var names []string
	r := tar.NewReader(rc)
	for {
		h, err := r.Next()
		if errors.Is(err, io.EOF) {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Uid != 0 || h.Gid != 0 || h.ModTime.Unix() != 0 || h.Typeflag != tar.TypeReg {
			t.Errorf("%s: owner %d:%d, time %v, type %c; want a root-owned regular file of the epoch", h.Name, h.Uid, h.Gid, h.ModTime, h.Typeflag)
		}
		f, err := os.OpenFile(filepath.Join(dir, h.Name), os.O_CREATE|os.O_WRONLY, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(f, r); err != nil {
			t.Fatal(err)
		}
		f.Close()
		names = append(names, h.Name)
	}
}
