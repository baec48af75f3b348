#!/usr/bin/env python3
"""Fair share per client (server/clients.h), with bounded request counts on loopback:
  - behind a trusted proxy (--trusted-proxy 127.0.0.1), a greedy client named by X-Forwarded-For
    gets 429 rate_limited with Retry-After once its burst is spent, while a second client's
    computing request is still admitted;
  - a stream started on the I/O thread (queens mode=first above 64 KiB, no worker) counts as the
    computing request it is: 429 for the greedy client, answered for the second;
  - cheap answers (/healthz) are not counted against the greedy client;
  - a client that already has its share of computing requests in progress (3 per worker,
    CLIENTS_SHARE_PER_WORKER) gets 429 while another client's request is admitted;
  - a client's requests one after another on one connection never meet its share in progress;
  - an untrusted peer's X-Forwarded-For changes nothing: every request counts against the peer.
    tests/fair_share/run.py PUZZLED_BIN
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import collections
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("concurrency", os.path.join(here, "..", "concurrency", "run.py"))
concurrency = importlib.util.module_from_spec(spec)
spec.loader.exec_module(concurrency)
check, get, error_code = concurrency.check, concurrency.get, concurrency.error_code
finish = concurrency.finish

CHEAP = "/queens?n=4&mode=count"
# Skipping 10^12 solutions runs until its time limit (an offset has no estimate, so it is not refused at once).
LONG = "/queens?n=24&offset=1000000000000&limit=1&algorithm=backtracking&time_limit_ms=3000"
STREAMED = "/queens?n=100000&mode=first"  # api_endpoint.starts_at_once: run on the I/O thread
QUEUED = "/queens?n=8&offset=1&limit=1"  # quick, but with no estimate it goes to the pool
SEQUENTIAL_REQUESTS = 30  # ten times a one-worker server's share in progress


def as_client(address):
    return {"X-Forwarded-For": f"203.0.113.99, {address}"}


def rate_limit(binary):
    process, port = concurrency.start_server(
        binary, ("--trusted-proxy", "127.0.0.1", "--client-rate", "1", "--client-burst", "3"))
    try:
        greedy = [get(port, CHEAP, headers=as_client("198.51.100.7")) for _ in range(5)]
        statuses = [answer[0] for answer in greedy]
        check(f"a greedy client behind the proxy: its burst of 3 answered, then 429 ({statuses})",
              statuses[:3] == [200] * 3 and statuses[3:] == [429, 429])
        check("... rate_limited, with Retry-After",
              error_code(greedy[3]) == "rate_limited" and greedy[3][1].get("Retry-After", "").isdigit())
        streamed = get(port, STREAMED, headers=as_client("198.51.100.7"))
        check("... and so is its stream started on the I/O thread (queens mode=first)",
              streamed[0] == 429 and error_code(streamed) == "rate_limited", f"{streamed[0]}")
        check("... its cheap answers are not counted (/healthz 200)",
              get(port, "/healthz", headers=as_client("198.51.100.7"))[0] == 200)
        check("a second client's computing request is admitted",
              get(port, CHEAP, headers=as_client("198.51.100.8"))[0] == 200)
        check("... and its stream started on the I/O thread too",
              get(port, STREAMED, headers=as_client("198.51.100.8"))[0] == 200)
    finally:
        process.kill()
        process.wait()


def share_in_progress(binary):
    # --workers 1: a client may have 3 computing requests in progress (CLIENTS_SHARE_PER_WORKER).
    process, port = concurrency.start_server(
        binary, ("--trusted-proxy", "127.0.0.1", "--workers", "1", "--client-burst", "100"))
    try:
        running = [concurrency.in_background(port, LONG, as_client("198.51.100.9")) for _ in range(3)]
        # one on the worker, two waiting in the main queue (a fresh server charges these counts nothing)
        check("a client's 3 computing requests are in progress",
              concurrency.wait_until(lambda: concurrency.metric(port, "puzzled_workers_busy") == 1
                                     and concurrency.metric(port, 'puzzled_queue_waiting{lane="main"}') == 2))
        fourth = get(port, LONG, headers=as_client("198.51.100.9"))
        check("a client with 3 computing requests in progress gets 429 for a fourth",
              fourth[0] == 429 and error_code(fourth) == "rate_limited", f"{fourth[0]} {fourth[2]}")
        other = get(port, CHEAP, headers=as_client("198.51.100.10"))
        check("while another client's request is admitted and answered", other[0] == 200, f"{other[0]} {other[2]}")
        for request in running:
            request["thread"].join(timeout=10)
    finally:
        process.kill()
        process.wait()


def share_back_at_once(binary):
    """A client's requests one after another on one connection never meet its share in progress: each
    gives its share back as its answer is sent (libmicrohttpd ends the request before it reads the next
    on the connection), not when its client watch next looks."""
    process, port = concurrency.start_server(
        binary, ("--workers", "1", "--client-rate", "1000", "--client-burst", "1000"))
    try:
        connection = concurrency.http.client.HTTPConnection("127.0.0.1", port, timeout=concurrency.scaled(30))
        statuses = []
        for _ in range(SEQUENTIAL_REQUESTS):
            connection.request("GET", QUEUED)
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
        connection.close()
        check(f"{SEQUENTIAL_REQUESTS} requests in a row on one connection, each queued for the one worker "
              f"(a share of 3): every one answered ({collections.Counter(statuses)})",
              statuses == [200] * SEQUENTIAL_REQUESTS)
    finally:
        process.kill()
        process.wait()


def untrusted_forwarding(binary):
    process, port = concurrency.start_server(binary, ("--client-rate", "1", "--client-burst", "3"))
    try:
        statuses = [get(port, CHEAP, headers=as_client(f"198.51.100.{20 + i}"))[0] for i in range(5)]
        check(f"an untrusted peer's X-Forwarded-For changes nothing: the peer is limited ({statuses})",
              statuses[:3] == [200] * 3 and statuses[3:] == [429, 429])
    finally:
        process.kill()
        process.wait()


def main():
    binary = os.path.realpath(sys.argv[1])
    rate_limit(binary)
    share_in_progress(binary)
    share_back_at_once(binary)
    untrusted_forwarding(binary)
    finish()


if __name__ == "__main__":
    main()
