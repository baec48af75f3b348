#!/usr/bin/env bash
# The live contract test: tests/contract/run.sh PUZZLED_BIN
# Installs the pinned npm tools into tests/contract/node_modules unless exactly those versions are
# there already (tests/lib/npm_installed.js), then runs contract.js: Redocly lints openapi.yaml, and every response
# of a running puzzled is validated against it (docs/testing.md, "Contract test").
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PUZZLED_BIN" >&2; exit 2; }
bin=$(realpath "$1")
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
exec node contract.js "$bin"
