#!/usr/bin/env bash
# Installs what is missing, builds, and starts puzzled on http://localhost:8080 (arguments are passed
# to puzzled, e.g. scripts/run.sh --port 9000).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build runtime
scripts/build.sh build -DPUZZLED_TESTS=OFF
exec build/puzzled "$@"
