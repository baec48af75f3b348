#!/usr/bin/env bash
# Formats the C sources with clang-format and the committed .clang-format: every tracked .c and .h file
# under base/, core/, api/, server/, tests/ and bench/ (the tree holds no vendored or generated C; web/vendor/ is
# JavaScript). `scripts/format.sh` rewrites the files in place; `scripts/format.sh --check` changes
# nothing, lists the files whose layout differs and exits 1 if there is any; it also runs
# scripts/error_paths.sh, the check of the one error-path convention, which clang-format cannot see.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-fix}
case "$mode" in
  fix | --check) ;;
  *) echo "usage: scripts/format.sh [--check]" >&2; exit 2 ;;
esac
mapfile -t files < <(git ls-files -- 'base/*.[ch]' 'core/*.[ch]' 'api/*.[ch]' 'server/*.[ch]' 'tests/*.[ch]' 'bench/*.[ch]')
if [ "$mode" = fix ]; then
  clang-format -i --style=file "${files[@]}"
  exit 0
fi
# One clang-format for every file: it names each file whose layout differs.
mapfile -t unformatted < <(clang-format --dry-run --Werror --style=file "${files[@]}" 2>&1 |
  sed -nE 's/^([^:]+):[0-9]+:[0-9]+: error: code should be clang-formatted.*/\1/p' | sort -u)
for file in "${unformatted[@]}"; do echo "not formatted: $file (scripts/format.sh formats it)"; done
error_paths=0
scripts/error_paths.sh || error_paths=1
if [ "${#unformatted[@]}" -gt 0 ]; then
  echo "${#unformatted[@]} of ${#files[@]} C files not formatted" >&2
  exit 1
fi
[ "$error_paths" -eq 0 ] || exit 1
echo "all ${#files[@]} C files formatted"
