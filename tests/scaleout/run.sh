#!/usr/bin/env bash
# Proves docker/nginx.conf without Docker: three puzzled replicas on free loopback ports (as many as
# docker/compose.yaml runs) behind Debian's nginx running that same file and docker/nginx-tls.conf
# (only their `listen` lines changed; upstream.conf written with the loopback addresses and the server parameters of
# docker/upstream.conf; a self-signed certificate by docker/self-signed-certificate.sh), HTTP/2 over
# its TLS side (check_http2). Checks a correct answer from every endpoint through the proxy
# (check_answers.py), puts sustained wrk load on it (load.lua), kills replica a with SIGKILL in the
# middle, and requires zero failed requests: no socket error, no non-2xx status, no truncated body;
# then kills replica b while a slow request is known to be computing on it, and requires nginx to
# retry that request on c and the client to get it whole (under_load.sh, shared with
# tests/container/test_compose.sh, which runs the same checks on docker/compose.yaml). Then checks
# every answer again through the one replica left.
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
. tests/scaleout/under_load.sh
finish() {
  checks_summary
  [ "$failed" -eq 0 ]
  exit
}

# --- Three replicas on free loopback ports.
replicas=(a b c)
declare -A replica_pid replica_port
for replica in "${replicas[@]}"; do
  "$bin" --host 127.0.0.1 --port 0 --client-rate 0 --time-limit-ms "$slow_time_limit_ms" \
    > "$tmp/$replica.out" 2> "$tmp/$replica.log" &
  replica_pid[$replica]=$!
  pids+=($!)
  for _ in $(seq 1 600); do # 30 s: guards a replica that never starts (it takes well under a second)
    replica_port[$replica]=$(sed -nE 's/^listening on http:\/\/127\.0\.0\.1:([0-9]+)$/\1/p' "$tmp/$replica.out" 2> /dev/null)
    [ -n "${replica_port[$replica]}" ] && break
    sleep 0.05
  done
  check "replica $replica listens on 127.0.0.1:${replica_port[$replica]:-?}" test -n "${replica_port[$replica]}"
done
[ "$failed" -eq 0 ] || finish

# --- nginx with docker/nginx.conf: its own prefix under $tmp, upstream.conf for loopback.
mkdir "$tmp/nginx"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
nginx_port=$(free_port)
tls_port=$(free_port)
sed -E "s/^( *)listen 8080;$/\1listen 127.0.0.1:$nginx_port;/" docker/nginx.conf > "$tmp/nginx/nginx.conf"
sed -E "s/^listen 8443 ssl http2;$/listen 127.0.0.1:$tls_port ssl http2;/" docker/nginx-tls.conf > "$tmp/nginx/nginx-tls.conf"
changed=$(diff docker/nginx.conf "$tmp/nginx/nginx.conf" | grep -c '^[<>]')
changed_tls=$(diff docker/nginx-tls.conf "$tmp/nginx/nginx-tls.conf" | grep -c '^[<>]')
check "nginx runs docker/nginx.conf and nginx-tls.conf with only their listen lines changed ($changed and $changed_tls lines differ)" \
  test "$changed" = 2 -a "$changed_tls" = 2
TLS_DIR=$tmp/nginx/tls docker/self-signed-certificate.sh > /dev/null
server_parameters=$(sed -nE 's/^server +[^ ]+ +(.*);$/\1/p' docker/upstream.conf | sed -E 's/(^| )resolve( |$)/\1/')
for replica in "${replicas[@]}"; do
  echo "server 127.0.0.1:${replica_port[$replica]} $server_parameters;"
done > "$tmp/nginx/upstream.conf"
echo "      upstream.conf: $(tr '\n' ' ' < "$tmp/nginx/upstream.conf")"
nginx -p "$tmp/nginx/" -c "$tmp/nginx/nginx.conf" -g 'daemon off;' \
  > "$tmp/nginx/access.log" 2> "$tmp/nginx/error.log" &
nginx_pid=$!
proxy="http://127.0.0.1:$nginx_port"
for _ in $(seq 1 600); do # 30 s: guards an nginx that never starts (it takes well under a second)
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$proxy/healthz")" = 200 ] && break
  sleep 0.05
done
check "nginx answers /healthz on $proxy" test "$(curl -s "$proxy/healthz")" = '{"status":"ok"}'
if [ "$failed" -gt 0 ]; then sed 's/^/      | /' "$tmp/nginx/error.log"; finish; fi

# --- Correct answers from every endpoint through the proxy, then the load with a kill and the retry
# of a request in flight (under_load.sh).
replica_log() { cat "$tmp/$1.log"; }
replica_metrics() { curl -s --max-time 5 "http://127.0.0.1:${replica_port[$1]}/metrics"; }
replica_address() { echo "127.0.0.1:${replica_port[$1]}"; }
kill_replica() {
  kill -KILL "${replica_pid[$1]}"
  wait "${replica_pid[$1]}" 2> /dev/null
  killed_status=$?
}
proxy_access_log() { cat "$tmp/nginx/access.log"; }
check_answers "(three replicas)"
check_http2 "https://127.0.0.1:$tls_port"
load_with_a_kill a
retry_in_flight b

# --- Every answer again, through the one replica left; then nginx and the replica stop cleanly, in
# that order (nginx's idle keep-alive connections would hold the replica's drain to its full length).
check_answers "(one replica)"
kill -QUIT "$nginx_pid"
wait "$nginx_pid"
check "nginx stops gracefully on SIGQUIT" test $? = 0
nginx_pid=""
kill -TERM "${replica_pid[c]}"
wait "${replica_pid[c]}"
check "replica c stops cleanly on SIGTERM" test $? = 0
finish
