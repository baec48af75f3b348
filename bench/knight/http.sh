#!/usr/bin/env bash
# /knight-tour over HTTP against a running puzzled (PUZZLED_URL): time to the last byte (curl
# time_total, loopback, body discarded) for 1000 x 1000 and 2000 x 2000, open and closed, from a
# corner and from an inner square, and for 4 x 1001 and 4 x 1,000,000 open from the corner and the
# middle of the top row; the median of 5 runs each. The 2000 x 2000 body is about 44 MB.
# No peer here: bench_knight compares the plain backtracking with auto in process.
set -euo pipefail

median_ms() { sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", 1000 * v[int((NR + 1) / 2)] }'; }

for n in 1000 2000; do
  for closed in false true; do
    for start in 0,0 $((n / 2 + 1)),$((n / 3)); do
      url="$PUZZLED_URL/knight-tour?n=$n&closed=$closed&start=$start"
      status=$(curl -s -o /dev/null -w '%{http_code}' "$url")
      [ "$status" = 200 ] || { echo "$url answered $status" >&2; exit 1; }
      ms=$(for _ in 1 2 3 4 5; do curl -s -o /dev/null -w '%{time_total}\n' "$url"; done | median_ms)
      kind=$([ "$closed" = true ] && echo closed || echo open)
      printf 'knight-tour %sx%s %s from [%s] over HTTP (median of 5, full body)\t%s\t-\t-\tms\tlower\n' \
        "$n" "$n" "$kind" "$start" "$ms"
    done
  done
done

# 4 x n open tours (the 4-row construction): from the corner and from the middle of the top row.
for n in 1001 1000000; do
  for start in 0,0 0,$((n / 2)); do
    url="$PUZZLED_URL/knight-tour?rows=4&cols=$n&start=$start"
    status=$(curl -s -o /dev/null -w '%{http_code}' "$url")
    [ "$status" = 200 ] || { echo "$url answered $status" >&2; exit 1; }
    ms=$(for _ in 1 2 3 4 5; do curl -s -o /dev/null -w '%{time_total}\n' "$url"; done | median_ms)
    printf 'knight-tour 4x%s open from [%s] over HTTP (median of 5, full body)\t%s\t-\t-\tms\tlower\n' "$n" "$start" "$ms"
  done
done
