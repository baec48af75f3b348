#!/usr/bin/env bash
# /combinations and /combination/rank, /unrank through HTTP against Python in the same run:
#  - all C(26, 13) = 10,400,600 combinations of the letters a-z streamed to curl -o /dev/null, versus
#    python3 building the same list with itertools.combinations and writing it with json.dumps (best of
#    three each, seconds);
#  - unrank then rank a 50,000-combination of 100,000 items (POST bodies of 0.6 and 0.3 MB), versus the
#    same textbook walk of the combinatorial number system in Python's own big integers (ms).
set -euo pipefail
letters=abcdefghijklmnopqrstuvwxyz
body="{\"text\":\"$letters\",\"k\":13}"
best_time() {
  for _ in 1 2 3; do "$@"; done | sort -n | head -1
}
curl_time() { curl -s -o /dev/null -w '%{time_total}\n' "$@"; }
python_stream() {
  python3 - "$letters" <<'PY'
import itertools, json, sys, time
start = time.perf_counter()
with open("/dev/null", "w") as out:
    out.write(json.dumps(["".join(c) for c in itertools.combinations(sys.argv[1], 13)], separators=(",", ":")))
print(f"{time.perf_counter() - start:.3f}")
PY
}
bytes=$(curl -s -d "$body" "$PUZZLED_URL/combinations" | wc -c)
ours=$(best_time curl_time -d "$body" "$PUZZLED_URL/combinations")
peer=$(best_time python_stream)
printf 'stream all C(26,13) combinations (%s bytes) to curl\t%.3f\tpython3 itertools.combinations + json.dumps\t%s\ts\tlower\n' \
  "$bytes" "$ours" "$peer"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import json, sys
sys.set_int_max_str_digits(0)
items = list(range(100000))
rank = str(3 ** 60000)[:30000]  # a 30,000-digit rank, below C(100000, 50000) (30,100 digits)
json.dump({"items": items, "k": 50000, "rank": rank}, open(sys.argv[1] + "/unrank.json", "w"))
open(sys.argv[1] + "/rank.txt", "w").write(rank)
PY
unrank_ms() {
  curl -s -o "$dir/combination.json" -w '%{time_total}\n' --data-binary "@$dir/unrank.json" "$PUZZLED_URL/combination/unrank"
}
ours_unrank=$(best_time unrank_ms)
python3 - "$dir" <<'PY'
import json, sys
combination = json.load(open(sys.argv[1] + "/combination.json"))["combination"]
json.dump({"items": list(range(100000)), "combination": combination}, open(sys.argv[1] + "/rank.json", "w"))
PY
rank_ms() { curl -s -o "$dir/ranked.json" -w '%{time_total}\n' --data-binary "@$dir/rank.json" "$PUZZLED_URL/combination/rank"; }
ours_rank=$(best_time rank_ms)
grep -q "\"rank\":\"$(cat "$dir/rank.txt")\"" "$dir/ranked.json" || { echo "combinations bench: rank round trip failed" >&2; exit 1; }
peer=$(python3 - "$dir" <<'PY'
import sys, time
from math import comb
sys.set_int_max_str_digits(0)
n, k, rank = 100000, 50000, int(open(sys.argv[1] + "/rank.txt").read())

def walk_unrank(rank):
    # position j is taken when rank < C(n-1-j, r-1), the subsets that take it next
    out, r, j, w = [], k, 0, comb(n - 1, k - 1)
    while r > 0:
        a, b = n - 1 - j, r - 1
        if rank < w:
            out.append(j)
            r -= 1
            if r == 0:
                break
            w = w * b // a
        else:
            rank -= w
            w = w * (a - b) // a
        j += 1
    return out

def walk_rank(positions):
    rank, r, i, w = 0, k, 0, comb(n - 1, k - 1)
    for j in range(n):
        a, b = n - 1 - j, r - 1
        if positions[i] == j:
            i += 1
            r -= 1
            if r == 0:
                break
            w = w * b // a
        else:
            rank += w
            w = w * (a - b) // a
    return rank

best = []
for _ in range(3):
    start = time.perf_counter()
    positions = walk_unrank(rank)
    middle = time.perf_counter()
    assert walk_rank(positions) == rank
    best.append((middle - start, time.perf_counter() - middle))
print(f"{min(b[0] for b in best) * 1000:.0f} {min(b[1] for b in best) * 1000:.0f}")
PY
)
printf 'combination/unrank, k 50000 of 100000 items, over HTTP\t%.0f\tpython3 walk of the combinatorial number system\t%s\tms\tlower\n' \
  "$(echo "$ours_unrank * 1000" | bc -l)" "${peer% *}"
printf 'combination/rank, k 50000 of 100000 items, over HTTP\t%.0f\tpython3 walk of the combinatorial number system\t%s\tms\tlower\n' \
  "$(echo "$ours_rank * 1000" | bc -l)" "${peer#* }"
