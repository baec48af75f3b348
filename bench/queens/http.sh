#!/usr/bin/env bash
# GET /queens?n=1000000&mode=first (a 6.9 MB solution, streamed) versus nginx serving the same bytes
# from a file, transfers of each in turn, the median of PAIRED_ROUNDS each (bench/lib/static_nginx.sh),
# in the same run.
set -euo pipefail
. "$(dirname "$0")/../lib/static_nginx.sh"
root=$(mktemp -d)
query="queens?n=1000000&mode=first"
curl -sf -o "$root/queens.json" "$PUZZLED_URL/$query"
static_nginx_start "$root"
ours=("$PUZZLED_URL/$query")
peer=("$STATIC_URL/queens.json")
paired_medians ours peer
printf 'queens mode first n=10^6 over HTTP (6.9 MB, median of %s)\t%s\tnginx static file, same bytes\t%s\ts\tlower\n' \
  "$PAIRED_ROUNDS" "$PAIRED_OURS" "$PAIRED_PEER"
rm -rf "$root"
