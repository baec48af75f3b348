#!/usr/bin/env python3
"""The stop under streams the clients abandoned (issue: a stop that never crashes).

libmicrohttpd aborts the whole process when MHD_stop_daemon finds a connection still suspended, and a
streamed answer suspends its connection whenever the socket is faster than the generator; the stop
(server/http.c) must resume and finish every one first (server/suspension.h counts them). Each round:
start puzzled, open three long NDJSON streams (/permutations of 11 letters, 11! lines, far more than a round
reads), read until each has sent body bytes (so each is streaming on the server for sure), abort
them from the client side (odd rounds with a FIN, even rounds with a RST: SO_LINGER 0), send one
more computing request and read its whole answer, then SIGTERM at once. Every round must end with
exit status 0, "puzzled: stopped" on stderr and no sanitizer report.
    tests/stop/run.py PUZZLED_BIN [--rounds N]    (default 20; the full stress test is --rounds 200)
Prints a line per failed round, one check line for the whole, and `N passed, M failed` last.
"""
import argparse
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish, sanitizer_reports, scaled, start_puzzled  # noqa: E402

STREAM = b"GET /permutations?text=abcdefghijk HTTP/1.1\r\nHost: stop\r\nAccept: application/x-ndjson\r\n\r\n"
LAST = b"GET /queens?n=8&mode=count HTTP/1.1\r\nHost: stop\r\nConnection: close\r\n\r\n"
STREAMS = 3
# Guards a stop that hangs. The server's own bounds add up to 19 s (--drain-ms 10 s, two 2 s graces,
# the 5 s flush wait, server/http.c); a sanitizer build on a busy machine stops well within three
# times that, and a stop that never ends is caught here instead of by the suite's own time-out.
STOP_TIMEOUT_S = scaled(60)
# Guards a server that does not answer at all: every socket operation of a round (a sanitizer build on
# a busy machine answers in well under a second). Both stretch by PUZZLED_TEST_TIME_SCALE.
SOCKET_TIMEOUT_S = scaled(30)


def open_stream(port):
    """A stream that has sent its headers and some of its body."""
    s = socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT_S)
    s.sendall(STREAM)
    received = b""
    while b"\r\n\r\n" not in received or len(received) <= received.index(b"\r\n\r\n") + 4:
        data = s.recv(65536)
        if not data:
            raise OSError("the stream closed before its body began")
        received += data
    if not received.startswith(b"HTTP/1.1 200"):
        raise OSError(f"the stream answered {received.splitlines()[0]!r}")
    return s


def abort(s, with_reset):
    if with_reset:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()


def last_request(port):
    """The whole answer to one more computing request: its status line."""
    with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT_S) as s:
        s.sendall(LAST)
        answer = b""
        while data := s.recv(65536):
            answer += data
    return answer.split(b"\r\n", 1)[0].decode(errors="replace")


def round_problem(binary, number):
    """None when round `number` ends as it must, else what went wrong."""
    with tempfile.TemporaryFile("w+") as stderr:
        process, port = start_puzzled(binary, ("--client-rate", "0"), stderr=stderr)
        try:
            streams = [open_stream(port) for _ in range(STREAMS)]
            for s in streams:
                abort(s, with_reset=number % 2 == 0)
            status_line = last_request(port)
        except OSError as error:
            process.kill()
            process.wait()
            return f"before the stop: {type(error).__name__}: {error}"
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            return f"no exit within {STOP_TIMEOUT_S:.0f} s of SIGTERM"
        stderr.seek(0)
        log = stderr.read()
    reports = sanitizer_reports(log)
    if status != 0 or reports or "puzzled: stopped" not in log or not status_line.startswith("HTTP/1.1 200"):
        tail = " | ".join(log.strip().splitlines()[-6:])
        return f"last request {status_line!r}, exit {status}, {len(reports)} sanitizer reports; stderr: {tail}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    problems = 0
    for number in range(1, args.rounds + 1):
        problem = round_problem(args.binary, number)
        if problem is not None:
            problems += 1
            print(f"      round {number}: {problem}", flush=True)
    check(f"{args.rounds} rounds of three aborted streams, one more request and SIGTERM: "
          f"every stop clean (exit 0, no sanitizer report): {args.rounds - problems} of {args.rounds}",
          problems == 0)
    finish()


main()
