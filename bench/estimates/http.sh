#!/usr/bin/env bash
# Each estimated endpoint's estimate against the time of the work it estimates, over HTTP: queens
# counts of n = 15 to 18 (and the time of n = 19's refusal under the default 10 s limit), ranks and unranks of 2^16, 2^18 and 10^6 distinct items (a seeded shuffle),
# knight's tours of 1000 x 1000 and 2000 x 2000 (open and closed, from the corner) and 4 x 10^6.
#  - the estimate: the service's own, from the 422 too_large of the same request under a 1 ms time
#    limit (details.estimated_ms);
#  - the time: the median of 3 runs of the request under a 600 s limit (one run for n = 18, about 20 s
#    on two cores): its wall time to the answer's head (the work a limit bounds ends before it: a
#    knight's path streams after), and the server's processor time over the cores (on an idle
#    machine the wall time of work spread over every core, and a figure a loaded machine stretches
#    much less; for a knight's tour it also holds the path's writing, on one core);
# so each row's ratio (bench/run.sh's last column, estimate / time) is within [0.5, 2] when the
# estimate holds. A loaded machine stretches the times, not the estimates (processor time at
# start-up): run it idle and give the load average with its figures (docs/estimates.md).
# Runs its own server ($PUZZLED_BIN) on a free port: the bodies are above the default --max-body.
#   PUZZLED_BIN=build/puzzled bash bench/estimates/http.sh
set -euo pipefail
dir=$(mktemp -d)
"$PUZZLED_BIN" --host 127.0.0.1 --port 0 --client-rate 0 --max-body 67108864 --time-limit-ms 600000 \
  > "$dir/server.out" 2> "$dir/server.err" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 200); do grep -q '^listening on ' "$dir/server.out" && break; sleep 0.05; done
url=$(sed -n 's/^listening on //p' "$dir/server.out")
[ -n "$url" ] || { cat "$dir/server.err" >&2; exit 1; }

python3 - "$url" "$server" "${ESTIMATES_ONLY:-}" <<'PY'
import http.client, json, os, random, statistics, sys, time, urllib.parse

base = urllib.parse.urlparse(sys.argv[1])
server, only = sys.argv[2], sys.argv[3]
cores = os.cpu_count()
REFUSALS = 20

def server_cpu_seconds():
    """The server's processor time so far, all threads, user + system."""
    fields = open("/proc/%s/stat" % server).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def request(method, path, body=None):
    """(status, parsed answer or None, wall seconds to the answer's head)."""
    connection = http.client.HTTPConnection(base.hostname, base.port, timeout=600)
    data = None if body is None else json.dumps(body).encode()
    headers = {} if body is None else {"Content-Type": "application/json"}
    started = time.monotonic()
    connection.request(method, path, data, headers)
    answer = connection.getresponse()
    seconds = time.monotonic() - started
    raw = answer.read()
    connection.close()
    wanted = answer.status != 200 or len(raw) < 1 << 20 or path.startswith("/permutation/rank")
    return answer.status, (json.loads(raw) if wanted else None), seconds

def with_limit(path, body, limit_ms):
    if body is None:
        return path + ("&" if "?" in path else "?") + "time_limit_ms=%d" % limit_ms, None
    return path, dict(body, time_limit_ms=limit_ms)

def row(what, method, path, body=None, runs=3):
    p, b = with_limit(path, body, 1)
    status, answer, _ = request(method, p, b)
    if status != 422:
        raise SystemExit("%s under 1 ms answered %d, not 422: not estimated" % (what, status))
    estimated = answer["error"]["details"]["estimated_ms"]
    p, b = with_limit(path, body, 600000)
    walls, processors = [], []
    for _ in range(runs):
        before = server_cpu_seconds()
        status, answer, seconds = request(method, p, b)
        if status != 200:
            raise SystemExit("%s answered %d: %s" % (what, status, answer))
        walls.append(seconds * 1000)
        processors.append((server_cpu_seconds() - before) * 1000 / cores)
    for measure, times in (("wall time to the first byte", walls), ("server processor time / %d cores" % cores, processors)):
        print("estimate of %s: %s (median of %d) vs estimated\t%.1f\testimated\t%d\tms\tlower"
              % (what, measure, runs, statistics.median(times), estimated), flush=True)
    return answer

if only in ("", "queens"):
    for n in (15, 16, 17, 18):
        row("/queens n=%d count" % n, "GET", "/queens?n=%d&mode=count" % n, runs=1 if n == 18 else 3)
    refusals = []
    for _ in range(REFUSALS):
        status, answer, seconds = request("GET", "/queens?n=19&mode=count&time_limit_ms=10000")
        if status != 422:
            raise SystemExit("/queens n=19 count under 10 s answered %d, not 422" % status)
        refusals.append(seconds * 1000)
    print("/queens n=19 count under the default 10 s limit: the 422's time to its head (slowest of %d)\t%.1f"
          "\tthe 10 ms goal\t10\tms\tlower" % (REFUSALS, max(refusals)), flush=True)

if only in ("", "rank"):
    shuffle = random.Random(50)
    for items in (1 << 16, 1 << 18, 10**6):
        permutation = list(range(items))
        shuffle.shuffle(permutation)
        ranked = row("/permutation/rank of %d items" % items, "POST", "/permutation/rank", {"permutation": permutation})
        row("/permutation/unrank of %d items" % items, "POST", "/permutation/unrank",
            {"items": list(range(items)), "rank": ranked["rank"]})

if only in ("", "knight"):
    for board in ("n=1000", "n=1000&closed=true", "n=2000", "n=2000&closed=true", "rows=4&cols=1000000"):
        row("/knight-tour %s" % board, "GET", "/knight-tour?%s&start=0,0" % board)
PY
