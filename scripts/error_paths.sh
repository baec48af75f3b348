#!/usr/bin/env bash
# Checks that the product C (base/, core/, api/, server/) keeps its one error-path convention: a function with
# cleanup has a single exit at the label `out:` reached by `goto out` on failure; one without cleanup
# returns early. It fails, naming file:line, on
#   - a label other than `out:` (`done:`, `fail:`, ...),
#   - an `ok = ok && ...` chain, or an `if (ok)` / `if (ok && ...)` ladder guarding the next step.
# Run by `scripts/format.sh --check` (the suite's format stage).
set -euo pipefail
cd "$(dirname "$0")/.."

label='^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*:[[:space:]]*(/\*.*\*/|//.*)?$' # a label alone on its line
ladder='\<ok = ok &&|\<if \(ok( &&|\))'

mapfile -t files < <(git ls-files -- 'base/*.[ch]' 'core/*.[ch]' 'api/*.[ch]' 'server/*.[ch]')
found=$(
    { grep -nHE "$label" "${files[@]}" || true; } | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(out|default):' || true
    grep -nHE "$ladder" "${files[@]}" || true
)
if [ -n "$found" ]; then
    echo "$found" | sed 's/$/   <- error paths: one label, `out:`; `goto out` on failure, no ok-ladders/'
    echo "error paths: see above" >&2
    exit 1
fi
echo "error paths: ${#files[@]} C files keep one convention"
