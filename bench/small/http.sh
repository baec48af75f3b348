#!/usr/bin/env bash
# Small computations at the speed of the socket: requests/s of three requests whose work is
# microseconds (the rank of 3 items, a Sudoku check, the count of the 8-queens solutions) against
# GET /healthz on the same server in the same run, wrk with 8 keep-alive connections. The routes take
# turns (healthz, then each small request) for SMALL_ROUNDS rounds of SMALL_SECONDS each, and the
# medians are compared, so a busy machine slows both sides alike.
# Then admission at 64 connections: the answers that were not 2xx (wrk's "Non-2xx") for each small
# request (the design admits a burst of cheap work: none), and /healthz p99 while 64 connections ask
# for n = 16 counts (each far more than the queue can start in time: refused at once).
# It starts its own server from PUZZLED_BIN, one client without shares (--client-rate 0) nor a cap on
# its connections (--max-connections-per-ip 0), so that 64 connections and the probe all come in.
#   PUZZLED_BIN=build-bench/puzzled bench/small/http.sh
set -euo pipefail
log=$(mktemp)
"$PUZZLED_BIN" --host 127.0.0.1 --port 0 --client-rate 0 --max-connections-per-ip 0 > "$log" 2> /dev/null &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 1 200); do grep -q '^listening on ' "$log" && break; sleep 0.05; done
PUZZLED_URL=$(sed -n 's/^listening on //p' "$log")
rounds=${SMALL_ROUNDS:-3}
seconds=${SMALL_SECONDS:-3}
sudoku="53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
names=("permutation rank of 3 items" "sudoku check" "queens n=8 count")
paths=("/permutation/rank?permutation=3,1,2" "/sudoku/check?puzzle=$sudoku" "/queens?n=8&mode=count")

rate() { wrk -t2 -c8 -d"${seconds}s" "$PUZZLED_URL$1" | awk '/^Requests\/sec:/ {printf "%.0f", $2}'; }
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

declare -A samples
for _ in $(seq 1 "$rounds"); do
  samples[healthz]+="$(rate /healthz) "
  for i in "${!paths[@]}"; do samples[$i]+="$(rate "${paths[$i]}") "; done
done
healthz=$(tr ' ' '\n' <<< "${samples[healthz]}" | grep . | median)
for i in "${!paths[@]}"; do
  ours=$(tr ' ' '\n' <<< "${samples[$i]}" | grep . | median)
  printf '%s, 8 keep-alive connections (wrk -t2 -c8, median of %s x %s s)\t%s\tGET /healthz, same run\t%s\treq/s\thigher\n' \
    "${names[$i]}" "$rounds" "$seconds" "$ours" "$healthz"
done

# Answers that were not 2xx among 64 connections of each small request: the design's figure is 0.
for i in "${!paths[@]}"; do
  refused=$(wrk -t2 -c64 -d"${seconds}s" "$PUZZLED_URL${paths[$i]}" | awk '/Non-2xx/ {n = $NF} END {print n + 0}')
  printf '%s, 64 connections: answers not 2xx (wrk -t2 -c64, %s s)\t%s\t-\t-\tanswers\tlower\n' \
    "${names[$i]}" "$seconds" "$refused"
done

# /healthz p99 on one connection while 64 connections ask for n = 16 counts.
flood=$(mktemp)
wrk -t1 -c64 -d"$((seconds + 2))s" "$PUZZLED_URL/queens?n=16&mode=count" > "$flood" &
flooding=$!
sleep 1
p99=$(wrk -t1 -c1 -d"${seconds}s" --latency "$PUZZLED_URL/healthz" | awk '$1 == "99%" {print $2}')
wait "$flooding"
flood_refused=$(awk '/Non-2xx/ {n = $NF} END {print n + 0}' "$flood")
flood_total=$(awk '/requests in/ {print $1}' "$flood")
rm -f "$flood"
printf 'GET /healthz p99 while 64 connections ask for n=16 counts (%s of %s refused)\t%s\t-\t-\tlatency\tlower\n' \
  "$flood_refused" "$flood_total" "$p99"
