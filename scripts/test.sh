#!/usr/bin/env bash
# shellcheck disable=SC2317 # the stage functions are called by name
# The test suite's one entry point: it installs what the chosen stages need (scripts/setup.sh), builds
# what they use, runs them, and ends with a summary. docs/testing.md says what each stage proves.
#   scripts/test.sh                      the whole suite, every stage, two side by side (the README's
#                                        test command, CI's)
#   scripts/test.sh quick                the quick tier, for any change: the format check, the docs, unit and
#                                        integration tests on the release build (their big comparisons on a
#                                        sample, tests/lib/test_sample.h), the spec's lint and the client's
#                                        drift and type checks; it installs no browser, container or load tool
#   scripts/test.sh STAGE...             the named stages, once each
#   scripts/test.sh --repeat N STAGE...  the named stages N times each, in turn, with a count of passes
# Options (before the stages): --fail-fast stops at the first failed stage; --jobs N runs N stages at
# once (the whole suite's default 2, the others' 1); --stop-rounds N sets the stop test's rounds (20);
# --soak-minutes M the soak's length (2).
# Every stage runs even when an earlier one failed (unless --fail-fast). Each stage's output goes to
# build/test-logs/STAGE.log, and to the terminal too when stages run one at a time; the run ends with a table (stage, seconds, result, log) and
# `N passed, N failed`, and exits 1 when a stage failed.
set -euo pipefail
cd "$(dirname "$0")/.."

stop_rounds=20
soak_minutes=2
repeat=0
fail_fast=false
jobs=
usage="usage: scripts/test.sh [--fail-fast] [--jobs N] [--stop-rounds N] [--soak-minutes M] [quick | STAGE... | --repeat N STAGE...]"
while [ $# -gt 0 ]; do
  case $1 in
    --fail-fast) fail_fast=true; shift ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --stop-rounds) stop_rounds=${2:?--stop-rounds needs a number}; shift 2 ;;
    --soak-minutes) soak_minutes=${2:?--soak-minutes needs a number}; shift 2 ;;
    --repeat) repeat=${2:?--repeat needs a number}; shift 2; break ;;
    -*) echo "$usage" >&2; exit 2 ;;
    *) break ;;
  esac
done

# Builds on first use only, so that a repeated stage does not build again; stages side by side that
# need one build directory take turns (flock) and the second finds it built. (Stages run as
# conditions, where `set -e` does not apply: every step that can fail is chained or returns its status.)
run_id=$$
built() { # dir cmake-arguments...
  local dir=$1
  shift
  mkdir -p "$dir" || return 1
  (
    flock 9 || exit 1
    [ -e "$dir/.built-$run_id" ] && exit 0
    rm -f "$dir"/.built-*
    scripts/build.sh "$dir" "$@" && touch "$dir/.built-$run_id"
  ) 9> "$dir/.build-lock"
}
# Four trees in all (docs/testing.md#what-each-build-is-for): the release build every stage against a
# plain server uses; the one sanitizer build (ASan and UBSan), which also holds the allocation-failure
# wrappers and the lifecycle pauses (neither acts without its request header, X-Fail-Allocation or
# X-Pause-At with PUZZLED_LIFECYCLE_DIR set) and compiles the benchmarks, so that a change that breaks
# them fails the suite; the ThreadSanitizer build; and the fuzz targets' clang build (scripts/fuzz.sh).
# The sanitizer build is optimised as the release build is, with its asserts kept (no -DNDEBUG): an
# unoptimised one spends most of the sanitizer stages in the start-up's timed runs and the searches.
build() { built build -DPUZZLED_BENCH=OFF; }
build_sanitize() {
  built build-sanitize -DPUZZLED_SANITIZE=ON -DPUZZLED_ALLOC_FAIL=ON -DPUZZLED_LIFECYCLE_HOOKS=ON -DPUZZLED_BENCH=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g"
}
# The TSan build has the lifecycle pauses compiled in, so that the lifecycle suite runs against it too;
# a request without X-Pause-At never pauses.
build_tsan() {
  built build-tsan -DPUZZLED_TSAN=ON -DPUZZLED_LIFECYCLE_HOOKS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPUZZLED_TESTS=OFF
}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS=suppressions=$PWD/tests/lib/lsan.supp # Criterion's runner's own block, nothing of ours
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# The share of the big comparisons the quick tier and the sanitizer stages run (tests/lib/test_sample.h).
TEST_SAMPLE_DIVISOR=10
sampled() { PUZZLED_TEST_SAMPLE_DIVISOR=$TEST_SAMPLE_DIVISOR "$@"; }

# ctest on the sanitizer build, failing on any sanitizer report in its output.
sanitizer_ctest() { # regex log-name
  local log=build-sanitize/ctest-$2.log
  sampled ctest --test-dir build-sanitize --output-on-failure -j 2 -R "$1" --output-log "$log" || return 1
  if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log"; then
    echo "sanitizer reports in the sanitizer run (details in $log):"
    grep -nE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log" | head -20
    return 1
  fi
  echo "sanitizer run clean"
}

# One function a stage: "== what it does", then the stage (each returns non-zero on a failure). Each
# quick stage runs sampled in the quick tier and at full strength in the whole suite.
sample_in_quick() { if $quick_tier; then sampled "$@"; else "$@"; fi; }
stage_format() { echo "== format: every C file as .clang-format lays it out, error paths in one convention"; scripts/format.sh --check; }
stage_docs() { echo "== docs: paths, anchors, options and errors named, console examples replayed, pages short, undated and indexed, the README's figures from docs/performance.md"; build && tests/docs/run.py build/puzzled; }
stage_unit() { echo "== unit tests"; build && sample_in_quick ctest --test-dir build --output-on-failure -j 2 -R '^unit_'; }
stage_integration() {
  echo "== integration tests, each against its own server, which must then stop cleanly"
  build && sample_in_quick ctest --test-dir build --output-on-failure -j 2 -E '^unit_'
}
stage_spec() { echo "== openapi.yaml linted (Redocly), its error codes those of api/errors.h"; tests/contract/run.sh --static; }
stage_client_types() {
  echo "== TypeScript client: types regenerated from openapi.yaml and the playground's bundle rebuilt (no drift), tsc --strict"
  clients/typescript/test.sh --types
}
stage_alloc_failure() {
  echo "== allocation-failure injection: every allocation of a request failed in turn, under ASan"
  build_sanitize && tests/alloc_failure/run.py build-sanitize/puzzled
}
stage_contract() {
  echo "== OpenAPI lint and live contract test (the 500s through the allocation-failure build)"
  build && build_sanitize && tests/contract/run.sh build/puzzled build-sanitize/puzzled
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
# Its asserted timings stretch by PUZZLED_TEST_TIME_SCALE under TSan; it runs alone (solo_stages).
stage_concurrency() {
  echo "== concurrency: compute pool, queue limits, slow clients, drain; then against the TSan build"
  local failed=0
  { build && tests/concurrency/run.py build/puzzled; } || failed=1
  under_tsan concurrency tsan_concurrency || failed=1
  return "$failed"
}
stage_progress() {
  echo "== progress as server-sent events: loopback, through nginx, a client leaving, /healthz meanwhile"
  build && tests/progress/run.py build/puzzled
}
stage_streams() {
  echo "== streams: stalled readers' memory, the stream budget, bounded direct calls"
  build && tests/streams/run.py build/puzzled
}
stage_log() {
  echo "== the service's log: a pipe nobody reads holds up no request, every line in the log's format"
  build && tests/log/run.py build/puzzled
}
stage_strict_http() { echo "== strict HTTP/1.1 at the edge, over raw sockets"; build && tests/strict_http/run.py build/puzzled; }
stage_fair_share() { echo "== fair share per client"; build && tests/fair_share/run.py build/puzzled; }
stage_page_limits() {
  echo "== what a page can read of the limits: CORS per listed origin, RateLimit headers"
  build && tests/page_limits/run.py build/puzzled
}
stage_lifecycle() {
  echo "== the request lifecycle: each window held open with the sanitizer build's pauses (server/lifecycle_hooks.h)"
  build_sanitize && tests/lifecycle/run.py build-sanitize/puzzled
}
stage_public() { echo "== HTTPS (the TLS profile) and the admin port"; build && tests/public/run.sh build/puzzled; }
stage_stop() {
  echo "== the stop: $stop_rounds rounds of three aborted streams, one more request, SIGTERM"
  build && tests/stop/run.py build/puzzled --rounds "$stop_rounds"
}
stage_soak() {
  echo "== soak: mixed traffic over every route, RSS, descriptors and threads flat"
  build && tests/soak/run.py build/puzzled --minutes "$soak_minutes"
}
# The soak's minute under ASan judges no RSS and no time (LeakSanitizer at exit, descriptors and
# threads back at idle), so it runs beside other stages, the release soak alone.
stage_sanitize_soak() {
  echo "== the soak's mixed traffic for a minute under ASan, LeakSanitizer at exit"
  build_sanitize && tests/soak/run.py build-sanitize/puzzled --minutes 1 --sanitizer
}
# The tsan stage and the concurrency stage's second half: the suites that drive the places where the
# I/O threads, the workers and the timer meet, against build-tsan/puzzled: the race stress (over
# 5,000 requests, clients leaving at every moment, a stop in the middle of every third round), the
# lifecycle's windows held open, progress, streams and the log; and the concurrency suite, in its own stage,
# which runs alone since it asserts timings. Left out, since under TSan they only repeat slowly the
# happy paths that other stages run (docs/fuzzing.md#threadsanitizer): the integration binaries (one
# request at a time), the progress suite's count through nginx, and the stop test (the race stress's
# stops drive the stop's threads; the stop stages judge its behaviour).
# TSan writes its reports to files (log_path) and goes on after each (halt_on_error=0), exiting 0
# (exitcode=0), so that the suites judge the service's behaviour and the stage alone judges the
# reports: any report file, or any report line in a suite's output, fails it. TSan runs the service 5
# to 15 times slower: the suites' guards against hangs stretch by PUZZLED_TEST_TIME_SCALE.
TSAN_TIME_SCALE=${PUZZLED_TEST_TIME_SCALE:-4} # a loaded machine may stretch them further
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
  tsan_suite tests/streams/run.py build-tsan/puzzled --no-rss --no-direct-calls || failed=1
  tsan_suite tests/log/run.py build-tsan/puzzled || failed=1
  return "$failed"
}
tsan_concurrency() { tsan_suite tests/concurrency/run.py build-tsan/puzzled; }
under_tsan() { # name function: runs the function's suites against the TSan build, judging its reports
  build_tsan || return 1
  local reports_dir=build-tsan/reports-$1
  rm -rf "$reports_dir" && mkdir -p "$reports_dir" || return 1
  local output=$reports_dir/suites.log suites=0
  TSAN_OPTIONS="log_path=$PWD/$reports_dir/tsan halt_on_error=0 exitcode=0 suppressions=$PWD/tests/lib/tsan.supp" \
    PUZZLED_TEST_TIME_SCALE=$TSAN_TIME_SCALE "$2" 2>&1 | tee "$output"
  [ "${PIPESTATUS[0]}" -eq 0 ] || suites=1
  local reports
  reports=$(find "$reports_dir" -name 'tsan.*' | wc -l)
  if [ "$reports" -gt 0 ] || grep -q 'WARNING: ThreadSanitizer' "$output"; then
    echo "ThreadSanitizer reports: $reports files in $reports_dir; their summaries:"
    cat "$reports_dir"/tsan.* 2>/dev/null | grep '^SUMMARY: ThreadSanitizer' | sort | uniq -c | sort -rn | head -30
    return 1
  fi
  echo "ThreadSanitizer: no report"
  [ "$suites" -eq 0 ] || { echo "a suite failed against the TSan build (its output: $output)"; return 1; }
}
stage_tsan() {
  echo "== ThreadSanitizer: the race stress (its stops too), lifecycle, progress, streams and the log against the TSan build"
  under_tsan suites tsan_suites
}
# Clang's thread-safety analysis over server/ (server/thread_safety.h), each finding an error: compiled
# for the analysis alone (-fsyntax-only), nothing built.
stage_thread_safety() {
  echo "== thread safety: server/ read by clang's -Wthread-safety, every lock taken and released as annotated"
  local file failed=0
  for file in server/*.c; do
    clang -std=c11 -D_GNU_SOURCE -fsyntax-only -Wall -Wextra -Werror -Wthread-safety -Werror=thread-safety -I. \
      -DPUZZLED_VERSION='"check"' -DPUZZLED_COMMIT='"check"' "$file" || failed=1
  done
  [ "$failed" -eq 0 ] && echo "every file of server/ passes the analysis"
}
stage_dockerfile_mirror() { echo "== Dockerfile mirror test"; build && tests/container/test_dockerfile_mirror.sh build/puzzled; }
stage_scaleout() { echo "== scale-out test: two replicas behind nginx, one killed under load"; build && tests/scaleout/run.sh build/puzzled; }
stage_container() {
  echo "== container tests: the image built and run, compose with nginx, Kubernetes manifests played"
  tests/container/run.sh
}
stage_fuzz() {
  echo "== fuzzing: every libFuzzer target 10 s on the committed corpus, every regression input replayed"
  scripts/fuzz.sh 10 --parallel 2
}
stage_sanitize_unit() { echo "== unit tests built with AddressSanitizer and UndefinedBehaviorSanitizer"; build_sanitize && sanitizer_ctest '^unit_' unit; }
stage_sanitize_integration() {
  echo "== integration tests built with AddressSanitizer and UndefinedBehaviorSanitizer"
  build_sanitize && sanitizer_ctest '^integration_' integration
}
stage_sanitize_stop() {
  echo "== the stop under AddressSanitizer: $stop_rounds rounds"
  build_sanitize && tests/stop/run.py build-sanitize/puzzled --rounds "$stop_rounds"
}
stage_garbage() { echo "== HTTP garbage campaign against the sanitizer build"; build_sanitize && tests/garbage/run.py build-sanitize/puzzled; }

# The tiers. The quick tier's spec and client-types are the static halves of the whole suite's
# contract and client stages, which run them again beside what needs a server.
quick_stages=(format docs unit integration spec client-types)
# The whole suite's order: the longest stages first, so that the short ones fill the other lane
# beside them, and the solo stages last.
all_stages=(format thread-safety docs tsan alloc-failure sanitize-integration unit integration sanitize-unit fuzz container client
  browser contract garbage sanitize-stop sanitize-soak lifecycle drawings progress streams log public scaleout stop strict-http
  fair-share page-limits dockerfile-mirror concurrency pages soak)
stage_function() { echo "stage_${1//-/_}"; }
# What each stage needs installed (scripts/setup.sh's purposes); the rest need `build runtime test suite`.
declare -A stage_purposes=([format]="test" [spec]="test" [client-types]="test" [docs]="build runtime test"
  [unit]="build runtime test" [integration]="build runtime test" [fuzz]="build fuzz" [thread-safety]="build fuzz"
  [container]="container")

quick_tier=false
if [ "$repeat" -eq 0 ] && [ $# -eq 0 ]; then
  chosen=("${all_stages[@]}")
  jobs=${jobs:-2}
elif [ "$repeat" -eq 0 ] && [ $# -eq 1 ] && [ "$1" = quick ]; then
  chosen=("${quick_stages[@]}")
  quick_tier=true
else
  [ $# -gt 0 ] || { echo "--repeat N needs stage names: ${all_stages[*]} spec client-types" >&2; exit 2; }
  chosen=("$@")
fi
jobs=${jobs:-1}
for stage in "${chosen[@]}"; do
  declare -F "$(stage_function "$stage")" > /dev/null ||
    { echo "no stage '$stage'; the stages: ${all_stages[*]} spec client-types (and the tier quick)" >&2; exit 2; }
done

declare -A purposes=()
for stage in "${chosen[@]}"; do
  for purpose in ${stage_purposes[$stage]:-build runtime test suite}; do purposes[$purpose]=1; done
done
scripts/setup.sh "${!purposes[@]}"

logs=build/test-logs
mkdir -p "$logs"
summary=()
failures=0
run_stage() { # stage log: runs it, its output to the terminal and the log; records its line of the summary
  local stage=$1 log=$2 started=$SECONDS result=passed
  # In this shell, not a pipeline's, so that what a stage built stays built for the next.
  "$(stage_function "$stage")" > >(tee "$log") 2>&1 || result=FAILED
  wait $! # tee's last lines
  summary+=("$(printf '%-22s %6d s  %-7s %s' "$stage" $((SECONDS - started)) "$result" "$log")")
  [ "$result" = passed ]
}
print_summary() {
  local passed=$((${#summary[@]} - failures))
  echo
  printf '%-22s %8s  %-7s %s\n' stage time result log
  printf '%s\n' "${summary[@]}"
  echo "$passed passed, $failures failed"
}

# Side by side (--jobs N; the whole suite's default is 2, the machine's cores on CI): up to N stages
# at once, each one's output in its log alone; the terminal gets a line as each ends, with a failed
# stage's last lines. A stage of solo_stages runs with no other beside it (stages after it in the list
# wait for it), since it measures time or loads the machine on purpose; two stages of one group never
# run side by side (one ctest directory; one chromium at a time).
solo_stages=" concurrency pages soak "
declare -A stage_group=([unit]=ctest-build [integration]=ctest-build [sanitize-unit]=ctest-sanitize
  [sanitize-integration]=ctest-sanitize [browser]=chromium [client]=chromium [drawings]=chromium [pages]=chromium)
declare -A running=() started_at=() results=()
finish_one() { # waits for a running stage to end and records it
  local pid status=0
  wait -n -p pid "${!running[@]}" || status=$?
  local stage=${running[$pid]} result=passed
  unset "running[$pid]"
  [ "$status" -eq 0 ] || result=FAILED
  results[$stage]=$(printf '%-22s %6d s  %-7s %s' "$stage" $((SECONDS - started_at[$stage])) "$result" "$logs/$stage.log")
  echo "${results[$stage]}"
  if [ "$result" = FAILED ]; then
    failures=$((failures + 1))
    tail -n 30 "$logs/$stage.log" | sed 's/^/    | /'
    if $fail_fast; then stopping=true; fi
  fi
}
startable() { # stage: whether it may start now beside the running ones
  local stage=$1 other
  [ ${#running[@]} -lt "$jobs" ] || return 1
  for other in "${running[@]}"; do
    [[ $solo_stages == *" $other "* ]] && return 1
    [ -n "${stage_group[$stage]:-}" ] && [ "${stage_group[$other]:-}" = "${stage_group[$stage]}" ] && return 1
  done
  [[ $solo_stages != *" $stage "* ]] || [ ${#running[@]} -eq 0 ]
}
run_side_by_side() {
  local queue=("${chosen[@]}") i stage next
  stopping=false
  while [ ${#queue[@]} -gt 0 ] && ! $stopping || [ ${#running[@]} -gt 0 ]; do
    next=-1
    if ! $stopping; then
      for i in "${!queue[@]}"; do
        if startable "${queue[$i]}"; then next=$i; break; fi
        [[ $solo_stages != *" ${queue[$i]} "* ]] || break # a solo stage: the later ones wait for it
      done
    fi
    if [ "$next" -ge 0 ]; then
      stage=${queue[$next]}
      unset "queue[$next]"
      queue=("${queue[@]}")
      started_at[$stage]=$SECONDS
      echo "-- $stage: started (beside: ${running[*]:-nothing})"
      ("$(stage_function "$stage")" > "$logs/$stage.log" 2>&1 || exit 1) &
      running[$!]=$stage
    else
      finish_one
    fi
  done
  for stage in "${chosen[@]}"; do
    [ -n "${results[$stage]:-}" ] && summary+=("${results[$stage]}")
  done
}

if [ "$repeat" -eq 0 ] && [ "$jobs" -gt 1 ]; then
  run_side_by_side
  print_summary
  [ "$failures" -eq 0 ]
  exit
fi
if [ "$repeat" -eq 0 ]; then
  for stage in "${chosen[@]}"; do
    if ! run_stage "$stage" "$logs/$stage.log"; then
      failures=$((failures + 1))
      if $fail_fast; then break; fi
    fi
  done
  print_summary
  [ "$failures" -eq 0 ]
  exit
fi

declare -A passes=()
for run in $(seq 1 "$repeat"); do
  for stage in "${chosen[@]}"; do
    if run_stage "$stage" "$logs/$stage-$run.log" > /dev/null; then
      passes[$stage]=$((${passes[$stage]:-0} + 1))
      echo "run $run/$repeat $stage: passed"
    else
      failures=$((failures + 1))
      echo "run $run/$repeat $stage: FAILED, output in $logs/$stage-$run.log"
      if $fail_fast; then break 2; fi
    fi
  done
done
print_summary
for stage in "${chosen[@]}"; do
  echo "$stage: ${passes[$stage]:-0} of $repeat runs passed"
done
[ "$failures" -eq 0 ]
