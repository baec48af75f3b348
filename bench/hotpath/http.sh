#!/usr/bin/env bash
# The request path's own cost: at 8 keep-alive connections, GET /healthz on puzzled against nginx
# serving a file of the same 15 bytes, each with one thread (puzzled --threads 1, nginx's one worker)
# and each logging every request to a file; then three small computations answered on that server
# (a rank of 3 items, a Sudoku check, an n = 8 count) against its /healthz. ROUNDS rounds, the
# contenders in turn within each, so that the machine's moments weigh on all alike; the medians.
#   PUZZLED_BIN=build-bench/puzzled bench/hotpath/http.sh
set -euo pipefail
. "$(dirname "$0")/../lib/static_nginx.sh"
ROUNDS=3
SECONDS_EACH=5
SUDOKU=53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
work=$(mktemp -d)
printf '{"status":"ok"}' > "$work/healthz.json"
static_nginx_start "$work" "$work/nginx-access.log"
"$PUZZLED_BIN" --host 127.0.0.1 --port 0 --threads 1 --client-rate 0 > "$work/puzzled.out" 2> "$work/puzzled-access.log" &
puzzled=$!
trap 'kill $puzzled 2>/dev/null; kill $STATIC_PID 2>/dev/null; rm -rf "$work" "$STATIC_PREFIX"' EXIT
for _ in $(seq 1 200); do grep -q '^listening on ' "$work/puzzled.out" && break; sleep 0.05; done
ours=$(sed -n 's/^listening on //p' "$work/puzzled.out")

names=(nginx healthz rank check count)
urls=("$STATIC_URL/healthz.json" "$ours/healthz" "$ours/permutation/rank?permutation=3,1,2"
  "$ours/sudoku/check?puzzle=$SUDOKU" "$ours/queens?n=8&mode=count")
declare -A rates
for _ in $(seq "$ROUNDS"); do
  for i in "${!names[@]}"; do
    rates[${names[$i]}]+="$(wrk -t1 -c8 -d${SECONDS_EACH}s "${urls[$i]}" | awk '/^Requests\/sec:/ {printf "%.0f", $2}') "
  done
done
median() { tr ' ' '\n' <<< "${rates[$1]}" | sed '/^$/d' | sort -n | sed -n "$(((ROUNDS + 1) / 2))p"; }
healthz=$(median healthz)
printf 'GET /healthz, 8 keep-alive connections, one thread, logged to a file (goal 1.2x)\t%s\tnginx, the same 15 bytes from a file, one worker, logged\t%s\treq/s\thigher\n' \
  "$healthz" "$(median nginx)"
printf 'GET /permutation/rank of 3 items, as above (goal 0.8x)\t%s\tGET /healthz on the same server\t%s\treq/s\thigher\n' "$(median rank)" "$healthz"
printf 'GET /sudoku/check, as above (goal 0.8x)\t%s\tGET /healthz on the same server\t%s\treq/s\thigher\n' "$(median check)" "$healthz"
printf 'GET /queens?n=8&mode=count, as above (goal 0.8x)\t%s\tGET /healthz on the same server\t%s\treq/s\thigher\n' "$(median count)" "$healthz"
