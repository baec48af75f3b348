#!/usr/bin/env bash
# Re-fetches the third-party browser files that web/vendor/ holds (committed, so the build and the
# container need no network): each package at its pinned version with `npm pack`, its tarball checked
# against the sha512 pinned here and against the integrity the registry's metadata states, then the
# few files the pages use (and the licences) copied out. Run it to upgrade: change a version, run
# `scripts/vendor-web.sh --print-integrity`, paste the new value, run again, commit web/vendor/.
#   scripts/vendor-web.sh                    # fetch, verify, copy into web/vendor/
#   scripts/vendor-web.sh --print-integrity  # the registry's integrity for each pinned version
set -euo pipefail
cd "$(dirname "$0")/.."

# package@version | pinned sha512 (npm's "integrity") | files copied from the tarball's package/
packages=(
  "js-yaml@5.5.0|sha512-paNr4LFIFPjeeSmwNYdrb8FafLLG/Cr2Af3GjbsHJ5CxIjH4r0c2emlmRdAtpPAieP1gRVzk6buBbVP5gBMGAg==|dist/browser/js-yaml.umd.min.js LICENSE"
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for entry in "${packages[@]}"; do
  IFS='|' read -r spec pinned files <<< "$entry"
  name=${spec%@*}
  registry=$(npm view "$spec" dist.integrity 2>/dev/null)
  if [ "${1:-}" = --print-integrity ]; then echo "$spec $registry"; continue; fi
  [ "$registry" = "$pinned" ] || { echo "vendor-web: $spec: the registry states $registry, pinned $pinned" >&2; exit 1; }
  tarball=$(cd "$work" && npm pack --silent "$spec" 2>/dev/null | tail -n 1)
  actual="sha512-$(openssl dgst -sha512 -binary "$work/$tarball" | base64 -w 0)"
  [ "$actual" = "$pinned" ] || { echo "vendor-web: $spec: the tarball hashes to $actual, pinned $pinned" >&2; exit 1; }
  mkdir -p "$work/$name" && tar -xzf "$work/$tarball" -C "$work/$name"
  rm -rf "web/vendor/$name" && mkdir -p "web/vendor/$name"
  for file in $files; do cp "$work/$name/package/$file" "web/vendor/$name/$(basename "$file")"; done
  echo "$spec $pinned" > "web/vendor/$name/VERSION"
  echo "vendor-web: $spec verified, copied $files"
done
