#!/usr/bin/env bash
# The live contract test: tests/contract/run.sh PUZZLED_BIN PUZZLED_ALLOC_FAIL_BIN (the second built with
# -DPUZZLED_ALLOC_FAIL=ON: its server answers the 500 out_of_memory cases of cases.yaml), or
# tests/contract/run.sh --static: the lint and the error codes alone (the quick tier's spec stage).
# Installs the pinned npm tools (install.sh), then runs contract.js: Redocly lints openapi.yaml, and every response
# of a running puzzled is validated against it (docs/testing.md, "Contract test").
set -euo pipefail
if [ "${1:-}" = --static ] && [ $# -eq 1 ]; then
  cd "$(dirname "$0")"
  ./install.sh
  exec node contract.js --static
fi
[ $# -eq 2 ] || { echo "usage: $0 PUZZLED_BIN PUZZLED_ALLOC_FAIL_BIN | --static" >&2; exit 2; }
bin=$(realpath "$1")
alloc_fail_bin=$(realpath "$2")
cd "$(dirname "$0")"

./install.sh
exec node contract.js "$bin" "$alloc_fail_bin"
