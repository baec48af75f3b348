#!/usr/bin/env bash
# The seeded 10M shuffle over HTTP on several builds at once, interleaved: each binary given is started
# on a port of its own, nginx (bench/lib/static_nginx.sh) serves the first one's answer as a file,
# and each round sends one request to every server and one to nginx, so that load from elsewhere
# falls on all alike. Prints per request: the binary's index (or nginx), curl's time_total and
# time_starttransfer (ms), and the server's user + system CPU over the request (ms, from
# /proc/PID/stat: 10 ms ticks, read a median over many rounds).
# Usage: bench/random/interleaved.sh ROUNDS BINARY...
set -euo pipefail
rounds=$1
shift
. "$(dirname "$0")/../lib/static_nginx.sh"
body='{"n": 10000000, "seed": "1"}'
first_port=18710
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT
for ((k = 0; k < $#; k++)); do
  binary=${*:k+1:1}
  "$binary" --port $((first_port + k)) --client-rate 0 >/dev/null 2>&1 &
  pids+=($!)
done
cpu_ns() {
  local fields
  read -ra fields <"/proc/$1/stat"
  echo $(((fields[13] + fields[14]) * 10000000))
}
sleep 1
root=$(mktemp -d)
curl -sS -o "$root/shuffle.json" -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$first_port/shuffle"
static_nginx_start "$root"
trap 'cleanup; kill $STATIC_PID 2>/dev/null; rm -rf "$STATIC_PREFIX" "$root"' EXIT
for ((r = 0; r < rounds; r++)); do
  for ((k = 0; k < ${#pids[@]}; k++)); do
    before=$(cpu_ns "${pids[k]}")
    times=$(curl -sS -o /dev/null -w '%{time_total} %{time_starttransfer}' -H 'Content-Type: application/json' \
      -d "$body" "http://127.0.0.1:$((first_port + k))/shuffle")
    after=$(cpu_ns "${pids[k]}")
    echo "$k $times $((after - before))" | awk '{printf "%s total %.1f first_byte %.1f cpu %.0f\n", $1, $2 * 1000, $3 * 1000, $4 / 1e6}'
  done
  curl -sS -o /dev/null -w '%{time_total}\n' "$STATIC_URL/shuffle.json" | awk '{printf "nginx total %.1f\n", $1 * 1000}'
done
