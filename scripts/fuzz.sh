#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ (clang, -fsanitize=fuzzer,address,undefined, in
# build-fuzz/) and runs every one for SECONDS (default 600), PARALLEL targets at a time:
#   scripts/fuzz.sh 20                 # CI: 20 s a target on the committed corpus, which stays as it is
#   scripts/fuzz.sh 600 --parallel 2 --merge   # the campaign: new inputs that add coverage are merged
#                                      # into tests/fuzz/corpus/<target>/
# First every committed regression input (tests/fuzz/regressions/<target>/) is replayed. Each run's log,
# findings (crash-*, leak-*, timeout-*, oom-*) and new inputs go to build-fuzz/fuzz/<target>/; a table of
# executions, coverage (cov: edges, ft: features), corpus size and findings is printed and written to
# build-fuzz/fuzz/summary.txt (FUZZ_OUT names another folder). Exits non-zero when a regression input fails or anything was found.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=600
parallel=1
merge=false
while [ $# -gt 0 ]; do
    case "$1" in
    --parallel) parallel=$2; shift 2 ;;
    --merge) merge=true; shift ;;
    [0-9]*) seconds=$1; shift ;;
    *) echo "usage: scripts/fuzz.sh [seconds-per-target] [--parallel N] [--merge]" >&2; exit 2 ;;
    esac
done

scripts/setup.sh build fuzz
build=build-fuzz
CC=clang CXX=clang++ cmake -S . -B "$build" -DPUZZLED_FUZZ=ON -DPUZZLED_TESTS=OFF > /dev/null
# FUZZ_TARGETS="fuzz_fields fuzz_streams" runs only those.
targets=${FUZZ_TARGETS:-$(cd tests/fuzz && ls fuzz_*.c | grep -v '^fuzz_request\.c$' | sed 's/\.c$//')}
# shellcheck disable=SC2086
cmake --build "$build" -j 2 --target $targets > /dev/null

out=${FUZZ_OUT:-$build/fuzz}
rm -rf "$out"
mkdir -p "$out"
failed=0

# Every crash ever found stays a test: its input must now run clean.
for target in $targets; do
    inputs=(tests/fuzz/regressions/"$target"/*)
    [ -e "${inputs[0]}" ] || continue
    if ! "$build/tests/fuzz/$target" "${inputs[@]}" > "$out/$target-regressions.log" 2>&1; then
        echo "fuzz.sh: $target fails on a regression input; see $out/$target-regressions.log" >&2
        failed=1
    fi
done

run_target() {
    local target=$1 dir=$out/$1
    mkdir -p "$dir/new"
    local started=$SECONDS
    # New inputs land in $dir/new (the first corpus folder); the committed corpus is only read.
    "$build/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -dict=tests/fuzz/fields.dict -artifact_prefix="$dir/" -print_final_stats=1 \
        "$dir/new" "tests/fuzz/corpus/$target" > "$dir/log" 2>&1 || true
    echo $((SECONDS - started)) > "$dir/seconds" # less than asked when a finding stopped it
    if $merge; then
        "$build/tests/fuzz/$target" -merge=1 -max_len=4096 "tests/fuzz/corpus/$target" "$dir/new" \
            > "$dir/merge.log" 2>&1 || true
    fi
}

running=0
for target in $targets; do
    run_target "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$parallel" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

{
    printf '%-18s %8s %12s %8s %7s %7s %9s %s\n' target seconds executions exec/s cov ft corpus findings
    for target in $targets; do
        log=$out/$target/log
        executions=$(sed -n 's/^stat::number_of_executed_units: //p' "$log")
        rate=$(sed -n 's/^stat::average_exec_per_sec: //p' "$log")
        last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true) # none when a finding ended the run at once
        cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
        ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
        corpus=$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<< "$last")
        findings=$(find "$out/$target" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
            -o -name 'oom-*' \) | wc -l)
        [ "$findings" -eq 0 ] || failed=1
        printf '%-18s %8s %12s %8s %7s %7s %9s %s\n' "$target" "$(cat "$out/$target/seconds")" "${executions:-?}" "${rate:-?}" \
            "${cov:-?}" "${ft:-?}" "${corpus:-?}" "$findings"
    done
} | tee "$out/summary.txt"
[ "$failed" -eq 0 ] || echo "fuzz.sh: findings in $out (reproduce: $build/tests/fuzz/<target> <input>)" >&2
exit "$failed"
