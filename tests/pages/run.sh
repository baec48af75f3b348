#!/usr/bin/env bash
# The pages test: tests/pages/run.sh PUZZLED_BIN [REPORTS_DIR]
# Installs the pinned lighthouse, axe-core and playwright-core into tests/pages/node_modules unless
# exactly those versions are there (tests/lib/npm_installed.js), then runs pages.mjs with Debian's
# chromium (no browser download): puzzled on a free port, every page of pages.json audited by
# Lighthouse (mobile preset, and desktop on each document; the best of up to five runs) and axe-core; the best
# runs' Lighthouse reports go to REPORTS_DIR (default: pages-reports/ next to the binary).
#   PAGES=regex     audit only the paths that match
#   PAGES_RUNS=N    Lighthouse runs per page and preset (default: pages.json's runs)
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 PUZZLED_BIN [REPORTS_DIR]" >&2; exit 2; }
bin=$(realpath "$1")
reports=$(realpath -m "${2:-$(dirname "$bin")/pages-reports}")
cd "$(dirname "$0")"

export CHROME_PATH=${PUZZLED_CHROMIUM:-/usr/bin/chromium}
command -v "$CHROME_PATH" > /dev/null || { echo "pages: no chromium at $CHROME_PATH; run scripts/setup.sh suite" >&2; exit 1; }
../lib/npm_install.sh pages .
exec node pages.mjs "$bin" "$reports"
