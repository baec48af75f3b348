#!/usr/bin/env bash
# /permutation/rank and /unrank of a million items over HTTP (issue 32's goals: rank and unrank of
# 10^6 distinct items under 1 s each, the rank of 10^6 letters of a 26-letter text under 0.5 s):
#  - rank of a seeded shuffle of 0..999999 (a 7.9 MB JSON body in, the 5,565,709-digit rank and the
#    total out), unrank of that rank (the round trip checked), and the rank of 10^6 seeded letters;
#  - each the median of 3 wall times (curl's time_total), with the server's CPU seconds for the
#    request (from /proc, user + system, all threads) in the measure's name, since a loaded machine
#    stretches wall times;
#  - the peer, in the same run: GMP's plain single-threaded decimal conversion of the same numbers
#    (bench_rank convert: mpz_get_str of the rank and the total for rank; mpz_set_str of the rank and
#    mpz_get_str of the total for unrank), a part of the work every such request does.
# Runs its own server ($PUZZLED_BIN) on a free port: these bodies are above the default --max-body.
set -euo pipefail
dir=$(mktemp -d)
"$PUZZLED_BIN" --host 127.0.0.1 --port 0 --client-rate 0 --max-body 67108864 --time-limit-ms 120000 \
  > "$dir/server.out" 2> "$dir/server.err" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 200); do grep -q '^listening on ' "$dir/server.out" && break; sleep 0.05; done
url=$(sed -n 's/^listening on //p' "$dir/server.out")
converter=$(dirname "$PUZZLED_BIN")/bench/bench_rank

python3 - "$dir" <<'PY'
import json, random, sys
r = random.Random(32)
items = list(range(10**6))
r.shuffle(items)
json.dump({"permutation": items}, open(sys.argv[1] + "/rank.json", "w"))
text = "".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(10**6))
json.dump({"text": text}, open(sys.argv[1] + "/text.json", "w"))
PY

cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
# Median of 3 (wall seconds) and the median server CPU seconds of: POST $1 to $2, answer in $3.
measure() {
  local walls=() cpus=()
  for _ in 1 2 3; do
    local before after
    before=$(cpu_ticks)
    walls+=("$(curl -s -o "$3" -w '%{time_total}' -H 'Content-Type: application/json' --data-binary "@$1" "$url$2")")
    after=$(cpu_ticks)
    cpus+=("$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", t / hz}')")
  done
  printf '%s %s\n' "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n 2p)" "$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n 2p)"
}
# Writes the "rank" and "total" strings of answer $1 to $2.rank and $2.total.
numbers() {
  python3 - "$1" "$2" <<'PY'
import json, sys
answer = json.load(open(sys.argv[1]))
open(sys.argv[2] + ".rank", "w").write(answer["rank"])
open(sys.argv[2] + ".total", "w").write(answer["total"])
PY
}

read -r rank_wall rank_cpu < <(measure "$dir/rank.json" /permutation/rank "$dir/rank.out")
numbers "$dir/rank.out" "$dir/distinct"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
json.dump({"items": list(range(10**6)), "rank": open(d + "/distinct.rank").read()}, open(d + "/unrank.json", "w"))
PY
read -r unrank_wall unrank_cpu < <(measure "$dir/unrank.json" /permutation/unrank "$dir/unrank.out")
python3 - "$dir" <<'PY' || { echo "rank bench: the unrank of the rank is not the ranked permutation" >&2; exit 1; }
import json, sys
d = sys.argv[1]
sys.exit(json.load(open(d + "/unrank.out"))["permutation"] != json.load(open(d + "/rank.json"))["permutation"])
PY
read -r text_wall text_cpu < <(measure "$dir/text.json" /permutation/rank "$dir/text.out")
numbers "$dir/text.out" "$dir/text"

read -r rank_set rank_get < <("$converter" convert "$dir/distinct.rank" | tail -1)
read -r _ total_get < <("$converter" convert "$dir/distinct.total")
read -r _ text_rank_get < <("$converter" convert "$dir/text.rank")
read -r _ text_total_get < <("$converter" convert "$dir/text.total")
digits=$(wc -c < "$dir/distinct.rank")
sum() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a + b}'; }
printf 'rank of 10^6 distinct items over HTTP, %s-digit rank (median of 3; server CPU %s s)\t%.3f\tGMP mpz_get_str of the rank and the total, 1 thread\t%s\ts\tlower\n' \
  "$digits" "$rank_cpu" "$rank_wall" "$(sum "$rank_get" "$total_get")"
printf 'unrank of a %s-digit rank of 10^6 distinct items over HTTP (median of 3; server CPU %s s)\t%.3f\tGMP mpz_set_str of the rank + mpz_get_str of the total, 1 thread\t%s\ts\tlower\n' \
  "$digits" "$unrank_cpu" "$unrank_wall" "$(sum "$rank_set" "$total_get")"
printf 'rank of 10^6 letters of a 26-letter text over HTTP (median of 3; server CPU %s s)\t%.3f\tGMP mpz_get_str of the rank and the total, 1 thread\t%s\ts\tlower\n' \
  "$text_cpu" "$text_wall" "$(sum "$text_rank_get" "$text_total_get")"
