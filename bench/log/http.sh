#!/usr/bin/env bash
# GET /healthz while nobody reads the service's log: its p99 latency with stderr sent to a pipe that
# nobody reads (a stalled log driver; the log buffer fills and drops lines, server/log_buffer.h)
# against the same server with stderr sent to /dev/null (a sink that never stalls), in the same run:
# wrk with 8 keep-alive connections, LOG_PIPE_SECONDS (5) each, the two taking turns for LOG_PIPE_ROUNDS
# (3) rounds, the medians compared. Then the requests that got no answer (wrk's socket errors and
# timeouts, both sides: 0 by design) and the log lines the stalled side dropped.
# It starts its own servers from PUZZLED_BIN, one client without shares (--client-rate 0).
#   PUZZLED_BIN=build-bench/puzzled bench/log/http.sh   (or bench/run.sh log)
set -euo pipefail
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"' EXIT
rounds=${LOG_PIPE_ROUNDS:-3}
seconds=${LOG_PIPE_SECONDS:-5}
mkfifo "$work/log"
exec 3<> "$work/log" # holds the pipe open for reading, and never reads it

start() { # name -> URL on stdout; stderr as the caller redirected it
  "$PUZZLED_BIN" --host 127.0.0.1 --port 0 --client-rate 0 > "$work/$1.out" &
  for _ in $(seq 1 200); do grep -q '^listening on ' "$work/$1.out" && break; sleep 0.05; done
  sed -n 's/^listening on //p' "$work/$1.out"
}
stalled=$(start stalled 2>&3)
free=$(start free 2> /dev/null)

# wrk's p99 in milliseconds, and the requests without an answer (socket errors and timeouts).
measure() {
  wrk -t2 -c8 -d"${seconds}s" --latency "$1/healthz" | awk '
    $1 == "99%" { v = $2; unit = v; sub(/[0-9.]+/, "", unit); sub(/[a-z]+$/, "", v)
                  p99 = unit == "us" ? v / 1000 : unit == "s" ? v * 1000 : v }
    /Socket errors/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) { gsub(",", "", $i); lost += $i } }
    END { printf "%.3f %d\n", p99, lost }'
}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
stalled_p99=() free_p99=() stalled_lost=0 free_lost=0
for _ in $(seq 1 "$rounds"); do
  read -r p99 lost < <(measure "$stalled")
  stalled_p99+=("$p99") stalled_lost=$((stalled_lost + lost))
  read -r p99 lost < <(measure "$free")
  free_p99+=("$p99") free_lost=$((free_lost + lost))
done
dropped=$(curl -s "$stalled/metrics" | awk '$1 == "puzzled_log_lines_dropped_total" {print $2}')
printf 'GET /healthz p99, stderr a pipe nobody reads (wrk -t2 -c8, median of %s x %s s)\t%s\tthe same, stderr /dev/null\t%s\tms\tlower\n' \
  "$rounds" "$seconds" "$(printf '%s\n' "${stalled_p99[@]}" | median)" "$(printf '%s\n' "${free_p99[@]}" | median)"
printf 'GET /healthz without an answer (socket errors, timeouts), stderr a pipe nobody reads\t%s\tthe same, stderr /dev/null\t%s\trequests\tlower\n' \
  "$stalled_lost" "$free_lost"
printf 'log lines dropped by the server whose stderr nobody reads (puzzled_log_lines_dropped_total)\t%s\t-\t-\tlines\tlower\n' "$dropped"
