// Command image builds the OCI image of gpu-workload-scheduler and
// gpu-workload-controller from their static binaries, with no base image: one
// layer holding the two binaries, run as user 65532, with no shell. The same
// binaries give the same digest: every timestamp is the epoch and every file
// is owned by root.
//
//	go run ./hack/image -tag v0.1.0 -out bin/image bin/gpu-workload-scheduler bin/gpu-workload-controller
//
// writes an OCI image layout to -out (crane push reads it) and the same image
// as a docker-archive tarball beside it, -out.tar (docker load, podman load
// and kind load image-archive read it). The first binary is the entrypoint.
package main

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

const (
	// Repository is the image's name; installations name their own copy.
	Repository = "gpu-workload-scheduler"
	// User is distroless's nonroot user, which the Deployments run as.
	User = "65532:65532"
)

func main() {
	tag := flag.String("tag", "dev", "the image's tag: the version the binaries print")
	out := flag.String("out", "bin/image", "directory of the OCI image layout; the docker archive is written beside it with .tar appended")
	flag.Parse()
	if err := run(*tag, *out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func run(tag, out string, binaries []string) error {
	img, err := build(binaries)
	if err != nil {
		return err
	}
	ref, err := name.NewTag(Repository + ":" + tag)
	if err != nil {
		return fmt.Errorf("-tag %q: %w", tag, err)
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	path, err := layout.Write(out, empty.Index)
	if err != nil {
		return err
	}
	if err := path.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": ref.TagStr()})); err != nil {
		return err
	}
	if err := tarball.WriteToFile(out+".tar", ref, img); err != nil {
		return err
	}
	digest, err := img.Digest()
	if err != nil {
		return err
	}
	fmt.Printf("%s:%s %s: %s, %s.tar\n", Repository, tag, digest, out, out)
	return nil
}

// build makes the image of binaries; each must be a statically linked Linux
// executable of one architecture, the image's.
func build(binaries []string) (v1.Image, error) {
	if len(binaries) == 0 {
		return nil, errors.New("no binaries: give the scheduler's and the controller's paths, the entrypoint first")
	}
	var layer bytes.Buffer
	w := tar.NewWriter(&layer)
	arch := ""
	for _, path := range binaries {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		a, err := staticLinuxArch(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if arch != "" && a != arch {
			return nil, fmt.Errorf("%s is built for %s, %s for %s: build every binary with the same GOARCH", path, a, binaries[0], arch)
		}
		arch = a
		if err := w.WriteHeader(&tar.Header{Name: filepath.Base(path), Mode: 0o555, Size: int64(len(data)), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0), Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	l, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layer.Bytes())), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	base := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err := mutate.AppendLayers(base, l)
	if err != nil {
		return nil, err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.OS = "linux"
	cfg.Architecture = arch
	cfg.Config.User = User
	cfg.Config.Entrypoint = []string{"/" + filepath.Base(binaries[0])}
	cfg.Config.WorkingDir = "/"
	return mutate.ConfigFile(img, cfg)
}

// staticLinuxArch returns the GOARCH of a Linux executable with no dynamic
// loader, or why it is not one: an image with no base has no libc.
func staticLinuxArch(data []byte) (string, error) {
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("not a Linux executable: %w", err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return "", errors.New("dynamically linked: build it with CGO_ENABLED=0 (make build does)")
		}
	}
	switch f.Machine {
	case elf.EM_X86_64:
		return "amd64", nil
	case elf.EM_AARCH64:
		return "arm64", nil
	}
	return "", fmt.Errorf("machine %s: the image is built for amd64 or arm64", f.Machine)
}
