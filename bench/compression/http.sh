#!/usr/bin/env bash
# gzip against identity on the same server in the same run: bytes on the wire (body bytes as curl
# receives them) and wall time, for the 2000 x 2000 knight tour (path format, JSON) and the 10!
# permutations as NDJSON, over loopback (best of 3) and for a client reading at 100 Mbit/s (curl
# --limit-rate 12.5 MB/s, one run). bench/compression/levels.py measured the level and block size.
set -euo pipefail
knight="$PUZZLED_URL/knight-tour?n=2000"
permutations="$PUZZLED_URL/permutations?items=1,2,3,4,5,6,7,8,9,10"

# "seconds bytes" of one transfer; $1 is gzip or identity, the rest go to curl.
transfer() {
  local coding=$1
  shift
  curl -sS --fail -o /dev/null -w '%{time_total} %{size_download}\n' -H "Accept-Encoding: $coding" "$@"
}
# The fastest of 3 transfers.
best_of_3() { for _ in 1 2 3; do transfer "$@"; done | sort -n | head -1; }

row() { # name, unit, gzip figure, identity figure
  printf '%s\t%s\tidentity (same server)\t%s\t%s\tlower\n' "$1" "$3" "$4" "$2"
}

measure() { # label, url, extra curl arguments...
  local label=$1 url=$2
  shift 2
  read -r gzip_s gzip_bytes < <(best_of_3 gzip "$@" "$url")
  read -r plain_s plain_bytes < <(best_of_3 identity "$@" "$url")
  row "$label: bytes on the wire, gzip" bytes "$gzip_bytes" "$plain_bytes"
  row "$label: time over loopback, gzip" s "$gzip_s" "$plain_s"
  read -r gzip_s _ < <(transfer gzip --limit-rate 12500000 "$@" "$url")
  read -r plain_s _ < <(transfer identity --limit-rate 12500000 "$@" "$url")
  row "$label: time at 100 Mbit/s, gzip" s "$gzip_s" "$plain_s"
}

measure "knight tour 2000 x 2000 (JSON stream)" "$knight"
measure "10! permutations (NDJSON stream)" "$permutations" -H 'Accept: application/x-ndjson'
