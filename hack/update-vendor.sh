#!/usr/bin/env bash
# Tidies go.mod and go.sum and rewrites vendor/ from them; the only supported way to change vendor/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
go mod tidy
go mod vendor
