#!/usr/bin/env bash
# Installs a test's pinned npm tools into DIR/node_modules (npm ci from DIR's package-lock.json) unless
# exactly those versions are there already (npm_installed.js); NAME prefixes the messages.
#   tests/lib/npm_install.sh NAME DIR
set -euo pipefail
name=$1
dir=$2
node "$(dirname "$0")/npm_installed.js" "$dir" && exit 0
echo "$name: installing the pinned tools (npm ci)"
log=$(mktemp)
if ! (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error --fetch-retries=1) > "$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  echo "$name: npm ci failed; the pinned tools are needed (see $dir/package.json)" >&2
  exit 1
fi
rm -f "$log"
