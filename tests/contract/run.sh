#!/usr/bin/env bash
# The live contract test: tests/contract/run.sh PUZZLED_BIN PUZZLED_ALLOC_FAIL_BIN (the second built with
# -DPUZZLED_ALLOC_FAIL=ON: its server answers the 500 out_of_memory cases of cases.yaml)
# Installs the pinned npm tools into tests/contract/node_modules unless exactly those versions are
# there already (tests/lib/npm_installed.js), then runs contract.js: Redocly lints openapi.yaml, and every response
# of a running puzzled is validated against it (docs/testing.md, "Contract test").
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PUZZLED_BIN PUZZLED_ALLOC_FAIL_BIN" >&2; exit 2; }
bin=$(realpath "$1")
alloc_fail_bin=$(realpath "$2")
cd "$(dirname "$0")"

if ! node ../lib/npm_installed.js .; then
  echo "contract: installing the pinned tools (npm ci)"
  log=$(mktemp)
  if ! npm ci --no-audit --no-fund --loglevel=error --fetch-retries=1 > "$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "contract: npm ci failed; the pinned tools are needed (see tests/contract/package.json)" >&2
    exit 1
  fi
  rm -f "$log"
fi
exec node contract.js "$bin" "$alloc_fail_bin"
