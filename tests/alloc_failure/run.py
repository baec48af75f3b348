#!/usr/bin/env python3
"""Allocation-failure injection (docs/fuzzing.md#allocation-failure-injection): against a build made
with -DPUZZLED_ALLOC_FAIL=ON (and AddressSanitizer), every route is asked a representative request
(small answers, streams, big integers, gzip) with `X-Fail-Allocation: k` for k = 1, 2, ... up to the
number of allocations the request makes. Each answer must be the unarmed answer (the failure was
survived without changing it), a 500 with the JSON error out_of_memory, a JSON stream cut short
(chunked encoding without its last chunk) after a prefix of the unarmed answer, or an NDJSON stream
ended honestly: whole lines of the unarmed answer, then a last line {"error": out_of_memory}
(docs/requests.md#stream-ends); never another answer, a hang or a crash. The next,
unarmed, request must get the right answer. At the end the server must stop cleanly on SIGTERM with
no AddressSanitizer or LeakSanitizer report.
    tests/alloc_failure/run.py PUZZLED_ALLOC_FAIL_BIN
Requests making more than DENSE allocations are tried at every k up to DENSE and at SPARSE evenly
spaced k beyond, so the run stays within a few minutes on two cores.
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import gzip
import http.client
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish, query_value  # noqa: E402

DENSE, SPARSE = 150, 50
TIMEOUT_S = 20  # guards a request or a report that never comes; each takes well under a second under ASan
NEVER = 10**12  # a k no request reaches: the unarmed run, counted
GZIP = {"Accept-Encoding": "gzip"}
NDJSON = {"Accept": "application/x-ndjson"}
SUDOKU = "....7..8..2...6.............3...9.16..765.9..9...3.5...761...325.2..3...3..7..6.5"
TOUR = [[0, 0], [1, 2], [2, 0], [0, 1], [1, 3], [2, 1], [0, 2], [2, 3], [1, 1], [0, 3], [2, 2], [1, 0]]

# name, method, path, fields (query for GET, JSON body for POST), headers, the answer varies by itself
REQUESTS = [
    ("healthz", "GET", "/healthz", {}, {}, False),
    ("readyz", "GET", "/readyz", {}, {}, False),
    ("openapi document", "GET", "/openapi.yaml", {}, {}, False),
    ("web page /", "GET", "/", {}, {}, False),
    ("web page /docs", "GET", "/docs", {}, {}, False),
    ("web page /playground.css", "GET", "/playground.css", {}, {}, False),
    ("web page /playground.js", "GET", "/playground.js", {}, {}, False),
    ("web page /answers.js", "GET", "/answers.js", {}, {}, False),
    ("web page /pictures.js", "GET", "/pictures.js", {}, {}, False),
    ("web page /play.js", "GET", "/play.js", {}, {}, False),
    ("web page /markdown.js", "GET", "/markdown.js", {}, {}, False),
    ("web page /spec-worker.js", "GET", "/spec-worker.js", {}, {}, False),
    ("web page /docs.css", "GET", "/docs.css", {}, {}, False),
    ("web page /vendor/js-yaml.js", "GET", "/vendor/js-yaml.js", {}, {}, False),
    ("web page /vendor/puzzled-client.js", "GET", "/vendor/puzzled-client.js", {}, {}, False),
    ("metrics", "GET", "/metrics", {}, {}, True),
    ("a field of the wrong type (400)", "GET", "/queens", {"n": "eight"}, {}, False),
    ("malformed JSON (400)", "POST", "/queens", "{\"n\": 8,", {}, False),
    ("an unknown path (404)", "GET", "/nowhere", {}, {}, False),
    ("a method the path does not take (405)", "POST", "/healthz", {}, {}, False),
    ("a CORS preflight (204)", "OPTIONS", "/queens", {}, {"Access-Control-Request-Method": "POST"}, False),
    ("a conditional GET: the ETag worked out on the I/O thread", "GET", "/queens", {"n": 6},
     {"If-None-Match": '"0123"'}, False),
    ("shuffle, seeded", "GET", "/shuffle", {"n": 10, "seed": 7}, {}, False),
    ("shuffles streamed as NDJSON, gzip", "GET", "/shuffle", {"n": 50, "count": 40, "seed": 7}, {**NDJSON, **GZIP},
     False),
    ("a shuffle of numbers streamed overlapped (formatted on the pool)", "GET", "/shuffle", {"n": 5000, "seed": 7}, {},
     False),
    ("a derangement", "GET", "/shuffle", {"items": ["ann", "bob", "cat", "dan", "eve"], "derangement": True, "seed": 7},
     {}, False),
    ("samples from a billion", "GET", "/shuffle", {"n": 1000000000, "sample": 6, "count": 3, "seed": 42}, {}, False),
    ("shuffle of JSON items", "POST", "/shuffle", {"items": [1, "two", {"three": 3}, [4]], "seed": "12345678901234567890"},
     {}, False),
    ("permutations, streamed", "GET", "/permutations", {"text": "abcde"}, {}, False),
    ("permutations, streamed gzip", "GET", "/permutations", {"text": "abcdef"}, GZIP, False),
    ("permutations window at a big offset", "GET", "/permutations",
     {"text": "abcdefghijklmnopqrstuvwxyz", "offset": "123456789012345678901", "limit": 3}, {}, False),
    ("permutations, a long gzip stream in many pieces", "GET", "/permutations", {"text": "abcdefgh"}, GZIP, False),
    ("distinct arrangements of a multiset", "POST", "/permutations", {"text": "aabbcc", "distinct": True}, {}, False),
    ("k-permutations of JSON items", "POST", "/permutations", {"items": [{"a": 1}, [2], "three", 4], "k": 2}, {},
     False),
    ("a k-arrangement rank in a pool", "GET", "/permutation/rank", {"pool_text": "aabc", "text": "ba", "distinct": False},
     {}, False),
    ("permutation rank of items from the query string", "GET", "/permutation/rank", {"permutation": [3, 1, 2]}, {},
     False),
    ("permutation rank, big integer", "GET", "/permutation/rank", {"text": "zyxwvutsrqponmlkjihgfedcba"}, {}, False),
    ("permutation rank of a 9,000-letter text: its common factors cancelled (a plan of prime exponents)", "POST",
     "/permutation/rank", {"text": ("abracadabra" * 900)[:9000]}, {}, False),
    ("permutation unrank, big integer", "GET", "/permutation/unrank",
     {"text": "abcdefghijklmnopqrstuvwxyz", "rank": "403291461126605635583999999"}, {}, False),
    ("queens solutions, streamed", "GET", "/queens", {"n": 6}, {}, False),
    ("queens solutions of 9 as NDJSON, gzip", "GET", "/queens", {"n": 9}, {**NDJSON, **GZIP}, False),
    ("queens count", "GET", "/queens", {"n": 8, "mode": "count", "unique": True}, {}, False),
    ("queens count beyond the express slice: demoted and run again", "POST", "/queens", {"n": 13, "mode": "count"}, {},
     False),
    ("queens completion", "POST", "/queens", {"n": 12, "mode": "first", "placed": [[0, 0], [6, 3]]}, {}, False),
    ("knight tour", "GET", "/knight-tour", {"n": 6}, {}, False),
    ("knight tour of a large board, gzip", "GET", "/knight-tour", {"n": 60}, GZIP, False),
    ("knight tour, closed, as a board", "GET", "/knight-tour", {"n": 8, "closed": True, "format": "board"}, {}, False),
    ("knight tour by backtracking", "GET", "/knight-tour", {"n": 5, "algorithm": "backtracking"}, {}, False),
    ("knight tour path as NDJSON", "GET", "/knight-tour", {"n": 6, "format": "path"}, NDJSON, False),
    ("knight tour drawn as SVG", "GET", "/knight-tour", {"n": 6, "format": "svg"}, {}, False),
    ("queens solution drawn as SVG", "GET", "/queens", {"n": 8, "mode": "first", "format": "svg"}, {}, False),
    ("word ladder", "GET", "/word-ladder", {"from": "cold", "to": "warm"}, {}, False),
    ("word ladders, all, own dictionary", "POST", "/word-ladder",
     {"from": "cold", "to": "warm", "all": True, "dictionary": ["cold", "cord", "card", "ward", "warm", "word", "worm"]},
     {}, False),
    ("word ladder puzzle, common words", "GET", "/word-ladder/puzzle",
     {"length": 5, "steps": 6, "seed": 1, "dictionary": "common"}, {}, False),
    ("word ladders, all, built-in, NDJSON gzip", "GET", "/word-ladder", {"from": "black", "to": "white", "all": True},
     {**NDJSON, **GZIP}, False),
    ("word ladder neighbours, own dictionary", "POST", "/word-ladder/neighbours",
     {"word": "été", "dictionary": ["étà", "ete", "été"]}, {}, False),
    ("queens verify", "POST", "/queens/verify", {"n": 8, "queens": [0, 4, 7, 5, 2, 6, 1, 3]}, {}, False),
    ("knight tour verify", "POST", "/knight-tour/verify", {"rows": 3, "cols": 4, "path": TOUR}, {}, False),
    ("word ladder verify", "POST", "/word-ladder/verify", {"ladder": ["cold", "cord", "card", "ward", "warm"]}, {},
     False),
    ("word ladder neighbours", "GET", "/word-ladder/neighbours", {"word": "cold"}, {}, False),
    ("word ladder puzzle", "GET", "/word-ladder/puzzle", {"length": 4, "steps": 3, "seed": 7}, {}, False),
    ("combinations, streamed", "GET", "/combinations", {"text": "abcdefg", "k": 3}, {}, False),
    ("combinations count, big integer", "GET", "/combinations",
     {"text": "abcdefghijklmnopqrstuvwxyz" * 4, "k": 50, "count_only": True}, {}, False),
    ("distinct sub-multisets, streamed", "GET", "/combinations", {"text": "mississippi", "k": 4, "distinct": True}, {},
     False),
    ("combination rank", "GET", "/combination/rank", {"text": "mississippi", "combination_text": "ssim"}, {}, False),
    ("combination unrank, big integer", "GET", "/combination/unrank",
     {"text": "abcdefghijklmnopqrstuvwxyz" * 4, "k": 50, "rank": "98765432109876543210987654321"}, {}, False),
    ("sudoku generate", "GET", "/sudoku/generate", {"seed": 42}, {}, False),
    ("sudoku generate as SVG", "GET", "/sudoku/generate", {"box": 2, "seed": 4, "format": "svg"}, {}, False),
    ("sudoku solve", "GET", "/sudoku/solve", {"puzzle": SUDOKU}, {}, False),
    ("sudoku solve in bulk, text body", "POST", "/sudoku/solve", SUDOKU + "\n................\n",
     {"Content-Type": "text/plain"}, False),
    ("sudoku generate, expert, 16 x 16 grid", "GET", "/sudoku/generate", {"box": 4, "mode": "grid", "seed": 3}, {},
     False),
    ("sudoku generate, expert puzzle", "POST", "/sudoku/generate", {"seed": 42, "difficulty": "expert"}, {}, False),
    ("sudoku solve, counting solutions", "GET", "/sudoku/solve", {"puzzle": "." * 16, "count_limit": 100}, {}, False),
    ("sudoku check", "GET", "/sudoku/check", {"puzzle": SUDOKU}, {}, False),
    ("sudoku hint", "GET", "/sudoku/hint", {"puzzle": SUDOKU}, {}, False),
    ("sudoku explain", "GET", "/sudoku/explain", {"puzzle": SUDOKU}, {}, False),
]


def query_text(fields):
    return urllib.parse.urlencode({k: query_value(v) for k, v in fields.items()})


class Answer:
    """status (0: no answer), the body (decompressed), whether the chunked body was cut short."""

    def __init__(self, status=0, body=b"", cut=False, error=""):
        self.status, self.body, self.cut, self.error = status, body, cut, error

    def __repr__(self):
        return f"status {self.status}{' cut' if self.cut else ''} {self.error} {self.body[:200]!r}"


def ask(port, request, k=None):
    _, method, path, fields, headers, _ = request
    headers = {**headers, "Connection": "close"}
    if k is not None:
        headers["X-Fail-Allocation"] = str(k)
    body = None
    if method == "POST" and isinstance(fields, str):
        body = fields.encode()
    elif method == "POST":
        body = json.dumps(fields).encode()
        headers.setdefault("Content-Type", "application/json")
    elif fields:
        path += "?" + query_text(fields)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
    except (OSError, http.client.HTTPException) as e:
        connection.close()
        return Answer(error=f"no answer: {e!r}")
    try:
        data = response.read()
        cut = False
    except http.client.IncompleteRead as e:
        data, cut = e.partial, response.chunked
    except (OSError, http.client.HTTPException) as e:
        return Answer(response.status, b"", response.chunked, f"read failed: {e!r}")
    finally:
        connection.close()
    if response.getheader("Content-Encoding") == "gzip":
        try:  # a cut body is an unfinished gzip member: what it holds so far
            data = gzip.decompress(data) if not cut else zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            return Answer(response.status, data, cut, f"bad gzip: {e!r}")
    return Answer(response.status, data, cut)


def ends_with_its_error_line(answer, reference, varies):
    """An NDJSON stream that failed mid-way and said so: whole lines of the unarmed answer (any, when
    the answer varies), then one last line {"error": {"code": "out_of_memory", ...}}."""
    if answer.status != reference.status or answer.cut or answer.error or not answer.body.endswith(b"\n"):
        return False
    lines = answer.body.split(b"\n")[:-1]
    try:
        last = json.loads(lines[-1])
    except ValueError:
        return False
    if not (isinstance(last, dict) and list(last) == ["error"] and isinstance(last["error"], dict)
            and last["error"].get("code") == "out_of_memory"):
        return False
    return varies or reference.body.startswith(b"".join(line + b"\n" for line in lines[:-1]))


def is_out_of_memory(answer):
    try:
        return answer.status == 500 and json.loads(answer.body)["error"]["code"] == "out_of_memory"
    except (ValueError, KeyError, TypeError):
        return False


class Server:
    def __init__(self, binary, options=()):
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=23")
        self.process = subprocess.Popen([binary, "--port", "0", "--client-rate", "0", *options], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=env)
        line = self.process.stdout.readline().decode()
        match = re.search(r"listening on http://[^:]+:(\d+)", line)
        if not match:
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(match.group(1))
        self.reports = queue.Queue()
        self.stderr = []
        self.reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.reader.start()

    def _read_stderr(self):
        for raw in self.process.stderr:
            line = raw.decode("utf-8", "replace")
            if line.startswith("alloc-failure: "):
                self.reports.put(line)
            else:
                self.stderr.append(line)

    def report(self):
        """The armed request's line: (fired, allocations counted), or None when none came."""
        line = self._report_line()
        match = re.match(r"alloc-failure: k=(\d+) (fired|missed) after (\d+) allocations", line or "")
        return (match.group(2) == "fired", int(match.group(3))) if match else None

    def stacks(self):
        """The line of a request armed with `stacks`: each allocation's call stack (a hash), in order."""
        line = self._report_line()
        match = re.match(r"alloc-failure: k=\d+ missed after (\d+) allocations, stacks((?: [0-9a-f]{8})*)$", line or "")
        return match.group(2).split() if match and len(match.group(2).split()) == int(match.group(1)) else None

    def _report_line(self):
        try:
            return self.reports.get(timeout=TIMEOUT_S).rstrip("\n")
        except queue.Empty:
            return None

    def stop(self):
        self.process.send_signal(15)
        try:
            status = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = "hung on SIGTERM"
        self.reader.join(timeout=5)  # it ends at the stderr's end, having taken the last lines
        return status


def ks_for(allocations):
    if allocations <= DENSE + SPARSE:
        return list(range(1, allocations + 1))
    step = (allocations - DENSE) / SPARSE
    return list(range(1, DENSE + 1)) + sorted({DENSE + round(step * (i + 1)) for i in range(SPARSE)})


def run_request(server, request):
    name, varies = request[0], request[5]
    reference = ask(server.port, request, NEVER)
    counted = server.report()
    if reference.status == 0 or reference.cut or counted is None or counted[0]:
        check(f"{name}: the unarmed answer and its allocation count", False, f"{reference} {counted}")
        return
    allocations = counted[1]
    ks = ks_for(allocations)
    bad, outcomes = [], {"out_of_memory": 0, "cut": 0, "ended": 0, "survived": 0}
    for k in ks:
        answer = ask(server.port, request, k)
        fired = server.report()
        if fired is None:
            bad.append(f"k={k}: no alloc-failure line (the request never ended?)")
            break
        ended = ends_with_its_error_line(answer, reference, varies)
        if (is_out_of_memory(answer) or answer.cut or ended) and not fired[0]:
            bad.append(f"k={k}: {answer}, but no allocation was failed")
        elif is_out_of_memory(answer):
            outcomes["out_of_memory"] += 1
        elif ended:
            outcomes["ended"] += 1
        elif (answer.status == reference.status and answer.cut and not answer.error and
              (varies or reference.body.startswith(answer.body))):
            outcomes["cut"] += 1
        elif (answer.status == reference.status and not answer.cut and not answer.error and
              (varies or answer.body == reference.body)):
            outcomes["survived"] += 1
        else:
            bad.append(f"k={k}: {answer}")
        after = ask(server.port, request, NEVER)  # armed beyond reach: its end is reported, so it is over
        if server.report() is None:
            bad.append(f"k={k}: no alloc-failure line for the next request")
        if after.status != reference.status or after.cut or after.error or (not varies and after.body != reference.body):
            bad.append(f"k={k}: the next request got {after} instead of {reference}")
        if server.process.poll() is not None:
            bad.append(f"k={k}: the server exited ({server.process.returncode})")
            break
        if len(bad) > 5:
            break
    sparse = "" if len(ks) == allocations else f", {len(ks)} of them tried"
    summary = ", ".join(f"{v} {k}" for k, v in outcomes.items())
    check(f"{name}: {allocations} allocations{sparse}: {summary}", not bad, "; ".join(bad))


# Requests whose route fills a process-wide cache on its first use (the knight's pieces for long
# boards of 3 and of 4 rows, searched once and kept): on a fresh server for each, an allocation of that
# first request is failed, and the next, unarmed, request must still get the right answer (a piece
# search cut short by the failure must not be cached as "no piece"). A fresh server costs seconds of
# start-up under ASan, so only the first allocation of each call stack is failed (a piece search
# repeats its stacks for each width): every allocation site on every path the first use takes, once.
FIRST_USE = [
    ("knight tour of a 3 x 40 board, its pieces' first use", "GET", "/knight-tour", {"rows": 3, "cols": 40}, {}, False),
    ("knight tour of a 4 x 40 board, its pieces' first use", "GET", "/knight-tour", {"rows": 4, "cols": 40}, {}, False),
]


# The first-use servers answer knight tours alone: a word list of a few words each spares every one of
# them the seconds an ASan build takes to index the system's lists.
FEW_WORDS = "cold\ncord\ncard\nward\nwarm\n"


def run_first_use(binary, request, words):
    name = request[0]
    options = ("--dict", words, "--common-dict", words)
    server = Server(binary, options)
    reference = ask(server.port, request, "stacks")
    stacks = server.stacks()
    server.stop()
    if reference.status != 200 or stacks is None:
        check(f"{name}: the unarmed answer and its allocations' stacks", False, f"{reference} {stacks}")
        return
    ks = [k for k, stack in enumerate(stacks, 1) if stack not in stacks[:k - 1]]
    bad = []
    for k in ks:
        server = Server(binary, options)
        answer = ask(server.port, request, k)
        server.report()
        whole = (answer.status, answer.body) == (reference.status, reference.body)
        cut_short = answer.status == reference.status and answer.cut and reference.body.startswith(answer.body)
        if not (is_out_of_memory(answer) or whole or cut_short):
            bad.append(f"k={k}: {answer}")
        after = ask(server.port, request, NEVER)
        server.report()
        if (after.status, after.body) != (reference.status, reference.body):
            bad.append(f"k={k}: the next request got {after} instead of {reference}")
        status = server.stop()
        sanitizer = [line for line in server.stderr if "Sanitizer" in line or "runtime error" in line]
        if status != 0 or sanitizer:
            bad.append(f"k={k}: the server stopped with {status}: {''.join(sanitizer[:5])}")
        if len(bad) > 5:
            break
    check(f"{name}: the first of each of its {len(ks)} call stacks ({len(stacks)} allocations) failed on a "
          "fresh server, the next request answered right", not bad, "; ".join(bad))


def route_list(server):
    """The server's routes, from its 404 message ("... the endpoints are /a, /b")."""
    answer = ask(server.port, ("", "GET", "/no-such-endpoint", {}, {}, False), NEVER)
    server.report()
    try:
        message = json.loads(answer.body)["error"]["message"]
    except (ValueError, KeyError, TypeError):
        return None
    match = re.search(r"the endpoints are (.*)$", message)
    return [path.strip() for path in match.group(1).split(",")] if match else None


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: tests/alloc_failure/run.py PUZZLED_ALLOC_FAIL_BIN")
    server = Server(sys.argv[1])
    started = time.monotonic()
    routes = None
    try:
        routes = route_list(server)
        for request in REQUESTS:
            run_request(server, request)
            if server.process.poll() is not None:
                break
    finally:
        status = server.stop()
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as words:
        words.write(FEW_WORDS)
        words.flush()
        for request in FIRST_USE:
            run_first_use(sys.argv[1], request, words.name)
    print(f"{len(REQUESTS) + len(FIRST_USE)} requests in {time.monotonic() - started:.0f} s")
    asked = {request[2] for request in REQUESTS}
    check("the requests cover every route the server lists", routes is not None and not set(routes) - asked,
          f"not covered: {sorted(set(routes or []) - asked)}")
    log = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "alloc-failure-stderr.log")
    with open(log, "w") as f:
        f.writelines(server.stderr)
    sanitizer = [line for line in server.stderr if "Sanitizer" in line or "runtime error" in line]
    check("SIGTERM: a clean exit", status == 0, f"exit {status}")
    check("no AddressSanitizer, LeakSanitizer or UBSan report", not sanitizer,
          f"{''.join(sanitizer[:10])}the server's stderr is in {log}")
    finish()


if __name__ == "__main__":
    main()
