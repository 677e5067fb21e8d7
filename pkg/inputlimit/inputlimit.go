// Package inputlimit reads the files and streams the tools take as input
// up to a size limit: an endless or oversized input (-f /dev/zero, a
// runaway pipe) is an error naming it and the limit before memory grows,
// and an input holding a NUL byte is refused before any decoder sees it,
// since neither JSON, YAML nor CSV holds one.
package inputlimit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Default is the limit unless a tool's --max-input-size raises it: it
// holds a 20,000-node dump of 96.5 MB, the scale the tools are measured at.
const Default int64 = 128 << 20

// Flag is the flag that sets the limit, for errors and help.
const Flag = "--max-input-size"

// Parse reads a flag value such as 128Mi.
func Parse(value string) (int64, error) {
	q, err := resource.ParseQuantity(value)
	if err != nil || q.Sign() <= 0 {
		return 0, fmt.Errorf("%s %+q: want a positive size such as 128Mi or 1Gi", Flag, value)
	}
	return q.Value(), nil
}

// TooLargeError is an input over the limit.
type TooLargeError struct {
	Name  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than the input limit of %s: if it is the input you meant, raise the limit with %s",
		e.Name, resource.NewQuantity(e.Limit, resource.BinarySI), Flag)
}

// chunk is how much ReadAll reads at a time: an input over the limit then
// costs the limit and a chunk, never a doubling buffer's growth.
const chunk = 1 << 20

// ReadAll reads r, named name in errors, to its end.
func ReadAll(name string, r io.Reader, limit int64) ([]byte, error) {
	var parts [][]byte
	var total int64
	for {
		buf := make([]byte, min(chunk, limit+1-total))
		n, err := io.ReadFull(r, buf)
		if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
			return nil, nulError(name, total+int64(i))
		}
		total += int64(n)
		if total > limit {
			return nil, &TooLargeError{Name: name, Limit: limit}
		}
		parts = append(parts, buf[:n])
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return bytes.Join(parts, nil), nil
}

// ReadFile reads a file whole; a regular file over the limit is refused by
// its size, before it is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(path, f, limit)
}

// Open opens a file to be read up to the limit (Reader); a regular file
// over it is refused by its size, before it is read.
func Open(path string, limit int64) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > limit {
		f.Close()
		return nil, &TooLargeError{Name: path, Limit: limit}
	}
	return struct {
		io.Reader
		io.Closer
	}{Reader(path, f, limit), f}, nil
}

// nulError names where a NUL byte is.
func nulError(name string, offset int64) error {
	return fmt.Errorf("%s: byte %d is NUL: not JSON, YAML or CSV text", name, offset)
}

// Reader is r, named name in errors, failing once more than limit bytes
// were read or when a NUL byte comes: for decoders that stream.
func Reader(name string, r io.Reader, limit int64) io.Reader {
	return &limitedReader{name: name, r: r, limit: limit}
}

type limitedReader struct {
	name        string
	r           io.Reader
	read, limit int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.read > l.limit {
		return 0, &TooLargeError{Name: l.name, Limit: l.limit}
	}
	// One byte past the limit tells an input over it from one that ends there.
	if left := l.limit - l.read + 1; int64(len(p)) > left {
		p = p[:left]
	}
	n, err := l.r.Read(p)
	if i := bytes.IndexByte(p[:n], 0); i >= 0 {
		return 0, nulError(l.name, l.read+int64(i))
	}
	l.read += int64(n)
	if l.read > l.limit {
		return 0, &TooLargeError{Name: l.name, Limit: l.limit}
	}
	return n, err
}
