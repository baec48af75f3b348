#!/usr/bin/env python3
"""Work whose client left stops (server/request_schedule.c, the client watch): on a server of its own with
--workers 1, CLIENTS clients in a row each start a listing that runs into its 10 s time limit and
leave after LEAVE_S; then how long after the last one left the worker was free again
(puzzled_workers_busy back to 0, polled every POLL_S), and the latency of an n = 16 count sent right
after, against the same count on the same server before (idle).
Prints benchmark TSV rows (measure, ours, peer, peer's figure, unit, lower|higher).
    PUZZLED_BIN=build-bench/puzzled bench/abandoned/abandoned.py
"""
import os
import re
import socket
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from service import start  # noqa: E402

CLIENTS = 20
LEAVE_S = 0.2
POLL_S = 0.005
# Skipping 10^12 solutions runs until its time limit: no estimate, so it is admitted and runs.
LISTING = "/queens?n=24&offset=1000000000000&limit=1&algorithm=backtracking&time_limit_ms=10000"
COUNT = "/queens?n=16&mode=count"


def busy(port):
    body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    return float(re.search(r"^puzzled_workers_busy (\S+)$", body, re.M).group(1))


def timed_get(port, path):
    began = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as answer:
        answer.read()
        status = answer.status
    return status, (time.monotonic() - began) * 1e3


def main():
    process, port = start(os.environ["PUZZLED_BIN"], ["--workers", "1", "--client-rate", "0"])
    try:
        _, idle_ms = timed_get(port, COUNT)
        for _ in range(CLIENTS):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(f"GET {LISTING} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
            time.sleep(LEAVE_S)
            s.close()
        left = time.monotonic()
        while busy(port) != 0 and time.monotonic() - left < 30:
            time.sleep(POLL_S)
        free_ms = (time.monotonic() - left) * 1e3
        status, after_ms = timed_get(port, COUNT)
    finally:
        process.terminate()
        process.wait()
    print(f"abandoned: n = 16 count after the clients answered {status}", file=sys.stderr)
    print(f"worker free after {CLIENTS} clients left 10 s listings (--workers 1), ms after the last left\t"
          f"{free_ms:.1f}\tthe 200 ms goal\t200\tms\tlower")
    print(f"n = 16 count right after them (status {status})\t{after_ms:.1f}\tthe same count idle\t{idle_ms:.1f}\tms\tlower")


main()
