#!/usr/bin/env bash
# Streaming throughput: all 3,628,800 permutations of 10 items from POST /permutations to
# curl -o /dev/null, versus nginx (Debian nginx-light on loopback, temp config) sending a file of the
# very same bytes, in the same run; the best of three transfers each, in MB/s.
set -euo pipefail
. "$(dirname "$0")/../lib/static_nginx.sh"
root=$(mktemp -d)
body='{"items":[0,1,2,3,4,5,6,7,8,9]}'
curl -s -o "$root/permutations.json" -d "$body" "$PUZZLED_URL/permutations"
static_nginx_start "$root"
# Prints MB/s (10^6 bytes per second) of the fastest of three downloads; extra arguments go to curl.
best_rate() {
  for _ in 1 2 3; do curl -s -o /dev/null -w '%{size_download} %{time_total}\n' "$@"; done |
    awk '{ r = $1 / $2 / 1e6; if (r > best) best = r } END { printf "%.0f", best }'
}
ours=$(best_rate -d "$body" "$PUZZLED_URL/permutations")
peer=$(best_rate "$STATIC_URL/permutations.json")
bytes=$(stat -c %s "$root/permutations.json")
printf 'stream all 10! permutations (%s bytes) to curl\t%s\tnginx static file of the same bytes\t%s\tMB/s\thigher\n' \
  "$bytes" "$ours" "$peer"
rm -rf "$root"
