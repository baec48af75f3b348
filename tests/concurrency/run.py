#!/usr/bin/env python3
"""The service under concurrent load (issue: computations off the I/O threads).

Starts puzzled with --workers 2 --queue 2 on loopback and shows, with bounded request counts and
timeouts, that:
  - while eight NDJSON streams of all 10! permutations are being sent (read slowly, so none can end
    before the probes do), /healthz answers 50 probes (their p50 and p99 printed, not bounded);
  - while two long computations run on the workers and two more wait (the queue is full),
    /healthz answers 50 probes before any of them ends (their latency printed, not bounded: a busy
    machine stretches any), /readyz says 503 not_ready, and a cheap
    word-ladder query still answers (it ends within the express lane's slice); with the pool full
    again, 64 small requests at once from another address (the rank of 3 items, a 9 x 9 Sudoku check, the count of
    the 8-queens solutions: answered on the I/O threads, api_endpoint.estimate_seconds), each 200
    with the answer of an independent Python reference, none 503 although the pool could take none;
  - a request past the queue gets 503 "overloaded" with Retry-After at once: before any computation
    ahead of it ends;
  - a waiting request whose time_limit_ms runs out gets 503 "deadline_exceeded" near its limit,
    not after the requests ahead of it;
  - 1,000 half-open connections from one address (127.0.0.2: request line sent, headers never
    finished) do not stop a fresh client (127.0.0.1) from getting /healthz within a second;
  - while a 1 MiB bulk /sudoku/solve body is solved on both workers, /healthz answers 50 probes
    (p99 printed), and the bulk answers come back in line order, each unique, up to a
    deadline_exceeded line (the body ends with lines that count towards a billion solutions, so it
    is surely still being solved during the probes and surely ends at its time limit);
  - under a mixed load of queens counts (split and not), a big rank, big shuffles (their dice drawn
    ahead), bulk Sudoku bodies, NDJSON streams and event streams, /proc/PID/task (sampled every
    millisecond) never holds more than the server's fixed number of threads (server/compute_pool.h);
    the parallel paths run on the pool's threads, none is created per request;
  - SIGTERM with a full queue: the waiting requests are answered 503 "overloaded" at once, the
    running ones end within the drain time, every request gets an answer, and the exit status is 0.
The long computation is a single-threaded count that cannot finish in its time limit, so each one
ends as a 503 deadline_exceeded at a known time.
    tests/concurrency/run.py PUZZLED_BIN
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import http.client
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish, metric, scaled  # noqa: E402

# Skipping 10^12 solutions runs until its time limit (an offset has no estimate, so it is not refused at once).
LONG = "/queens?n=24&offset=1000000000000&limit=1&algorithm=backtracking&time_limit_ms={ms}"
LONG_MS = int(scaled(8000))  # outlasts the probes made meanwhile, on any build
# A waiting request's limit, past the probes made while it waits (1.5 s, stretched); it must be answered
# near it, within 1.5 s (stretched) after.
EXPIRING_MS = int(scaled(1500))
DRAIN_MS = 3000
HALF_OPEN = 1000
# Eight streams of all 10! permutations as NDJSON (79.8 MB each), each read at most 64 KiB per 20 ms
# (3.3 MB/s, 24 s a stream), so none can end within the 50 probes' time.
STREAMS = 8
TEN_FACTORIAL = "/permutations?items=0,1,2,3,4,5,6,7,8,9"
STREAM_READ_BYTES = 64 * 1024
STREAM_READ_PAUSE = 0.02
BULK_BYTES = 1 << 20  # the default --max-body
BULK_MS = int(scaled(6000))
HARDEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "sudoku", "data",
                       "forum_hardest_1905_11.txt")


IO_THREADS = 2
WORKERS = 2
# The server's threads (server/compute_pool.h): main, the I/O threads, the workers, the express thread,
# the server's timer thread and the log's writer (server/log_buffer.h; no admin port here).
FIXED_THREADS = 1 + IO_THREADS + WORKERS + 3
# ThreadSanitizer's runtime starts one background thread of its own in every process it runs
# (compiler-rt's tsan_rtl.cpp, MaybeSpawnBackgroundThread); the tsan stage's server has it too.
TSAN_RUNTIME_THREADS = 1


def runtime_threads(pid):
    """The threads a sanitizer runtime mapped into process `pid` adds to the server's own."""
    with open(f"/proc/{pid}/maps") as f:
        return TSAN_RUNTIME_THREADS if "libtsan" in f.read() else 0
MIXED_ROUNDS = 6


def start_server(binary, flags=("--threads", str(IO_THREADS), "--workers", str(WORKERS), "--queue", "2",
                                "--client-rate", "0", "--drain-ms", str(DRAIN_MS), "--time-limit-ms", str(int(scaled(20000))))):
    process = subprocess.Popen(
        [binary, "--host", "127.0.0.1", "--port", "0", *flags],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    if not line.startswith("listening on http://127.0.0.1:"):
        process.kill()
        sys.exit(f"puzzled did not start: {line!r}")
    return process, int(line.rsplit(":", 1)[1])


# Time limits here guard hangs, each well above what it waits for: 30 s for any answer (the longest is a
# computation's LONG_MS, 8 s), a thread's join LONG_MS (or twice that) plus 10 s, the stop DRAIN_MS
# plus 5 s. The few checks of elapsed time are the design's promises, measured (docs/testing.md); their
# margins beyond the design's own figures (the 2 s cancel grace, the 1.5 s limit) stretch by
# PUZZLED_TEST_TIME_SCALE, for the ThreadSanitizer build (the tsan stage), as the guards do.
def get(port, path, timeout=scaled(30), headers=None):
    """(status, headers, parsed body or None, seconds) of one GET on a fresh connection."""
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = None
        return response.status, dict(response.getheaders()), parsed, time.monotonic() - began
    except OSError as error:
        return 0, {}, {"transport_error": str(error)}, time.monotonic() - began
    finally:
        connection.close()


def in_background(port, path, headers=None):
    """Starts a GET on its own thread; the returned dict gets 'answer' = get(...) when it ends."""
    result = {}

    def run():
        result["answer"] = get(port, path, headers=headers)

    thread = threading.Thread(target=run)
    thread.start()
    result["thread"] = thread
    return result


def error_code(answer):
    body = answer[2]
    return body.get("error", {}).get("code") if isinstance(body, dict) else None


def wait_until(condition, seconds=5):
    """Polls `condition()` until it holds; False after `seconds` (stretched by PUZZLED_TEST_TIME_SCALE)."""
    end = time.monotonic() + scaled(seconds)
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return False


def wait_until_ready_says(port, status):
    return wait_until(lambda: get(port, "/readyz")[0] == status)


def fill_workers_and_queue(port, expiring_ms=None):
    """Two long computations on the workers, then two waiting (the first one with a short limit when
    `expiring_ms` is given); returns the four background requests once /readyz says full."""
    running = [in_background(port, LONG.format(ms=LONG_MS)) for _ in range(2)]
    wait_until(lambda: metric(port, "puzzled_workers_busy") == 2)  # past their express slices, onto the two workers
    waiting = [in_background(port, LONG.format(ms=expiring_ms or LONG_MS)),
               in_background(port, LONG.format(ms=LONG_MS))]
    full = wait_until_ready_says(port, 503)
    return running, waiting, full


def probe_healthz(port, count=50):
    """(statuses, sorted latencies, p99) of `count` /healthz probes, one after another."""
    latencies = []
    statuses = []
    for _ in range(count):
        status, _, _, seconds = get(port, "/healthz")
        statuses.append(status)
        latencies.append(seconds)
    latencies.sort()
    return statuses, latencies, latencies[int(0.99 * (len(latencies) - 1))]


def slow_stream_reader(port, stop):
    """Opens the NDJSON stream of all 10! permutations (79.8 MB) and reads it at most STREAM_READ_BYTES
    per STREAM_READ_PAUSE s until `stop` is set; returns {"status": its status line, "ended_early": set
    when the body ended before `stop`, "thread": the reader}."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"GET " + TEN_FACTORIAL.encode() + b" HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\n\r\n")
    head = s.recv(4096)
    result = {"status": head.split(b"\r\n", 1)[0].decode(errors="replace"), "ended_early": False}

    def run():
        try:
            while not stop.is_set():
                if not s.recv(STREAM_READ_BYTES):
                    result["ended_early"] = True
                    return
                time.sleep(STREAM_READ_PAUSE)
        finally:
            s.close()

    result["thread"] = threading.Thread(target=run)
    result["thread"].start()
    return result


def healthz_while_streaming(port):
    stop = threading.Event()
    readers = [slow_stream_reader(port, stop) for _ in range(STREAMS)]
    check(f"{STREAMS} streams of 10! start (200)", all(" 200 " in r["status"] for r in readers),
          [r["status"] for r in readers])
    statuses, latencies, p99 = probe_healthz(port)
    ended_early = [r["ended_early"] for r in readers]
    stop.set()
    for r in readers:
        r["thread"].join(timeout=30)
    check(f"50 /healthz probes all answer 200 while {STREAMS} streams run (p50 {latencies[25] * 1e3:.1f} ms, "
          f"p99 {p99 * 1e3:.1f} ms)", all(s == 200 for s in statuses), f"statuses {set(statuses)}")
    check("the streams were all still running when the probes ended", not any(ended_early))


def queens_count_reference(n):
    """The number of n-queens solutions, by a plain backtracking in Python."""
    def place(row, columns, diagonals, antidiagonals):
        if row == n:
            return 1
        return sum(place(row + 1, columns | {c}, diagonals | {row - c}, antidiagonals | {row + c})
                   for c in range(n)
                   if c not in columns and row - c not in diagonals and row + c not in antidiagonals)
    return place(0, frozenset(), frozenset(), frozenset())


def rank_reference(arrangement):
    """(rank, total) of an arrangement of distinct items among the orders of its items, by listing them."""
    orders = list(itertools.permutations(sorted(arrangement)))
    return orders.index(tuple(arrangement)), len(orders)


SMALL_AT_ONCE = 64
SUDOKU = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def small_requests_at_once(port):
    """SMALL_AT_ONCE small requests sent together from 127.0.0.3 (the 127.0.0.1 connections of the
    saturating load count against the per-address limit): [(path, status, body)]."""
    rank, total = rank_reference([3, 1, 2])
    paths = [("/permutation/rank?permutation=3,1,2",
              lambda b: b == {"kind": "rank", "rank": str(rank), "total": str(total)}),
             (f"/sudoku/check?puzzle={SUDOKU}", lambda b: b.get("solvable") is True and b.get("conflicts") == []),
             ("/queens?n=8&mode=count", lambda b: b.get("total") == str(queens_count_reference(8)))]
    results = [None] * SMALL_AT_ONCE
    start = threading.Barrier(SMALL_AT_ONCE)

    def run(index):
        path, expected = paths[index % len(paths)]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=scaled(30),
                                                source_address=("127.0.0.3", 0))
        try:
            connection.connect()
            start.wait()
            connection.request("GET", path)
            response = connection.getresponse()
            body = json.loads(response.read())
            results[index] = (path, response.status, body, response.status == 200 and expected(body))
        except (OSError, ValueError, threading.BrokenBarrierError) as error:
            results[index] = (path, 0, str(error), False)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(SMALL_AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=scaled(60))
    return results


def saturated_service(port):
    started = time.monotonic()
    running, waiting, full = fill_workers_and_queue(port, expiring_ms=EXPIRING_MS)
    check("with 2 computations running and 2 waiting, /readyz answers 503 (queue full)", full)
    status, _, body, _ = get(port, "/readyz")
    check("/readyz names the reason: not_ready", status == 503 and error_code((status, {}, body)) == "not_ready",
          f"{status} {body}")

    statuses, latencies, p99 = probe_healthz(port)
    check(f"50 /healthz probes all answer 200 while saturated (p50 {latencies[25] * 1e3:.1f} ms, "
          f"p99 {p99 * 1e3:.1f} ms)", all(s == 200 for s in statuses), f"statuses {set(statuses)}")
    # Not a latency bound (a busy machine stretches any): the probes are answered while the four
    # computations still hold the workers and the queue, not after one of them ends.
    still_computing = running + waiting[1:]
    check("... all of them while the long computations still run",
          not any("answer" in r for r in still_computing), [r.get("answer") for r in still_computing])

    status, _, body, seconds = get(port, "/word-ladder?from=cold&to=warm")
    check(f"a cheap word-ladder query still answers while saturated ({seconds * 1e3:.1f} ms)",
          status == 200 and isinstance(body, dict) and body.get("ladder", [None])[0] == "cold",
          f"{status} {body}")

    answer = get(port, LONG.format(ms=LONG_MS))
    status, headers, _, seconds = answer
    check(f"a request past the queue gets 503 overloaded ({seconds * 1e3:.1f} ms)",
          status == 503 and error_code(answer) == "overloaded", f"{status} {answer[2]}")
    check("... with Retry-After", headers.get("Retry-After", "").isdigit(), str(headers))
    answer = get(port, LONG.format(ms=LONG_MS), headers={"Accept": "text/event-stream"})
    status, headers, _, seconds = answer
    check(f"... and so does one that asks for progress events: a plain 503, no event stream ({seconds * 1e3:.1f} ms)",
          status == 503 and error_code(answer) == "overloaded"
          and headers.get("Content-Type", "").startswith("application/json"), f"{status} {headers} {answer[2]}")
    check("... with Retry-After too", headers.get("Retry-After", "").isdigit(), str(headers))
    check("... at once: before any computation ahead of it ended", not any("answer" in r for r in still_computing),
          [r.get("answer") for r in still_computing])

    expiring = waiting[0]
    expiring["thread"].join(timeout=LONG_MS / 1000 + 10)
    status, _, body, _ = expiring["answer"]
    answered_after = time.monotonic() - started
    check(f"the waiting request with time_limit_ms={EXPIRING_MS} gets 503 deadline_exceeded",
          status == 503 and error_code(expiring["answer"]) == "deadline_exceeded", f"{status} {body}")
    check(f"... near its limit, not after the requests ahead of it (at {answered_after:.2f} s)",
          EXPIRING_MS / 1000 - 0.1 < answered_after < EXPIRING_MS / 1000 + scaled(1.5), f"{answered_after:.2f} s")
    for request in running + waiting[1:]:
        request["thread"].join(timeout=2 * LONG_MS / 1000 + 10)
    check("the long computations end as 503 deadline_exceeded at their limit",
          all(error_code(r.get("answer", (0, {}, {}, 0))) == "deadline_exceeded" for r in running + waiting[1:]))


def small_requests_while_saturated(port):
    running, waiting, full = fill_workers_and_queue(port)
    # the two more wait, or are refused at once once the workers' measured runs say they would wait too long
    check("with 2 computations running again and the pool admitting no more, /readyz answers 503", full)
    results = small_requests_at_once(port)
    wrong = [r for r in results if r is None or not r[3]]
    check(f"{SMALL_AT_ONCE} small requests at once while saturated all answer 200, each as the Python reference "
          f"says (none 503: they never wait for the pool)", not wrong, wrong[:3])
    answer = get(port, LONG.format(ms=LONG_MS))
    check("... while a computing request past the queue still gets 503 overloaded",
          answer[0] == 503 and error_code(answer) == "overloaded", f"{answer[0]} {answer[2]}")
    check("... the long computations all still running", not any("answer" in r for r in running))
    for request in running + waiting:
        request["thread"].join(timeout=2 * LONG_MS / 1000 + 10)


def bulk_sudoku_body(busy_until_deadline=True):
    """Real 9 x 9 puzzles (the forum's hardest) up to just under 1 MiB, then (unless told otherwise) two
    empty grids, which count_limit=1000000000 keeps busy until the time limit; returns (body, number of
    puzzles)."""
    with open(HARDEST) as source:
        puzzles = [line.strip() for line in source if len(line.strip()) == 81]
    empty = "." * 81 + "\n"
    lines = []
    size = 2 * len(empty)
    while size + 82 <= BULK_BYTES:
        lines.append(puzzles[len(lines) % len(puzzles)] + "\n")
        size += 82
    return "".join(lines) + (empty * 2 if busy_until_deadline else ""), len(lines)


def bulk_sudoku_in_background(port, body):
    """POSTs `body` (text lines) to /sudoku/solve on its own thread, counting to 10^9 within BULK_MS;
    the returned dict gets 'answer' = (status, text) when it ends, and holds the thread as 'thread'."""
    result = {}

    def run():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=BULK_MS / 1000 + 30)
        try:
            connection.request("POST", f"/sudoku/solve?count_limit=1000000000&time_limit_ms={BULK_MS}",
                               body=body.encode(), headers={"Content-Type": "text/plain"})
            response = connection.getresponse()
            result["answer"] = (response.status, response.read().decode())
        except OSError as error:
            result["answer"] = (0, str(error))
        finally:
            connection.close()

    result["thread"] = threading.Thread(target=run)
    result["thread"].start()
    return result


def healthz_during_bulk_sudoku(port):
    body, puzzles = bulk_sudoku_body()
    bulk = bulk_sudoku_in_background(port, body)
    thread = bulk["thread"]
    time.sleep(0.3)  # the body is on its way to the workers
    statuses, latencies, p99 = probe_healthz(port)
    in_flight = thread.is_alive()
    check(f"50 /healthz probes all answer 200 while a {len(body)}-byte bulk sudoku body is solved "
          f"(p50 {latencies[25] * 1e3:.1f} ms, p99 {p99 * 1e3:.1f} ms)", all(s == 200 for s in statuses) and in_flight,
          "probes failed" if in_flight else "the bulk request had already ended")
    thread.join(timeout=BULK_MS / 1000 + 30)
    status, text = bulk.get("answer", (0, "no answer"))
    answers = [json.loads(line) for line in text.splitlines()] if status == 200 else []
    in_order = [a.get("line") for a in answers] == list(range(1, len(answers) + 1))
    solved = sum(1 for a in answers if a.get("unique") is True)
    last = answers[-1].get("error", {}).get("code") if answers else None
    # how far the body gets within its time limit depends on the machine; that every line before the
    # deadline line is a unique solution, in order, does not
    check(f"the bulk answers come in line order, each unique ({solved} of {puzzles} within the limit), "
          "then deadline_exceeded",
          status == 200 and in_order and solved == len(answers) - 1 and last == "deadline_exceeded",
          f"status {status}, {len(answers)} lines, in order {in_order}, {solved} unique, last {last}")


def half_open_connections(port):
    sockets = []
    refused = 0
    for _ in range(HALF_OPEN):
        s = socket.socket()
        s.settimeout(2)
        try:
            s.bind(("127.0.0.2", 0))
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # never finished
            sockets.append(s)
        except OSError:
            refused += 1
            s.close()
    check(f"{HALF_OPEN} half-open connections opened from 127.0.0.2 ({len(sockets)} held, {refused} refused)",
          len(sockets) + refused == HALF_OPEN)
    time.sleep(0.2)
    status, _, _, seconds = get(port, "/healthz", timeout=5)
    check(f"a fresh client from 127.0.0.1 gets /healthz in {seconds * 1e3:.1f} ms",
          status == 200 and seconds < scaled(1),
          f"status {status}, {seconds:.2f} s")
    closed = 0
    for s in sockets:  # closed: end of stream, or reset
        s.setblocking(False)
        try:
            closed += s.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    check(f"the server closed the connections past the per-address limit ({closed} closed)",
          closed >= HALF_OPEN - 64 - 1)
    for s in sockets:
        s.close()


def new_connection_unanswered(port):
    """True when a request on a fresh connection gets no byte back, only the connection's end."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=DRAIN_MS / 1000 + 5) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: drain\r\n\r\n")
            return s.recv(1) == b""
    except ConnectionError:
        return True


def request(port, method, path, body=None, headers=None):
    """The status of one request on a fresh connection, its body read whole (0 on a transport error)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError:
        return 0
    finally:
        connection.close()


def mixed_load():
    """(name, method, path, body, headers) of requests that each take a parallel path or hold a thread
    of their own today: a count split in shares (n = 13) and one too small to split, a rank of 20,000
    items (its product tree forks), shuffles of 600,000 values (dice drawn ahead: more than 2^19
    values), a bulk Sudoku body of 16 KiB (cut into runs), an NDJSON stream and an event stream."""
    with open(HARDEST) as source:
        puzzles = [line.strip() for line in source if len(line.strip()) == 81]
    bulk = "".join(puzzles[k % len(puzzles)] + "\n" for k in range(200)).encode()
    rank = json.dumps({"permutation": list(range(20000, 0, -1))}).encode()
    return [
        ("count n=13", "GET", "/queens?n=13&mode=count", None, {}),
        ("count n=8", "GET", "/queens?n=8&mode=count", None, {}),
        ("rank of 20,000", "POST", "/permutation/rank", rank, {"Content-Type": "application/json"}),
        ("shuffle of 600,000", "GET", "/shuffle?n=600000&seed=7", None, {}),
        ("bulk sudoku", "POST", "/sudoku/solve", bulk, {"Content-Type": "text/plain"}),
        ("NDJSON stream", "GET", "/permutations?items=0,1,2,3,4,5,6,7", None, {"Accept": "application/x-ndjson"}),
        ("event stream", "GET", "/queens?n=12&mode=count", None, {"Accept": "text/event-stream"}),
    ]


def threads_stay_fixed_under_mixed_load(process, port):
    load = mixed_load()
    answered = {name: 0 for name, *_ in load}
    most = [0]
    stop = threading.Event()
    task_dir = f"/proc/{process.pid}/task"

    def sample():
        while not stop.is_set():
            most[0] = max(most[0], len(os.listdir(task_dir)))
            time.sleep(0.001)

    def client(offset):
        for round_ in range(MIXED_ROUNDS):
            for k in range(len(load)):
                name, method, path, body, headers = load[(k + offset + round_) % len(load)]
                if request(port, method, path, body, headers) == 200:
                    answered[name] += 1

    sampler = threading.Thread(target=sample)
    sampler.start()
    clients = [threading.Thread(target=client, args=(offset,)) for offset in range(3)]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join(timeout=300)
    stop.set()
    sampler.join()
    check("every kind of the mixed load was answered 200 at least once "
          + ", ".join(f"{name} {count}" for name, count in answered.items()),
          all(count > 0 for count in answered.values()), "a kind never ran, so its threads were not seen")
    bound = FIXED_THREADS + runtime_threads(process.pid)
    check(f"/proc/PID/task never held more than {bound} threads under the mixed load (most: {most[0]})",
          0 < most[0] <= bound, f"{most[0]} threads")


def drain_on_sigterm(process, port):
    running, waiting, full = fill_workers_and_queue(port)
    check("full again before SIGTERM", full)
    stop_sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    for request in waiting:
        request["thread"].join(timeout=2)
    check("the waiting requests are answered 503 overloaded at once",
          all(error_code(r.get("answer", (0, {}, {}, 0))) == "overloaded" for r in waiting),
          str([r.get("answer", (0,))[0] for r in waiting]))
    # The stop has begun (the 503s say so) and the two running requests hold it in its drain for
    # DRAIN_MS: a connection opened now is closed without an answer while they still run (a listening
    # socket merely left unaccepted would end it only after them, when the server exits).
    unanswered = new_connection_unanswered(port)
    check("a new connection during the drain is closed unanswered, before the running requests end",
          unanswered and all("answer" not in r for r in running))
    try:
        status = process.wait(timeout=DRAIN_MS / 1000 + scaled(5))
    except subprocess.TimeoutExpired:
        process.kill()
        status = "still running"
    took = time.monotonic() - stop_sent
    for request in running:
        request["thread"].join(timeout=5)
    check(f"puzzled exits 0 after SIGTERM (status {status}, {took:.2f} s)", status == 0)
    check(f"... within the drain time plus the cancel grace ({DRAIN_MS} ms + 2 s)",
          took < DRAIN_MS / 1000 + 2 + scaled(0.5))
    answers = [r.get("answer", (0, {}, {}, 0)) for r in running + waiting]
    check("every request got an HTTP answer (running ones: 503 deadline_exceeded when cancelled)",
          all(a[0] in (200, 503) for a in answers), str([(a[0], error_code(a)) for a in answers]))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tests/concurrency/run.py PUZZLED_BIN")
    process, port = start_server(os.path.realpath(sys.argv[1]))
    try:
        healthz_while_streaming(port)
        saturated_service(port)
        small_requests_while_saturated(port)
        half_open_connections(port)
        healthz_during_bulk_sudoku(port)
        threads_stay_fixed_under_mixed_load(process, port)
        drain_on_sigterm(process, port)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    finish()


if __name__ == "__main__":
    main()
