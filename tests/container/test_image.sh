#!/usr/bin/env bash
# The image for real: runs IMAGE (built from the Dockerfile by tests/container/run.sh) with the
# machine's container engine, on bridge networking with a published loopback port and a read-only root
# filesystem, and checks what a user relies on: every endpoint answers correctly (check_answers.py,
# the scale-out test's independent references), it runs as a non-root user, the image's HEALTHCHECK
# works, the image holds only the runtime (no compiler or -dev package; its own layers measured),
# flags and PUZZLED_* variables reach the service, and a stop (SIGTERM) lets a request in flight finish
# whole and exits 0.
#   tests/container/test_image.sh IMAGE
# Prints one line per check and `N passed, M failed` last; exits non-zero when a check failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
image=${1:?usage: tests/container/test_image.sh IMAGE}
. tests/lib/checks.sh
. tests/container/engine.sh
select_engine || { echo "FAIL  no container engine: $engine_why"; exit 1; }
name="puzzled-test-image-$$"
tmp=$(mktemp -d)
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  "$engine" rm -f -t 0 "$name" > /dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# --- What the image holds.
megabytes() { awk -v bytes="$1" 'BEGIN { printf "%.1f", bytes / 1000000 }'; }
image_bytes=$("$engine" image inspect --format '{{.Size}}' "$image")
base_bytes=$("$engine" image inspect --format '{{.Size}}' "$base_image")
own_bytes=$((image_bytes - base_bytes))
echo "      image $image: $(megabytes "$image_bytes") MB, of which $(megabytes "$own_bytes") MB are its own layers over $base_image ($(megabytes "$base_bytes") MB)"
# The runtime libraries, the word list and the executable: about 12 MB on Debian; 40 MB leaves room
# for a new library but not for a toolchain (gcc alone is over 100 MB) or a leftover apt cache.
check "the image's own layers stay small: $(megabytes "$own_bytes") MB (at most 40 MB)" test "$own_bytes" -le 40000000
in_image() { "$engine" run --rm --user 0 --entrypoint /bin/sh "$image" -c "$1" 2> /dev/null; }
# shellcheck disable=SC2016 # expanded by the container's shell
toolchain=$(in_image 'for tool in cc gcc g++ c++ clang ld as make cmake pkg-config apt-get; do command -v $tool; done')
check "no compiler, linker or build tool in the image (found: ${toolchain:-none}; apt-get is Debian's own)" \
  test "$toolchain" = /usr/bin/apt-get
dev_packages=$(in_image "dpkg-query -W -f '\${Package}\n' | grep -E -- '-dev(:|\$)' | xargs")
check "no -dev package installed (found: ${dev_packages:-none})" test -z "$dev_packages"
apt_leftovers=$(in_image 'find /var/lib/apt/lists /var/cache/apt -type f ! -name lock | wc -l')
check "no apt package lists or caches left in the image ($apt_leftovers files)" test "$apt_leftovers" = 0
healthcheck=$("$engine" image inspect --format '{{json .Config.Healthcheck}}' "$image" 2> /dev/null)
check "the image keeps its HEALTHCHECK (docker format): $healthcheck" grep -q -- '--health-check' <<< "$healthcheck"

# --- A container as a user would run it: published port, read-only root, a flag and variables.
port=$(free_port)
# The limits chosen are above what check_answers.py asks (52 shuffle items, a 6x6 board) and low
# enough to test: the flag's and the variable's effect is seen in the answers. PUZZLED_DRAIN_MS is
# above the stop check's stream; the stop timeout above the drain.
"$engine" run -d --name "$name" --read-only -p "127.0.0.1:$port:8080" \
  -e PUZZLED_MAX_SHUFFLE_ITEMS=60 -e PUZZLED_DRAIN_MS=30000 \
  "$image" --max-board-squares 40 > /dev/null 2> "$tmp/run.err"
check "the container starts (--read-only, port 127.0.0.1:$port published)" test $? = 0
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] && break
  sleep 0.1
done
check "/healthz answers {\"status\":\"ok\"} through the published port" \
  test "$(curl -s "$base/healthz")" = '{"status":"ok"}'
check "/readyz answers {\"status\":\"ready\"}" test "$(curl -s "$base/readyz")" = '{"status":"ready"}'
check "/openapi.yaml is served" grep -q '^openapi: ' <(curl -s "$base/openapi.yaml")
while read -r outcome rest; do
  case $outcome in
    ok) pass "(container) $rest" ;;
    *) fail "(container) $outcome $rest" ;;
  esac
done < <(python3 tests/scaleout/check_answers.py "$base" 2>&1)

user=$("$engine" exec "$name" id -u 2> /dev/null)
process_user=$("$engine" exec "$name" sh -c "awk '/^Uid:/ { print \$2 }' /proc/1/status" 2> /dev/null)
check "the service runs as uid 10001, not root (exec: ${user:-?}, PID 1: ${process_user:-?})" \
  test "$user" = 10001 -a "$process_user" = 10001
check "the root filesystem is read-only (a write to / fails)" \
  test "$("$engine" exec --user 0 "$name" sh -c 'touch /probe 2> /dev/null && echo written || echo refused')" = refused

container_health "$name"
check "the image's HEALTHCHECK passes ($health)" test "$health_status" = 0
check "puzzled --health-check in the container prints healthy" \
  test "$("$engine" exec "$name" puzzled --health-check 2> /dev/null)" = healthy

status_of() { curl -s -o /dev/null -w '%{http_code}' "$base$1"; }
check "PUZZLED_MAX_SHUFFLE_ITEMS=60 reaches the service (n=60: $(status_of '/shuffle?n=60'), n=61: $(status_of '/shuffle?n=61'))" \
  test "$(status_of '/shuffle?n=60')" = 200 -a "$(status_of '/shuffle?n=61')" = 422
check "the flag --max-board-squares 40 reaches the service (6x6: $(status_of '/knight-tour?n=6'), 7x7: $(status_of '/knight-tour?n=7'))" \
  test "$(status_of '/knight-tour?n=6')" = 200 -a "$(status_of '/knight-tour?n=7')" = 422

# --- Stop: a stream in flight (all 10! arrangements as NDJSON, 47 MB read at 16 MB/s, so about 3 s)
# when the engine's stop sends SIGTERM: the service must finish it during the drain and exit 0.
curl -s --limit-rate 16M -H 'Accept: application/x-ndjson' "$base/permutations?text=abcdefghij" \
  -o "$tmp/stream" &
stream_pid=$!
sleep 0.5
lines_at_stop=$(wc -l < "$tmp/stream")
"$engine" stop -t 60 "$name" > /dev/null 2>&1
wait "$stream_pid"
stream_status=$?
lines=$(wc -l < "$tmp/stream")
exit_code=$("$engine" inspect --format '{{.State.ExitCode}}' "$name")
"$engine" logs "$name" 2>&1 | grep -vE 'systemd connection' > "$tmp/log"
check "stop sends SIGTERM and the service drains: $(grep -o 'finishing in-flight.*' "$tmp/log")" \
  grep -q 'finishing in-flight requests' "$tmp/log"
# The stream's access-log line comes after the SIGTERM line: it ended during the drain, all bytes sent.
finished=$(sed -n '/Terminated received/,$p' "$tmp/log" | grep -E ' GET /permutations 200 47174400 .* ok ')
check "the stream in flight at the stop ($lines_at_stop of 3628800 lines in) is finished during the drain: ${finished:-not in the log}" \
  test "$lines_at_stop" -lt 3628800 -a -n "$finished"
check "the service then exits 0 (exit code $exit_code)" test "$exit_code" = 0
[ "$failed" = 0 ] || sed 's/^/      log | /' "$tmp/log" | tail -n 6
# What the client receives, whole: a container's network namespace goes away with its last process,
# so the stop must wait until the answer has left the kernel's send queue before it closes the
# connection (server/open_sockets.h); otherwise the client gets all but its last megabytes.
check "the client received the stream whole ($lines of 3628800 lines, curl exit $stream_status)" \
  test "$stream_status" = 0 -a "$lines" = 3628800 -a "$(tail -n 1 "$tmp/stream")" = '"jihgfedcba"'

checks_summary
[ "$failed" -eq 0 ]
