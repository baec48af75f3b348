#!/usr/bin/env bash
# The live contract test: tests/contract/run.sh PUZZLED_BIN
# Installs the pinned npm tools into tests/contract/node_modules when missing or older than
# package-lock.json, then runs contract.js: Redocly lints openapi.yaml, and every response of a
# running puzzled is validated against it (see README, "Contract").
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PUZZLED_BIN" >&2; exit 2; }
bin=$(realpath "$1")
cd "$(dirname "$0")"

# npm ci records what it installed in node_modules/.package-lock.json.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "contract: installing the pinned tools (npm ci)"
  log=$(mktemp)
  if ! npm ci --prefer-offline --no-audit --no-fund --loglevel=error > "$log" 2>&1; then
    if [ -x node_modules/.bin/redocly ]; then
      echo "contract: npm ci failed (offline?); using the tools already installed"
    else
      cat "$log" >&2
      rm -f "$log"
      exit 1
    fi
  fi
  rm -f "$log"
fi
exec node contract.js "$bin"
