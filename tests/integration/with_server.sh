#!/usr/bin/env bash
# Runs one integration-test binary against one shared puzzled: starts the server on a free port,
# passes its URL in PUZZLED_URL, then stops it with SIGTERM and requires a clean exit (status 0, and
# under the sanitizers no report), so every test binary also checks shutdown and leaks.
set -u
bin=$1; shift
log=$(mktemp)
# --time-limit-ms 600000: the tests' own computations (the largest: unranking 100,000 items, solving
# thousands of puzzles) must not meet the 10 s default on a busy machine under ASan; the tests of time
# limits ask for theirs with time_limit_ms.
"$PUZZLED_BIN" --host 127.0.0.1 --port 0 --client-rate 0 --time-limit-ms 600000 > "$log.out" 2> "$log" &
server=$!
# Waits until the server says where it listens, or exits. The guard, 120 s stretched by
# PUZZLED_TEST_TIME_SCALE (the tsan stage's slower build), only stops a server that hangs at start-up:
# a sanitizer build on a loaded machine may take far longer than its usual 2 s to calibrate.
tries=$(awk -v scale="${PUZZLED_TEST_TIME_SCALE:-1}" 'BEGIN { printf "%d", 2400 * scale }')
for _ in $(seq 1 "$tries"); do
  grep -q '^listening on ' "$log.out" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.05
done
url=$(sed -n 's/^listening on //p' "$log.out")
if [ -z "$url" ]; then
  kill -KILL "$server" 2>/dev/null
  wait "$server" 2>/dev/null
  echo "puzzled did not start:"
  cat "$log"
  rm -f "$log" "$log.out"
  exit 1
fi
PUZZLED_URL=$url "$bin" "$@"
tests=$?
kill -TERM "$server"
wait "$server"
server_status=$?
if [ "$server_status" -ne 0 ] || grep -qE 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:|WARNING: ThreadSanitizer' "$log"; then
  echo "puzzled exited with status $server_status; its stderr (last 60 lines):"
  tail -n 60 "$log"
  tests=1
fi
rm -f "$log" "$log.out"
exit $tests
