#!/usr/bin/env python3
"""The race stress: many requests over every path where the I/O threads and the workers meet, with
clients leaving at every moment, and stops in the middle; meant for the ThreadSanitizer build (the tsan
stage of scripts/test.sh), and runs against any build.

The schedule comes from --seed alone: round by round, which request, with which headers, and when its
client leaves. Each round, with servers started with --workers 2:
  - on a fresh server of its own, two computations that cannot finish (an event stream and a plain
    request) hold both workers, six more (streams and plain requests in turn) wait in the main queue
    (/metrics says so before anything else happens), and their clients leave while they wait, half
    with a FIN and half with a RST (SO_LINGER 0), then the two holding the workers; then that server
    stops, after every one of them ended (a plain job that ran on would hold its worker 120 s). Fresh, because admission counts waiting time:
    a job of unknown cost (these counts) is charged its lane's mean run time, and once earlier rounds
    have raised the main lane's mean past a second, two holders alone make any newcomer's wait too
    long, so the six would be refused 503 (server/compute_pool.c); a new server's mean is 0;
  - then, on the round's server, the round's requests, CONCURRENCY at a time over raw sockets: progress as server-sent events
    on every route that offers it, SVG drawings (alone and inside event streams), NDJSON and JSON
    streams (listings, solutions, shuffles, bulk Sudoku bodies), some asking for gzip. Each client
    reads its whole answer, or leaves right after sending, or after some bytes of the answer (FIN or
    RST), or after the last byte (RST);
  - every --stop-every-th round gets SIGTERM when the request of its middle is taken, while the
    requests before it are still running; that server must exit 0 with "puzzled: stopped" within
    its drain (DRAIN_MS plus a margin), and a new server takes the rest of the round. Every round
    ends with every request completed on the server's side (/metrics: nothing in flight but the
    probe itself, no busy worker, nothing queued).
Checked: the server never dies; every answer that arrives whole is valid (status line and framing,
200 or a 503 JSON error, UTF-8, the JSON, NDJSON, event stream or SVG its type says, gunzipped
first when gzip); outside a stop every client that reads its whole answer gets one; every stop is
clean; no sanitizer report on the servers' stderr (the tsan stage also reads TSAN_OPTIONS' log_path).
The default, 5,100 requests in 12 rounds, sends over 5,000 in all (the queued and the blockers
included, those refused during the stops not).
With --max-threads N, the server's thread count (/proc/PID/task, sampled every 2 ms) must never pass
N; its peak is printed either way.
    tests/race/run.py PUZZLED_BIN [--seed S] [--requests N] [--rounds R] [--stop-every K]
                      [--concurrency C] [--max-threads N]
Timeouts guard hangs only; PUZZLED_TEST_TIME_SCALE multiplies them (the tsan stage sets it).
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import argparse
import gzip
import json
import os
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish, sanitizer_reports, scaled, start_puzzled  # noqa: E402
from threads import ThreadPeak  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DRAIN_MS = 5000
# Cannot finish within the time limit; an offset has no estimate, so it is not refused at once.
HOLD = "/queens?n=24&offset=1000000000000&limit=1&algorithm=backtracking"
QUEUE_PATHS = [HOLD, "/queens?n=13&mode=count", "/knight-tour?rows=40&cols=40&format=svg"]
QUEUED = 6
SERVER_FLAGS = ("--workers", "2", "--queue", "64", "--client-rate", "0", "--max-connections-per-ip", "0",
                "--drain-ms", str(DRAIN_MS), "--time-limit-ms", "120000")
# Guards, not expectations: any socket operation, the wait for a state /metrics shows, a stop past its
# drain (the server's own bounds after the drain add up to 9 s, server/http.c).
SOCKET_TIMEOUT_S = scaled(60)
STATE_TIMEOUT_S = scaled(60)
STOP_TIMEOUT_S = scaled(DRAIN_MS / 1000 + 30)
MID_STREAM_MAX_BITS = 18  # a mid-stream leave reads 1 byte to 256 KiB, each power of two as likely

SSE = "text/event-stream"
NDJSON = "application/x-ndjson"
JSON = "application/json"
SVG = "image/svg+xml"


def sudoku_lines(name, count):
    with open(os.path.join(ROOT, "bench", "sudoku", "data", name)) as f:
        return [line.strip() for line in f if line.strip()][:count]


NINE = sudoku_lines("norvig_top95.txt", 20)
BULK = "\n".join(NINE) + "\n"
SEVEN = ",".join(str(i) for i in range(7))

# (method, path, body with its content type or None, the Accept header or None, the content type of a
# 200). Sizes: a few hundred milliseconds at most under TSan, and large enough that the drawings are
# still being computed when an event stream's 200 is queued, and the streams are still being produced
# when a client leaves in their middle.
REQUESTS = [
    # progress as server-sent events, on every route marked ROUTE_PROGRESS in server/routes.c
    ("GET", "/queens?n=9&mode=count", None, SSE, SSE),
    ("GET", "/queens?n=13&mode=count", None, SSE, SSE),
    ("GET", "/queens?n=9&mode=solutions", None, SSE, SSE),
    ("GET", "/queens?n=12&mode=solutions&offset=1000&format=svg", None, SSE, SSE),
    ("GET", "/queens?n=40&mode=first&format=svg", None, SSE, SSE),
    ("GET", "/knight-tour?rows=40&cols=40&format=svg", None, SSE, SSE),
    ("GET", "/knight-tour?rows=12&cols=12", None, SSE, SSE),
    ("GET", "/word-ladder?from=cold&to=warm&all=true", None, SSE, SSE),
    ("GET", f"/sudoku/solve?puzzle={NINE[0]}&count_limit=2", None, SSE, SSE),
    ("GET", f"/sudoku/solve?puzzle={NINE[1]}&format=svg", None, SSE, SSE),
    ("POST", "/sudoku/solve", (BULK, "text/plain"), SSE, SSE),
    ("GET", "/permutation/rank?permutation=3,1,2,5,4", None, SSE, SSE),
    ("GET", "/permutation/unrank?text=mississippi&rank=12345", None, SSE, SSE),
    ("GET", "/combination/rank?text=mississippi&combination_text=ssim", None, SSE, SSE),
    ("GET", "/combination/unrank?text=mississippi&k=4&rank=94", None, SSE, SSE),
    # drawings
    ("GET", "/queens?n=8&mode=first&format=svg", None, None, SVG),
    ("GET", "/queens?n=10&mode=solutions&offset=7&format=svg", None, None, SVG),
    ("GET", "/knight-tour?rows=40&cols=40&format=svg", None, None, SVG),
    ("GET", f"/sudoku/solve?puzzle={NINE[2]}&format=svg", None, None, SVG),
    # streams: NDJSON and JSON listings, solutions, shuffles, bulk Sudoku
    ("GET", f"/permutations?items={SEVEN}", None, NDJSON, NDJSON),
    ("GET", f"/permutations?items={SEVEN}", None, None, JSON),
    ("GET", "/combinations?text=abcdefghijklmn&k=5", None, NDJSON, NDJSON),
    ("GET", "/combinations?text=abcdefghijklmn&k=5", None, None, JSON),
    ("GET", "/queens?n=10&mode=solutions", None, NDJSON, NDJSON),
    ("GET", "/queens?n=10&mode=solutions", None, None, JSON),
    ("GET", "/shuffle?n=20000&seed=7", None, NDJSON, NDJSON),
    ("GET", "/shuffle?n=20000&seed=8", None, None, JSON),
    ("POST", "/sudoku/solve", (BULK, "text/plain"), None, NDJSON),
]

# How a client leaves, drawn for each request (the weights add up to 10).
LEAVES = [("whole", 4), ("after-send", 1), ("after-send-rst", 1), ("mid-stream", 1), ("mid-stream-rst", 1),
          ("after-last-byte-rst", 2)]


class CutShort(Exception):
    """The connection ended before the answer's framing did."""


class Reader:
    """Reads an HTTP/1.1 answer off a socket."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def _more(self):
        data = self.sock.recv(65536)
        if not data:
            raise CutShort(f"closed after {len(self.buffer)} unread bytes")
        self.buffer += data

    def until(self, marker):
        while marker not in self.buffer:
            self._more()
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    def exactly(self, count):
        while len(self.buffer) < count:
            self._more()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def rest(self):
        try:
            while True:
                self._more()
        except CutShort:
            data, self.buffer = self.buffer, b""
            return data


def read_answer(sock):
    """(status, headers with lower-case names, body bytes); raises CutShort, ValueError on bad framing."""
    reader = Reader(sock)
    head = reader.until(b"\r\n\r\n").decode("latin-1")
    status_line, *header_lines = head.split("\r\n")
    match = re.fullmatch(r"HTTP/1\.1 (\d{3}) [^\r\n]*", status_line)
    if not match:
        raise ValueError(f"status line {status_line!r}")
    headers = {}
    for line in header_lines:
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip():
            raise ValueError(f"header line {line!r}")
        headers[name.lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size_line = reader.until(b"\r\n").decode("latin-1").split(";")[0].strip()
            if not re.fullmatch(r"[0-9a-fA-F]+", size_line):
                raise ValueError(f"chunk size {size_line!r}")
            size = int(size_line, 16)
            if size == 0:
                while reader.until(b"\r\n"):  # trailers, up to the empty line
                    pass
                break
            body += reader.exactly(size)
            if reader.exactly(2) != b"\r\n":
                raise ValueError("a chunk not followed by CRLF")
    elif "content-length" in headers:
        body = reader.exactly(int(headers["content-length"]))
    else:
        body = reader.rest()
    return int(match.group(1)), headers, body


def event_stream_problem(text):
    """Why `text` is not a well-formed progress stream, or None: events progress, then exactly one
    result or error, last; every event's data JSON (a result may be NDJSON, or an SVG drawing)."""
    events, name, data = [], "message", []
    for line in text.split("\n"):
        if line == "":
            if data:
                events.append((name, "\n".join(data)))
            name, data = "message", []
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
    names = [name for name, _ in events]
    if not names or names[-1] not in ("result", "failed") or set(names[:-1]) - {"progress"}:
        return f"events {names[-5:]}"
    for name, data in events:
        if name == "result" and data.startswith("<"):
            ElementTree.fromstring(data)
        else:  # one JSON document, or NDJSON (the result of a bulk Sudoku body), its lines ending in "\n"
            lines = data.split("\n")
            for line in lines[:-1] if len(lines) > 1 and lines[-1] == "" else lines:
                json.loads(line)
    return None


def answer_problem(answer, expected_type):
    """Why a whole answer is not valid, or None."""
    status, headers, body = answer
    content_type = headers.get("content-type", "").split(";")[0].strip()
    try:
        if headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        text = body.decode("utf-8")
        if status == 503:
            if content_type != JSON or "error" not in json.loads(text):
                return f"503 {content_type}: {text[:120]!r}"
            return None
        if status != 200:
            return f"status {status}: {text[:200]!r}"
        if content_type != expected_type:
            return f"200 {content_type}, not {expected_type}"
        if content_type == SSE:
            return event_stream_problem(text)
        if content_type == NDJSON:
            if text and not text.endswith("\n"):
                return "NDJSON not ending with a newline"
            for line in text.splitlines():
                json.loads(line)
        elif content_type == JSON:
            json.loads(text)
        elif ElementTree.fromstring(text).tag != "{http://www.w3.org/2000/svg}svg":
            return "not an SVG document"
    except (ValueError, OSError, EOFError, ElementTree.ParseError) as error:  # JSON, UTF-8, gzip, XML
        return f"{status} {content_type}: {type(error).__name__}: {error}"
    return None


def request_bytes(method, path, body, accept, use_gzip):
    lines = [f"{method} {path} HTTP/1.1", "Host: race", "Connection: close"]
    if accept:
        lines.append(f"Accept: {accept}")
    if use_gzip:
        lines.append("Accept-Encoding: gzip")
    payload = b""
    if body is not None:
        payload = body[0].encode()
        lines += [f"Content-Type: {body[1]}", f"Content-Length: {len(payload)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + payload


def close(sock, with_reset):
    if with_reset:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def schedule(seed, round_number, count):
    """The round's requests: (request, how its client leaves, bytes read before a mid-stream leave,
    gzip asked), from the seed alone."""
    draw = random.Random(f"{seed}/{round_number}")
    leaves = [name for name, weight in LEAVES for _ in range(weight)]
    return [(draw.choice(REQUESTS), draw.choice(leaves), int(2 ** draw.uniform(0, MID_STREAM_MAX_BITS)),
             draw.random() < 0.3) for _ in range(count)]


class Tally:
    """What the clients saw; shared by the client threads under one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.sent = self.whole = self.left = self.refused = self.cut_short = 0
        self.problems = []

    def add(self, field, problem=None):
        with self.lock:
            setattr(self, field, getattr(self, field) + 1)
            if problem is not None:
                self.problems.append(problem)


def one_request(port, item, tally, stopping):
    """One request of the schedule; `stopping`: its server gets SIGTERM meanwhile, so its connection
    may be refused or cut short (an answer that arrives whole must still be valid)."""
    (method, path, body, accept, expected_type), leave, mid_bytes, use_gzip = item
    use_gzip = use_gzip and accept != SSE
    label = f"{method} {path[:60]} ({accept or 'default'}{', gzip' if use_gzip else ''}, {leave})"
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT_S)
    except OSError as error:
        tally.add("refused", None if stopping else f"{label}: connect: {error}")
        return
    try:
        sock.sendall(request_bytes(method, path, body, accept, use_gzip))
        tally.add("sent")
        if leave.startswith("after-send"):
            close(sock, leave.endswith("rst"))
            tally.add("left")
            return
        if leave.startswith("mid-stream"):
            received = 0
            while received < mid_bytes and (data := sock.recv(min(65536, mid_bytes - received))):
                received += len(data)
            close(sock, leave.endswith("rst"))
            tally.add("left")
            return
        answer = read_answer(sock)
        problem = answer_problem(answer, expected_type)
        tally.add("whole", None if problem is None else f"{label}: {problem}")
        close(sock, leave == "after-last-byte-rst")
    except (CutShort, ConnectionError) as error:
        sock.close()
        tally.add("cut_short", None if stopping else f"{label}: cut short: {error}")
    except (ValueError, OSError) as error:  # bad framing, or no answer within SOCKET_TIMEOUT_S
        sock.close()
        tally.add("cut_short", f"{label}: {type(error).__name__}: {error}")


def metrics(port):
    """The samples of /metrics by name (labels kept in the name)."""
    with socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT_S) as sock:
        sock.sendall(b"GET /metrics HTTP/1.1\r\nHost: race\r\nConnection: close\r\n\r\n")
        status, _, body = read_answer(sock)
    samples = {}
    for line in body.decode().splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def wait_for(port, condition):
    """Polls /metrics until `condition(samples)` holds; False after STATE_TIMEOUT_S."""
    end = time.monotonic() + STATE_TIMEOUT_S
    while time.monotonic() < end:
        if condition(metrics(port)):
            return True
        time.sleep(0.02)
    return False


def idle(samples):
    """Nothing in flight but the /metrics probe itself, no worker busy, nothing queued."""
    return (samples["puzzled_requests_in_flight"] <= 1 and samples["puzzled_workers_busy"] == 0 and
            samples['puzzled_queue_waiting{lane="main"}'] == 0 and
            samples['puzzled_queue_waiting{lane="express"}'] == 0)


def leave_while_queued(port, tally):
    """Both workers held, QUEUED more requests waiting in the main queue, then all their clients leave;
    on a fresh server (see the top: its main lane charges these counts of unknown cost nothing). Event
    streams go from the express lane straight to the main one (server/request_schedule.c, run_job), the plain
    counts after their express slice; a stream whose client leaves is abandoned (server/event_stream.c,
    the timer's tick), a plain request by its client watch (server/request_schedule.c), so every step is an
    event, not a race: two counts that cannot finish take both workers, QUEUED more wait behind them,
    /metrics says so; their clients leave while they wait (FIN and RST in turn), then the two holding
    the workers."""
    def open_stream(path, accept=SSE):
        sock = socket.create_connection(("127.0.0.1", port), timeout=SOCKET_TIMEOUT_S)
        sock.sendall(request_bytes("GET", path, None, accept, False))
        tally.add("sent")
        return sock

    # a plain request of each pair: its client watch (server/request_schedule.c) cancels it as the tick does a stream
    holding = [open_stream(HOLD), open_stream(HOLD, accept=None)]
    if not wait_for(port, lambda samples: samples["puzzled_workers_busy"] == 2):
        tally.add("cut_short", "an event stream and a plain request never held both workers")
    waiting = [open_stream(QUEUE_PATHS[number % len(QUEUE_PATHS)]) if number % 2 == 0 else open_stream(HOLD, None)
               for number in range(QUEUED)]
    if not wait_for(port, lambda samples: samples['puzzled_queue_waiting{lane="main"}'] >= QUEUED):
        tally.add("cut_short", f"{QUEUED} requests never waited in the main queue together")
    for number, sock in enumerate(waiting + holding):
        close(sock, with_reset=number % 2 == 0)
        tally.add("left")


class Server:
    """A puzzled started for the stress, its stderr kept in a file."""

    def __init__(self, binary):
        self.stderr = tempfile.TemporaryFile("w+")
        self.process, self.port = start_puzzled(binary, SERVER_FLAGS, stderr=self.stderr)

    def stop_problem(self, signalled):
        """Why the server did not stop cleanly (SIGTERM sent here unless `signalled`), or None."""
        if not signalled:
            self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return f"no exit within {STOP_TIMEOUT_S:.0f} s of SIGTERM"
        finally:
            self.stderr.seek(0)
            log = self.stderr.read()
            self.stderr.close()
        reports = sanitizer_reports(log)
        if status != 0 or reports or "puzzled: stopped" not in log:
            tail = " | ".join((reports or log.strip().splitlines())[-6:])
            return f"exit {status}, {len(reports)} sanitizer reports; stderr: {tail}"
        return None


def run_round(binary, server, items, stop_at, concurrency, tally):
    """Sends `items` to `server` with `concurrency` clients. When item `stop_at` (None: never) is
    taken, SIGTERM goes to the server and a new one takes the rest of the items. Returns (the server
    that serves on, the stopped one or None)."""
    order = iter(enumerate(items))
    lock = threading.Lock()
    serving = {"server": server, "stopped": None}

    def client():
        while True:
            with lock:
                index, item = next(order, (None, None))
                if index is None:
                    return
                if index == stop_at:
                    serving["stopped"] = serving["server"]
                    serving["stopped"].process.send_signal(signal.SIGTERM)
                    serving["server"] = Server(binary)
                port = serving["server"].port
            one_request(port, item, tally, stopping=stop_at is not None and index < stop_at)

    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return serving["server"], serving["stopped"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--requests", type=int, default=5100, help="requests of the mixed phases, in all")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--stop-every", type=int, default=3, help="SIGTERM in the middle of every K-th round")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--max-threads", type=int, help="fail when the server ever has more threads")
    args = parser.parse_args()

    tally = Tally()
    stop_problems = []
    stops = peak = 0
    server = Server(args.binary)
    servers = 1
    began = time.monotonic()
    for round_number in range(1, args.rounds + 1):
        items = schedule(args.seed, round_number, args.requests // args.rounds)
        stop_at = len(items) // 2 if round_number % args.stop_every == 0 else None
        queue_server = Server(args.binary)
        servers += 1
        with ThreadPeak(queue_server.process.pid) as threads:
            leave_while_queued(queue_server.port, tally)
            if not wait_for(queue_server.port, idle):
                tally.add("cut_short", f"round {round_number}: the queued requests still in flight")
        peak = max(peak, threads.most)
        problem = queue_server.stop_problem(signalled=False)
        if problem:
            stop_problems.append(f"round {round_number}, the queued requests' server: {problem}")
        with ThreadPeak(server.process.pid) as threads:
            server, stopped = run_round(args.binary, server, items, stop_at, args.concurrency, tally)
        peak = max(peak, threads.most)
        if stopped is not None:
            stops += 1
            servers += 1
            problem = stopped.stop_problem(signalled=True)
            if problem:
                stop_problems.append(f"round {round_number}: {problem}")
        if server.process.poll() is not None:
            tally.add("cut_short", f"round {round_number}: the server died, status {server.process.returncode}")
            server = Server(args.binary)
            servers += 1
        elif not wait_for(server.port, idle):
            tally.add("cut_short", f"round {round_number}: requests still in flight on the server")
        print(f"      round {round_number}: {tally.sent} requests sent so far, {time.monotonic() - began:.0f} s",
              flush=True)
    problem = server.stop_problem(signalled=False)
    if problem:
        stop_problems.append(f"the last stop: {problem}")

    for problem in tally.problems[:20]:
        print(f"      {problem}")
    check(f"{tally.sent} requests sent to {servers} servers (seed {args.seed}): {tally.whole} answers read "
          f"whole, all valid; {tally.left} clients left early; outside the stops none cut short "
          f"({tally.cut_short} cut short, {tally.refused} refused in all)", not tally.problems,
          f"{len(tally.problems)} problems")
    for problem in stop_problems:
        print(f"      {problem}")
    check(f"{stops + 1 + args.rounds} stops, {stops} of them mid-round, {args.rounds} after the queued requests: each exit 0 with 'puzzled: stopped' within the drain, "
          f"no sanitizer report", not stop_problems)
    if args.max_threads is None:
        print(f"      peak thread count of the server: {peak}")
    else:
        check(f"the server's threads never passed {args.max_threads} (peak {peak})", peak <= args.max_threads)
    finish()


if __name__ == "__main__":
    main()
