#!/usr/bin/env python3
"""Latency of the cheap requests while the workers are saturated, against the same requests on the
same server idle, in one run: GET /healthz (answered on the I/O threads) and a word ladder (answered
within the express lane's slice), p50 and p99 of ROUNDS sequential requests each; and the latency of
a 503 "overloaded" refusal. The saturating load is the one of tests/concurrency/run.py (two long
single-threaded counts on --workers 2, two more waiting in a --queue 2), whose helpers this imports.
Prints benchmark TSV rows (measure, ours, peer, peer's figure, unit, lower|higher): "ours" is the
saturated server, the "peer" the same server idle.
    PUZZLED_BIN=build-bench/puzzled bench/saturation/saturation.py
"""
import importlib.util
import os
import statistics
import sys

ROUNDS = 200
here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "concurrency", os.path.join(here, "..", "..", "tests", "concurrency", "run.py"))
concurrency = importlib.util.module_from_spec(spec)
spec.loader.exec_module(concurrency)


def percentiles(port, path, rounds=ROUNDS):
    times = sorted(concurrency.get(port, path)[3] * 1e3 for _ in range(rounds))
    return statistics.median(times), times[int(0.99 * (len(times) - 1))]


def main():
    process, port = concurrency.start_server(os.environ["PUZZLED_BIN"])
    probes = {"healthz": "/healthz", "ladder cold-warm": "/word-ladder?from=cold&to=warm"}
    try:
        idle = {name: percentiles(port, path) for name, path in probes.items()}
        running, waiting, full = concurrency.fill_workers_and_queue(port)
        if not full:
            sys.exit("saturation: the queue did not fill")
        busy = {name: percentiles(port, path) for name, path in probes.items()}
        refusals = sorted(concurrency.get(port, concurrency.LONG.format(ms=1000))[3] * 1e3 for _ in range(20))
        for request in running + waiting:
            request["thread"].join()
    finally:
        process.kill()
        process.wait()
    for name in probes:
        for index, label in ((0, "p50"), (1, "p99")):
            print(f"{name} {label} while saturated (2 workers busy, queue full)\t{busy[name][index]:.2f}\t"
                  f"the same server idle\t{idle[name][index]:.2f}\tms\tlower")
    print(f"503 overloaded refusal p50 (express slice, then the full queue)\t{statistics.median(refusals):.2f}\t"
          f"-\t-\tms\tlower")


if __name__ == "__main__":
    main()
