# shellcheck shell=bash disable=SC2154,SC2034 # $proxy and $tmp come from the script that sources it, which reads $slow_time_limit_ms
# Sourced by the scale-out tests (tests/scaleout/run.sh on loopback processes, tests/container/
# test_compose.sh on compose's containers): the checks they share, against nginx at $proxy, each
# asserting what the design guarantees, none depending on when a signal happens to land.
#   check_answers LABEL            every endpoint's answer through the proxy (check_answers.py)
#   load_with_a_kill REPLICA       wrk load, REPLICA SIGKILLed in the middle: zero failed requests,
#                                  every answer whole
#   retry_in_flight REPLICA        a slow request made sure to be computing on REPLICA when it is
#                                  killed: nginx retries it on another replica, the client gets it whole
#   check_http2 URL                nginx's TLS side at URL speaks HTTP/2 (curl --http2), a stream comes
#                                  whole through it, and progress events come as they are sent
# The caller defines, for a replica named REPLICA:
#   replicas                       an array of every replica's name
#   replica_log REPLICA            its stderr so far (its access log lines among others)
#   replica_metrics REPLICA        its /metrics text
#   replica_address REPLICA        its address as nginx's access log names it (host:port)
#   kill_replica REPLICA           sends it SIGKILL, waits for it to die, sets killed_status to its
#                                  exit status (137)
#   proxy_access_log               nginx's access log so far
# Needs tests/lib/checks.sh sourced, $proxy and $tmp set.
load_seconds=8
kill_after_seconds=3
# The slow request of retry_in_flight: a single-threaded N-Queens count, about 0.3 s on an idle core
# and a few seconds on a busy machine; 73,712 is OEIS A000170(13). The callers give the replicas a
# 20 s time limit ($slow_time_limit_ms): the one that takes the killed replica's request may compute
# three at once, and at a load average of 30 that went past the 10 s default once in 20 runs (503).
slow_time_limit_ms=20000
slow_path="/queens?n=13&mode=count&algorithm=backtracking"
slow_count=73712
# Guards a slow request that never starts computing on the replica (a routing or start-up failure):
# it starts within a second even on a busy machine.
slow_start_timeout_s=30
# Guards a client left hanging: nginx gives a request 30 s at most (proxy_next_upstream_timeout, its
# read timeout), so an answer not there after 60 s never comes.
slow_answer_timeout_s=60

check_answers() { # label
  local outcome rest
  while read -r outcome rest; do
    case $outcome in
      ok) pass "$1 $rest" ;;
      *) fail "$1 $outcome $rest" ;;
    esac
  done < <(python3 tests/scaleout/check_answers.py "$proxy" 2>&1)
}

# How many requests a replica has logged (its access log lines: "TIME METHOD PATH STATUS ...").
replica_requests() { # replica
  replica_log "$1" | grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[^ ]+ (GET|POST) '
}

# The requests every replica but $1 has logged, together.
other_replicas_requests() { # replica
  local name total=0
  for name in "${replicas[@]}"; do
    [ "$name" = "$1" ] || total=$((total + $(replica_requests "$name")))
  done
  echo "$total"
}

# The load: /healthz and the cheap requests of every endpoint whose answer has a Content-Length, GET
# and POST. Only those, because puzzled (libmicrohttpd) writes such an answer, header and body, in one
# writev: a replica killed by SIGKILL has then either sent nothing on that connection, and nginx retries
# the request on another replica (proxy_next_upstream error), or has sent the whole answer, which the
# kernel still delivers. A streamed (chunked) answer is written piece by piece: a kill between two
# pieces leaves nginx with a started answer that it can neither retry nor finish (no proxy can,
# whatever its buffering: nginx commits to an answer once its header has arrived), and the client
# sees a cut connection. That is the documented limit of streaming (docs/deployment.md, Scale-out),
# not a failure to count here; check_answers covers the streamed answers before and after the kill.
# Whether a request happens to be on the replica at the instant of the kill is luck, so the load
# asserts only what holds either way (no failed request, every answer whole); retry_in_flight makes
# sure of one.
load_candidates=(
  "GET /healthz"
  "GET /queens?n=6&mode=count"
  'POST /queens {"n":6,"mode":"count"}'
  'POST /permutation/rank {"text":"cadb"}'
  "GET /permutation/unrank?text=abcd&rank=13"
  'POST /shuffle {"n":52,"seed":"1"}'
  'POST /word-ladder {"from":"cold","to":"warm"}'
)

load_with_a_kill() { # replica
  local victim=$1 load_requests=() spec method path body headers
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
  echo "      load: ${#load_requests[@]} requests in turn, wrk -t2 -c8 for ${load_seconds}s; $victim gets SIGKILL after ${kill_after_seconds}s"
  # wrk's --timeout 5s: guards a request left hanging; nginx answers or fails over within 2 s (its
  # proxy_connect_timeout) of a replica's death, and the load's requests take milliseconds.
  wrk -t2 -c8 -d"${load_seconds}s" --timeout 5s -s tests/scaleout/load.lua "$proxy" \
    "${load_requests[@]}" > "$tmp/wrk.out" 2>&1 &
  local wrk_pid=$! wrk_status before_killed before_others after_others
  # Not a timing condition: only the order matters (the kill comes while wrk still runs).
  sleep "$kill_after_seconds"
  before_killed=$(replica_requests "$victim")
  before_others=$(other_replicas_requests "$victim")
  kill_replica "$victim"
  wait "$wrk_pid"
  wrk_status=$?
  after_others=$(($(other_replicas_requests "$victim") - before_others))

  local requests statuses not_2xx socket_errors retried
  figure() { sed -nE "s/^$1 ([0-9.]+)$/\1/p" "$tmp/wrk.out" | head -n 1; }
  requests=$(figure requests)
  statuses=$(sed -nE 's/^status_([0-9]+) ([0-9]+)$/\1:\2/p' "$tmp/wrk.out" | sort | xargs)
  not_2xx=$(sed -nE 's/^status_([0-9]+) ([0-9]+)$/\1 \2/p' "$tmp/wrk.out" | awk '$1 < 200 || $1 > 299 { n += $2 } END { print n + 0 }')
  socket_errors=$(sed -nE 's/^error_(connect|read|write|timeout) ([0-9]+)$/\1=\2/p' "$tmp/wrk.out" | sort | xargs)
  retried=$(proxy_access_log | grep -c 'upstream=[^ ]*, ')
  echo "      wrk: ${requests:-no} requests, statuses ${statuses:-none}, socket errors ${socket_errors:-?}, p99 $(figure latency_p99_ms) ms; nginx retried $retried"
  check "wrk ran its ${load_seconds}s (exit $wrk_status) and sent requests" test "$wrk_status" = 0 -a "${requests:-0}" -gt 0
  check "$victim and the other replicas took load before the kill ($before_killed, $before_others requests)" \
    test "$before_killed" -gt 0 -a "$before_others" -gt 0
  check "$victim died of SIGKILL in the middle of the load (status $killed_status)" test "$killed_status" = 137
  check "the other replicas went on answering after the kill ($after_others requests)" test "$after_others" -gt 0
  check "zero non-2xx responses through nginx ($not_2xx)" test -n "$statuses" -a "$not_2xx" = 0
  check "zero socket errors (${socket_errors:-none reported})" \
    test -n "$socket_errors" -a -z "$(grep -E '=[1-9]' <<< "$socket_errors")"
  check "every 2xx body was a whole JSON document ($(figure incomplete_bodies) incomplete)" \
    test "$(figure incomplete_bodies)" = 0
}

# nginx's retry of a request in flight on a replica that dies, made certain: one slow request per
# replica through nginx (least_conn gives each live replica at least one), then $1's /metrics is
# polled until its workers_busy gauge shows the slow request computing there (nothing else runs: the
# load is over, and the slow request is the only one that outlasts the express lane), and $1 is
# killed at once, while it computes for seconds more. nginx must retry that request on another
# replica, and every client must get the whole right answer.
retry_in_flight() { # replica
  local victim=$1 i curls=() busy="" status answers=0 address
  address=$(replica_address "$victim") # now: a dead container has no address any more
  for i in "${!replicas[@]}"; do
    curl -s -o "$tmp/slow-$i.body" -w '%{http_code}' --max-time "$slow_answer_timeout_s" "$proxy$slow_path" \
      > "$tmp/slow-$i.status" 2>&1 &
    curls+=($!)
  done
  for _ in $(seq 1 $((slow_start_timeout_s * 20))); do
    busy=$(replica_metrics "$victim" | sed -nE 's/^puzzled_workers_busy ([0-9]+)$/\1/p')
    [ "${busy:-0}" -gt 0 ] && break
    sleep 0.05
  done
  check "a slow request ($slow_path) is computing on $victim (puzzled_workers_busy ${busy:-?})" test "${busy:-0}" -gt 0
  kill_replica "$victim"
  check "$victim died of SIGKILL with the slow request unanswered (status $killed_status)" test "$killed_status" = 137
  for i in "${!curls[@]}"; do
    wait "${curls[$i]}"
    status=$(cat "$tmp/slow-$i.status")
    if [ "$status" = 200 ] && grep -qE "^\{\"kind\":\"queens_count\",\"n\":13,.*\"total\":\"$slow_count\"\}$" "$tmp/slow-$i.body"; then
      answers=$((answers + 1))
    else
      echo "      slow request $i: status $status, $(head -c 300 "$tmp/slow-$i.body")"
    fi
  done
  check "every slow request got the whole right answer through nginx ($answers of ${#curls[@]}: count $slow_count)" \
    test "$answers" = "${#curls[@]}"
  # The slow request's line in nginx's access log: the replicas tried, the victim among them and
  # another after it, and 200 from the last.
  local retry_line
  retry_line=$(proxy_access_log | grep -F "GET $slow_path " |
    grep -E "upstream=([^ ]+, )*${address//./\\.}, [^ ]+.* upstream_status=[0-9, ]*200 upstream_time" | head -n 1)
  check "nginx retried the request in flight on $victim ($address) on another replica: ${retry_line#*upstream=}" \
    test -n "$retry_line"
}

# The progress stream of check_http2: the solutions of an empty 9 x 9 grid counted up to a billion,
# which no machine reaches in the 3 s limit (there are 6.7 x 10^21), so progress events come every
# 250 ms and the last event (at the limit) comes about 3 s after the first.
progress_path="/sudoku/solve?puzzle=$(printf '.%.0s' $(seq 81))&count_limit=1000000000&time_limit_ms=3000"
# nginx passes each event on as it comes (proxy_buffering off): the first progress event reaches the
# client long before the last. Buffered, every line would arrive within a moment of the last.
progress_spread_s=1

check_http2() { # https-url
  local version lines spread
  version=$(curl -sk --http2 --max-time "$slow_answer_timeout_s" -o /dev/null -w '%{http_version}' "$1/healthz")
  check "nginx speaks HTTP/2 over TLS at $1 (HTTP/$version)" test "$version" = 2
  lines=$(curl -sk --http2 --max-time "$slow_answer_timeout_s" -H 'Accept: application/x-ndjson' \
    "$1/permutations?items=1,2,3,4,5,6,7,8" | wc -l)
  check "an NDJSON stream of 8! permutations comes whole over HTTP/2 ($lines lines)" test "$lines" = 40320
  curl -sk --http2 -N --max-time "$slow_answer_timeout_s" -H 'Accept: text/event-stream' "$1$progress_path" |
    while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done > "$tmp/http2-events"
  spread=$(awk '$2 == "event:" && $3 == "progress" && !first { first = $1 } $2 == "event:" { last = $1 }
    END { if (first) printf "%.2f", last - first; else print "none" }' "$tmp/http2-events")
  check "progress events pass through HTTP/2 as they come (first to last event: $spread s)" \
    awk -v spread="$spread" -v least="$progress_spread_s" 'BEGIN { exit !(spread != "none" && spread >= least) }'
}
