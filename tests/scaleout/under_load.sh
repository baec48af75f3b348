# shellcheck shell=bash disable=SC2154 # $proxy and $tmp come from the script that sources it
# Sourced by the scale-out tests (tests/scaleout/run.sh on loopback processes, tests/container/
# test_compose.sh on compose's containers): the checks they share, against nginx at $proxy.
#   check_answers LABEL         every endpoint's answer through the proxy (check_answers.py)
#   load_with_a_kill            wrk load, one replica SIGKILLed in the middle, zero failed requests
# load_with_a_kill calls three functions the caller defines:
#   replica_requests killed|others   how many requests the replica to kill / the others have logged
#   kill_replica                     SIGKILL the replica; sets killed_status to the status it died with
#   proxy_access_log                 nginx's access log so far
# Needs tests/lib/checks.sh sourced, $proxy and $tmp set.
load_seconds=8
kill_after_seconds=3

check_answers() { # label
  local outcome rest
  while read -r outcome rest; do
    case $outcome in
      ok) pass "$1 $rest" ;;
      *) fail "$1 $outcome $rest" ;;
    esac
  done < <(python3 tests/scaleout/check_answers.py "$proxy" 2>&1)
}

# The load: /healthz and the cheap requests of every endpoint whose answer has a Content-Length, GET
# and POST. Only those, because puzzled (libmicrohttpd) writes such an answer, header and body, in one
# writev: a replica killed by SIGKILL has then either sent nothing on that connection, and nginx retries
# the request on another replica (proxy_next_upstream error), or has sent the whole answer, which the
# kernel still delivers. A streamed (chunked) answer is written piece by piece: a kill between two
# pieces leaves nginx with a started answer that it can neither retry nor finish (no proxy can,
# whatever its buffering: nginx commits to an answer once its header has arrived), and the client
# sees a cut connection. That is the documented limit of streaming (docs/operations.md, Scale-out),
# not a failure to count here; check_answers covers the streamed answers before and after the kill.
load_candidates=(
  "GET /healthz"
  "GET /queens?n=6&mode=count"
  'POST /queens {"n":6,"mode":"count"}'
  'POST /permutation/rank {"text":"cadb"}'
  "GET /permutation/unrank?text=abcd&rank=13"
  'POST /shuffle {"n":52,"seed":"1"}'
  'POST /word-ladder {"from":"cold","to":"warm"}'
)

load_with_a_kill() {
  local load_requests=() spec method path body headers
  for spec in "${load_candidates[@]}"; do
    read -r method path body <<< "$spec"
    headers=$(curl -s -D - -o /dev/null -X "$method" ${body:+-d "$body"} "$proxy$path" | tr -d '\r')
    if ! grep -qE '^HTTP/[0-9.]+ 2[0-9][0-9]' <<< "$headers"; then
      fail "load request $method $path answers $(head -n 1 <<< "$headers") before the load"
    elif ! grep -qi '^content-length: ' <<< "$headers"; then
      fail "load request $method $path is answered without Content-Length (streamed): it cannot be in the load"
    else
      load_requests+=("$spec")
    fi
  done
  echo "      load: ${#load_requests[@]} requests in turn, wrk -t2 -c8 for ${load_seconds}s; a replica gets SIGKILL after ${kill_after_seconds}s"
  wrk -t2 -c8 -d"${load_seconds}s" --timeout 5s -s tests/scaleout/load.lua "$proxy" \
    "${load_requests[@]}" > "$tmp/wrk.out" 2>&1 &
  local wrk_pid=$! wrk_status before_killed before_others after_others
  sleep "$kill_after_seconds"
  before_killed=$(replica_requests killed)
  before_others=$(replica_requests others)
  kill_replica
  wait "$wrk_pid"
  wrk_status=$?
  after_others=$(($(replica_requests others) - before_others))

  local requests statuses not_2xx socket_errors retried
  figure() { sed -nE "s/^$1 ([0-9.]+)$/\1/p" "$tmp/wrk.out" | head -n 1; }
  requests=$(figure requests)
  statuses=$(sed -nE 's/^status_([0-9]+) ([0-9]+)$/\1:\2/p' "$tmp/wrk.out" | sort | xargs)
  not_2xx=$(sed -nE 's/^status_([0-9]+) ([0-9]+)$/\1 \2/p' "$tmp/wrk.out" | awk '$1 < 200 || $1 > 299 { n += $2 } END { print n + 0 }')
  socket_errors=$(sed -nE 's/^error_(connect|read|write|timeout) ([0-9]+)$/\1=\2/p' "$tmp/wrk.out" | sort | xargs)
  echo "      wrk: ${requests:-no} requests, statuses ${statuses:-none}, socket errors ${socket_errors:-?}, p99 $(figure latency_p99_ms) ms"
  check "wrk ran its ${load_seconds}s (exit $wrk_status) and sent requests" test "$wrk_status" = 0 -a "${requests:-0}" -gt 0
  check "the replica to kill and the others took load before the kill ($before_killed, $before_others requests)" \
    test "$before_killed" -gt 0 -a "$before_others" -gt 0
  check "the replica died of SIGKILL in the middle of the load (status $killed_status)" test "$killed_status" = 137
  check "the other replicas went on answering after the kill ($after_others requests)" test "$after_others" -gt 100
  check "zero non-2xx responses through nginx ($not_2xx)" test -n "$statuses" -a "$not_2xx" = 0
  check "zero socket errors (${socket_errors:-none reported})" \
    test -n "$socket_errors" -a -z "$(grep -E '=[1-9]' <<< "$socket_errors")"
  check "every 2xx body was a whole JSON document ($(figure incomplete_bodies) incomplete)" \
    test "$(figure incomplete_bodies)" = 0
  retried=$(proxy_access_log | grep -c 'upstream=[^ ]*, ')
  check "nginx retried requests on another replica ($retried requests)" test "$retried" -gt 0
}
