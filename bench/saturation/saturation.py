#!/usr/bin/env python3
"""Latency of the cheap requests while the workers are saturated, against the same requests on the
same server idle, in one run: GET /healthz (answered on the I/O threads) and a word ladder (answered
within the express lane's slice), p50 and p99 of ROUNDS sequential requests each; and the latency of
a 503 "overloaded" refusal; and /healthz while a 1 MiB bulk Sudoku body (the forum's hardest, text
lines) is solved on both workers, probed until that request ends, as often as ROUNDS probes take. The
saturating load is the one of tests/concurrency/run.py (two long
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


def healthz_during_bulk_sudoku(port):
    """Sorted /healthz latencies (ms), each taken while a bulk /sudoku/solve of just under 1 MiB of real
    puzzles was still in flight, and how many such bodies it took."""
    body, _ = concurrency.bulk_sudoku_body(busy_until_deadline=False)
    times = []
    bodies = 0
    while len(times) < ROUNDS:
        bulk = concurrency.bulk_sudoku_in_background(port, body)
        bodies += 1
        while bulk["thread"].is_alive():
            status, _, _, seconds = concurrency.get(port, "/healthz")
            if bulk["thread"].is_alive():
                times.append(seconds * 1e3)
        if bulk["answer"][0] != 200:
            sys.exit(f"saturation: the bulk sudoku answered {bulk['answer'][0]}")
    return sorted(times), bodies


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
        during_bulk, bodies = healthz_during_bulk_sudoku(port)
    finally:
        process.kill()
        process.wait()
    print(f"saturation: {len(during_bulk)} /healthz probes during {bodies} bulk sudoku bodies", file=sys.stderr)
    for name in probes:
        for index, label in ((0, "p50"), (1, "p99")):
            print(f"{name} {label} while saturated (2 workers busy, queue full)\t{busy[name][index]:.2f}\t"
                  f"the same server idle\t{idle[name][index]:.2f}\tms\tlower")
    print(f"healthz p50 while a 1 MiB bulk sudoku body is solved\t"
          f"{statistics.median(during_bulk):.2f}\tthe same server idle\t{idle['healthz'][0]:.2f}\tms\tlower")
    print(f"healthz p99 while a 1 MiB bulk sudoku body is solved\t"
          f"{during_bulk[int(0.99 * (len(during_bulk) - 1))]:.2f}\tthe same server idle\t{idle['healthz'][1]:.2f}\tms\tlower")
    print(f"503 overloaded refusal p50 (express slice, then the full queue)\t{statistics.median(refusals):.2f}\t"
          f"-\t-\tms\tlower")


if __name__ == "__main__":
    main()
