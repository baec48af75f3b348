#!/usr/bin/env bash
# /word-ladder over HTTP against a running puzzled (PUZZLED_URL), client-side time (curl time_total,
# keep-alive, loopback): a typical 5-letter query (mean over 200 random pairs of 5-letter words of the
# built-in list), and a POST carrying its own 40,000-word dictionary (random 6-letter words over 7
# letters, about 280 KB of JSON; mean of 10). No peer here: bench_ladder compares the same work in
# process against simple peers.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$PUZZLED_URL" "$work" <<'PY'
import json, random, sys
url, work = sys.argv[1], sys.argv[2]
rng = random.Random(5)
words = sorted({w for w in open("/usr/share/dict/words", encoding="utf-8").read().split("\n")
                if len(w) == 5 and w.isascii() and w.isalpha() and w.islower()})
with open(f"{work}/queries.txt", "w") as f:
    for _ in range(200):
        f.write(f'url = "{url}/word-ladder?from={rng.choice(words)}&to={rng.choice(words)}"\n')
        f.write('output = "/dev/null"\n')
custom = ["".join(rng.choice("abcdefg") for _ in range(6)) for _ in range(40000)]
with open(f"{work}/custom.json", "w") as f:
    json.dump({"from": custom[0], "to": custom[1], "dictionary": custom}, f)
PY

mean_ms() { awk '{ sum += $1; n++ } END { printf "%.3f", 1000 * sum / n }'; }

query=$(curl -s -K "$work/queries.txt" -w '%{time_total}\n' | mean_ms)
status=$(curl -s -o /dev/null -w '%{http_code}' --data-binary @"$work/custom.json" "$PUZZLED_URL/word-ladder")
[ "$status" = 200 ] || { echo "the 40,000-word request answered $status" >&2; exit 1; }
custom=$(for _ in $(seq 1 10); do
  curl -s -o /dev/null -w '%{time_total}\n' --data-binary @"$work/custom.json" "$PUZZLED_URL/word-ladder"
done | mean_ms)

printf 'word-ladder 5-letter query over HTTP (GET, keep-alive, mean of 200 random pairs)\t%s\t-\t-\tms\tlower\n' "$query"
printf 'word-ladder POST with its own 40,000-word dictionary over HTTP (mean of 10)\t%s\t-\t-\tms\tlower\n' "$custom"
