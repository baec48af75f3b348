#!/usr/bin/env python3
"""RFC 9112 at the edge (server/strict_http.h), over raw sockets: each malformed request gets a JSON
error with CORS headers and the connection is closed after it, so nothing pipelined behind it is
answered; well-formed requests (HTTP/1.1 with one Host, HTTP/1.0 without) are served.
    tests/strict_http/run.py PUZZLED_BIN
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import json
import os
import socket
import subprocess
import sys

CASES = [
    # name, raw request, expected status, expected error code (None: a 200)
    ("HTTP/1.1 without Host", b"GET /healthz HTTP/1.1\r\n\r\n", 400, "invalid_request"),
    ("two Host headers", b"GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "invalid_request"),
    ("whitespace between a header name and its colon", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-A : a\r\n\r\n",
     400, "invalid_request"),
    ("a bare CR inside a header value", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: a\rb\r\n\r\n", 400,
     "invalid_request"),
    ("an unknown transfer coding", b"POST /queens HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n", 501,
     "unsupported_transfer_coding"),
    ("Content-Length with Transfer-Encoding, a request pipelined behind",
     b"POST /queens HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"8\r\n{\"n\":4}\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", 400, "invalid_request"),
    ("a well-formed HTTP/1.1 request", b"GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 200, None),
    ("HTTP/1.0 without Host", b"GET /healthz HTTP/1.0\r\n\r\n", 200, None),
]

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish  # noqa: E402


def exchange(port, request):
    """Everything the server sends until it closes the connection (bounded: 5 s)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        received = b""
        try:
            while chunk := s.recv(65536):
                received += chunk
        except socket.timeout:
            received += b"<still open after 5 s>"
    return received


def main():
    binary = os.path.realpath(sys.argv[1])
    server = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    port = int(server.stdout.readline().rsplit(":", 1)[1])
    try:
        for name, request, status, code in CASES:
            received = exchange(port, request)
            head, _, body = received.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            got = int(lines[0].split()[1]) if lines[0].startswith("HTTP/1.") else 0
            headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
            answers = sum(line.startswith(b"HTTP/1.1 ") for line in received.split(b"\r\n"))
            ok = got == status and answers == 1 and "access-control-allow-origin" in headers
            if code is not None:
                try:
                    ok = ok and json.loads(body)["error"]["code"] == code
                except ValueError:
                    ok = False
            check(f"{name}: {status}{' ' + code if code else ''}, one answer, CORS, then closed", ok,
                  received[:300])
    finally:
        server.terminate()
        server.wait()
    finish()


if __name__ == "__main__":
    main()
