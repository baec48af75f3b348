#!/usr/bin/env python3
"""Soak: hours of mixed traffic without growth. tests/soak/run.py PUZZLED_BIN [--minutes M] [--sanitizer]

Starts puzzled on a free loopback port and keeps CLIENTS threads sending a mix over every route (GET
and POST, gzip asked on a third, NDJSON and chunked streams, progress event streams, SVG drawings,
the pages and the spec, errors: bad fields, an unknown path, a method a path does not take; clients
that leave in the middle of a long answer; requests with a time limit too small to finish). Every
answer is checked: a status line http.client can read, a body that is valid UTF-8, JSON for
application/json, one JSON value per line for NDJSON, every event's data JSON for text/event-stream,
an <svg> root for image/svg+xml, gzip that inflates when it was asked for and sent.

A 5xx fails the soak unless it is 503 `deadline_exceeded` on a request that asked for a tiny
time_limit_ms (TINY_LIMIT_MS); the same holds for an event stream's failed event. A 503 `overloaded`
or `not_ready` fails it too: the mix is cheap work from CLIENTS clients, one request each at a time
(and the few left by a leaving client until their client watch ends them), each charged a small
estimate or at most COMPUTE_UNKNOWN_CHARGE_MS (100 ms), so the predicted wait on SERVER_FLAGS's two
workers stays under the 1 s target, and admission by waiting time (server/compute_pool.h) never
refuses it; the server runs with the default --queue, a memory guard that never decides here.

Every SAMPLE_S seconds it reads the server's RSS and thread count (/proc/PID/status), its open
descriptors (/proc/PID/fd) and /metrics. After WARM_UP of the run (caches, pools and arenas filled)
the samples are split in thirds; the soak fails when the largest RSS of the last third is more than
RSS_TOLERANCE above the largest of the first (allocator noise; a leak of a few bytes a request grows
without bound). When the load stops, descriptors and threads must come back to their idle level of
the warm-up (measured with the load paused) and the in-flight gauges of /metrics to zero, within
IDLE_WAIT_S.

--minutes M runs M minutes of load (default 2). --sanitizer is for the AddressSanitizer build: RSS is
not judged (ASan's quarantine holds freed memory on purpose), nor are refusals for the wait (its work
costs several times as much), and after a SIGTERM its stderr must
hold no AddressSanitizer or LeakSanitizer report (LeakSanitizer runs at exit).
Prints one line per check, the figures, and `N passed, M failed` last; exits 1 when a check failed.
"""
import argparse
import collections
import gzip
import http.client
import json
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish, sanitizer_reports, start_puzzled  # noqa: E402

CLIENTS = 8
SAMPLE_S = 2.0
WARM_UP = 0.2  # of the run's minutes, at least WARM_UP_MIN_S
WARM_UP_MIN_S = 20
RSS_TOLERANCE = 8 * 1024 * 1024  # bytes: the last third's peak may exceed the first third's by this
IDLE_WAIT_S = 20
TINY_LIMIT_MS = 1
ANSWER_TIMEOUT_S = 60
LEAVE_AFTER_BYTES = 256  # a leaving client reads this much of a long answer (its first event), then closes
# A generous time limit: on a loaded machine a request may wait seconds for a worker, and only the
# requests that ask for a tiny limit may run out of time.
SERVER_FLAGS = ("--workers", "2", "--client-rate", "0", "--time-limit-ms", "60000")

NDJSON = {"Accept": "application/x-ndjson"}
EVENTS = {"Accept": "text/event-stream"}
SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

# (method, path, body or None, headers, kind); GET fields in the path, POST fields in the body.
# kind: "ok" expects 2xx/304; "error" expects that 4xx; "tiny" may end in deadline_exceeded;
# "leave" is read in part, then abandoned.
MIX = [
    ("GET", "/healthz", None, {}, "ok"),
    ("GET", "/readyz", None, {}, "ok"),
    ("GET", "/metrics", None, {}, "ok"),
    ("GET", "/openapi.yaml", None, {}, "ok"),
    ("GET", "/", None, {}, "ok"),
    ("GET", "/docs", None, {}, "ok"),
    ("GET", "/playground.js", None, {}, "ok"),
    ("GET", "/shuffle?items=a,b,c,d,e&count=3&seed=42", None, {}, "ok"),
    ("POST", "/shuffle", {"n": 20000, "seed": 7}, {}, "ok"),
    ("GET", "/shuffle?n=100000&seed=3", None, NDJSON, "ok"),
    ("GET", "/permutations?text=abcdef", None, {}, "ok"),
    ("POST", "/permutations", {"text": "aabbc", "distinct": True}, NDJSON, "ok"),
    ("GET", "/permutation/rank?permutation=3,1,2", None, {}, "ok"),
    ("POST", "/permutation/unrank", {"items": [1, 2, 3, 4, 5, 6], "rank": "100"}, {}, "ok"),
    ("GET", "/combinations?text=abcdefgh&k=3", None, NDJSON, "ok"),
    ("POST", "/combinations", {"text": "aabc", "k": 2, "distinct": True}, {}, "ok"),
    ("POST", "/combination/rank", {"items": [1, 2, 3, 4, 5], "combination": [2, 4]}, {}, "ok"),
    ("GET", "/combination/unrank?items=1,2,3,4,5&k=2&rank=3", None, {}, "ok"),
    ("GET", "/queens?n=8&mode=count", None, {}, "ok"),
    ("POST", "/queens", {"n": 8, "limit": 20}, {}, "ok"),
    ("GET", "/queens?n=12&mode=count", None, EVENTS, "ok"),
    ("GET", "/queens?n=10000&mode=first", None, {}, "ok"),
    ("GET", "/queens?n=8&mode=first&format=svg", None, {}, "ok"),
    ("POST", "/queens/verify", {"n": 4, "queens": [1, 3, 0, 2]}, {}, "ok"),
    ("GET", "/knight-tour?rows=8&cols=8", None, {}, "ok"),
    ("POST", "/knight-tour", {"rows": 6, "cols": 6, "format": "svg"}, {}, "ok"),
    ("POST", "/knight-tour/verify", {"rows": 3, "cols": 4, "path": [[0, 0], [1, 2], [2, 0], [0, 1], [1, 3], [2, 1],
                                                                    [0, 2], [2, 3], [1, 1], [0, 3], [2, 2], [1, 0]]},
     {}, "ok"),
    ("GET", "/word-ladder?from=cold&to=warm", None, {}, "ok"),
    ("GET", "/word-ladder/neighbours?word=cold", None, {}, "ok"),
    ("POST", "/word-ladder/verify", {"ladder": ["cold", "cord", "card", "ward", "warm"]}, {}, "ok"),
    ("GET", "/word-ladder/puzzle?length=4&steps=5&seed=2&dictionary=common", None, {}, "ok"),
    ("GET", "/sudoku/generate?seed=42", None, {}, "ok"),
    ("POST", "/sudoku/solve", {"puzzle": SUDOKU}, {}, "ok"),
    ("GET", f"/sudoku/check?puzzle={SUDOKU}", None, {}, "ok"),
    ("POST", "/sudoku/hint", {"puzzle": SUDOKU}, {}, "ok"),
    ("GET", f"/sudoku/explain?puzzle={SUDOKU}", None, {}, "ok"),
    ("GET", f"/sudoku/solve?puzzle={SUDOKU}&format=svg", None, {}, "ok"),
    # errors, each with its status
    ("GET", "/queens?n=0", None, {}, 400),
    ("POST", "/shuffle", {"items": [1], "colour": "red"}, {}, 400),
    ("GET", "/queens?n=30&mode=count", None, {}, 422),
    ("GET", "/no-such-route", None, {}, 404),
    ("DELETE", "/queens?n=8", None, {}, 405),
    # a time limit too small to finish
    ("GET", f"/queens?n=24&offset=1000000000000&limit=1&time_limit_ms={TINY_LIMIT_MS}", None, {}, "tiny"),
    ("GET", f"/queens?n=24&offset=1000000000000&limit=1&time_limit_ms={TINY_LIMIT_MS}", None, EVENTS, "tiny"),
    # clients that leave in the middle of a long answer
    ("GET", "/permutations?items=0,1,2,3,4,5,6,7,8,9", None, NDJSON, "leave"),
    ("GET", "/queens?n=14&limit=9007199254740991", None, {}, "leave"),
    ("GET", "/queens?n=15&mode=count", None, EVENTS, "leave"),
]


class Tally:
    """Answers by kind, and the problems seen (each kept once with a count)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.answers = collections.Counter()
        self.problems = collections.Counter()

    def add(self, label, problem=None):
        with self.lock:
            self.answers[label] += 1
            if problem:
                self.problems[problem] += 1


# Under ASan (--sanitizer) the same work costs several times as much, as the server's own timed runs
# at start-up measure, so admission by waiting time may refuse it: overloaded and not_ready are then
# designed too, and the release soak alone holds cheap work to never being refused.
refusals_designed = False


def designed_503(error_code, kind):
    """deadline_exceeded for a tiny limit; under ASan, a refusal for the wait too; nothing else (see
    the top: cheap work is never refused)."""
    return (error_code == "deadline_exceeded" and kind == "tiny") or (
        refusals_designed and error_code in ("overloaded", "not_ready"))


def judge_body(content_type, body):
    """None when the body is well-formed for its type, else what is wrong."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return "a body that is not UTF-8"
    media = content_type.split(";")[0].strip()
    try:
        if media == "application/json":
            json.loads(text)
        elif media == "application/x-ndjson":
            for line in text.splitlines():
                json.loads(line)
        elif media == "image/svg+xml":
            if not ElementTree.fromstring(text).tag.endswith("svg"):
                return "an SVG answer whose root is not <svg>"
    except (ValueError, ElementTree.ParseError) as error:
        return f"malformed {media}: {error}"
    return None


def judge_events(text, kind):
    """None when every event's data is JSON and any failed event is designed, else what is wrong."""
    for block in text.split("\n\n"):
        lines = block.strip().splitlines()
        if not lines:
            continue
        name = next((line[7:] for line in lines if line.startswith("event: ")), None)
        data = "\n".join(line[6:] for line in lines if line.startswith("data: "))
        try:
            parsed = json.loads(data)
        except ValueError:
            return f"an event whose data is not JSON: {block[:80]!r}"
        if name == "failed" and not designed_503(parsed.get("error", {}).get("code"), kind):
            return f"a failed event {parsed}"
    return None


def one_request(port, connection, request, tally):
    """Sends one request of the mix on `connection` (kept alive) and judges its answer; returns the
    connection to use next (a new one after a close)."""
    method, path, body, headers, kind = request
    headers = dict(headers)
    zipped = random.random() < 1 / 3
    if zipped:
        headers["Accept-Encoding"] = "gzip"
    payload = json.dumps(body).encode() if body is not None else None
    label = f"{method} {path.split('?')[0]}"
    try:
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        if kind == "leave":
            response.read(LEAVE_AFTER_BYTES)
            connection.close()  # in the middle of the answer
            tally.add("left mid-answer")
            return http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_TIMEOUT_S)
        raw = response.read()
        status = response.status
        answer_headers = {name.lower(): value for name, value in response.getheaders()}
    except (OSError, http.client.HTTPException) as error:
        tally.add("transport error", f"{label}: {type(error).__name__} {error}")
        connection.close()
        return http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_TIMEOUT_S)
    problem = None
    if answer_headers.get("content-encoding") == "gzip":
        if not zipped:
            problem = "gzip sent unasked"
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as error:
            problem = f"gzip that does not inflate: {error}"
    content_type = answer_headers.get("content-type", "")
    problem = problem or judge_body(content_type, raw)
    error_code = None
    if content_type.startswith("application/json") and problem is None:
        parsed = json.loads(raw)
        error_code = parsed.get("error", {}).get("code") if isinstance(parsed, dict) else None
    if problem is None and content_type.startswith("text/event-stream"):
        problem = judge_events(raw.decode(), kind)
    designed = status == 503 and designed_503(error_code, kind)
    if designed:
        pass
    elif status >= 500:
        problem = problem or f"{status} {error_code}"
    elif isinstance(kind, int) and status != kind:
        problem = problem or f"{status}, expected {kind}"
    elif kind == "ok" and status >= 400:
        problem = problem or f"{status} {error_code}"
    outcome = f"{status} {error_code}" if error_code else str(status)
    tally.add(outcome, f"{label} ({'gzip' if zipped else 'plain'}): {problem}" if problem else None)
    if answer_headers.get("connection", "").lower() == "close":
        connection.close()
        return http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_TIMEOUT_S)
    return connection


def client(port, stop, paused, tally, seed):
    random.seed(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER_TIMEOUT_S)
    while not stop.is_set():
        if paused.is_set():
            connection.close()
            time.sleep(0.05)
            continue
        connection = one_request(port, connection, random.choice(MIX), tally)
    connection.close()


def metrics(port):
    """The unlabelled samples of /metrics, by name (empty when it did not answer)."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
        connection.close()
    except (OSError, http.client.HTTPException):
        return {}
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^([a-z_]+) (\S+)$", text, re.M)}


def sample(pid, port):
    """(seconds, rss bytes, threads, open descriptors, metrics) of the server now."""
    with open(f"/proc/{pid}/status") as f:
        status = dict(line.split(":", 1) for line in f if ":" in line)
    rss = int(status["VmRSS"].split()[0]) * 1024
    threads = int(status["Threads"])
    descriptors = len(os.listdir(f"/proc/{pid}/fd"))
    return time.monotonic(), rss, threads, descriptors, metrics(port)


# Gauges that count work in progress: zero once the load has stopped (requests_in_flight counts the
# scrape itself).
IDLE_GAUGES = {"puzzled_requests_in_flight": 1, "puzzled_workers_busy": 0, "puzzled_progress_computations_in_flight": 0,
               "puzzled_stream_buffer_bytes": 0}


def wait_idle(pid, port, threads_idle, descriptors_idle):
    """Waits until threads and descriptors are back at their idle levels and the gauges at rest;
    returns the last sample and whether they got there."""
    end = time.monotonic() + IDLE_WAIT_S
    while True:
        now = sample(pid, port)
        at_rest = all(now[4].get(name) == value for name, value in IDLE_GAUGES.items())
        if (now[2] <= threads_idle and now[3] <= descriptors_idle and at_rest) or time.monotonic() > end:
            return now, now[2] <= threads_idle and now[3] <= descriptors_idle and at_rest
        time.sleep(0.2)


def mb(value):
    return f"{value / 1048576:.1f} MB"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--minutes", type=float, default=2)
    parser.add_argument("--sanitizer", action="store_true")
    args = parser.parse_args()
    global refusals_designed
    refusals_designed = args.sanitizer
    log = tempfile.NamedTemporaryFile("w+", prefix="puzzled-soak-", suffix=".log", delete=False)
    process, port = start_puzzled(args.binary, SERVER_FLAGS, stderr=log)
    stop, paused = threading.Event(), threading.Event()
    tally = Tally()
    threads = [threading.Thread(target=client, args=(port, stop, paused, tally, seed)) for seed in range(CLIENTS)]
    for thread in threads:
        thread.start()
    run_s = args.minutes * 60
    warm_up_s = max(WARM_UP * run_s, WARM_UP_MIN_S)
    began = time.monotonic()
    samples = []
    try:
        time.sleep(warm_up_s)
        paused.set()  # the idle level, after the warm-up's load
        idle, _ = wait_idle(process.pid, port, 1 << 30, 1 << 30)
        time.sleep(1)
        idle = sample(process.pid, port)
        threads_idle, descriptors_idle = idle[2], idle[3]
        paused.clear()
        while time.monotonic() - began < run_s:
            time.sleep(SAMPLE_S)
            samples.append(sample(process.pid, port))
        requests = sum(tally.answers.values())
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=ANSWER_TIMEOUT_S + 10)
    final, at_rest = wait_idle(process.pid, port, threads_idle, descriptors_idle)

    third = max(len(samples) // 3, 1)
    first_rss = max(s[1] for s in samples[:third])
    last_rss = max(s[1] for s in samples[-third:])
    print(f"figures: {requests} requests in {args.minutes:g} min, {CLIENTS} clients; RSS {mb(samples[0][1])} -> "
          f"{mb(samples[-1][1])} (peaks {mb(first_rss)} first third, {mb(last_rss)} last), descriptors "
          f"{descriptors_idle} idle, {min(s[3] for s in samples)}-{max(s[3] for s in samples)} under load, "
          f"{final[3]} after; threads {threads_idle} idle, {min(s[2] for s in samples)}-"
          f"{max(s[2] for s in samples)} under load, {final[2]} after")
    print("answers: " + ", ".join(f"{label} {count}" for label, count in tally.answers.most_common()))
    for problem, count in tally.problems.most_common(10):
        print(f"  problem x{count}: {problem}")
    refused = "a 503 overloaded or not_ready for the wait" if args.sanitizer else "no 503 overloaded or not_ready"
    check(f"{requests} answers, every one well-formed, {refused}, and no other 5xx than "
          "the tiny time limits' deadline_exceeded", not tally.problems and requests > 0, f"{sum(tally.problems.values())} problems")
    if not args.sanitizer:
        check(f"RSS does not grow after the warm-up: the last third's peak {mb(last_rss)} within "
              f"{mb(RSS_TOLERANCE)} of the first third's {mb(first_rss)}", last_rss <= first_rss + RSS_TOLERANCE)
    check(f"idle again, descriptors and threads back at their warm-up level ({final[3]} <= {descriptors_idle}, "
          f"{final[2]} <= {threads_idle}) and the in-flight gauges at rest", at_rest,
          {name: final[4].get(name) for name in IDLE_GAUGES})
    check("the server ran the whole soak", process.poll() is None)
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except Exception:  # noqa: BLE001 - a server that does not stop is the failure reported below
        process.kill()
        process.wait()
    log.seek(0)
    stderr = log.read()
    check("it stopped cleanly on SIGTERM (exit 0)", process.returncode == 0, process.returncode)
    if args.sanitizer:
        reports = sanitizer_reports(stderr)
        check("no AddressSanitizer or LeakSanitizer report, LeakSanitizer run at exit", not reports, reports[:5])
    os.unlink(log.name)
    finish()


if __name__ == "__main__":
    main()
