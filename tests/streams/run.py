#!/usr/bin/env python3
"""Streams under memory pressure and their bounded direct calls (issue 32).

Starts puzzled on loopback and shows, with bounded counts and timeouts, that:
  - 100 clients that open the NDJSON stream of all 11! permutations and stop reading add at most
    32 MB to the server's resident memory (sampled while they stall, every sample checked);
  - with a small --stream-budget-mb, streams are admitted exactly while their charges fit the
    budget (puzzled_stream_buffer_bytes), the next one gets 503 "overloaded" with Retry-After and a
    JSON error, and once a stalled client leaves its charge comes back and a new stream is admitted;
  - a stalled shuffle of numbers, formatted on the pool ahead of the socket, holds the charge of its
    ring of wide pieces, and a second one does not fit beside it in a 1 MiB budget;
  - no direct stream call (permutations, combinations, a seeded shuffle, queens mode=first above the
    whole-body size) produced more than its bound (puzzled_stream_call_max_bytes against
    puzzled_stream_call_bound_bytes), every answer being complete and valid;
  - a shuffle whose items are longer than libmicrohttpd's block (the one case a call may overflow)
    still streams whole and valid, the overflow carried into the next calls.
    tests/streams/run.py PUZZLED_BIN [--no-rss] [--no-direct-calls]
--no-rss skips the check of resident memory alone, for builds whose RSS is not the service's own
(ThreadSanitizer's shadow memory grows with every byte touched: the tsan stage). --no-direct-calls
skips the last two checks, hundreds of megabytes of answers made one request at a time on the I/O
thread, where no threads meet: under ThreadSanitizer (the tsan stage) they would only take minutes.
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import argparse
import http.client
import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish, metric, start_puzzled  # noqa: E402

ELEVEN = "/permutations?items=" + ",".join(str(i) for i in range(11))
STALLED = 100
RSS_GROWTH_LIMIT = 32 << 20
SAMPLE_SECONDS = 3
LONG_ITEMS_NUMBERS = 5000  # above the 4,096 values of a shuffle built whole
LONG_ITEM_BYTES = 300 * 1024  # longer than any block libmicrohttpd offers (its connection memory)


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def open_stalled(port, path):
    """Sends a GET for the NDJSON stream at `path`, reads the status line and returns (socket, status
    line, head bytes); the caller then stops reading. A small receive buffer makes it stall soon."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head and len(head) < 65536:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    return s, head.split(b"\r\n", 1)[0].decode(errors="replace"), head


def stalled_memory(binary, check_rss):
    process, port = start_puzzled(binary, ("--client-rate", "0", "--max-connections-per-ip", "0"))
    try:
        warm = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        warm.request("GET", "/permutations?items=0,1,2,3,4,5,6", headers={"Accept": "application/x-ndjson"})
        warm.getresponse().read()
        warm.close()
        before = rss_bytes(process.pid)
        sockets = []
        statuses = []
        for _ in range(STALLED):
            s, status, _ = open_stalled(port, ELEVEN)
            sockets.append(s)
            statuses.append(status)
        check(f"{STALLED} streams of 11! all start (200)", all(" 200 " in s for s in statuses), statuses[:3])
        peak = before
        end = time.monotonic() + SAMPLE_SECONDS
        while time.monotonic() < end:
            peak = max(peak, rss_bytes(process.pid))
            time.sleep(0.1)
        growth = peak - before
        if check_rss:
            check(f"{STALLED} stalled 11! streams add at most {RSS_GROWTH_LIMIT >> 20} MB of RSS "
                  f"(added {growth / 1e6:.1f} MB: {before / 1e6:.1f} -> {peak / 1e6:.1f} MB)",
                  growth <= RSS_GROWTH_LIMIT)
        else:
            print(f"      RSS not checked (--no-rss): {before / 1e6:.1f} -> {peak / 1e6:.1f} MB")
        held = metric(port, "puzzled_stream_buffer_bytes")
        check(f"their charges are held ({held:.0f} bytes)", held is not None and held > 0)
        for s in sockets:
            s.close()
    finally:
        process.kill()
        process.wait()


def budget(binary):
    process, port = start_puzzled(binary, ("--client-rate", "0", "--max-connections-per-ip", "0",
                                           "--stream-budget-mb", "1"))
    try:
        budget_bytes = metric(port, "puzzled_stream_buffer_budget_bytes")
        check("the budget is --stream-budget-mb", budget_bytes == 1 << 20, budget_bytes)
        sockets = []
        first, status, _ = open_stalled(port, ELEVEN)
        sockets.append(first)
        charge = metric(port, "puzzled_stream_buffer_bytes")
        check(f"one stream charges the budget ({charge:.0f} bytes)", " 200 " in status and charge > 0)
        fitting = int(budget_bytes // charge)
        admitted = 1
        while admitted < fitting:
            s, status, _ = open_stalled(port, ELEVEN)
            sockets.append(s)
            if " 200 " not in status:
                break
            admitted += 1
        check(f"streams are admitted while their charges fit ({admitted} of {fitting})", admitted == fitting)
        refused, status, head = open_stalled(port, ELEVEN)
        refused.settimeout(10)
        body = head.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in head else b""
        try:
            while not body.endswith(b"}"):
                chunk = refused.recv(4096)
                if not chunk:
                    break
                body += chunk
        except socket.timeout:
            pass
        refused.close()
        headers = head.split(b"\r\n\r\n", 1)[0].decode(errors="replace").lower()
        try:
            code = json.loads(body)["error"]["code"]
        except (ValueError, KeyError):
            code = None
        check("the next stream gets 503 overloaded with Retry-After",
              " 503 " in status and "retry-after: " in headers and code == "overloaded", (status, body[:200]))
        sockets.pop().close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and metric(port, "puzzled_stream_buffer_bytes") > (fitting - 1) * charge:
            time.sleep(0.05)
        check("a stalled client that leaves gives its charge back",
              metric(port, "puzzled_stream_buffer_bytes") == (fitting - 1) * charge)
        s, status, _ = open_stalled(port, ELEVEN)
        sockets.append(s)
        check("then a new stream is admitted", " 200 " in status, status)
        for s in sockets:
            s.close()
    finally:
        process.kill()
        process.wait()


OVERLAPPED_SHUFFLE = "/shuffle?n=1000000&seed=5"
OVERLAPPED_CHARGE = 3 * 256 * 1024  # a ring of three 256 KiB pieces (docs/architecture.md, the budget table)


def overlapped_budget(binary):
    """A shuffle of numbers formats ahead of the socket on the pool: a stalled one holds its ring's
    charge, and a second does not fit a 1 MiB budget beside it."""
    process, port = start_puzzled(binary, ("--client-rate", "0", "--max-connections-per-ip", "0",
                                           "--stream-budget-mb", "1"))
    try:
        first, status, _ = open_stalled(port, OVERLAPPED_SHUFFLE)
        charge = metric(port, "puzzled_stream_buffer_bytes")
        check(f"a stalled shuffle of 10^6 numbers charges its ring of wide pieces ({charge:.0f} bytes)",
              " 200 " in status and charge == OVERLAPPED_CHARGE, (status, charge))
        second, status, _ = open_stalled(port, OVERLAPPED_SHUFFLE)
        check("a second one does not fit a 1 MiB budget beside it (503)", " 503 " in status, status)
        second.close()
        first.close()
    finally:
        process.kill()
        process.wait()


def read_all(port, path, accept="application/x-ndjson"):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", path, headers={"Accept": accept, "Accept-Encoding": "identity"})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def call_bound(binary):
    process, port = start_puzzled(binary, ("--client-rate", "0", "--time-limit-ms", "60000",
                                           "--max-queens-n", "3000000"))
    try:
        status, body = read_all(port, "/permutations?items=0,1,2,3,4,5,6,7,8,9")
        lines = body.split(b"\n")
        check("10! as NDJSON: 3,628,800 lines, the first and last right",
              status == 200 and len(lines) == 3628801 and lines[0] == b"[0,1,2,3,4,5,6,7,8,9]"
              and lines[-2] == b"[9,8,7,6,5,4,3,2,1,0]" and lines[-1] == b"", (status, len(lines)))
        # A JSON list without limit is one --default-page: these ask for every entry, so the whole
        # list streams through the direct calls, and the last page says there is no next.
        status, body = read_all(port, "/permutations?limit=362880&items=0,1,2,3,4,5,6,7,8", "application/json")
        doc = json.loads(body)
        check("9! as JSON: valid, 362,880 permutations", status == 200 and len(doc["permutations"]) == 362880
              and doc["next_offset"] is None)
        status, body = read_all(port, "/combinations?k=12&limit=2704156&items=" + ",".join(str(i) for i in range(24)),
                                "application/json")
        doc = json.loads(body)
        check("C(24,12) as JSON: 2,704,156 combinations", status == 200 and len(doc["combinations"]) == 2704156
              and doc["next_offset"] is None)
        status, body = read_all(port, "/shuffle?n=2000000&seed=7", "application/json")
        doc = json.loads(body)
        check("a seeded shuffle of 2,000,000: a permutation of 0..n-1",
              status == 200 and sorted(doc["items"]) == list(range(2000000)))
        status, body = read_all(port, "/queens?n=3000000&mode=first", "application/json")
        doc = json.loads(body)
        cols = doc["solution"]
        check("queens mode=first n=3,000,000 (streamed): n distinct columns",
              status == 200 and len(cols) == 3000000 and len(set(cols)) == 3000000)
        longest = metric(port, "puzzled_stream_call_max_bytes")
        bound = metric(port, "puzzled_stream_call_bound_bytes")
        seconds = metric(port, "puzzled_stream_call_max_seconds")
        check(f"no direct call produced more than its bound ({longest:.0f} <= {bound:.0f} bytes; the "
              f"longest took {seconds * 1e6:.0f} us)", 0 < longest <= bound)
    finally:
        process.kill()
        process.wait()


def long_items(binary):
    """Items longer than libmicrohttpd's block overflow a direct call: the rest is carried to the next."""
    process, port = start_puzzled(binary, ("--client-rate", "0", "--max-body", str(4 << 20)))
    try:
        items = list(range(LONG_ITEMS_NUMBERS)) + ["x" * LONG_ITEM_BYTES + str(i) for i in range(3)]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        connection.request("POST", "/shuffle", body=json.dumps({"items": items, "seed": "3"}),
                           headers={"Content-Type": "application/json", "Accept-Encoding": "identity"})
        response = connection.getresponse()
        body = response.read()
        connection.close()
        doc = json.loads(body) if response.status == 200 else {}
        got = doc.get("items", [])
        check(f"a shuffle with three {LONG_ITEM_BYTES >> 10} KiB items streams whole and valid",
              response.status == 200 and sorted(got, key=str) == sorted(items, key=str)
              and response.getheader("Transfer-Encoding") == "chunked", (response.status, len(got)))
        longest = metric(port, "puzzled_stream_call_max_bytes")
        check(f"... through the direct path, whose call produced more than one block ({longest:.0f} bytes)",
              longest > LONG_ITEM_BYTES)
    finally:
        process.kill()
        process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--no-rss", action="store_true", help="skip the resident-memory check")
    parser.add_argument("--no-direct-calls", action="store_true", help="skip the direct calls' bound and overflow")
    args = parser.parse_args()
    binary = args.binary
    stalled_memory(binary, check_rss=not args.no_rss)
    budget(binary)
    overlapped_budget(binary)
    if not args.no_direct_calls:
        call_bound(binary)
        long_items(binary)
    finish()


if __name__ == "__main__":
    main()
