#!/usr/bin/env bash
# The TypeScript client's checks, run by scripts/test.sh:  clients/typescript/test.sh PUZZLED_BIN
# 1. installs the pinned tools from package-lock.json (npm ci, skipped when exactly those are there);
# 2. regenerates the types from openapi.yaml and fails on any difference from src/generated/ (drift);
# 3. builds the package with tsc --strict, bundles it with esbuild, and type-checks the tests, the
#    examples and the compile-fail test (test/compile_fail.ts) with tsc --strict;
# 4. runs the tests with Node's test runner: parsers and retry on hand-made input, then against
#    PUZZLED_BIN started on free ports: every operation of openapi.yaml, 10! NDJSON lines with flat
#    memory, an abort seen on /metrics, errors, the examples, and the bundle in Debian's chromium.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PUZZLED_BIN" >&2; exit 2; }
export PUZZLED_BIN
PUZZLED_BIN=$(realpath "$1")
cd "$(dirname "$0")"

../../tests/lib/npm_install.sh typescript-client .

if ! npm run --silent generate -- --check > /dev/null 2>&1; then
  echo "typescript-client: src/generated/openapi.ts differs from what openapi.yaml generates; run 'npm run generate' in clients/typescript and commit it" >&2
  exit 1
fi
echo "typescript-client: the generated types match openapi.yaml"

rm -rf dist .build
npm run --silent build
npm run --silent bundle -- --log-level=warning
npx --no-install tsc -p tsconfig.test.json
echo "typescript-client: the package, its tests, its examples and the compile-fail test type-check (tsc --strict)"

exec node --test .build/test/*.test.js
