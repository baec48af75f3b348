#!/usr/bin/env python3
"""The cheap mix under a burst: wrk keeps CONNECTIONS keep-alive connections sending 14 routes of
small work (bench/mix/mix.lua: a shuffle, the 5,040 permutations of 7 items, a knight's tour on 8 x 8,
a ladder, a generated Sudoku, an SVG board, /healthz, neighbours, a 404 and a 400 by design, ...) from
one address, for DURATION_S, at 32 and at 256 connections, on a server of its own. Meanwhile one
more connection times /healthz (bench/lib/service.py). From /metrics before and after: the share of
answers that were 503, and the queue wait's p99 (the upper bound of its histogram bucket).
Prints benchmark TSV rows (measure, ours, peer, peer's figure, unit, lower|higher).
    PUZZLED_BIN=build-bench/puzzled bench/mix/mix.py [DURATION_S]
"""
import http.client
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from service import HealthzProbe, start  # noqa: E402

CONNECTION_COUNTS = (32, 256)
DURATION_S = int(sys.argv[1]) if len(sys.argv) > 1 else 60
HERE = os.path.dirname(os.path.abspath(__file__))


def metrics(port):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/metrics")
    body = connection.getresponse().read().decode()
    connection.close()
    statuses = {}
    for route, status, value in re.findall(r'^puzzled_requests_total\{route="([^"]*)",method="[^"]*",status="(\d+)"\} (\S+)$',
                                           body, re.M):
        if route != "/metrics":
            statuses[status] = statuses.get(status, 0) + float(value)
    waits = {le: float(v) for le, v in re.findall(r'^puzzled_queue_wait_seconds_bucket\{le="([^"]+)"\} (\S+)$', body, re.M)}
    refusals = {reason: float(v) for reason, v in
                re.findall(r'^puzzled_queue_rejections_total\{reason="([^"]+)"\} (\S+)$', body, re.M)}
    return statuses, waits, refusals


def p99_bucket(before, after):
    """The upper bound of the bucket that holds the 99th percentile of the waits between the two."""
    bounds = sorted(after, key=lambda le: float("inf") if le == "+Inf" else float(le))
    total = after["+Inf"] - before.get("+Inf", 0)
    for le in bounds:
        if total == 0 or after[le] - before.get(le, 0) >= 0.99 * total:
            return le
    return "+Inf"


def burst(port, connections):
    statuses_before, waits_before, refusals_before = metrics(port)
    prober = HealthzProbe(port)
    prober.start()
    subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{DURATION_S}s", "-s", os.path.join(HERE, "mix.lua"),
                    f"http://127.0.0.1:{port}"], check=True, stdout=subprocess.DEVNULL)
    prober.stop()
    statuses_after, waits_after, refusals_after = metrics(port)
    counts = {s: statuses_after[s] - statuses_before.get(s, 0) for s in statuses_after}
    counts["200"] = counts.get("200", 0) - len(prober.latencies) - 1  # the prober's and the metrics' own /healthz
    answers = sum(counts.values())
    refused = counts.get("503", 0)
    healthz_p99 = prober.p99()
    refused_by = {reason: refusals_after[reason] - refusals_before.get(reason, 0) for reason in refusals_after}
    print(f"mix at {connections}: {int(answers)} answers, by status {sorted(counts.items())}, "
          f"queue refusals by reason {refused_by}", file=sys.stderr)
    label = f"cheap mix, {connections} keep-alive connections, {DURATION_S} s"
    print(f"{label}: answers that were 503 (goal at most 0.1%)\t{100 * refused / answers:.3f}\t-\t-\t%\tlower")
    print(f"{label}: queue wait p99 (histogram bucket bound; goal 100 ms)\t"
          f"{1e3 * float(p99_bucket(waits_before, waits_after)):.0f}\t-\t-\tms\tlower")
    print(f"{label}: /healthz p99 meanwhile (goal 20 ms)\t{healthz_p99:.1f}\t-\t-\tms\tlower")


def main():
    with tempfile.TemporaryFile() as log:  # the access log goes to a file, as in production
        process, port = start(os.environ["PUZZLED_BIN"], ["--client-rate", "0", "--max-connections-per-ip", "0"], log)
        try:
            for connections in CONNECTION_COUNTS:
                burst(port, connections)
        finally:
            process.terminate()
            process.wait()


main()
