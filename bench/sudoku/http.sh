#!/usr/bin/env bash
# End-to-end benchmark of bulk /sudoku/solve: the expert puzzles qqwing generated (SUDOKU_BENCH_PUZZLES,
# default 10000, under the default 1 MiB --max-body) posted as one text/plain body, NDJSON back, from
# request to last byte, best of 3; against qqwing --solve on the same file in process (best of 3),
# wall-clock time for both. Needs PUZZLED_URL (a running server) and qqwing.
# Prints TSV rows: measure, ours, peer, peer value, unit, better.
set -euo pipefail
: "${PUZZLED_URL:?set PUZZLED_URL to a running puzzled, e.g. http://127.0.0.1:8080}"
count=${SUDOKU_BENCH_PUZZLES:-10000}
puzzles=$(mktemp)
answers=$(mktemp)
trap 'rm -f "$puzzles" "$answers"' EXIT
qqwing --generate "$count" --difficulty expert --one-line > "$puzzles"

best_seconds() { sort -g | head -n 1; }

ours=$(for _ in 1 2 3; do
  curl -sS -o "$answers" -w '%{time_total}\n' -H 'Content-Type: text/plain' --data-binary @"$puzzles" \
    "$PUZZLED_URL/sudoku/solve"
done | best_seconds)
unique=$(grep -c '"unique":true' "$answers" || true)
[ "$unique" -eq "$count" ] || { echo "sudoku http: $unique of $count answers unique" >&2; exit 1; }

peer=$(for _ in 1 2 3; do
  start=$(date +%s.%N)
  qqwing --solve --one-line < "$puzzles" > /dev/null
  awk -v start="$start" -v end="$(date +%s.%N)" 'BEGIN { print end - start }'
done | best_seconds)

awk -v n="$count" -v ours="$ours" -v peer="$peer" 'BEGIN {
  printf "sudoku: solve %d qqwing expert puzzles through HTTP in bulk (text/plain in, NDJSON out, wall clock)\t%.0f\tqqwing --solve in process (wall clock)\t%.0f\tpuzzles/s\thigher\n", n, n / ours, n / peer
}'
