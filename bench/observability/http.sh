#!/usr/bin/env bash
# What metrics, request ids and ETags cost on tiny requests: wrk on GET /queens?n=6&mode=count (a
# cached-size answer, computed on the pool) and GET /healthz (answered on the I/O threads) against
# PUZZLED_BIN and against a build of BASELINE, the last commit before /metrics, request ids and
# ETags (so also before gzip negotiation, per-client shares and the strict HTTP checks), in the same
# run (2 threads, 32 connections, 5 s each).
#   PUZZLED_BIN=build-bench/puzzled bench/observability/http.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BASELINE=${BASELINE:-36b40fa}
work=$(mktemp -d)
# under set -e a failing command ends the trap itself: wait returns the killed servers' status
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null || true; git worktree remove --force "$work/src" > /dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/src" "$BASELINE" > /dev/null 2>&1
(cd "$work/src" && scripts/build.sh "$work/build" -DCMAKE_BUILD_TYPE=Release -DPUZZLED_TESTS=OFF > /dev/null)

start() { # binary name [flags] -> URL on stdout
  "$1" --host 127.0.0.1 --port 0 "${@:3}" > "$work/$2.out" 2> /dev/null &
  for _ in $(seq 1 200); do grep -q '^listening on ' "$work/$2.out" && break; sleep 0.05; done
  sed -n 's/^listening on //p' "$work/$2.out"
}
rate() { wrk -t2 -c32 -d5s "$1" | awk '/^Requests\/sec:/ {printf "%.0f", $2}'; }
ours=$(start "$PUZZLED_BIN" ours --client-rate 0) # wrk is one client
before=$(start "$work/build/puzzled" before)
for path in '/queens?n=6&mode=count' /healthz; do
  printf 'tiny requests GET %s with metrics, ids, ETags (wrk -t2 -c32)\t%s\tthe same without them (%s)\t%s\treq/s\thigher\n' \
    "$path" "$(rate "$ours$path")" "$BASELINE" "$(rate "$before$path")"
done
