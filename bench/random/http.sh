#!/usr/bin/env bash
# End-to-end benchmark of /shuffle through HTTP: {"n": 10000000} (about 79 MB of JSON, streamed) from
# request to last byte, seeded and secure, best of 5, against Python (best of 3) producing the same answer
# (random.shuffle of 10,000,000 integers plus json.dumps) on the same machine in the same run.
# Needs PUZZLED_URL (a running server). Prints TSV rows: measure, ours, peer, peer value, unit, better.
set -euo pipefail
: "${PUZZLED_URL:?set PUZZLED_URL to a running puzzled, e.g. http://127.0.0.1:8080}"
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
