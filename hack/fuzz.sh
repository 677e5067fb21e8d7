#!/usr/bin/env bash
# Runs every fuzz target under pkg/ for FUZZTIME each (default 2000x: 2,000
# inputs, a count rather than a time, which go test -fuzz can miss on a loaded
# machine with "context deadline exceeded"): the short run make test does. A
# longer run of one target is documented in
# docs/testing.md, e.g. FUZZTIME=10m hack/fuzz.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
GO="${GO:-go}"
FUZZTIME="${FUZZTIME:-2000x}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for file in $(grep -rl --include='*_test.go' '^func Fuzz' pkg | sort); do
  for target in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$file"); do
    printf 'fuzz %-28s %s, %s\n' "$target" "./$(dirname "$file")" "$FUZZTIME"
    if ! "$GO" test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" "./$(dirname "$file")" >"$log" 2>&1; then
      cat "$log"
      exit 1
    fi
  done
done
