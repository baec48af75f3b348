#!/usr/bin/env python3
"""A flood of long work is refused at once: on a server of its own (2 workers; --client-rate 0, so
that the per-client share does not decide; --max-connections-per-ip 0), CONNECTIONS keep-alive
connections each send /queens?n=17&mode=count (seconds of work), again PAUSE_S after each answer, for
DURATION_S. What the workers can run, runs; the rest must be refused by the predicted wait at once,
503 with Retry-After. Meanwhile one more connection times /healthz (bench/lib/service.py). The pause
keeps the client's own threads from setting the pace of what is measured.
Prints benchmark TSV rows (measure, ours, peer, peer's figure, unit, lower|higher).
    PUZZLED_BIN=build-bench/puzzled bench/flood/flood.py
"""
import http.client
import json
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from service import HealthzProbe, percentile, start  # noqa: E402

CONNECTIONS = 64
DURATION_S = 10
PAUSE_S = 0.05
COUNT = "/queens?n=17&mode=count"


def flood(port, until, refusals, statuses, lock):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while time.monotonic() < until:
        began = time.monotonic()
        try:
            connection.request("GET", COUNT)
            answer = connection.getresponse()
            body = answer.read()
        except ConnectionError as error:  # counted, then a new connection
            with lock:
                statuses[type(error).__name__] = statuses.get(type(error).__name__, 0) + 1
            connection.close()
            continue
        took_ms = (time.monotonic() - began) * 1e3
        outcome = str(answer.status) if answer.status < 400 else f"{answer.status} {json.loads(body)['error']['code']}"
        with lock:
            statuses[outcome] = statuses.get(outcome, 0) + 1
            if outcome == "503 overloaded":
                refusals.append((took_ms, answer.getheader("Retry-After")))
        time.sleep(PAUSE_S)
    connection.close()


def main():
    process, port = start(os.environ["PUZZLED_BIN"], ["--workers", "2", "--client-rate", "0", "--max-connections-per-ip", "0"])
    try:
        until = time.monotonic() + DURATION_S
        refusals, statuses, lock = [], {}, threading.Lock()
        prober = HealthzProbe(port)
        prober.start()
        flooders = [threading.Thread(target=flood, args=(port, until, refusals, statuses, lock)) for _ in range(CONNECTIONS)]
        for thread in flooders:
            thread.start()
        for thread in flooders:
            thread.join()
        prober.stop()
    finally:
        process.terminate()
        process.wait()
    without_retry_after = sum(1 for _, retry_after in refusals if not retry_after)
    print(f"flood: answers by status {sorted(statuses.items())}, {without_retry_after} overloaded refusals without Retry-After",
          file=sys.stderr)
    label = f"{CONNECTIONS} connections of n = 17 counts, {DURATION_S} s"
    print(f"{label}: 503 overloaded refusal p99 (goal 10 ms)\t{percentile([ms for ms, _ in refusals], 0.99):.1f}\t-\t-\tms\tlower")
    print(f"{label}: overloaded refusals without Retry-After\t{without_retry_after}\t-\t-\tcount\tlower")
    print(f"{label}: /healthz p99 meanwhile (goal 20 ms)\t{prober.p99():.1f}\t-\t-\tms\tlower")


main()
