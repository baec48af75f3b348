#!/usr/bin/env bash
# Installs the contract test's pinned npm tools into tests/contract/node_modules unless exactly those
# versions are there already (tests/lib/npm_installed.js). Used by run.sh here and by tests/garbage/run.py.
set -euo pipefail
cd "$(dirname "$0")"
node ../lib/npm_installed.js . && exit 0
echo "contract: installing the pinned tools (npm ci)"
log=$(mktemp)
if ! npm ci --no-audit --no-fund --loglevel=error --fetch-retries=1 > "$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  echo "contract: npm ci failed; the pinned tools are needed (see tests/contract/package.json)" >&2
  exit 1
fi
rm -f "$log"
