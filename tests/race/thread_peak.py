#!/usr/bin/env python3
"""The server's peak thread count under a mixed load: what every way of running work in parallel adds
to the fixed threads (I/O pool, workers, express and watch threads).

Starts puzzled (--workers 2, --client-rate 0) on a free port and runs ROUNDS rounds of the mixed load,
CONCURRENCY requests at a time: parallel queens counts, ranks of a 20,000-item permutation (fork_join
over big numbers), shuffles of 2,000,000 values (the identity split and the dice relay), bulk Sudoku
bodies of 1,000 puzzles, and NDJSON streams of 10! read for 1 MiB then left. /proc/PID/task is sampled
throughout (tests/race/threads.py) and the peak printed; with --max-threads N the peak must be at most N.
Every answer read whole must be 200.
    tests/race/thread_peak.py PUZZLED_BIN [--max-threads N] [--rounds R]
Timeouts guard hangs only; PUZZLED_TEST_TIME_SCALE multiplies them.
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import argparse
import http.client
import json
import os
import random
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish, scaled, start_puzzled  # noqa: E402
from threads import ThreadPeak, thread_count  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CONCURRENCY = 16
RANK_ITEMS = 20000
STREAM_READ_BYTES = 1 << 20
REQUEST_TIMEOUT_S = scaled(120)  # guards a request never answered


def load(seed):
    """The mixed load's requests: (method, path, body, content type, Accept, bytes to read or None)."""
    draw = random.Random(seed)
    permutation = list(range(RANK_ITEMS))
    draw.shuffle(permutation)
    with open(os.path.join(ROOT, "bench", "sudoku", "data", "norvig_top95.txt")) as f:
        puzzles = [line.strip() for line in f if line.strip()]
    bulk = "\n".join(puzzles[i % len(puzzles)] for i in range(1000)) + "\n"
    ten = ",".join(str(i) for i in range(10))
    return [
        ("GET", "/queens?n=14&mode=count", None, None, None, None),
        ("POST", "/permutation/rank", json.dumps({"permutation": permutation}), "application/json", None, None),
        ("GET", f"/shuffle?n=2000000&seed={draw.randrange(1 << 32)}", None, None, None, None),
        ("POST", "/sudoku/solve", bulk, "text/plain", None, None),
        ("GET", f"/permutations?items={ten}", None, None, "application/x-ndjson", STREAM_READ_BYTES),
    ]


def send(port, request, statuses):
    method, path, body, content_type, accept, read_bytes = request
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)
    headers = {}
    if content_type:
        headers["Content-Type"] = content_type
    if accept:
        headers["Accept"] = accept
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(read_bytes) if read_bytes else response.read()
        statuses.append((path.split("?")[0], response.status))
    except OSError as error:
        statuses.append((path.split("?")[0], f"{type(error).__name__}: {error}"))
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--max-threads", type=int, help="fail when the server ever has more threads")
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    process, port = start_puzzled(args.binary, ("--workers", "2", "--queue", "64", "--client-rate", "0", "--max-connections-per-ip",
                                                "0", "--time-limit-ms", "600000"))
    statuses = []
    try:
        idle = thread_count(process.pid)
        requests = load(40)
        with ThreadPeak(process.pid) as peak:
            for _ in range(args.rounds):
                threads = [threading.Thread(target=send, args=(port, requests[i % len(requests)], statuses))
                           for i in range(CONCURRENCY)]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
    finally:
        process.kill()
        process.wait()
    bad = [s for s in statuses if s[1] != 200]
    check(f"{len(statuses)} requests of the mixed load answered 200", not bad, bad[:5])
    summary = f"peak thread count {peak.most} ({peak.samples} samples; {idle} when idle)"
    if args.max_threads is None:
        print(f"      {summary}")
    else:
        check(f"{summary}: never more than {args.max_threads}", peak.most <= args.max_threads)
    finish()


main()
