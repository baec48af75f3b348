#!/usr/bin/env bash
# The browser test: tests/browser/run.sh PUZZLED_BIN [ARTIFACTS_DIR] [BASE_URL]
# Installs the pinned playwright-core into tests/browser/node_modules unless exactly that version is
# there (tests/lib/npm_installed.js), then runs browser.js with Debian's chromium (no browser
# download; `scripts/setup.sh suite` installs it): puzzled on a free port, a static server on another
# for the cross-origin page, screenshots into ARTIFACTS_DIR (default: browser-artifacts/ next to the
# binary). With BASE_URL the tests go to that server instead (puzzled behind nginx, for example).
set -euo pipefail
[ $# -ge 1 ] && [ $# -le 3 ] || { echo "usage: $0 PUZZLED_BIN [ARTIFACTS_DIR] [BASE_URL]" >&2; exit 2; }
bin=$(realpath "$1")
artifacts=$(realpath -m "${2:-$(dirname "$bin")/browser-artifacts}")
cd "$(dirname "$0")"

command -v "${PUZZLED_CHROMIUM:-/usr/bin/chromium}" > /dev/null ||
  { echo "browser: no chromium at ${PUZZLED_CHROMIUM:-/usr/bin/chromium}; run scripts/setup.sh suite" >&2; exit 1; }
../lib/npm_install.sh browser .
exec node browser.js "$bin" "$artifacts" ${3:+"$3"}
