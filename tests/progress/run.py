#!/usr/bin/env python3
"""Progress as server-sent events (issue 29), over loopback and through docker/nginx.conf.

Starts puzzled on a free loopback port and shows, with bounded requests and timeouts, that with
`Accept: text/event-stream`:
  - /queens?n=16&mode=count answers 200 text/event-stream (X-Accel-Buffering: no, Cache-Control:
    no-store) with at least 4 progress events in order (done never decreasing, never past total),
    then exactly one result event whose data is byte for byte the plain answer. Guaranteed by
    design, not by timing: the count has 65,536 subproblems, and a milestone event is sent at each
    eighth of them however fast the count runs;
  - every endpoint that offers progress gives, for a small request, a result equal to its plain answer;
  - a bulk Sudoku body of 20,000 puzzles reports "puzzles" with total 20,000 and ends at 20,000;
  - a time limit that runs out mid-search gives `event: failed` with deadline_exceeded, no result;
  - a field that fails validation (its type, or its range in the handler) gets the plain 4xx JSON;
  - a client that disconnects mid-count frees the worker: /metrics shows no followed computation
    and no busy worker, and a following request that needs the one main worker is answered;
  - /healthz answers every probe while eight progress streams run (its p99 printed, not bounded),
    and the eight computations end when their clients leave together;
  - every event carries `id:`, its number in the stream from 1; a request carrying Last-Event-ID (a
    browser's EventSource reconnecting after the stream's end) is answered 204 with no body, at once:
    nothing computed (/metrics counts no second 200), not counted against the client's share (no
    RateLimit headers; with a burst of 3, counted reconnects would leave no room for the next request);
  - the n = 16 count again through nginx running docker/nginx.conf (only its listen line changed;
    --no-nginx leaves it out: the tsan stage, where it would only repeat the loopback count slowly).
    tests/progress/run.py PUZZLED_BIN [--no-nginx]
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish, metric, scaled, start_puzzled  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SSE = {"Accept": "text/event-stream"}
COUNT_16 = "/queens?n=16&mode=count"
# A loaded 2-core machine counts n = 16 in seconds (a ThreadSanitizer build in a minute or more): these
# bound a hang, and the servers' --time-limit-ms keeps a slow count from being cut; both stretched by
# PUZZLED_TEST_TIME_SCALE.
STREAM_TIMEOUT_S = scaled(60)
TIME_LIMIT_MS = str(int(scaled(60000)))
# A computation that runs until its time limit or its client leaves, on any build: the listing skips 10^12
# solutions, and an offset has no estimate, so it is never refused at once. A count (n = 18) is estimated
# from the server's own timed runs at start-up, which vary by 1.8x under ThreadSanitizer (185 to 327 s
# here), and over twice its limit it is refused 422 before any event.
UNFINISHABLE = "/queens?n=24&offset=1000000000000&limit=1&algorithm=backtracking"
# PUZZLED_TEST_LOG: a file for the server's and nginx's logs (default: dropped)
LOG = open(os.environ["PUZZLED_TEST_LOG"], "a") if os.environ.get("PUZZLED_TEST_LOG") else None


def request(port, method, path, body=None, headers=None, timeout=STREAM_TIMEOUT_S):
    """(status, headers, body bytes) of one request on a fresh connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def parse_events(text):
    """[(event name, data)] of a text/event-stream body, as the EventSource algorithm reads it
    (comment lines skipped, data lines joined with "\n")."""
    events, name, data = [], "message", []
    for line in text.split("\n"):
        if line == "":
            if data:
                events.append((name, "\n".join(data)))
            name, data = "message", []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
    return events


def follow(port, method, path, body=None, headers=None):
    """(status, headers, events or the plain body) of a request with Accept: text/event-stream."""
    status, response_headers, raw = request(port, method, path, body, {**SSE, **(headers or {})})
    if response_headers.get("Content-Type", "").startswith("text/event-stream"):
        return status, response_headers, parse_events(raw.decode())
    return status, response_headers, raw


def progress_in_order(events):
    """Why the progress events break the rules, or "" when they keep them: done and elapsed_ms never
    decrease, done never passes total, one unit and one total throughout."""
    last_done = last_elapsed = -1
    units, totals = set(), set()
    for name, data in events:
        if name != "progress":
            continue
        numbers = json.loads(data)
        if set(numbers) != {"done", "total", "unit", "elapsed_ms"}:
            return f"fields {sorted(numbers)}"
        if numbers["done"] < last_done or numbers["elapsed_ms"] < last_elapsed:
            return f"went back: {data}"
        if numbers["total"] is not None and numbers["done"] > numbers["total"]:
            return f"past its total: {data}"
        last_done, last_elapsed = numbers["done"], numbers["elapsed_ms"]
        units.add(numbers["unit"])
        totals.add(numbers["total"])
    return "" if len(units) <= 1 and len(totals) <= 1 else f"units {units}, totals {totals}"


def ends_with_one_result(events):
    names = [name for name, _ in events]
    return names.count("result") == 1 and names[-1] == "result" and set(names) <= {"progress", "result"}


def check_count_16(port, where, proxied=False):
    plain = request(port, "GET", COUNT_16)[2].decode()
    status, headers, events = follow(port, "GET", COUNT_16)
    # nginx acts on X-Accel-Buffering and does not pass it on
    unbuffered = proxied or headers.get("X-Accel-Buffering") == "no"
    check(f"{where}: {COUNT_16} with Accept: text/event-stream is 200 text/event-stream, not cached"
          f"{'' if proxied else ', not buffered by proxies'}",
          status == 200 and headers.get("Content-Type") == "text/event-stream" and
          headers.get("Cache-Control") == "no-store" and unbuffered, f"{status} {dict(headers)}")
    if not isinstance(events, list):  # no event stream (a refusal, or nginx's error page): nothing more to read
        check(f"{where}: the answer is an event stream to read", False, events[:300])
        return
    progress = [json.loads(data) for name, data in events if name == "progress"]
    check(f"{where}: at least 4 progress events ({len(progress)}), in subproblems of 65536",
          len(progress) >= 4 and all(p["unit"] == "subproblems" and p["total"] == 65536 for p in progress),
          progress[:3])
    reason = progress_in_order(events)
    check(f"{where}: done and elapsed_ms never decrease, done never passes total", reason == "", reason)
    check(f"{where}: the last progress event says all 65536 subproblems are done",
          bool(progress) and progress[-1]["done"] == 65536, progress[-1:])
    check(f"{where}: exactly one result, last, byte for byte the plain answer {plain}",
          ends_with_one_result(events) and events[-1][1] == plain, events[-1:])


# Small requests, one per endpoint that offers progress: (method, path, body, content type).
SMALL = [
    ("GET", "/queens?n=8&mode=solutions", None, None),
    ("GET", "/queens?n=10&mode=count", None, None),
    ("GET", "/knight-tour?rows=8&cols=8", None, None),
    ("GET", "/word-ladder?from=cold&to=warm&all=true", None, None),
    ("GET", "/sudoku/solve?puzzle=.....4.1....3.2.&count_limit=10", None, None),
    ("GET", "/permutation/rank?permutation=3,1,2,5,4", None, None),
    ("GET", "/permutation/unrank?text=mississippi&rank=12345", None, None),
    ("GET", "/combination/rank?text=mississippi&combination_text=ssim", None, None),
    ("GET", "/combination/unrank?text=mississippi&k=4&rank=94", None, None),
    ("POST", "/sudoku/solve", ".....4.1....3.2.\n1..1............\n", "text/plain"),
]


def check_every_endpoint(port):
    for method, path, body, content_type in SMALL:
        headers = {"Content-Type": content_type} if content_type else {}
        plain_status, _, plain = request(port, method, path, body, headers)
        status, _, events = follow(port, method, path, body, headers)
        ok = plain_status == 200 and status == 200 and isinstance(events, list)
        ok = ok and ends_with_one_result(events) and events[-1][1].encode() == plain
        check(f"{method} {path}: the result event is the plain answer ({len(plain)} bytes)", ok,
              events[-2:] if isinstance(events, list) else events)


def sudoku_puzzles(port, count):
    """`count` puzzles, one per line: twenty generated ones (seeds 1..20) over and over."""
    generated = []
    for seed in range(1, 21):
        status, _, body = request(port, "GET", f"/sudoku/generate?seed={seed}&difficulty=easy")
        generated.append(json.loads(body)["puzzle"])
    return "".join(generated[i % len(generated)] + "\n" for i in range(count))


def check_bulk_sudoku(port):
    body = sudoku_puzzles(port, 20000)
    headers = {"Content-Type": "text/plain"}
    plain = request(port, "POST", "/sudoku/solve", body, headers)[2]
    status, _, events = follow(port, "POST", "/sudoku/solve", body, headers)
    progress = [json.loads(data) for name, data in events if name == "progress"]
    check(f"bulk Sudoku of 20,000 puzzles: progress in puzzles of 20000, {len(progress)} events",
          len(progress) >= 8 and all(p["unit"] == "puzzles" and p["total"] == 20000 for p in progress),
          progress[:2])
    check("bulk Sudoku: the last progress event says 20000 puzzles done",
          bool(progress) and progress[-1]["done"] == 20000, progress[-1:])
    reason = progress_in_order(events)
    check("bulk Sudoku: progress in order", reason == "", reason)
    lines = plain.count(b"\n")
    check(f"bulk Sudoku: one result, the plain NDJSON answer ({len(plain)} bytes, {lines} lines)",
          ends_with_one_result(events) and events[-1][1].encode() == plain)


def check_errors(port):
    # skipping 10^12 solutions: not estimated, so it runs until its time limit
    status, _, events = follow(port, "GET", "/queens?n=24&offset=1000000000000&limit=1&time_limit_ms=300")
    names = [name for name, _ in events] if isinstance(events, list) else []
    error = json.loads(events[-1][1])["error"] if names and names[-1] == "failed" else {}
    check("a time limit that runs out mid-search: 200, progress, then one failed event deadline_exceeded",
          status == 200 and names.count("failed") == 1 and set(names) == {"progress", "failed"} and names[0] == "progress" and
          error.get("code") == "deadline_exceeded", (status, names[:3], error))
    for path, want in (("/queens?n=abc&mode=count", 400), ("/queens?n=0&mode=count", 400),
                       ("/queens?n=100000&mode=count", 422), ("/queens?n=8&mode=count&colour=red", 400)):
        status, headers, body = follow(port, "GET", path)
        plain = isinstance(body, bytes) and headers.get("Content-Type") == "application/json"
        check(f"{path} with Accept: text/event-stream is the plain {want} JSON error",
              status == want and plain and "error" in json.loads(body), (status, body))


def check_disconnect(binary):
    process, port = start_puzzled(binary, ("--workers", "1", "--client-rate", "0", "--time-limit-ms", TIME_LIMIT_MS),
                                  stderr=LOG)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=STREAM_TIMEOUT_S)
        connection.request("GET", UNFINISHABLE, headers=SSE)  # still running when the client leaves
        response = connection.getresponse()
        first = response.readline() + response.readline()  # the count runs on the one worker
        computing = metric(port, "puzzled_progress_computations_in_flight")
        busy = metric(port, "puzzled_workers_busy")
        check("a listing that cannot finish, followed as events, runs (metric 1, the worker busy)",
              first == b"id: 1\nevent: progress\n" and computing == 1 and busy == 1, (first, computing, busy))
        connection.sock.shutdown(socket.SHUT_RDWR)
        response.close()
        connection.close()
        left = time.monotonic()
        freed_after = None
        for _ in range(int(scaled(1000))):  # bounded: 1000 looks, at most about 10 s (stretched)
            if metric(port, "puzzled_progress_computations_in_flight") == 0 and metric(port, "puzzled_workers_busy") == 0:
                freed_after = time.monotonic() - left
                break
            time.sleep(0.005)
        check("the client leaving mid-count ends the computation: no followed computation, no busy worker "
              f"(seen after {freed_after and round(freed_after * 1000)} ms)", freed_after is not None)
        status, _, events = follow(port, "GET", "/queens?n=13&mode=count")  # skips the express lane
        check("a following request that needs the one main worker is answered",
              status == 200 and ends_with_one_result(events), (status, events[-1:]))
    finally:
        process.kill()
        process.wait()


def requests_answered(port, route, status):
    text = request(port, "GET", "/metrics", timeout=10)[2].decode()
    found = re.search(rf'^puzzled_requests_total{{route="{route}",method="GET",status="{status}"}} (\S+)$', text, re.M)
    return float(found.group(1)) if found else 0


def check_reconnect(binary):
    process, port = start_puzzled(binary, ("--client-rate", "1", "--client-burst", "3"), stderr=LOG)
    path = "/queens?n=12&mode=count"  # 7,744 subproblems: a progress event at each eighth, then the result
    try:
        status, headers, raw = request(port, "GET", path, headers=SSE)
        blocks = [block for block in raw.decode().split("\n\n") if block.startswith("id: ")]
        ids = [int(block.split("\n", 1)[0][4:]) for block in blocks]
        events = parse_events(raw.decode())
        check(f"every event of {path} carries its number in the stream as its id: {ids}",
              status == 200 and len(ids) == len(events) >= 2 and ids == list(range(1, len(ids) + 1)) and
              ends_with_one_result(events), raw[:300])
        reconnect = {**SSE, "Last-Event-ID": str(ids[-1] if ids else 1)}
        answers = [request(port, "GET", path, headers=reconnect) for _ in range(3)]
        check("a reconnect carrying Last-Event-ID is answered 204, no body, no type, no RateLimit headers (three times)",
              all(s == 204 and b == b"" and not {"Content-Type", "RateLimit", "RateLimit-Policy"} & set(h) for s, h, b in answers),
              [(s, dict(h), b[:100]) for s, h, b in answers])
        check("the reconnects computed nothing: /metrics counts one 200 and three 204 on /queens",
              requests_answered(port, "/queens", 200) == 1 and requests_answered(port, "/queens", 204) == 3,
              (requests_answered(port, "/queens", 200), requests_answered(port, "/queens", 204)))
        status, headers, events = follow(port, "GET", path)
        check("the reconnects were not counted: a computing request after them is admitted (--client-burst 3)",
              status == 200 and "RateLimit" in headers and ends_with_one_result(events), (status, dict(headers)))
        status, _, body = request(port, "GET", path, headers={"Last-Event-ID": "1"})
        check("Last-Event-ID without Accept: text/event-stream is an ordinary request: its plain answer",
              status == 200 and json.loads(body)["n"] == 12, (status, body[:200]))
    finally:
        process.kill()
        process.wait()


def first_events(folder, count):
    """The first whole event of each of the files 0.txt .. count-1.txt in `folder` (None: none yet)."""
    events = []
    for i in range(count):
        try:
            with open(os.path.join(folder, f"{i}.txt")) as f:
                parsed = parse_events(f.read())
        except FileNotFoundError:  # curl makes the file at the first byte
            parsed = []
        events.append(parsed[0] if parsed else None)
    return events


def check_healthz_under_streams(binary):
    """Eight streams followed by curl processes (not threads of this one, whose interpreter lock would
    slow the probes down and be measured), all eight computing on eight workers that share the
    machine's cores with the I/O thread (a queue of them behind busy workers would be refused at
    once, as a wait longer than a request can afford: admission by waiting time). Their 20 s time
    limit (stretched by PUZZLED_TEST_TIME_SCALE) outlasts the probes; then the eight clients leave
    together, and every computation must end (waiting for the limit would only burn the cores: the
    deadline's failed event is check_errors' case, a leaving client check_disconnect's, alone)."""
    process, port = start_puzzled(binary, ("--workers", "8", "--queue", "8", "--client-rate", "0",
                                           "--time-limit-ms", str(int(scaled(30000)))), stderr=LOG)
    folder = tempfile.mkdtemp(prefix="puzzled-progress-streams-")
    url = f"http://127.0.0.1:{port}{UNFINISHABLE}&time_limit_ms={int(scaled(20000))}"
    streams = [subprocess.Popen(["curl", "-sN", "-H", "Accept: text/event-stream", "-o",
                                 os.path.join(folder, f"{i}.txt"), url]) for i in range(8)]
    try:
        for _ in range(int(scaled(100))):  # bounded: until all eight are admitted (at most 5 s, stretched)
            if metric(port, "puzzled_progress_computations_in_flight") == 8:
                break
            time.sleep(0.05)
        running = metric(port, "puzzled_progress_computations_in_flight")
        latencies = []
        for _ in range(200):
            began = time.monotonic()
            status = request(port, "GET", "/healthz", timeout=10)[0]
            latencies.append((time.monotonic() - began) * 1000 if status == 200 else float("inf"))
            time.sleep(0.01)
        still = metric(port, "puzzled_progress_computations_in_flight")
        latencies.sort()
        p50, p99 = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99) - 1]
        check(f"/healthz while eight progress streams run ({running:.0f} open before the probes, "
              f"{still:.0f} after): every probe answered, p50 {p50:.2f} ms, p99 {p99:.2f} ms "
              f"(max {latencies[-1]:.2f}; printed, not bounded: a busy machine stretches any latency)",
              running == 8 and still == 8 and latencies[-1] != float("inf"))
        for _ in range(int(scaled(1000))):  # bounded: 1000 looks, at most about 10 s (stretched); curl -N writes at once
            if all(first_events(folder, 8)):
                break
            time.sleep(0.01)
        first = first_events(folder, 8)
        check("each of the eight streams sent a progress event", all(e is not None and e[0] == "progress" for e in first),
              first[:2])
        for stream in streams:
            stream.terminate()
            stream.wait(timeout=STREAM_TIMEOUT_S)
        freed = False
        for _ in range(int(scaled(1000))):  # bounded: 1000 looks, at most about 10 s (stretched)
            if metric(port, "puzzled_progress_computations_in_flight") == 0 and metric(port, "puzzled_workers_busy") == 0:
                freed = True
                break
            time.sleep(0.01)
        check("the eight clients leaving together end the eight computations: none followed, no worker busy", freed)
    finally:
        for stream in streams:
            if stream.poll() is None:
                stream.kill()
                stream.wait()
        process.kill()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def check_through_nginx(port):
    if shutil.which("nginx") is None:
        check("nginx is installed (scripts/setup.sh suite)", False)
        return
    prefix = tempfile.mkdtemp(prefix="puzzled-progress-nginx-")
    os.chmod(prefix, 0o755)  # nginx's workers run as nobody when the test runs as root
    nginx = None
    try:
        nginx_port = free_port()
        with open(os.path.join(ROOT, "docker", "nginx.conf")) as f:
            conf = re.sub(r"(?m)^( *)listen 8080;$", rf"\1listen 127.0.0.1:{nginx_port};", f.read())
        with open(os.path.join(prefix, "nginx.conf"), "w") as f:
            f.write(conf)
        with open(os.path.join(prefix, "upstream.conf"), "w") as f:
            f.write(f"server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;\n")
        nginx = subprocess.Popen(["nginx", "-p", prefix + "/", "-c", os.path.join(prefix, "nginx.conf"),
                                  "-g", "daemon off;"], stdout=LOG or subprocess.DEVNULL, stderr=LOG or subprocess.DEVNULL)
        for _ in range(100):  # bounded: 5 s for nginx to listen
            try:
                if request(nginx_port, "GET", "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.05)
        check_count_16(nginx_port, "through nginx", proxied=True)
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=10)
        shutil.rmtree(prefix, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--no-nginx", action="store_true", help="skip the count through nginx")
    args = parser.parse_args()
    binary = args.binary
    # a loaded machine may take more than the default 10 s for the n = 16 count
    process, port = start_puzzled(binary, ("--client-rate", "0", "--max-body", str(4 << 20), "--time-limit-ms", TIME_LIMIT_MS),
                                  stderr=LOG)
    try:
        check_count_16(port, "loopback")
        check_every_endpoint(port)
        check_bulk_sudoku(port)
        check_errors(port)
        if not args.no_nginx:
            check_through_nginx(port)
    finally:
        process.kill()
        process.wait()
    check_disconnect(binary)
    check_reconnect(binary)
    check_healthz_under_streams(binary)
    finish()


if __name__ == "__main__":
    main()
