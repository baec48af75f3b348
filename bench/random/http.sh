#!/usr/bin/env bash
# End-to-end benchmark of /shuffle through HTTP: {"n": 10000000} (about 79 MB of JSON, streamed) from
# request to last byte, seeded and secure, best of 5, against Python (best of 3) producing the same answer
# (random.shuffle of 10,000,000 integers plus json.dumps) on the same machine in the same run.
# Also the seeded 10M shuffle against nginx (Debian nginx-light, sendfile) serving a file of the very
# same bytes: transfers of each in turn, the median of PAIRED_ROUNDS each (bench/lib/static_nginx.sh), in
# the same run (the cost of shuffling and formatting over sending).
# Needs PUZZLED_URL (a running server). Prints TSV rows: measure, ours, peer, peer value, unit, better.
set -euo pipefail
: "${PUZZLED_URL:?set PUZZLED_URL to a running puzzled, e.g. http://127.0.0.1:8080}"
. "$(dirname "$0")/../lib/static_nginx.sh"
rounds=5

best_of() { sort -g | head -n 1; }

http_ms() {
  for _ in $(seq "$rounds"); do
    curl -sS -o /dev/null -w '%{time_total}\n' -H 'Content-Type: application/json' -d "$1" "$PUZZLED_URL/shuffle"
  done | best_of | awk '{printf "%.1f", $1 * 1000}'
}

python_ms() {
  python3 - 3 <<'PY'
import json, random, sys, time
best = float('inf')
for _ in range(int(sys.argv[1])):
    start = time.perf_counter()
    items = list(range(10_000_000))
    random.shuffle(items)
    body = json.dumps({"seed": "1", "items": items}, separators=(",", ":"))
    best = min(best, time.perf_counter() - start)
print(f"{best * 1000:.1f}")
PY
}

peer=$(python_ms)
printf 'http_shuffle_10M\t%s\tpython3 random.shuffle + json.dumps\t%s\tms\tlower\n' "$(http_ms '{"n": 10000000}')" "$peer"
printf 'http_shuffle_10M_secure\t%s\tpython3 random.shuffle + json.dumps\t%s\tms\tlower\n' "$(http_ms '{"n": 10000000, "secure": true}')" "$peer"

seeded='{"n": 10000000, "seed": "1"}'
root=$(mktemp -d)
curl -sS -o "$root/shuffle.json" -H 'Content-Type: application/json' -d "$seeded" "$PUZZLED_URL/shuffle"
static_nginx_start "$root"
ours=(-H 'Content-Type: application/json' -d "$seeded" "$PUZZLED_URL/shuffle")
peer=("$STATIC_URL/shuffle.json")
paired_medians ours peer
awk -v bytes="$(stat -c %s "$root/shuffle.json")" -v rounds="$PAIRED_ROUNDS" -v ours="$PAIRED_OURS" -v peer="$PAIRED_PEER" \
  'BEGIN { printf "http_shuffle_10M seeded (%s bytes, median of %s)\t%.1f\tnginx static file of the same bytes\t%.1f\tms\tlower\n", bytes, rounds, ours * 1000, peer * 1000 }'
rm -rf "$root"
