#!/usr/bin/env bash
# Configures and builds puzzled into a build directory (default build/); extra arguments go to cmake,
# e.g. scripts/build.sh build-sanitize -DPUZZLED_SANITIZE=ON. The Dockerfile builds with it too.
set -euo pipefail
dir=${1:-build}
shift || true
cmake -S . -B "$dir" "$@" > /dev/null
cmake --build "$dir" -j "$(nproc)"
