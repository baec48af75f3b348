#!/usr/bin/env bash
# The live contract test: tests/contract/run.sh PUZZLED_BIN
# Installs the pinned npm tools (install.sh), then runs contract.js: Redocly lints openapi.yaml, and every response
# of a running puzzled is validated against it (docs/testing.md, "Contract test").
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PUZZLED_BIN" >&2; exit 2; }
bin=$(realpath "$1")
cd "$(dirname "$0")"

./install.sh
exec node contract.js "$bin"
