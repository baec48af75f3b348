#!/usr/bin/env python3
"""The HTTP garbage campaign: thousands of requests mutated from openapi.yaml's examples (flipped
types, huge, negative and fractional numbers, invalid UTF-8, overlong encodings, surrogates, NUL, deep
nesting, duplicate and unknown keys, truncated bodies, wrong Content-Type and Content-Length, random
bytes, long strings, percent-encoding garbage, repeated query parameters) sent to a running puzzled
(built with sanitizers) over http.client and raw sockets. Every answer must be a status openapi.yaml
documents for the operation (or for any path), never a 5xx but a documented 503, errors as the Error
schema's JSON with a documented code, and successes as valid UTF-8 JSON; libmicrohttpd's own HTML
pages (openapi.yaml's not-http) only for requests broken on purpose. Afterwards the server must answer
/healthz, exit 0 on SIGTERM, and have printed no sanitizer report (docs/testing.md, "HTTP garbage
campaign").
    tests/garbage/run.py PUZZLED_BIN [--seed N] [--count N]
The requests are drawn from the seed (printed first), so a run replays exactly; GARBAGE_TRACE=1 prints
each request before it is sent (to find one that hangs). Prints the failures (at most a few per
kind), one line per check and `N passed, M failed` last; exits 1 when one failed.
"""
import argparse
import collections
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from concurrent.futures import Future, ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from checks import check, finish, sanitizer_reports, start_puzzled  # noqa: E402

# The answers documented for every path (openapi.yaml's x-unrouted-responses) by status.
ANY_PATH = {"uri-too-long": 414, "invalid-request": 400, "unsupported-transfer-coding": 501}
UNKNOWN_PATH, WRONG_METHOD = ("unknown-path", 404), ("method-not-allowed", 405)
LIBMICROHTTPD_PAGES = {400, 413, 414, 431, 505}
MAX_BODY = 1 << 20
MAX_URL = 8192
TIME_LIMIT_MS = 2000  # the server's limit: a request whose own limit is mangled stops within it
SOCKET_TIMEOUT = 30  # an answer slower than this counts as a hang
READ_AT_MOST = 1 << 20
COMPLETE, CUT, LEFT = "complete", "cut", "left"
INCOMPLETE_WAIT = 0.25  # how long an incomplete request waits for an early answer before it leaves
# Incomplete requests wait side by side, beside the campaign's other requests (well under the server's
# 64 connections per address), so their waits do not add up.
INCOMPLETE_AT_ONCE = 8
SHOWN_PER_KIND = 3


class Raw:
    """Bytes placed into a JSON text as they are (invalid UTF-8, deep nesting, number literals JSON
    cannot hold as a double)."""

    def __init__(self, data):
        self.data = data


class Duplicated(dict):
    """A JSON object written from (key, value) `pairs` in order, one key among them twice."""

    def __init__(self, pairs):
        super().__init__()
        self.pairs = pairs


def encode(value):
    """A JSON text (bytes) for a value that may hold Raw pieces and Duplicated objects."""
    if isinstance(value, Raw):
        return value.data
    if isinstance(value, Duplicated):
        return b"{" + b",".join(encode(k) + b":" + encode(v) for k, v in value.pairs) + b"}"
    if isinstance(value, dict):
        return b"{" + b",".join(encode(str(k)) + b":" + encode(v) for k, v in value.items()) + b"}"
    if isinstance(value, list):
        return b"[" + b",".join(encode(v) for v in value) + b"]"
    return json.dumps(value).encode()


def query_text(value):
    """A field as a query value: arrays comma-separated, numbers and booleans as JSON writes them."""
    if isinstance(value, Raw):
        return value.data.decode("latin-1")
    if isinstance(value, list):
        return ",".join(query_text(v) for v in value)
    if isinstance(value, str):
        return value
    return json.dumps(value)


class Mutator:
    """Draws mutated requests from the spec's examples with one random.Random."""

    def __init__(self, spec, rng):
        self.spec = spec
        self.rng = rng
        self.examples = spec["examples"]
        self.operations = {(op["method"], op["path"]): op for op in spec["operations"]}

    # Values that break a field's type or range.
    def garbage_value(self, old):
        r = self.rng
        choices = [
            lambda: "text", lambda: "", lambda: 0, lambda: -1, lambda: -(2 ** 63), lambda: 0.5, lambda: -0.0,
            lambda: True, lambda: False, lambda: None, lambda: [], lambda: {}, lambda: [old], lambda: {"v": old},
            lambda: 1e308, lambda: -1e308, lambda: 2 ** 64, lambda: 2 ** 53 + 1, lambda: Raw(b"1" + b"0" * 400),
            lambda: Raw(b"-" + b"9" * 400), lambda: Raw(b"1e400"), lambda: Raw(b"-1e-400"), lambda: Raw(b"1E+2"),
            lambda: str(2 ** 64), lambda: "-1", lambda: "1" * 10000, lambda: "0x10", lambda: " 5", lambda: "5 ",
            lambda: "NaN", lambda: "Infinity", lambda: "x" * r.choice([1000, 100000]),
            lambda: self.bad_string(), lambda: self.bad_string(), lambda: [self.bad_string()],
            lambda: self.deep(r.choice([10, 999, 1000, 1001, 10000])),
            lambda: [0] * r.choice([1000, 100000]), lambda: list(range(-3, 3)),
            lambda: [old, old] if not isinstance(old, list) else old + old,
            lambda: old[: r.randrange(len(old) + 1)] if isinstance(old, (list, str)) else old,
        ]
        return r.choice(choices)()

    def bad_string(self):
        """A JSON string with invalid UTF-8, overlong forms, surrogates, NUL or control bytes inside."""
        pieces = [b"\xff", b"\xfe", b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf", b"\xed\xa0\x80",
                  b"\xf4\x90\x80\x80", b"\xc3", b"\xe2\x82", b"\\ud800", b"\\udfff", b"\\ud800\\u0041",
                  b"\\u0000", b"\\u00", b"\\x41", b"\x00", b"\x01", b"\n", b"\\", b"\xc3\xa9", b"\xf0\x9f\x98\x80",
                  b"\\uDBFF\\uDFFF", b"%00", b"\xef\xbb\xbf"]
        body = b"".join(self.rng.choice(pieces) + self.rng.choice([b"", b"a", b"ab"]) for _ in range(self.rng.randint(1, 6)))
        return Raw(b'"' + body + b'"')

    def deep(self, levels):
        if self.rng.random() < 0.5:
            return Raw(b"[" * levels + b"1" + b"]" * levels)
        return Raw(b'{"a":' * levels + b"1" + b"}" * levels)

    def mutate_fields(self, fields, op):
        """A mutated copy of an example's fields (a dict), or a replacement for the whole body."""
        r = self.rng
        fields = dict(fields)
        names = list(fields) or ["n"]
        known = list(op["fields"] or op["query"]) if op else names
        for _ in range(r.choice([1, 1, 1, 2, 3])):
            kind = r.randrange(100)
            name = r.choice(names)
            if kind < 45:
                fields[name] = self.garbage_value(fields.get(name))
            elif kind < 55:
                fields.pop(name, None)
            elif kind < 62:
                fields[r.choice(["nope", "N", "n ", "", "\u00e9", "time_limit_ms2", name.upper()])] = 1
            elif kind < 70:
                other = r.choice(known) if known else name
                fields[other] = self.garbage_value(fields.get(other))
            elif kind < 78:
                pairs = list(fields.items()) + [(name, self.garbage_value(fields.get(name)))]
                r.shuffle(pairs)
                return Duplicated(pairs)
            elif kind < 84:
                fields[name] = fields.get(name)  # kept, but with a tiny or mangled time limit below
                fields["time_limit_ms"] = self.garbage_value(1)
            else:
                fields[name] = self.bad_string()
        if "time_limit_ms" not in fields and r.random() < 0.85:
            fields["time_limit_ms"] = r.choice([1, 2, 5, 20])
        return fields

    def body_request(self, example, op):
        """A POST (or the example's method) with a mangled JSON body."""
        r = self.rng
        try:
            fields = json.loads(example["body"])
        except (TypeError, ValueError):
            fields = {}
        kind = r.randrange(100)
        if not isinstance(fields, dict) or kind < 55:
            body = encode(self.mutate_fields(fields if isinstance(fields, dict) else {}, op))
        elif kind < 63:
            body = encode(self.garbage_value(fields))  # not an object at all
        elif kind < 71:
            whole = encode(self.mutate_fields(fields, op))
            body = whole[: r.randrange(len(whole) + 1)]  # cut anywhere, announced with its real length
        elif kind < 77:
            body = r.randbytes(r.choice([1, 16, 1000, 20000]))
        elif kind < 82:
            body = b""
        elif kind < 87:
            body = encode(fields) + r.choice([b"x", b"}", b",", b" {}", b"\x00", b"\n\n[]"])
        elif kind < 92:
            body = r.choice([b"[" * 20000, b"{" * 20000, b'{"a":' * 5000, b"[" * 20000 + b"]" * 20000])
        else:
            body = encode(self.mutate_fields(fields, op)).replace(b":", r.choice([b"::", b"=", b" : "]), 1)
        content_type = r.choice(["application/json"] * 6 + [None, "text/plain", "application/x-www-form-urlencoded",
                                 "multipart/form-data; boundary=x", "application/json; charset=latin1", "\u00e9/\u00e9",
                                 "application/x-ndjson", ""])
        headers = {} if content_type is None else {"Content-Type": content_type}
        if r.random() < 0.2:
            headers["Accept"] = r.choice(["application/x-ndjson", "text/html", "*/*", "application/x-ndjson;q=0"])
        return {"method": example["method"], "path": example["path"], "query": [], "headers": headers, "body": body}

    def query_request(self, example, op):
        """A GET with mangled query parameters (the example's, or its body's fields as a query)."""
        r = self.rng
        pairs = [list(p) for p in example["query"]]
        if not pairs and example.get("body"):
            try:
                pairs = [[k, query_text(v)] for k, v in json.loads(example["body"]).items()]
            except (TypeError, ValueError, AttributeError):
                pairs = []
        names = [p[0] for p in pairs] or list(op["query"] if op else []) or ["n"]
        for _ in range(r.choice([1, 1, 2, 3])):
            kind = r.randrange(100)
            name = r.choice(names)
            if kind < 40:
                pairs = [p for p in pairs if p[0] != name] + [[name, query_text(self.garbage_value(1))]]
            elif kind < 50:
                pairs.append([name, r.choice(["1", "", "x"])])  # repeated
            elif kind < 58:
                pairs = [p for p in pairs if p[0] != name]
            elif kind < 64:
                pairs.append([r.choice(["nope", "", "%", "a b", "\u00e9", name + "[]"]), "1"])
            else:
                pairs.append([name, r.choice(["%", "%G1", "%00", "%ff%fe", "%c0%af", "%ed%a0%80", "%e2%82", "+",
                                              "%2", "%%", "%u0041", "a%00b", "%ef%bf%bf", "%f4%90%80%80"])])
        if r.random() < 0.85 and not any(p[0] == "time_limit_ms" for p in pairs):
            pairs.append(["time_limit_ms", str(r.choice([1, 2, 5, 20]))])
        separators = ["&"] * 8 + ["&&", ";", "&=&"]
        query = r.choice(separators).join(
            k if r.random() < 0.03 else f"{k}={v}" for k, v in pairs)
        target = example["path"] + ("?" + query if query else "")
        long_target = r.random() < 0.03
        if long_target:
            target += "&pad=" + "x" * r.choice([MAX_URL, 20000, 300000])
        return {"method": "GET", "path": example["path"], "target": target, "headers": {}, "body": None,
                "mangled": long_target}

    def request(self):
        """One mutated request: {method, path, target, headers, body (bytes or None), raw (bytes or None)}."""
        r = self.rng
        example = r.choice(self.examples)
        op = self.operations.get((example["method"], example["path"]))
        kind = r.randrange(100)
        if example["body"] is not None and kind < 55:
            request = self.body_request(example, op)
        elif kind < 85:
            request = self.query_request(example, self.operations.get(("GET", example["path"])) or op)
        else:
            request = self.odd_path_or_method(example)
        if "target" not in request:
            request["target"] = request["path"]
        # A target over --max-url may be over libmicrohttpd's read buffer too, and then it answers its own 414
        # page before puzzled sees the request (a long garbage value, not only the padding, can get there).
        request["mangled"] = request.get("mangled", False) or len(request["target"]) > MAX_URL
        request["raw"] = None
        if r.random() < 0.25 or not is_ascii_target(request["target"]):
            self.to_raw(request)
        return request

    def odd_path_or_method(self, example):
        r = self.rng
        method = r.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "BREW", "get"])
        path = r.choice([example["path"], example["path"] + "/", example["path"].upper(), "/", "//" + example["path"],
                         example["path"] + "/..", "/%2e%2e" + example["path"], "/\u00e9", "/" + "a" * 300,
                         example["path"] + "%00", example["path"] + "#x"])
        body = encode(self.mutate_fields({}, None)) if r.random() < 0.5 else None
        return {"method": method, "path": path, "target": path, "headers": {}, "body": body}

    def to_raw(self, request):
        """Writes the request as bytes for a raw socket, maybe with a wrong framing."""
        r = self.rng
        body = request["body"] or b""
        head = [f"{request['method']} {request['target']} HTTP/1.1".encode("utf-8", "surrogateescape"),
                b"Host: garbage", b"Connection: close"]
        head += [f"{k}: {v}".encode() for k, v in request["headers"].items()]
        kind = r.randrange(100)
        incomplete = False
        request["mangled"] = request.get("mangled", False) or kind >= 50 or not is_ascii_target(request["target"])
        if kind < 50:
            head.append(b"Content-Length: %d" % len(body)) if body or request["body"] is not None else None
        elif kind < 60:  # announces more than it sends, then half-closes
            head.append(b"Content-Length: %d" % (len(body) + r.choice([1, 100, 10 ** 6])))
            incomplete = True
        elif kind < 66:  # announces less: the rest looks like a second request
            head.append(b"Content-Length: %d" % (len(body) // 2))
        elif kind < 74:  # a length the server may read as a longer one and wait for
            incomplete = True
            head.append(b"Content-Length: " + r.choice([b"-1", b"abc", b"18446744073709551616", b"1e3", b"",
                                                        b"99999999999999999999999", b"0x10", b" 5", b"5, 5"]))
        elif kind < 78:
            incomplete = True
            head += [b"Content-Length: %d" % len(body), b"Content-Length: %d" % (len(body) + 1)]
        elif kind < 90:
            head.append(b"Transfer-Encoding: chunked")
            body, well_formed = self.chunked(body)
            incomplete = not well_formed or r.random() < 0.2
            if incomplete:
                body = body[: r.randrange(len(body) + 1)]
        elif kind < 95:
            head.append(b"Transfer-Encoding: " + r.choice([b"gzip", b"chunked, chunked", b"identity", b"\xff"]))
        else:
            request["raw"] = r.choice([r.randbytes(r.randint(1, 2000)), b"GET / HTTP/1.1\r\n" + r.randbytes(100),
                                       b"\r\n\r\n", b"GET /healthz HTTP/9.9\r\nHost: a\r\n\r\n",
                                       b"GET /healthz\r\n\r\n", b" GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"])
            request["incomplete"] = request["mangled"] = True
            return
        request["raw"] = b"\r\n".join(head) + b"\r\n\r\n" + body
        request["incomplete"] = incomplete

    def chunked(self, body):
        """The body in chunks, some of them with a broken size line or end; returns (bytes, well formed)."""
        r = self.rng
        out, i, well_formed = b"", 0, True
        sizes = [b"%x"] * 8 + [b"%X;ext=1", b"-%x", b"%xg", b"ffffffffffffffffff%.0x"]
        while i < len(body):
            n = r.randint(1, max(1, len(body) - i))
            size = r.choice(sizes)
            well_formed &= size in (b"%x", b"%X;ext=1")
            out += size % n + b"\r\n" + body[i:i + n] + b"\r\n"
            i += n
        end = r.choice([b"0\r\n\r\n"] * 8 + [b"0\r\nX-T: 1\r\n\r\n", b"", b"0\r\n"])
        return out + end, well_formed and end.endswith(b"\r\n\r\n")


def is_ascii_target(target):
    """True when http.client can send the target: visible ASCII only."""
    return all(32 < ord(c) < 127 for c in target)


def send_client(port, request):
    """Sends a well-formed request with http.client; returns read_answer()'s tuple."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=SOCKET_TIMEOUT)
    try:
        conn.putrequest(request["method"], request["target"], skip_accept_encoding=True)
        for name, value in request["headers"].items():
            conn.putheader(name, value.encode("utf-8"))
        if request["body"] is not None:
            conn.putheader("Content-Length", str(len(request["body"])))
        conn.endheaders(request["body"])
        return read_answer(conn.getresponse())
    finally:
        conn.close()


def send_raw(port, request):
    """Sends raw bytes; returns the first answer as read_answer()'s tuple, or None when the server
    closed the connection without one (or, for an incomplete request, had not answered yet)."""
    incomplete = request.get("incomplete")
    with socket.create_connection(("127.0.0.1", port), timeout=INCOMPLETE_WAIT if incomplete else SOCKET_TIMEOUT) as s:
        try:
            s.sendall(request["raw"])
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before it read everything: read that answer
        answer = http.client.HTTPResponse(s, method=request["method"])
        try:
            answer.begin()
        except (http.client.RemoteDisconnected, ConnectionResetError):
            return None
        except socket.timeout:
            if incomplete:
                return None  # the server waits for the rest; the client goes away
            raise
        return read_answer(answer)


def read_answer(answer):
    """(status, headers, body, how it ended: complete, cut by the server, or left by us after
    READ_AT_MOST bytes, since some listings are paced by the client and never end on their own)."""
    headers = {k.lower(): v for k, v in answer.getheaders()}
    try:
        body = answer.read(READ_AT_MOST + 1)
    except (http.client.IncompleteRead, ConnectionResetError) as e:
        return answer.status, headers, getattr(e, "partial", b""), CUT
    return answer.status, headers, body, LEFT if len(body) > READ_AT_MOST else COMPLETE


def routed_path(path):
    """The path as puzzled sees it: libmicrohttpd percent-decodes it and hands it over as a C string,
    so a %00 ends it (/queens%00 is /queens)."""
    return urllib.parse.unquote_to_bytes(path).split(b"\0")[0].decode("utf-8", "replace")


def documented(spec_ops, unrouted, request, status):
    """The error codes allowed for this status (a set, or None for any), or False when the status is
    not documented for the request."""
    path = routed_path(request["path"])
    # HEAD takes GET's operation on every GET path (openapi.yaml's description), so it is not listed
    method = "GET" if request["method"] == "HEAD" else request["method"]
    op = spec_ops.get((method, path))
    for name, any_status in ANY_PATH.items():
        if status == any_status:
            return set(unrouted[name]["codes"]) | (documented_codes(op, status) or set())
    if op is None:
        paths = {path for _, path in spec_ops}
        name, expected = WRONG_METHOD if path in paths else UNKNOWN_PATH
        return set(unrouted[name]["codes"]) if status == expected else False
    return documented_codes(op, status)


def documented_codes(op, status):
    if op is None or str(status) not in op["responses"]:
        return False
    codes = op["responses"][str(status)]["codes"]
    return None if codes is None else set(codes)


def judge(spec_ops, unrouted, request, answer):
    """What is wrong with one answer: a list of (kind, detail)."""
    status, headers, body, ended = answer
    problems = []
    codes = documented(spec_ops, unrouted, request, status)
    if codes is False:
        problems.append((f"undocumented {status}", body[:160]))
    if status >= 500 and status != 503 and status != 501:
        problems.append((f"server error {status}", body[:160]))
    content_type = headers.get("content-type", "").split(";")[0].strip()
    if headers.get("content-encoding"):
        problems.append(("unasked Content-Encoding", headers["content-encoding"]))
        return problems
    if request["method"] == "HEAD":
        return problems  # no body
    if status >= 400:
        if ended != COMPLETE:
            problems.append((f"error answer {ended}", body[:160]))
        if content_type != "application/json":
            problems.append((f"{status} not JSON ({content_type or 'no Content-Type'})", body[:160]))
            return problems
        try:
            value = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            problems.append(("error body not UTF-8 JSON", f"{e}: {body[:160]}"))
            return problems
        error = value.get("error") if isinstance(value, dict) else None
        # code, message and field are text; details, where a page needs them, one JSON object
        shape_ok = (isinstance(value, dict) and set(value) == {"error"} and isinstance(error, dict)
                    and {"code", "message"} <= set(error) <= {"code", "message", "field", "details"}
                    and all(isinstance(v, str) for k, v in error.items() if k != "details")
                    and isinstance(error.get("details", {}), dict))
        if not shape_ok:
            problems.append(("error body not the Error schema", body[:160]))
        elif codes and error["code"] not in codes:
            problems.append((f"{status} code {error['code']} undocumented", body[:160]))
    elif content_type in ("application/json", "application/x-ndjson") and ended == COMPLETE and request["method"] != "HEAD":
        try:
            text = body.decode("utf-8")
            if content_type == "application/json":
                json.loads(text)
            else:
                for line in text.splitlines():
                    json.loads(line)
        except (UnicodeDecodeError, ValueError) as e:
            problems.append((f"{status} body not UTF-8 JSON", f"{e}: {body[:160]}"))
    return problems


def libmicrohttpd_page(request, answer):
    """True for the HTML pages libmicrohttpd answers on its own, before puzzled sees the request, to a
    request it cannot parse as HTTP/1.1 (a broken request line, Content-Length or chunk size, headers
    beyond its buffer, an HTTP version it does not speak); openapi.yaml's x-unrouted-responses
    documents them. For a Content-Length it cannot read (400) or that overflows (413), libmicrohttpd
    0.9.75 writes the status line and headers twice, so the announced length ends inside the second
    copy: recognised here by that copy, a defect of the library that puzzled cannot reach."""
    status, headers, body = answer[:3]
    doubled = status in (400, 413) and body.startswith(b"HTTP/1.1 %d " % status)
    page = body.startswith(b"<html>") or doubled or (request["method"] == "HEAD" and body == b"")
    return (request.get("mangled", False) and status in LIBMICROHTTPD_PAGES
            and headers.get("content-type") is None and page)


def load_spec():
    """openapi.yaml's examples and documented answers, read by tests/garbage/spec.js with the contract
    test's pinned tools (installed by tests/contract/install.sh when missing)."""
    subprocess.run([os.path.join(HERE, "..", "contract", "install.sh")], check=True)
    out = subprocess.run(["node", os.path.join(HERE, "spec.js")], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def describe(request):
    shown = request["raw"] if request["raw"] is not None else (
        f"{request['method']} {request['target']} {request['headers']} ".encode() + (request["body"] or b""))
    return shown[:240]


def send(port, request, i):
    """One request: (its answer or None, the OSError it met or None, its seconds)."""
    if os.environ.get("GARBAGE_TRACE"):
        print(f"  #{i}: {describe(request)[:150]!r}", flush=True)
    sent = time.monotonic()
    try:
        answer = send_raw(port, request) if request["raw"] is not None else send_client(port, request)
    except OSError as e:  # a socket.timeout too
        return None, e, time.monotonic() - sent
    return answer, None, time.monotonic() - sent


def campaign(port, spec, seed, count):
    rng = random.Random(seed)
    mutator = Mutator(spec, rng)
    ops = mutator.operations
    statuses = collections.Counter()
    problems = collections.defaultdict(list)
    unanswered = 0
    endings = collections.Counter()
    own_pages = collections.Counter()
    slowest = []
    started = time.monotonic()
    # The requests are drawn in order from the seed (sending draws nothing), the incomplete ones sent by
    # the pool, the others here in turn; the answers are judged in the order of the requests.
    sent = []
    with ThreadPoolExecutor(INCOMPLETE_AT_ONCE) as waiting:
        for i in range(count):
            request = mutator.request()
            if request.get("incomplete"):
                sent.append((i, request, waiting.submit(send, port, request, i)))
                continue
            outcome = Future()
            outcome.set_result(send(port, request, i))
            sent.append((i, request, outcome))
            error = outcome.result()[1]
            if error is not None and not isinstance(error, socket.timeout) and not healthy(port):
                break
    for i, request, outcome in sent:
        answer, error, took_one = outcome.result()
        if isinstance(error, socket.timeout):
            problems["no answer within %d s" % SOCKET_TIMEOUT].append((i, describe(request), ""))
            continue
        if error is not None:
            problems["connection failed"].append((i, describe(request), str(error)))
            continue
        slowest.append((took_one, i, describe(request)[:100]))
        if answer is None:
            unanswered += 1
            if not request.get("incomplete"):
                problems["closed without an answer"].append((i, describe(request), ""))
            continue
        statuses[answer[0]] += 1
        endings[answer[3]] += 1
        if libmicrohttpd_page(request, answer):
            own_pages[answer[0]] += 1
            continue
        for kind, detail in judge(ops, spec["unrouted"], request, answer):
            problems[kind].append((i, describe(request), detail))
    took = time.monotonic() - started
    print(f"{count} requests in {took:.1f} s; statuses {dict(sorted(statuses.items()))}, "
          f"of which libmicrohttpd's own pages {dict(sorted(own_pages.items()))}; "
          f"{unanswered} raw requests closed unanswered (incomplete or not HTTP); answers {dict(endings)}")
    for took_one, i, shown in sorted(slowest, reverse=True)[:3]:
        print(f"  slow: #{i} took {took_one:.2f} s: {shown!r}")
    for kind, cases in sorted(problems.items()):
        print(f"  {len(cases)} x {kind}")
        for i, shown, detail in cases[:SHOWN_PER_KIND]:
            print(f"     #{i}: {shown!r}\n        -> {detail!r}")
    check(f"every answer of {count} is documented, JSON errors with documented codes, no 5xx but 503",
          not problems, f"{sum(len(c) for c in problems.values())} problems (listed above)")


def healthy(port):
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--seed", type=int, default=None, help="replay a run (default: a fresh one)")
    parser.add_argument("--count", type=int, default=3000, help="how many requests (default 3000)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 32)
    print(f"garbage campaign: seed {seed} (rerun with --seed {seed}), {args.count} requests")
    sys.stdout.flush()
    spec = load_spec()
    with tempfile.TemporaryDirectory() as tmp:
        stdout = open(os.path.join(tmp, "stdout"), "w")
        stderr = open(os.path.join(tmp, "stderr"), "w")
        os.environ.update(ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
                          UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
        process, port = start_puzzled(os.path.realpath(args.binary), (
            "--client-rate", "0", "--max-body", str(MAX_BODY), "--max-url", str(MAX_URL),
            "--time-limit-ms", str(TIME_LIMIT_MS), "--drain-ms", "2000"), stdout=stdout, stderr=stderr)
        try:
            campaign(port, spec, seed, args.count)
            check("the server is still up and answers /healthz 200", healthy(port))
            process.send_signal(signal.SIGTERM)
            try:
                status = process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                status = "still running after 60 s"
            check(f"puzzled exits 0 on SIGTERM (status {status})", status == 0)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            stdout.close()
            stderr.close()
        with open(os.path.join(tmp, "stderr"), errors="replace") as f:
            log = f.read()
        reports = sanitizer_reports(log)
        check("no AddressSanitizer, LeakSanitizer or UBSan report on stderr", not reports,
              "\n".join(reports[:5]) + "\n" + log[log.find(reports[0]):][:4000] if reports else "")
    finish()


if __name__ == "__main__":
    main()
