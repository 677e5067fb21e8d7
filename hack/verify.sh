#!/usr/bin/env bash
# Checks formatting, vet, and that go.mod, go.sum and vendor/ are tidy and in sync.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

failed=0
fail() { echo "verify: $*" >&2; failed=1; }

unformatted=$(gofmt -l cmd pkg test manifests)
if [[ -n "$unformatted" ]]; then
  fail "gofmt needed on: $unformatted (fix: gofmt -w <files>)"
fi

go vet ./cmd/... ./pkg/... ./test/... ./manifests/... || fail "go vet reported problems"


scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp go.mod go.sum "$scratch/"
go mod tidy
if ! diff -u "$scratch/go.mod" go.mod || ! diff -u "$scratch/go.sum" go.sum; then
  cp "$scratch/go.mod" "$scratch/go.sum" .
  fail "go mod tidy is not a no-op (fix: hack/update-vendor.sh)"
fi

# go build -mod=vendor refuses a vendor/modules.txt that disagrees with go.mod.
go list -mod=vendor ./... >/dev/null || fail "vendor/ is out of sync with go.mod (fix: hack/update-vendor.sh)"

exit "$failed"
