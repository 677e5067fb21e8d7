package inputlimit

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// endless reads the byte b forever.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

// allocated is how many bytes f allocates in all: an upper bound on the
// heap it grows by.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Inputs the tools must refuse without growing: an endless stream, NUL
// bytes, /dev/zero and a regular file over the limit, each an error naming
// the input, allocating at most the limit and a chunk; an input at the
// limit is read whole.
func TestBoundedInputs(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), 2<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		read     func() ([]byte, error)
		want     string
		maxAlloc uint64
	}{
		{name: "endless text on standard input", read: func() ([]byte, error) { return ReadAll("standard input", endless('a'), Default) },
			want: "standard input is larger than the input limit of 128Mi: if it is the input you meant, raise the limit with --max-input-size", maxAlloc: 256 << 20},
		{name: "100 MB of NUL bytes", read: func() ([]byte, error) {
			return ReadAll("standard input", io.LimitReader(endless(0), 100<<20), Default)
		}, want: "standard input: byte 0 is NUL: not JSON, YAML or CSV text", maxAlloc: 2 << 20},
		{name: "/dev/zero", read: func() ([]byte, error) { return ReadFile("/dev/zero", Default) },
			want: "/dev/zero: byte 0 is NUL: not JSON, YAML or CSV text", maxAlloc: 2 << 20},
		{name: "a regular file over the limit", read: func() ([]byte, error) { return ReadFile(big, 1<<20) },
			want: big + " is larger than the input limit of 1Mi", maxAlloc: 1 << 20},
		{name: "a streaming decoder's reader", read: func() ([]byte, error) { return io.ReadAll(Reader("pods.json", endless(' '), 1<<20)) },
			want: "pods.json is larger than the input limit of 1Mi", maxAlloc: 16 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			got := allocated(func() { _, err = tc.read() })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to say %q", err, tc.want)
			}
			if got > tc.maxAlloc {
				t.Errorf("allocated %d bytes, want at most %d", got, tc.maxAlloc)
			}
		})
	}
	data, err := ReadAll("exact", io.LimitReader(endless('a'), 3<<20), 3<<20)
	if err != nil || len(data) != 3<<20 {
		t.Errorf("an input of exactly the limit: %d bytes, %v", len(data), err)
	}
	var tooLarge *TooLargeError
	if _, err := ReadFile(big, 1<<20); !errors.As(err, &tooLarge) {
		t.Errorf("a file over the limit: %v, want a TooLargeError", err)
	}
	if _, err := Parse("0"); err == nil || !strings.Contains(err.Error(), "--max-input-size \"0\": want a positive size such as 128Mi or 1Gi") {
		t.Errorf("Parse(0): %v", err)
	}
}
