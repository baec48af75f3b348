#!/usr/bin/env bash
# Tiny keep-alive requests per second: GET /healthz on puzzled versus nginx serving a file of the same
# 15 bytes, both under the same wrk load (2 threads, 64 connections, 5 s) in the same run.
set -euo pipefail
. "$(dirname "$0")/../lib/static_nginx.sh"
root=$(mktemp -d)
printf '{"status":"ok"}' > "$root/healthz.json"
static_nginx_start "$root"
rate() { wrk -t2 -c64 -d5s "$1" | awk '/^Requests\/sec:/ {printf "%.0f", $2}'; }
ours=$(rate "$PUZZLED_URL/healthz")
peer=$(rate "$STATIC_URL/healthz.json")
printf 'tiny keep-alive requests (GET /healthz, wrk -t2 -c64)\t%s\tnginx static 15-byte file\t%s\treq/s\thigher\n' "$ours" "$peer"
rm -rf "$root"
