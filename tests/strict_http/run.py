#!/usr/bin/env python3
"""RFC 9112 at the edge (server/strict_http.h), over raw sockets: each malformed request gets a JSON
error with CORS headers and the connection is closed after it, so nothing pipelined behind it is
answered; well-formed requests (HTTP/1.1 with one Host, HTTP/1.0 without) are served. Then the same
requests through nginx running docker/nginx.conf (as the scale-out test runs it), where each is
answered by nginx or by puzzled with the status in the table's last column: an obs-fold line, which
libmicrohttpd merges before puzzled can see it, is refused by nginx too.
    tests/strict_http/run.py PUZZLED_BIN
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

REPOSITORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

CASES = [
    # name, raw request, expected status and error code directly (None: a 200), status through nginx
    ("HTTP/1.1 without Host", b"GET /healthz HTTP/1.1\r\n\r\n", 400, "invalid_request", 400),
    ("two Host headers", b"GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "invalid_request", 400),
    ("whitespace between a header name and its colon", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-A : a\r\n\r\n",
     400, "invalid_request", 400),
    ("a bare CR inside a header value", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: a\rb\r\n\r\n", 400,
     "invalid_request", 400),
    ("an unknown transfer coding", b"POST /queens HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n", 501,
     "unsupported_transfer_coding", 501),
    ("Content-Length with Transfer-Encoding, a request pipelined behind",
     b"POST /queens HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"8\r\n{\"n\":4}\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", 400, "invalid_request", 400),
    ("a well-formed HTTP/1.1 request", b"GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", 200, None,
     200),
    ("HTTP/1.0 without Host", b"GET /healthz HTTP/1.0\r\n\r\n", 200, None, 200),
]
# Only through a proxy: libmicrohttpd merges a folded line before any callback sees it.
OBS_FOLD = ("an obs-fold header line", b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: a\r\n b\r\n\r\n", 400)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish  # noqa: E402


def exchange(port, request):
    """Everything the server sends until it closes the connection (bounded: 5 s)."""
    # 5 s: guards a malformed request left unanswered; each answer takes milliseconds.
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        received = b""
        try:
            while chunk := s.recv(65536):
                received += chunk
        except socket.timeout:
            received += b"<still open after 5 s>"
    return received


def parse(received):
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines[0].startswith("HTTP/1.") else 0
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    answers = sum(line.startswith(b"HTTP/1.1 ") for line in received.split(b"\r\n"))
    return status, headers, body, answers


def direct(port):
    for name, request, status, code, _ in CASES:
        received = exchange(port, request)
        got, headers, body, answers = parse(received)
        ok = got == status and answers == 1 and "access-control-allow-origin" in headers
        if code is not None:
            try:
                ok = ok and json.loads(body)["error"]["code"] == code
            except ValueError:
                ok = False
        check(f"{name}: {status}{' ' + code if code else ''}, one answer, CORS, then closed", ok, received[:300])


def start_nginx(tmp, upstream_port):
    """docker/nginx.conf with only its listen line changed, in front of one replica."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    conf = open(os.path.join(REPOSITORY, "docker", "nginx.conf")).read()
    conf = re.sub(r"(?m)^( *)listen 8080;$", rf"\1listen 127.0.0.1:{port};", conf)
    os.makedirs(os.path.join(tmp, "nginx"))
    with open(os.path.join(tmp, "nginx", "nginx.conf"), "w") as f:
        f.write(conf)
    with open(os.path.join(tmp, "nginx", "upstream.conf"), "w") as f:
        f.write(f"server 127.0.0.1:{upstream_port};\n")
    nginx = subprocess.Popen(["nginx", "-p", os.path.join(tmp, "nginx") + "/", "-c",
                              os.path.join(tmp, "nginx", "nginx.conf"), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return nginx, port


def through_nginx(port):
    for name, request, _, _, status in CASES + [(OBS_FOLD[0], OBS_FOLD[1], 0, None, OBS_FOLD[2])]:
        received = exchange(port, request)
        got, _, _, answers = parse(received)
        check(f"through nginx, {name}: {status}, one answer", got == status and answers == 1, received[:200])


def main():
    binary = os.path.realpath(sys.argv[1])
    server = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    port = int(server.stdout.readline().rsplit(":", 1)[1])
    tmp = tempfile.mkdtemp()
    os.chmod(tmp, 0o755)  # nginx's workers run as nobody when the test runs as root
    nginx = None
    try:
        direct(port)
        nginx, proxy_port = start_nginx(tmp, port)
        through_nginx(proxy_port)
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait()
        server.terminate()
        server.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    finish()


if __name__ == "__main__":
    main()
