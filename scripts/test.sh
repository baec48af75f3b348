#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite: the docs test (tests/docs/run.py), unit and integration tests, the
# allocation-failure test, the live OpenAPI contract test, the SVG drawings rendered, the playground and /docs in chromium, the TypeScript client (types regenerated from openapi.yaml, its tests live and in chromium), the concurrency, strict-HTTP, fair-share and HTTPS tests, the Dockerfile
# mirror test, the scale-out test behind nginx, the container tests (the image built and run, compose
# with nginx, the Kubernetes manifests validated and played), a short run of every fuzz target
# (scripts/fuzz.sh), then the unit and integration tests again built with AddressSanitizer and
# UndefinedBehaviorSanitizer, and the HTTP garbage campaign against that build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build runtime test fuzz container

echo "== build and test"
scripts/build.sh build
echo "== docs: paths, anchors, options and errors named, console examples replayed"
tests/docs/run.py build/puzzled
ctest --test-dir build --output-on-failure -j 2

echo "== allocation-failure injection: every allocation of a request failed in turn, under ASan"
scripts/build.sh build-alloc -DPUZZLED_ALLOC_FAIL=ON -DPUZZLED_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DPUZZLED_TESTS=OFF
tests/alloc_failure/run.py build-alloc/puzzled

echo "== OpenAPI lint and live contract test (the 500s through the allocation-failure build)"
tests/contract/run.sh build/puzzled build-alloc/puzzled

echo "== drawings: the SVG answers rendered to PNG and looked at"
tests/drawings/run.py build/puzzled

echo "== browser test: the playground, /docs, a cross-origin page and nginx, in chromium"
tests/browser/run.sh build/puzzled build/browser-artifacts

echo "== TypeScript client: types regenerated from openapi.yaml (no drift), tsc --strict, its tests against the live service and in chromium"
clients/typescript/test.sh build/puzzled

echo "== concurrency: compute pool, queue limits, slow clients, drain"
tests/concurrency/run.py build/puzzled

echo "== progress as server-sent events: loopback, through nginx, a client leaving, /healthz meanwhile"
tests/progress/run.py build/puzzled

echo "== strict HTTP/1.1 at the edge, over raw sockets"
tests/strict_http/run.py build/puzzled

echo "== fair share per client"
tests/fair_share/run.py build/puzzled

echo "== HTTPS and the admin port"
tests/public/run.sh build/puzzled

echo "== Dockerfile mirror test"
tests/container/test_dockerfile_mirror.sh build/puzzled

echo "== scale-out test: two replicas behind nginx, one killed under load"
tests/scaleout/run.sh build/puzzled

echo "== container tests: the image built and run, compose with nginx, Kubernetes manifests played"
tests/container/run.sh

echo "== fuzzing: every libFuzzer target 20 s on the committed corpus, every regression input replayed"
scripts/fuzz.sh 20 --parallel 2

echo "== build and test with AddressSanitizer and UndefinedBehaviorSanitizer"
scripts/build.sh build-sanitize -DPUZZLED_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
log=build-sanitize/ctest-output.log
ctest --test-dir build-sanitize --output-on-failure -j 2 --output-log "$log"
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log"; then
  echo "sanitizer reports in the sanitizer run (details in $log):"
  grep -nE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log" | head -20
  exit 1
fi
echo "sanitizer run clean"

echo "== HTTP garbage campaign against the sanitizer build"
tests/garbage/run.py build-sanitize/puzzled
