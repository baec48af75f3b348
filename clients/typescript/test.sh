#!/usr/bin/env bash
# The TypeScript client's checks, run by scripts/test.sh:  clients/typescript/test.sh PUZZLED_BIN
# (the client stage: every step below), or  clients/typescript/test.sh --types  (the quick tier's
# client-types stage: steps 1 to 4, which need no server and no browser).
# 1. installs the pinned tools from package-lock.json (npm ci, skipped when exactly those are there);
# 2. checks that the package's version is openapi.yaml's info.version, and that its LICENSE is the
#    repository's;
# 3. regenerates the types from openapi.yaml and fails on any difference from src/generated/ (drift);
# 4. builds the package with tsc --strict, bundles it with esbuild (and fails when the playground's
#    copy, web/vendor/puzzled-client/, differs from a fresh bundle: drift), and type-checks the tests, the
#    examples and the compile-fail test (test/compile_fail.ts) with tsc --strict; packs it (npm pack);
# 5. runs the tests with Node's test runner: parsers and retry on hand-made input, then against
#    PUZZLED_BIN started on free ports: every operation of openapi.yaml, 10! NDJSON lines with flat
#    memory, an abort seen on /metrics, errors, hooks and withResponse, the examples, the bundle in
#    Debian's chromium, the packed tarball installed into a fresh Node 20 project and into a fresh Vite
#    project (test/consumers/vite, built and its page loaded in Debian's chromium), and the reference
#    app (examples/sudoku-react, a Vite project with the tarball installed) built and played to its
#    end in Debian's chromium.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PUZZLED_BIN | --types" >&2; exit 2; }
types_only=false
if [ "$1" = --types ]; then
  types_only=true
else
  export PUZZLED_BIN
  PUZZLED_BIN=$(realpath "$1")
fi
cd "$(dirname "$0")"

../../tests/lib/npm_install.sh typescript-client .

package_version=$(node -p 'require("./package.json").version')
spec_version=$(node --input-type=module -e 'import { parse } from "yaml"; import { readFileSync } from "node:fs";
  console.log(parse(readFileSync("../../openapi.yaml", "utf8")).info.version)')
if [ "$package_version" != "$spec_version" ]; then
  echo "typescript-client: package.json's version $package_version is not openapi.yaml's info.version $spec_version; move both together (CHANGELOG.md says how)" >&2
  exit 1
fi
cmp -s LICENSE ../../LICENSE || { echo "typescript-client: LICENSE differs from the repository's LICENSE" >&2; exit 1; }
echo "typescript-client: version $package_version is openapi.yaml's, and the LICENSE is the repository's"

if ! npm run --silent generate -- --check > /dev/null 2>&1; then
  echo "typescript-client: src/generated/openapi.ts differs from what openapi.yaml generates; run 'npm run generate' in clients/typescript and commit it" >&2
  exit 1
fi
echo "typescript-client: the generated types match openapi.yaml"

rm -rf dist .build
npm run --silent build
npm run --silent bundle -- --log-level=warning

# The playground's copy of the browser bundle (web/vendor/puzzled-client/, compiled into the binary,
# whose build needs no Node): rebuilt here, and any byte of difference fails.
web_bundle=../../web/vendor/puzzled-client/puzzled-client.min.js
rebuilt_bundle=$(mktemp)
npm run --silent bundle:web -- --outfile="$rebuilt_bundle"
if ! cmp -s "$rebuilt_bundle" "$web_bundle"; then
  rm -f "$rebuilt_bundle"
  echo "typescript-client: $web_bundle differs from what src/ bundles; run 'npm run bundle:web' in clients/typescript and commit it" >&2
  exit 1
fi
rm -f "$rebuilt_bundle"
echo "typescript-client: the playground's bundle ($web_bundle, $(wc -c < "$web_bundle") bytes) is what src/ bundles"
npx --no-install tsc -p tsconfig.test.json
echo "typescript-client: the package, its tests, its examples and the compile-fail test type-check (tsc --strict)"
$types_only && exit 0

packed=$(mktemp -d)
trap 'node pack_manifest.mjs restore; rm -rf "$packed"' EXIT
# Built just above: --ignore-scripts spares the second build that `prepack` would make, so its
# other step, the trimmed package.json (pack_manifest.mjs), is run here around the pack (and the
# exit trap puts the folder's back if the pack fails).
export PUZZLED_CLIENT_TARBALL
node pack_manifest.mjs strip
PUZZLED_CLIENT_TARBALL=$packed/$(npm pack --ignore-scripts --silent --pack-destination "$packed")
node pack_manifest.mjs restore
echo "typescript-client: packed $(basename "$PUZZLED_CLIENT_TARBALL") ($(du -k "$PUZZLED_CLIENT_TARBALL" | cut -f1) KB)"

# The reference app, a Vite project: its pinned tools from its own lockfile (npm ci, skipped when
# exactly those are there), then the tarball in place of the link to this folder its package.json names.
../../tests/lib/npm_install.sh sudoku-react examples/sudoku-react
(cd examples/sudoku-react && npm install --no-save --no-audit --no-fund --loglevel=error "$PUZZLED_CLIENT_TARBALL")
echo "typescript-client: the tarball is installed into examples/sudoku-react (Vite $(node -p 'require("./examples/sudoku-react/node_modules/vite/package.json").version'))"

# The fresh Vite project (test/package.test.ts): its pinned Vite, then the tarball, the same way.
../../tests/lib/npm_install.sh vite-consumer test/consumers/vite
(cd test/consumers/vite && npm install --no-save --no-audit --no-fund --loglevel=error "$PUZZLED_CLIENT_TARBALL")
echo "typescript-client: the tarball is installed into test/consumers/vite (Vite $(node -p 'require("./test/consumers/vite/node_modules/vite/package.json").version'))"

node --test .build/test/*.test.js
