#!/usr/bin/env bash
# Checks that the product C (core/, api/, server/) keeps its one error-path convention: a function with
# cleanup has a single exit at the label `out:` reached by `goto out` on failure; one without cleanup
# returns early. It fails, naming file:line, on
#   - a label other than `out:` (`done:`, `fail:`, ...),
#   - an `ok = ok && ...` chain, or an `if (ok)` / `if (ok && ...)` ladder guarding the next step.
# Run by `scripts/format.sh --check` (the suite's format stage). Files in `pending` are not checked yet:
# they are being rewritten on other branches; the list must shrink to nothing, so a listed file that
# already keeps the convention is an error too (take it off the list).
set -euo pipefail
cd "$(dirname "$0")/.."

pending=(
    api/permutation_items.c
    api/permutations/permutation_rank.c
    api/permutations/permutation_unrank.c
    core/permutations/perm_rank.c
    core/permutations/perm_seek.c
)

label='^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*:[[:space:]]*(/\*.*\*/|//.*)?$' # a label alone on its line
ladder='\<ok = ok &&|\<if \(ok( &&|\))'

# Prints file:line: text for each break of the convention in the files given.
breaks() {
    { grep -nHE "$label" "$@" || true; } | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(out|default):' || true
    grep -nHE "$ladder" "$@" || true
}

mapfile -t files < <(git ls-files -- 'core/*.[ch]' 'api/*.[ch]' 'server/*.[ch]')
checked=()
for file in "${files[@]}"; do
    skip=false
    for p in "${pending[@]}"; do [ "$file" = "$p" ] && skip=true; done
    $skip || checked+=("$file")
done

failed=0
found=$(breaks "${checked[@]}")
if [ -n "$found" ]; then
    echo "$found" | sed 's/$/   <- error paths: one label, `out:`; `goto out` on failure, no ok-ladders/'
    failed=1
fi
for p in "${pending[@]}"; do
    if [ ! -e "$p" ] || [ -z "$(breaks "$p")" ]; then
        echo "$p: keeps the error-path convention now; take it off \`pending\` in scripts/error_paths.sh"
        failed=1
    fi
done
if [ "$failed" -ne 0 ]; then
    echo "error paths: see above (${#pending[@]} files still pending)" >&2
    exit 1
fi
echo "error paths: ${#checked[@]} C files keep one convention (${#pending[@]} pending)"
