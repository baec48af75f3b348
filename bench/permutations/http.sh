#!/usr/bin/env bash
# Streaming throughput: all 3,628,800 permutations of 10 items from POST /permutations (JSON, and
# NDJSON with Accept: application/x-ndjson) to curl -o /dev/null, versus nginx (Debian nginx-light on
# loopback, temp config, sendfile) sending a file of the very same bytes, in the same run; the median
# of five transfers each, in MB/s.
set -euo pipefail
. "$(dirname "$0")/../lib/static_nginx.sh"
root=$(mktemp -d)
body='{"items":[0,1,2,3,4,5,6,7,8,9]}'
ndjson='Accept: application/x-ndjson'
curl -s -o "$root/permutations.json" -d "$body" "$PUZZLED_URL/permutations"
curl -s -o "$root/permutations.ndjson" -H "$ndjson" -d "$body" "$PUZZLED_URL/permutations"
static_nginx_start "$root"
# Prints MB/s (10^6 bytes per second) of the median of five downloads; extra arguments go to curl.
median_rate() {
  for _ in 1 2 3 4 5; do curl -s -o /dev/null -w '%{size_download} %{time_total}\n' "$@"; done |
    awk '{ print $1 / $2 / 1e6 }' | sort -g | awk '{ r[NR] = $1 } END { printf "%.0f", r[int((NR + 1) / 2)] }'
}
for format in json ndjson; do
  headers=()
  [ "$format" = ndjson ] && headers=(-H "$ndjson")
  ours=$(median_rate "${headers[@]}" -d "$body" "$PUZZLED_URL/permutations")
  peer=$(median_rate "$STATIC_URL/permutations.$format")
  bytes=$(stat -c %s "$root/permutations.$format")
  printf 'stream all 10! permutations, %s (%s bytes) to curl\t%s\tnginx static file of the same bytes\t%s\tMB/s\thigher\n' \
    "$format" "$bytes" "$ours" "$peer"
done
rm -rf "$root"
