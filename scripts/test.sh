#!/usr/bin/env bash
# shellcheck disable=SC2317 # the stage functions are called by name
# Installs what is missing, builds, and runs the whole test suite: the C layout check (scripts/format.sh), the docs test (tests/docs/run.py), unit and integration tests, the
# allocation-failure test, the live OpenAPI contract test, the SVG drawings rendered, the playground and /docs in chromium, Lighthouse and axe-core on every page, the TypeScript client (types regenerated from openapi.yaml, its tests live and in chromium), the concurrency, progress-event, streams, strict-HTTP, fair-share and HTTPS tests, the stop under
# aborted streams, the soak (mixed traffic without growth, also under ASan), the Dockerfile mirror test, the scale-out test behind nginx, the container tests
# (the image built and run, compose with nginx, the Kubernetes manifests validated and played), a
# short run of every fuzz target (scripts/fuzz.sh), then the unit and integration tests again built
# with AddressSanitizer and UndefinedBehaviorSanitizer, the stop test and the HTTP garbage campaign
# against that build, and last the race stress (tests/race/run.py), the lifecycle, progress, streams,
# concurrency and stop suites against a server built with ThreadSanitizer (build-tsan), failing on any
# TSan report.
#   scripts/test.sh [--stop-rounds N] [--soak-minutes M]   the whole suite, once (the stop test: 20 rounds a
#                                                      build; the soak: 3 minutes, and 1 under ASan)
#   scripts/test.sh [--stop-rounds N] --repeat N STAGE...   the named stages N times each, in turn,
#                                                      with a count of passes; a failed run's output is
#                                                      kept in build/repeat/STAGE-RUN.log
# The stages, in the suite's order: format docs unit integration alloc-failure contract drawings browser
# pages client concurrency progress streams strict-http fair-share page-limits lifecycle public stop soak
# dockerfile-mirror scaleout container fuzz
# sanitize-unit sanitize-integration sanitize-stop garbage tsan (docs/testing.md says what each runs).
set -euo pipefail
cd "$(dirname "$0")/.."

stop_rounds=20
soak_minutes=3
repeat=0
while [ $# -gt 0 ]; do
  case $1 in
    --stop-rounds) stop_rounds=${2:?--stop-rounds needs a number}; shift 2 ;;
    --soak-minutes) soak_minutes=${2:?--soak-minutes needs a number}; shift 2 ;;
    --repeat) repeat=${2:?--repeat needs a number}; shift 2; break ;;
    *) echo "usage: scripts/test.sh [--stop-rounds N] [--soak-minutes M] [--repeat N STAGE...]" >&2; exit 2 ;;
  esac
done

# Builds on first use only, so that a repeated stage does not build again. (Stages run as conditions,
# where `set -e` does not apply: every step that can fail is chained or returns its status.)
built() { # dir cmake-arguments...
  local dir=$1
  shift
  [ -n "${built_dirs[$dir]:-}" ] && return 0
  scripts/build.sh "$dir" "$@" || return 1
  built_dirs[$dir]=1
}
declare -A built_dirs=()
build() { built build -DPUZZLED_BENCH=ON; } # the benchmarks too, so that a change that breaks them fails here
build_hooks() { built build-hooks -DPUZZLED_LIFECYCLE_HOOKS=ON -DPUZZLED_TESTS=OFF; }
build_alloc() { built build-alloc -DPUZZLED_ALLOC_FAIL=ON -DPUZZLED_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DPUZZLED_TESTS=OFF; }
build_sanitize() { built build-sanitize -DPUZZLED_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug; }
# The TSan build has the lifecycle pauses compiled in, so that the lifecycle suite runs against it too;
# a request without X-Pause-At never pauses.
build_tsan() {
  built build-tsan -DPUZZLED_TSAN=ON -DPUZZLED_LIFECYCLE_HOOKS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPUZZLED_TESTS=OFF
}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lib/lsan.supp # Criterion's runner's own block, nothing of ours
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# ctest on the sanitizer build, failing on any sanitizer report in its output.
sanitizer_ctest() { # regex
  local log=build-sanitize/ctest-output.log
  ctest --test-dir build-sanitize --output-on-failure -j 2 -R "$1" --output-log "$log" || return 1
  if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log"; then
    echo "sanitizer reports in the sanitizer run (details in $log):"
    grep -nE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log" | head -20
    return 1
  fi
  echo "sanitizer run clean"
}

# One function a stage: "== what it does", then the stage (each returns non-zero on a failure).
stage_format() { echo "== format: every C file as .clang-format lays it out, error paths in one convention"; scripts/format.sh --check; }
stage_docs() { echo "== docs: paths, anchors, options and errors named, console examples replayed, pages short, undated and indexed, the README's figures from docs/performance.md"; build && tests/docs/run.py build/puzzled; }
stage_unit() { echo "== unit tests"; build && ctest --test-dir build --output-on-failure -j 2 -R '^unit_'; }
stage_integration() {
  echo "== integration tests, each against its own server, which must then stop cleanly"
  build && ctest --test-dir build --output-on-failure -j 2 -E '^unit_'
}
stage_alloc_failure() {
  echo "== allocation-failure injection: every allocation of a request failed in turn, under ASan"
  build_alloc && tests/alloc_failure/run.py build-alloc/puzzled
}
stage_contract() {
  echo "== OpenAPI lint and live contract test (the 500s through the allocation-failure build)"
  build && build_alloc && tests/contract/run.sh build/puzzled build-alloc/puzzled
}
stage_drawings() { echo "== drawings: the SVG answers rendered to PNG and looked at"; build && tests/drawings/run.py build/puzzled; }
stage_browser() {
  echo "== browser test: the playground, /docs, a cross-origin page and nginx, in chromium"
  build && tests/browser/run.sh build/puzzled build/browser-artifacts
}
stage_pages() {
  echo "== pages: Lighthouse (mobile and desktop) and axe-core on every page, in chromium"
  build && tests/pages/run.sh build/puzzled build/pages-reports
}
stage_client() {
  echo "== TypeScript client: types regenerated from openapi.yaml (no drift), tsc --strict, its tests against the live service and in chromium"
  build && clients/typescript/test.sh build/puzzled
}
stage_concurrency() { echo "== concurrency: compute pool, queue limits, slow clients, drain"; build && tests/concurrency/run.py build/puzzled; }
stage_progress() {
  echo "== progress as server-sent events: loopback, through nginx, a client leaving, /healthz meanwhile"
  build && tests/progress/run.py build/puzzled
}
stage_streams() {
  echo "== streams: stalled readers' memory, the stream budget, bounded direct calls"
  build && tests/streams/run.py build/puzzled
}
stage_strict_http() { echo "== strict HTTP/1.1 at the edge, over raw sockets"; build && tests/strict_http/run.py build/puzzled; }
stage_fair_share() { echo "== fair share per client"; build && tests/fair_share/run.py build/puzzled; }
stage_page_limits() {
  echo "== what a page can read of the limits: CORS per listed origin, RateLimit headers"
  build && tests/page_limits/run.py build/puzzled
}
stage_lifecycle() {
  echo "== the request lifecycle: each window held open with the test build's pauses (server/lifecycle_hooks.h)"
  build_hooks && tests/lifecycle/run.py build-hooks/puzzled
}
stage_public() { echo "== HTTPS (the TLS profile) and the admin port"; build && tests/public/run.sh build/puzzled; }
stage_stop() {
  echo "== the stop: $stop_rounds rounds of three aborted streams, one more request, SIGTERM"
  build && tests/stop/run.py build/puzzled --rounds "$stop_rounds"
}
stage_soak() {
  echo "== soak: mixed traffic over every route, RSS, descriptors and threads flat; again under ASan, LeakSanitizer at exit"
  build && tests/soak/run.py build/puzzled --minutes "$soak_minutes" &&
    build_sanitize && tests/soak/run.py build-sanitize/puzzled --minutes 1 --sanitizer
}
# The tsan stage: the suites that drive the places where the I/O threads, the workers and the timer
# meet, against build-tsan/puzzled: the race stress (over 10,000 requests, clients leaving at every
# moment, stops in the middle), the lifecycle's windows held open, progress, streams, concurrency and
# the stop. Left out, since under TSan they only repeat slowly the happy paths that other stages run
# (docs/fuzzing.md#threadsanitizer): the integration binaries (one request at a time) and the progress
# suite's count through nginx.
# TSan writes its reports to files (log_path) and goes on after each (halt_on_error=0), exiting 0
# (exitcode=0), so that the suites judge the service's behaviour and the stage alone judges the
# reports: any report file, or any report line in a suite's output, fails it. TSan runs the service 5
# to 15 times slower: the suites' guards against hangs stretch by PUZZLED_TEST_TIME_SCALE.
TSAN_TIME_SCALE=${PUZZLED_TEST_TIME_SCALE:-4} # a loaded machine may stretch them further
TSAN_STOP_ROUNDS=5 # the race stress stops a server in every third of its rounds as well
tsan_reports=build-tsan/reports
tsan_suite() { # suite arguments...: runs it, then prints how long it took
  local started=$SECONDS status=0
  "$@" || status=1
  echo "-- $1: $((SECONDS - started)) s"
  return "$status"
}
tsan_suites() {
  local failed=0
  tsan_suite tests/race/run.py build-tsan/puzzled || failed=1
  tsan_suite tests/lifecycle/run.py build-tsan/puzzled || failed=1
  tsan_suite tests/progress/run.py build-tsan/puzzled --no-nginx || failed=1
  tsan_suite tests/streams/run.py build-tsan/puzzled --no-rss || failed=1
  tsan_suite tests/concurrency/run.py build-tsan/puzzled || failed=1
  tsan_suite tests/stop/run.py build-tsan/puzzled --rounds "$TSAN_STOP_ROUNDS" || failed=1
  return "$failed"
}
stage_tsan() {
  echo "== ThreadSanitizer: the race stress, lifecycle, progress, streams, concurrency and stop against the TSan build"
  build_tsan || return 1
  rm -rf "$tsan_reports" && mkdir -p "$tsan_reports" || return 1
  local output=$tsan_reports/suites.log suites=0
  TSAN_OPTIONS="log_path=$PWD/$tsan_reports/tsan halt_on_error=0 exitcode=0 suppressions=$PWD/tests/lib/tsan.supp" \
    PUZZLED_TEST_TIME_SCALE=$TSAN_TIME_SCALE tsan_suites 2>&1 | tee "$output"
  [ "${PIPESTATUS[0]}" -eq 0 ] || suites=1
  local reports
  reports=$(find "$tsan_reports" -name 'tsan.*' | wc -l)
  if [ "$reports" -gt 0 ] || grep -q 'WARNING: ThreadSanitizer' "$output"; then
    echo "ThreadSanitizer reports: $reports files in $tsan_reports; their summaries:"
    cat "$tsan_reports"/tsan.* 2>/dev/null | grep '^SUMMARY: ThreadSanitizer' | sort | uniq -c | sort -rn | head -30
    return 1
  fi
  echo "ThreadSanitizer: no report"
  [ "$suites" -eq 0 ] || { echo "a suite failed against the TSan build (its output: $output)"; return 1; }
}
stage_dockerfile_mirror() { echo "== Dockerfile mirror test"; build && tests/container/test_dockerfile_mirror.sh build/puzzled; }
stage_scaleout() { echo "== scale-out test: two replicas behind nginx, one killed under load"; build && tests/scaleout/run.sh build/puzzled; }
stage_container() {
  echo "== container tests: the image built and run, compose with nginx, Kubernetes manifests played"
  tests/container/run.sh
}
stage_fuzz() {
  echo "== fuzzing: every libFuzzer target 20 s on the committed corpus, every regression input replayed"
  scripts/fuzz.sh 20 --parallel 2
}
stage_sanitize_unit() { echo "== unit tests built with AddressSanitizer and UndefinedBehaviorSanitizer"; build_sanitize && sanitizer_ctest '^unit_'; }
stage_sanitize_integration() {
  echo "== integration tests built with AddressSanitizer and UndefinedBehaviorSanitizer"
  build_sanitize && sanitizer_ctest '^integration_'
}
stage_sanitize_stop() {
  echo "== the stop under AddressSanitizer: $stop_rounds rounds"
  build_sanitize && tests/stop/run.py build-sanitize/puzzled --rounds "$stop_rounds"
}
stage_garbage() { echo "== HTTP garbage campaign against the sanitizer build"; build_sanitize && tests/garbage/run.py build-sanitize/puzzled; }
stages=(format docs unit integration alloc-failure contract drawings browser pages client concurrency progress streams
  strict-http fair-share page-limits lifecycle public stop soak
  dockerfile-mirror scaleout container fuzz sanitize-unit sanitize-integration sanitize-stop garbage tsan)
stage_function() { echo "stage_${1//-/_}"; }

scripts/setup.sh build runtime test fuzz container

if [ "$repeat" -eq 0 ]; then
  for stage in "${stages[@]}"; do "$(stage_function "$stage")"; done
  exit 0
fi

[ $# -gt 0 ] || { echo "--repeat N needs stage names: ${stages[*]}" >&2; exit 2; }
for stage in "$@"; do
  declare -F "$(stage_function "$stage")" > /dev/null || { echo "no stage '$stage'; the stages: ${stages[*]}" >&2; exit 2; }
done
mkdir -p build/repeat
declare -A passes=()
for run in $(seq 1 "$repeat"); do
  for stage in "$@"; do
    log=build/repeat/$stage-$run.log
    started=$(date +%s)
    if "$(stage_function "$stage")" > "$log" 2>&1; then
      passes[$stage]=$((${passes[$stage]:-0} + 1))
      rm -f "$log"
      echo "run $run/$repeat $stage: passed ($(($(date +%s) - started)) s)"
    else
      echo "run $run/$repeat $stage: FAILED ($(($(date +%s) - started)) s), output in $log"
    fi
  done
done
status=0
for stage in "$@"; do
  echo "$stage: ${passes[$stage]:-0} of $repeat runs passed"
  [ "${passes[$stage]:-0}" = "$repeat" ] || status=1
done
exit $status
