#!/usr/bin/env python3
"""What a web page can read of the server's limits, over plain HTTP on loopback:
  - --cors-origin with a list of two origins: a request from either gets its own origin echoed in
    Access-Control-Allow-Origin (preflight and answer), with Vary: Origin and the exposed headers;
    a third origin gets no Access-Control-Allow-Origin at all (the browser keeps the answer from
    the page), still with Vary: Origin; with the default "*", every origin reads and nothing varies;
  - a malformed --cors-origin (a path, no scheme) stops the start with a usage error (exit 2);
  - --client-rate 1 --client-burst 3: each computing answer carries RateLimit-Policy
    "client";q=3;w=3 and RateLimit "client";r=N;t=T with N counting down 2, 1, 0, and the 429
    that follows carries them too (r=0) beside Retry-After; cheap answers (/healthz) carry neither;
    with --client-rate 0, no answer carries them;
  - r counts the share of computing requests in progress too: with --workers 1 (a share of 3) and
    tokens to spare, streams held open announce r=2, 1, 0, each one started only while the last
    said r > 0 is admitted, and only the request that follows r=0 meets the 429; at --queue 0, 2
    and 64 alike (at --queue 0 a stream that finds the pool's threads still producing the last one's
    first pieces gets 503 overloaded, the pool's refusal, not the share's: it is started again, as
    a page would after Retry-After, once that stream has stalled on its unread socket);
  - one token rule for every 4xx but the 429: none spends a token or carries RateLimit, found before
    admission (unknown_field) or after (invalid_field, conflicting_fields): after many of them the
    first computing answer still says r=2 of a burst of 3.
    tests/page_limits/run.py PUZZLED_BIN
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import importlib.util
import os
import socket
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("concurrency", os.path.join(here, "..", "concurrency", "run.py"))
concurrency = importlib.util.module_from_spec(spec)
spec.loader.exec_module(concurrency)
check, finish = concurrency.check, concurrency.finish

CHEAP = "/queens?n=4&mode=count"
LISTED = ("https://puzzles.example", "http://localhost:5173")
UNLISTED = "https://elsewhere.example"


class Answer:
    """One answer read off a raw socket: its status, every header line (a name may repeat, as Vary
    does), and the seconds it took."""

    def __init__(self, status, header_lines, seconds):
        self.status, self.header_lines, self.seconds = status, header_lines, seconds

    def values(self, name):
        return [value for key, value in self.header_lines if key.lower() == name.lower()]

    def header(self, name):
        values = self.values(name)
        return values[0] if len(values) == 1 else None

    def varies_by(self, name):
        return any(name.lower() == part.strip().lower() for value in self.values("Vary") for part in value.split(","))


def request(port, method, path, headers=None):
    """Sends one request on a fresh connection, exactly as written, and reads the whole answer."""
    began = time.monotonic()
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head = received.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    header_lines = [tuple(part.strip() for part in line.split(":", 1)) for line in head[1:]]
    return Answer(int(head[0].split()[1]), header_lines, time.monotonic() - began)


def get(port, path, headers=None):
    return request(port, "GET", path, headers)


def preflight(port, origin):
    return request(port, "OPTIONS", "/queens", {"Origin": origin, "Access-Control-Request-Method": "GET"})


def cors_list(binary):
    process, port = concurrency.start_server(binary, ("--cors-origin", ", ".join(LISTED), "--client-rate", "0"))
    try:
        for origin in LISTED:
            answer = get(port, CHEAP, {"Origin": origin})
            check(f"{origin} is listed: its origin echoed, Vary: Origin, headers exposed",
                  answer.status == 200 and answer.header("Access-Control-Allow-Origin") == origin
                  and answer.varies_by("Origin")
                  and "X-Request-Id" in (answer.header("Access-Control-Expose-Headers") or ""),
                  answer.header_lines)
            answer = preflight(port, origin)
            check("... and its preflight too (204)",
                  answer.status == 204 and answer.header("Access-Control-Allow-Origin") == origin, answer.header_lines)
        answer = get(port, CHEAP, {"Origin": UNLISTED})
        check(f"{UNLISTED} is not listed: no Access-Control-Allow-Origin, still Vary: Origin",
              answer.status == 200 and not answer.values("Access-Control-Allow-Origin") and answer.varies_by("Origin"),
              answer.header_lines)
        answer = preflight(port, UNLISTED)
        check("... nor on its preflight", not answer.values("Access-Control-Allow-Origin"), answer.header_lines)
        answer = get(port, CHEAP)
        check("a request without Origin (curl) is answered, without Access-Control-Allow-Origin",
              answer.status == 200 and not answer.values("Access-Control-Allow-Origin"), answer.header_lines)
    finally:
        process.kill()
        process.wait()
    process, port = concurrency.start_server(binary, ("--client-rate", "0"))
    try:
        answer = get(port, CHEAP, {"Origin": UNLISTED})
        check("the default \"*\": every origin reads, nothing varies by Origin",
              answer.header("Access-Control-Allow-Origin") == "*" and not answer.varies_by("Origin"),
              answer.header_lines)
    finally:
        process.kill()
        process.wait()
    for wrong in ("https://puzzles.example/play", "puzzles.example"):
        started = subprocess.run([binary, "--port", "0", "--cors-origin", wrong], capture_output=True, text=True,
                                 timeout=30)
        check(f"--cors-origin {wrong!r} is refused at start (exit 2, the reason named)",
              started.returncode == 2 and "--cors-origin" in started.stderr, f"{started.returncode} {started.stderr!r}")


def rate_limit_headers(binary):
    process, port = concurrency.start_server(binary, ("--client-rate", "1", "--client-burst", "3"))
    try:
        answers = [get(port, CHEAP) for _ in range(4)]
        statuses = [answer.status for answer in answers]
        # A token comes back only after a second: if the four took longer (a very busy machine), the
        # fourth may be admitted, and the countdown below is then not what the design promises to show.
        if sum(answer.seconds for answer in answers) < 1.0:
            check(f"a burst of 3 answered, then 429 ({statuses})", statuses == [200, 200, 200, 429])
            states = [answer.header("RateLimit") or "" for answer in answers]
            check(f"RateLimit counts down r=2, 1, 0 and the 429 says r=0 ({states})",
                  [state.split(";")[1] if state.count(";") == 2 else state for state in states]
                  == ["r=2", "r=1", "r=0", "r=0"])
            check("... each with a time until the bucket is full",
                  all(state.startswith('"client";r=') and state.split(";t=")[-1].isdigit() for state in states))
            check("every one carries RateLimit-Policy \"client\";q=3;w=3",
                  all(answer.header("RateLimit-Policy") == '"client";q=3;w=3' for answer in answers))
            check("the 429 carries Retry-After beside them", (answers[3].header("Retry-After") or "").isdigit())
        else:
            check("four requests took over a second: the countdown is not checked this time", True)
        healthz = get(port, "/healthz")
        check("/healthz is not counted and carries no RateLimit headers",
              healthz.status == 200 and not healthz.values("RateLimit") and not healthz.values("RateLimit-Policy"))
    finally:
        process.kill()
        process.wait()
    process, port = concurrency.start_server(binary, ("--client-rate", "0"))
    try:
        answer = get(port, CHEAP)
        check("--client-rate 0: no RateLimit headers", answer.status == 200 and not answer.values("RateLimit"))
    finally:
        process.kill()
        process.wait()


def held_stream(port, path):
    """Starts an NDJSON stream on a fresh connection and reads only its head: the stream stays in
    progress (the server cannot send past the socket's buffers) until the returned socket closes."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/x-ndjson\r\n\r\n".encode())
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(1)
        if not chunk:
            break
        received += chunk
    head = received.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    answer = Answer(int(head[0].split()[1]), [tuple(part.strip() for part in line.split(":", 1)) for line in head[1:]], 0)
    return connection, answer


def admitted_stream(port, path):
    """held_stream, started again while it meets 503 (the pool's threads busy with the pieces of a
    stream before it, which stall once its socket is full): the first answer that is not a 503."""
    end = time.monotonic() + concurrency.scaled(10)
    while True:
        connection, answer = held_stream(port, path)
        if answer.status != 503 or time.monotonic() > end:
            return connection, answer
        connection.close()
        time.sleep(0.05)


def remaining(answer):
    """The r of an answer's RateLimit header, or None."""
    state = answer.header("RateLimit") or ""
    parts = dict(part.split("=", 1) for part in state.split(";")[1:] if "=" in part)
    return int(parts["r"]) if "r" in parts else None


def share_in_headers(binary):
    for queue in ("0", "2", "64"):
        process, port = concurrency.start_server(
            binary, ("--workers", "1", "--queue", queue, "--client-rate", "1", "--client-burst", "40"))
        held = []
        try:
            announced, statuses = [], []
            # 12 letters list far past what the socket's buffers hold: each stream stays in progress
            while not announced or announced[-1] > 0:
                connection, answer = admitted_stream(port, "/permutations?text=abcdefghijkl")
                held.append(connection)
                statuses.append(answer.status)
                announced.append(remaining(answer))
                if len(held) > 10 or announced[-1] is None:
                    break
            check(f"--queue {queue}: streams started while r > 0 are all admitted, and announce r=2, 1, 0 "
                  f"(the share of 3, with tokens to spare) ({statuses}, r={announced})",
                  statuses == [200, 200, 200] and announced == [2, 1, 0])
            refused = get(port, CHEAP)
            check(f"--queue {queue}: the request that follows r=0 meets the 429, which says r=0 too",
                  refused.status == 429 and remaining(refused) == 0, refused.header_lines)
        finally:
            for connection in held:
                connection.close()
            process.kill()
            process.wait()


def no_token_for_a_4xx(binary):
    process, port = concurrency.start_server(binary, ("--client-rate", "1", "--client-burst", "3"))
    try:
        faults = {"unknown_field": "/queens?n=8&limt=3", "invalid_field": "/queens?n=0",
                  "conflicting_fields": "/queens?n=8&mode=count&format=svg"}
        for code, path in faults.items():
            answers = [get(port, path) for _ in range(5)]
            check(f"{code}: five 400s, none with RateLimit or RateLimit-Policy",
                  all(a.status == 400 and not a.values("RateLimit") and not a.values("RateLimit-Policy") for a in answers),
                  [a.header_lines for a in answers])
        # Tokens only grow with time, and at most to the burst: r=2 after the first of three is what a
        # full bucket gives, so no 400 above can have spent one.
        answer = get(port, CHEAP)
        check("after fifteen 400s the first computing answer still says r=2 of a burst of 3",
              answer.status == 200 and remaining(answer) == 2, answer.header_lines)
    finally:
        process.kill()
        process.wait()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tests/page_limits/run.py PUZZLED_BIN")
    cors_list(sys.argv[1])
    rate_limit_headers(sys.argv[1])
    share_in_headers(sys.argv[1])
    no_token_for_a_4xx(sys.argv[1])
    finish()


if __name__ == "__main__":
    main()
