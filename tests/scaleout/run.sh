#!/usr/bin/env bash
# Proves docker/nginx.conf without Docker: two puzzled replicas on free loopback ports behind Debian's
# nginx running that same file (only its `listen` line changed; upstream.conf written with the
# loopback addresses and the server parameters of docker/upstream.conf). Checks a correct answer from
# every endpoint through the proxy (check_answers.py), puts sustained wrk load on it (load.lua), kills
# one replica with SIGKILL in the middle, and requires zero failed requests: no socket error, no
# non-2xx status, no truncated body (under_load.sh, shared with tests/container/test_compose.sh,
# which runs the same checks on docker/compose.yaml). Then checks every answer again through the one
# replica left.
#   tests/scaleout/run.sh PUZZLED_BIN
# Prints one line per check and `N passed, M failed` last; exits non-zero when a check failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
bin=$(realpath "${1:?usage: tests/scaleout/run.sh PUZZLED_BIN}")
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
    replica_port[$replica]=$(sed -nE 's/^listening on http:\/\/127\.0\.0\.1:([0-9]+)$/\1/p' "$tmp/$replica.out" 2> /dev/null)
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

# --- Correct answers from every endpoint through the proxy, then the load with a kill (under_load.sh).
. tests/scaleout/under_load.sh
replica_requests() { # killed|others: access-log lines of replica a / b so far
  if [ "$1" = killed ]; then wc -l < "$tmp/a.log"; else wc -l < "$tmp/b.log"; fi
}
kill_replica() {
  kill -KILL "${replica_pid[a]}"
  wait "${replica_pid[a]}" 2> /dev/null
  killed_status=$?
}
proxy_access_log() { cat "$tmp/nginx/access.log"; }
check_answers "(two replicas)"
load_with_a_kill

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
