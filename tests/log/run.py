#!/usr/bin/env python3
"""The service's log: it never holds up a request, and every line of it keeps its format (issues 50, 54).

Starts puzzled on loopback and shows that:
  - with stderr sent to a pipe that nobody reads, 10,000 GET /healthz on keep-alive connections all
    answer 200 (the log's writer thread waits for the pipe, the I/O threads never do); the lines the
    full buffer could not take are counted (puzzled_log_lines_dropped_total above 0 meanwhile), and
    once the pipe is read, at the stop, every line the service was asked to log was either read or
    counted: the tally the stop prints equals the lines asked minus the lines read;
  - streams aborted by their clients (with a FIN and with a RST) and requests libmicrohttpd refuses by
    itself (a header over the connection memory: 431; a request line over it: 414) leave only lines in
    the log's format, text and JSON (--log-format json): access lines, and libmicrohttpd's messages at
    a level (the refusals "warn", a client gone "debug"); the start-up and stop messages are the
    only plain "puzzled: " lines.
The latency under the unread pipe is measured by bench/observability/log_pipe.sh, not here.
    tests/log/run.py PUZZLED_BIN
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import argparse
import http.client
import json
import os
import re
import select
import signal
import socket
import struct
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish, metric, scaled, start_puzzled  # noqa: E402

HEALTH_REQUESTS = 10_000
CONNECTIONS = 8
# Guards a server that stops answering (what a blocking log did once the pipe was full) and a stop
# that hangs; both stretch by PUZZLED_TEST_TIME_SCALE.
SOCKET_TIMEOUT_S = scaled(30)
STOP_TIMEOUT_S = scaled(60)
ABORTED_STREAMS = 10  # of each kind, FIN and RST
# Over the server's connection memory (--max-url and 32 KiB more, server/http.c), so libmicrohttpd refuses it by itself.
OVERSIZED = 300 * 1024

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
ACCESS_LINE = re.compile(rf"^{STAMP} [A-Z]+ \S+ \d{{3}} \d+ \d+\.\d{{3}}ms [a-z-]+ \S+ \S+$")
MESSAGE_LINE = re.compile(rf"^{STAMP} (debug|info|warn) (\S+) (.+)$")
DIRECT_LINE = "puzzled: "  # start-up and stop messages, written directly
TALLY = re.compile(r"^puzzled: (\d+) log lines dropped")
LEVELS = {"debug", "info", "warn"}
# A path longer than the request object keeps (REQUEST_PATH_BYTES, server/request_internal.h, its NUL
# included), and how its access line must show it: the bytes that fit, ending in the cut mark.
REQUEST_PATH_BYTES = 256
LONG_PATH = "/" + "b" * 299
CUT_MARK = "[cut]"
LONG_PATH_LOGGED = LONG_PATH[:REQUEST_PATH_BYTES - 1 - len(CUT_MARK)] + CUT_MARK


def ask_health(port, count, statuses):
    """`count` GET /healthz on one keep-alive connection; appends each status (0: no answer)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=SOCKET_TIMEOUT_S)
    try:
        for _ in range(count):
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
    except OSError:
        pass
    finally:
        connection.close()
    statuses.extend([0] * (count - len(statuses)))


def read_until_exit(process, fd):
    """Everything `fd` gives until the process exits and the pipe ends (bounded by STOP_TIMEOUT_S)."""
    chunks = []
    deadline = time.monotonic() + STOP_TIMEOUT_S
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")


def test_unread_pipe(binary):
    reader, writer = os.pipe()
    process, port = start_puzzled(binary, ["--client-rate", "0", "--max-connections-per-ip", "0"], stderr=writer)
    os.close(writer)  # the server holds the only write end: the pipe ends when it exits
    per_connection = [[] for _ in range(CONNECTIONS)]
    threads = [threading.Thread(target=ask_health, args=(port, HEALTH_REQUESTS // CONNECTIONS, statuses))
               for statuses in per_connection]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses = [s for each in per_connection for s in each]
    answered = sum(1 for s in statuses if s == 200)
    check(f"{HEALTH_REQUESTS} GET /healthz answer 200 while nobody reads the log's pipe", answered == HEALTH_REQUESTS,
          f"{answered} answered 200")
    dropped_meanwhile = metric(port, "puzzled_log_lines_dropped_total")
    asked = HEALTH_REQUESTS + 1  # and the scrape's own line
    check("the lines the full buffer could not take are counted in /metrics meanwhile",
          dropped_meanwhile is not None and dropped_meanwhile > 0, dropped_meanwhile)

    process.send_signal(signal.SIGTERM)
    text = read_until_exit(process, reader)
    os.close(reader)
    try:
        status = process.wait(timeout=STOP_TIMEOUT_S)
    except Exception:
        process.kill()
        status = process.wait()
    check("the server stops cleanly once its log is read", status == 0, status)
    lines = text.splitlines()
    logged = [line for line in lines if not line.startswith(DIRECT_LINE)]
    health_read = sum(1 for line in logged if ACCESS_LINE.match(line) and " GET /healthz 200 " in line)
    scrape_read = sum(1 for line in logged if ACCESS_LINE.match(line) and " GET /metrics 200 " in line)
    stray = [line for line in logged if not ACCESS_LINE.match(line)]
    check("every line read is an access line of a request made, or a start or stop message",
          not stray and health_read + scrape_read == len(logged), stray[:3])
    tallies = [int(m.group(1)) for m in map(TALLY.match, lines) if m]
    tally = tallies[0] if len(tallies) == 1 else None
    check("the stop says how many lines were dropped, at least as many as /metrics counted meanwhile",
          tally is not None and dropped_meanwhile is not None and tally >= dropped_meanwhile,
          f"stop's tally {tallies}, /metrics {dropped_meanwhile}")
    check("every line asked is read or counted as dropped: the tally = lines asked - lines read",
          tally == asked - (health_read + scrape_read),
          f"asked {asked}, read {health_read} + {scrape_read}, tally {tally}")


def abort_streams(port):
    """Opens NDJSON streams far longer than anything reads, reads some of each, and leaves: half
    with a FIN, half with a RST (SO_LINGER 0)."""
    for rst in (False, True):
        for _ in range(ABORTED_STREAMS):
            s = socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT_S)
            s.sendall(b"GET /permutations?text=abcdefghijk HTTP/1.1\r\nHost: log\r\n"
                      b"Accept: application/x-ndjson\r\n\r\n")
            received = b""
            while b"\r\n\r\n" not in received or len(received) < 65536:
                chunk = s.recv(65536)
                if not chunk:
                    break
                received += chunk
            if rst:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()


def refused_by_library(port):
    """A header and a request line over the connection memory; the statuses libmicrohttpd answers."""
    statuses = []
    for request in (b"GET /healthz HTTP/1.1\r\nHost: log\r\nX-Big: " + b"a" * OVERSIZED + b"\r\n\r\n",
                    b"GET /" + b"a" * OVERSIZED + b" HTTP/1.1\r\nHost: log\r\n\r\n"):
        s = socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT_S)
        try:
            s.sendall(request)
        except OSError:
            pass  # it may close before the whole request is in: the status is already on its way
        head = s.recv(64).decode(errors="replace")
        s.close()
        statuses.append(head.split(" ")[1] if head.startswith("HTTP/1.1 ") else head)
    return statuses


def ask_long_path(port):
    """GET of a path longer than the request keeps; its status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=SOCKET_TIMEOUT_S)
    connection.request("GET", LONG_PATH)
    status = connection.getresponse().status
    connection.close()
    return status


def parsed(line, json_lines):
    """(kind, level, source, text) of a line of the log, or None when it is outside its format."""
    if json_lines:
        try:
            entry = json.loads(line)
        except ValueError:
            return None
        if not isinstance(entry, dict) or entry.get("level") not in LEVELS:
            return None
        if "method" in entry and "status" in entry and "outcome" in entry:
            return ("access", entry["level"], None, None)
        if isinstance(entry.get("source"), str) and isinstance(entry.get("message"), str):
            return ("message", entry["level"], entry["source"], entry["message"])
        return None
    if ACCESS_LINE.match(line):
        return ("access", "info", None, None)
    found = MESSAGE_LINE.match(line)
    return ("message", found.group(1), found.group(2), found.group(3)) if found else None


def test_format_kept(binary, json_lines):
    name = "JSON" if json_lines else "text"
    with tempfile.NamedTemporaryFile("w+", prefix="puzzled-log-") as log:
        flags = ["--client-rate", "0"] + (["--log-format", "json"] if json_lines else [])  # streams left in turn
        process, port = start_puzzled(binary, flags, stderr=log)
        abort_streams(port)
        statuses = refused_by_library(port)
        long_path_status = ask_long_path(port)
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout=STOP_TIMEOUT_S)
        except Exception:
            process.kill()
            status = process.wait()
        log.seek(0)
        lines = log.read().splitlines()
    check(f"{name}: libmicrohttpd refuses an oversized header (431) and request line (414) by itself",
          statuses == ["431", "414"], statuses)
    check(f"{name}: the server stops cleanly", status == 0, status)
    entries = [(line, parsed(line, json_lines)) for line in lines if not line.startswith(DIRECT_LINE)]
    outside = [line for line, entry in entries if entry is None]
    check(f"{name}: aborted streams and refused requests leave no line outside the log's format",
          not outside, outside[:3])
    messages = [entry for _, entry in entries if entry is not None and entry[0] == "message"]
    refusals = [m for m in messages if m[1] == "warn" and m[2] == "libmicrohttpd" and "431" in m[3]]
    refusals += [m for m in messages if m[1] == "warn" and m[2] == "libmicrohttpd" and "414" in m[3]]
    check(f"{name}: libmicrohttpd's refusals are in the log as its messages at level warn", len(refusals) >= 2,
          messages[:3])
    send_failures = [m for m in messages if "Failed to send" in m[3]]
    check(f"{name}: libmicrohttpd's messages about a client that left are at level debug "
          f"({len(send_failures)} of {2 * ABORTED_STREAMS} aborted streams made one)",
          all(m[1] == "debug" for m in send_failures), [m for m in send_failures if m[1] != "debug"][:3])
    cut = [line for line, entry in entries if entry is not None and entry[0] == "access"
           and (LONG_PATH_LOGGED + " " in line or LONG_PATH_LOGGED + '"' in line)]
    check(f"{name}: a path longer than the request keeps is logged with the cut mark (its answer {long_path_status})",
          long_path_status == 404 and len(cut) == 1, cut)
    streams = [line for line, entry in entries if entry is not None and entry[0] == "access" and "/permutations" in line]
    check(f"{name}: every aborted stream has its access line", len(streams) == 2 * ABORTED_STREAMS, len(streams))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    args = parser.parse_args()
    test_unread_pipe(args.binary)
    test_format_kept(args.binary, json_lines=False)
    test_format_kept(args.binary, json_lines=True)
    finish()


if __name__ == "__main__":
    main()
