#!/usr/bin/env bash
# GET /queens?n=1000000&mode=first (a 6.9 MB solution, built whole on a worker) versus nginx serving
# the same bytes from a file, median of 5 curl transfers each, in the same run.
set -euo pipefail
. "$(dirname "$0")/../lib/static_nginx.sh"
root=$(mktemp -d)
chmod 755 "$root" # nginx workers run as an unprivileged user
query="queens?n=1000000&mode=first"
curl -sf -o "$root/queens.json" "$PUZZLED_URL/$query"
static_nginx_start "$root"
median_seconds() {
  for _ in 1 2 3 4 5; do curl -sf -o /dev/null -w '%{time_total}\n' "$1"; done | sort -g | sed -n 3p
}
ours=$(median_seconds "$PUZZLED_URL/$query")
peer=$(median_seconds "$STATIC_URL/queens.json")
printf 'queens mode first n=10^6 over HTTP (6.9 MB)\t%s\tnginx static file, same bytes\t%s\ts\tlower\n' "$ours" "$peer"
rm -rf "$root"
