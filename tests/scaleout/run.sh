#!/usr/bin/env bash
# Proves docker/nginx.conf without Docker: two puzzled replicas on free loopback ports behind Debian's
# nginx running that same file (only its `listen` line changed; upstream.conf written with the
# loopback addresses and the server parameters of docker/upstream.conf). Checks a correct answer from
# every endpoint through the proxy (check_answers.py), puts sustained wrk load on it (load.lua), kills
# one replica with SIGKILL in the middle, and requires zero failed requests: no socket error, no
# non-2xx status, no truncated body. Then checks every answer again through the one replica left.
#   tests/scaleout/run.sh PUZZLED_BIN
# Prints one line per check and `N passed, M failed` last; exits non-zero when a check failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
bin=$(realpath "${1:?usage: tests/scaleout/run.sh PUZZLED_BIN}")
load_seconds=8
kill_after_seconds=3
tmp=$(mktemp -d)
chmod 755 "$tmp" # nginx's workers run as nobody when the test runs as root
declare -a pids=()
nginx_pid=""
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() { # nginx gets SIGTERM, which takes its workers down with it; the rest SIGKILL
  [ -n "$nginx_pid" ] && kill -TERM "$nginx_pid" 2> /dev/null
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2> /dev/null; done
  wait 2> /dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
. tests/lib/checks.sh
finish() {
  checks_summary
  [ "$failed" -eq 0 ]
  exit
}

# --- Two replicas on free loopback ports.
declare -A replica_pid replica_port
for replica in a b; do
  "$bin" --host 127.0.0.1 --port 0 --client-rate 0 > "$tmp/$replica.out" 2> "$tmp/$replica.log" &
  replica_pid[$replica]=$!
  pids+=($!)
  for _ in $(seq 1 100); do
    replica_port[$replica]=$(sed -nE 's/^listening on http:\/\/127\.0\.0\.1:([0-9]+)$/\1/p' "$tmp/$replica.out")
    [ -n "${replica_port[$replica]}" ] && break
    sleep 0.05
  done
  check "replica $replica listens on 127.0.0.1:${replica_port[$replica]:-?}" test -n "${replica_port[$replica]}"
done
[ "$failed" -eq 0 ] || finish

# --- nginx with docker/nginx.conf: its own prefix under $tmp, upstream.conf for loopback.
mkdir "$tmp/nginx"
nginx_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -E "s/^( *)listen 8080;$/\1listen 127.0.0.1:$nginx_port;/" docker/nginx.conf > "$tmp/nginx/nginx.conf"
changed=$(diff docker/nginx.conf "$tmp/nginx/nginx.conf" | grep -c '^[<>]')
check "nginx runs docker/nginx.conf with only its listen line changed ($changed lines differ)" test "$changed" = 2
server_parameters=$(sed -nE 's/^server +[^ ]+ +(.*);$/\1/p' docker/upstream.conf | sed -E 's/(^| )resolve( |$)/\1/')
for replica in a b; do
  echo "server 127.0.0.1:${replica_port[$replica]} $server_parameters;"
done > "$tmp/nginx/upstream.conf"
echo "      upstream.conf: $(tr '\n' ' ' < "$tmp/nginx/upstream.conf")"
nginx -p "$tmp/nginx/" -c "$tmp/nginx/nginx.conf" -g 'daemon off;' \
  > "$tmp/nginx/access.log" 2> "$tmp/nginx/error.log" &
nginx_pid=$!
proxy="http://127.0.0.1:$nginx_port"
for _ in $(seq 1 100); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$proxy/healthz")" = 200 ] && break
  sleep 0.05
done
check "nginx answers /healthz on $proxy" test "$(curl -s "$proxy/healthz")" = '{"status":"ok"}'
if [ "$failed" -gt 0 ]; then sed 's/^/      | /' "$tmp/nginx/error.log"; finish; fi

# --- Correct answers from every endpoint through the proxy (lines "ok|FAIL name: detail").
check_answers() { # label
  local outcome rest
  while read -r outcome rest; do
    case $outcome in
      ok) pass "$1 $rest" ;;
      *) fail "$1 $rest" ;;
    esac
  done < <(python3 tests/scaleout/check_answers.py "$proxy" 2>&1)
}
check_answers "(two replicas)"

# --- The load: /healthz and every endpoint's cheap request, GET and POST.
load_candidates=(
  "GET /healthz"
  "GET /queens?n=6&mode=count"
  'POST /queens {"n":6,"mode":"count"}'
  "GET /permutations?text=abcd"
  'POST /permutation/rank {"text":"cadb"}'
  'POST /shuffle {"n":52,"seed":"1"}'
  "GET /knight-tour?n=5"
  'POST /word-ladder {"from":"cold","to":"warm"}'
)
load_requests=()
for spec in "${load_candidates[@]}"; do
  read -r method path body <<< "$spec"
  status=$(curl -s -o /dev/null -w '%{http_code}' -X "$method" ${body:+-d "$body"} "$proxy$path")
  case $status in
    2??) load_requests+=("$spec") ;;
    *) fail "load request $method $path answers $status before the load" ;;
  esac
done
echo "      load: ${#load_requests[@]} requests in turn, wrk -t2 -c8 for ${load_seconds}s; replica a gets SIGKILL after ${kill_after_seconds}s"
wrk -t2 -c8 -d"${load_seconds}s" --timeout 5s -s tests/scaleout/load.lua "$proxy" \
  "${load_requests[@]}" > "$tmp/wrk.out" 2>&1 &
wrk_pid=$!
pids+=("$wrk_pid")
sleep "$kill_after_seconds"
before_kill_a=$(wc -l < "$tmp/a.log")
before_kill_b=$(wc -l < "$tmp/b.log")
kill -KILL "${replica_pid[a]}"
wait "${replica_pid[a]}" 2> /dev/null
killed_status=$?
wait "$wrk_pid"
wrk_status=$?
after_kill_b=$(($(wc -l < "$tmp/b.log") - before_kill_b))

figure() { sed -nE "s/^$1 ([0-9.]+)$/\1/p" "$tmp/wrk.out" | head -n 1; }
requests=$(figure requests)
statuses=$(sed -nE 's/^status_([0-9]+) ([0-9]+)$/\1:\2/p' "$tmp/wrk.out" | sort | xargs)
not_2xx=$(sed -nE 's/^status_([0-9]+) ([0-9]+)$/\1 \2/p' "$tmp/wrk.out" | awk '$1 < 200 || $1 > 299 { n += $2 } END { print n + 0 }')
socket_errors=$(sed -nE 's/^error_(connect|read|write|timeout) ([0-9]+)$/\1=\2/p' "$tmp/wrk.out" | sort | xargs)
echo "      wrk: ${requests:-no} requests, statuses ${statuses:-none}, socket errors ${socket_errors:-?}, p99 $(figure latency_p99_ms) ms"
check "wrk ran its ${load_seconds}s (exit $wrk_status) and sent requests" test "$wrk_status" = 0 -a "${requests:-0}" -gt 0
check "both replicas took load before the kill (a: $before_kill_a, b: $before_kill_b requests)" \
  test "$before_kill_a" -gt 0 -a "$before_kill_b" -gt 0
check "replica a died of SIGKILL in the middle of the load (status $killed_status)" test "$killed_status" = 137
check "replica b went on answering after the kill ($after_kill_b requests)" test "$after_kill_b" -gt 100
check "zero non-2xx responses through nginx ($not_2xx)" test -n "$statuses" -a "$not_2xx" = 0
check "zero socket errors (${socket_errors:-none reported})" \
  test -n "$socket_errors" -a -z "$(grep -E '=[1-9]' <<< "$socket_errors")"
check "every 2xx body was a whole JSON document ($(figure incomplete_bodies) incomplete)" \
  test "$(figure incomplete_bodies)" = 0
retried=$(grep -c 'upstream=[^ ]*, ' "$tmp/nginx/access.log")
check "nginx retried requests on the other replica ($retried requests)" test "$retried" -gt 0

# --- Every answer again, through the one replica left; then nginx and the replica stop cleanly, in
# that order (nginx's idle keep-alive connections would hold the replica's drain to its full length).
check_answers "(one replica)"
kill -QUIT "$nginx_pid"
wait "$nginx_pid"
check "nginx stops gracefully on SIGQUIT" test $? = 0
nginx_pid=""
kill -TERM "${replica_pid[b]}"
wait "${replica_pid[b]}"
check "replica b stops cleanly on SIGTERM" test $? = 0
finish
