#!/usr/bin/env bash
# Streaming throughput: all 3,628,800 permutations of 10 items from POST /permutations (JSON, and
# NDJSON with Accept: application/x-ndjson) to curl -o /dev/null, versus nginx (Debian nginx-light on
# loopback, temp config, sendfile) sending a file of the very same bytes, in the same run; transfers
# of each in turn, the median of PAIRED_ROUNDS each (bench/lib/static_nginx.sh), in MB/s.
set -euo pipefail
. "$(dirname "$0")/../lib/static_nginx.sh"
root=$(mktemp -d)
body='{"items":[0,1,2,3,4,5,6,7,8,9]}'
ndjson='Accept: application/x-ndjson'
curl -s -o "$root/permutations.json" -d "$body" "$PUZZLED_URL/permutations"
curl -s -o "$root/permutations.ndjson" -H "$ndjson" -d "$body" "$PUZZLED_URL/permutations"
static_nginx_start "$root"
for format in json ndjson; do
  ours=(-d "$body" "$PUZZLED_URL/permutations")
  [ "$format" = ndjson ] && ours=(-H "$ndjson" "${ours[@]}")
  peer=("$STATIC_URL/permutations.$format")
  paired_medians ours peer
  bytes=$(stat -c %s "$root/permutations.$format")
  awk -v format="$format" -v bytes="$bytes" -v rounds="$PAIRED_ROUNDS" -v ours="$PAIRED_OURS" -v peer="$PAIRED_PEER" \
    'BEGIN { printf "stream all 10! permutations, %s (%s bytes, median of %s) to curl\t%.0f\tnginx static file of the same bytes\t%.0f\tMB/s\thigher\n", format, bytes, rounds, bytes / ours / 1e6, bytes / peer / 1e6 }'
done
rm -rf "$root"
