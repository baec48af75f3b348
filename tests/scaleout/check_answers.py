#!/usr/bin/env python3
"""Checks a correct answer from every puzzled endpoint at BASE_URL (tests/scaleout/run.sh points it at
nginx), streamed and NDJSON forms included, against independent references: itertools brute force,
a breadth-first search over the same word list, the knight's move rule, Schwenk's theorem.
Prints one line per check: "ok" or "FAIL".
Usage: check_answers.py BASE_URL [DICTIONARY]   (default /usr/share/dict/words, puzzled's default)"""
import itertools
import json
import re
import sys
import urllib.error
import urllib.request
from collections import deque

base = sys.argv[1].rstrip("/")
dictionary_path = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/dict/words"




def fetch(path, body=None, accept=None):
    """GET path, or POST the JSON body; returns (status, headers, text)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="GET" if body is None else "POST")
    if accept:
        request.add_header("Accept", accept)
    try:
        # 20 s: guards a request through nginx that never ends; the slowest check takes about a second.
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def fetch_json(path, body=None):
    status, _, text = fetch(path, body)
    if status != 200:
        raise AssertionError(f"status {status}: {text[:200]}")
    return json.loads(text)


def fetch_ndjson(path):
    """The values of an NDJSON answer; only arrays and strings are list items (objects carry counts)."""
    status, headers, text = fetch(path, accept="application/x-ndjson")
    if status != 200:
        raise AssertionError(f"status {status}: {text[:200]}")
    content_type = headers.get("Content-Type", "")
    if not content_type.startswith("application/x-ndjson"):
        raise AssertionError(f"Content-Type {content_type!r}, wanted application/x-ndjson")
    values = [json.loads(line) for line in text.splitlines() if line.strip()]
    return [v for v in values if isinstance(v, (list, str))]


results = {"ok": 0, "FAIL": 0}


def check(name, path, run):
    """Runs one check of the endpoint at path: run() returns a short detail, raises AssertionError on a
    wrong answer."""
    try:
        outcome, detail = "ok", run()
    except (AssertionError, OSError, ValueError, KeyError, TypeError, IndexError) as error:
        outcome, detail = "FAIL", f"{type(error).__name__}: {error}"
    results[outcome] += 1
    detail = " ".join(str(detail).split())  # one line each: run.sh reads them line by line
    print(f"{outcome:5} {name}: {detail}", flush=True)


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


# --- references, written independently of the service
def queens_brute_force(n):
    return [list(p) for p in itertools.permutations(range(n))
            if all(abs(p[i] - p[j]) != j - i for i in range(n) for j in range(i + 1, n))]


def permutation_strings(text):
    return ["".join(p) for p in itertools.permutations(sorted(text))]


def knight_move(a, b):
    return sorted([abs(a[0] - b[0]), abs(a[1] - b[1])]) == [1, 2]


def valid_tour(path, rows, cols, start, closed):
    expect(len(path) == rows * cols, f"{len(path)} squares, wanted {rows * cols}")
    expect(list(path[0]) == list(start), f"starts at {path[0]}, wanted {start}")
    expect(len({tuple(s) for s in path}) == rows * cols, "a square is visited twice")
    expect(all(0 <= r < rows and 0 <= c < cols for r, c in path), "a square is off the board")
    expect(all(knight_move(a, b) for a, b in zip(path, path[1:])), "a step is not a knight's move")
    expect(not closed or knight_move(path[-1], path[0]), "the tour does not close")


def ladder_distance(start, goal):
    """Breadth-first search over the dictionary's all-lowercase-letter words of the same length."""
    with open(dictionary_path, encoding="utf-8") as words_file:
        words = {w for w in (line.strip() for line in words_file)
                 if len(w) == len(start) and re.fullmatch(r"[^\W\d_]+", w) and w == w.lower()}
    distance, queue = {start: 0}, deque([start])
    while queue:
        word = queue.popleft()
        if word == goal:
            return distance[word]
        for i in range(len(word)):
            for letter in "abcdefghijklmnopqrstuvwxyz":
                step = word[:i] + letter + word[i + 1:]
                if step in words and step not in distance:
                    distance[step] = distance[word] + 1
                    queue.append(step)
    return None


def as_text(permutation):
    return permutation if isinstance(permutation, str) else "".join(permutation)


# --- the checks
def healthz():
    expect(fetch_json("/healthz") == {"status": "ok"}, "not {\"status\":\"ok\"}")
    return '{"status":"ok"}'


def unknown_path():
    status, headers, text = fetch("/no-such-endpoint")
    expect(status == 404 and json.loads(text)["error"]["code"] == "not_found", f"{status} {text[:120]}")
    return "404 not_found, the service's JSON error passed through untouched"


def queens_count():
    reference = str(len(queens_brute_force(6)))
    for answer in (fetch_json("/queens?n=6&mode=count"), fetch_json("/queens", {"n": 6, "mode": "count"})):
        expect(answer["kind"] == "queens_count" and answer["total"] == reference,
               f"{answer['kind']!r} total {answer['total']!r}, brute force says {reference}")
    return f"n=6 count {reference} by GET and by POST"


def queens_solutions():
    reference = queens_brute_force(7)
    answer = fetch_json("/queens?n=7")
    expect(answer["solutions"] == reference, "solutions differ from the brute force (content or order)")
    expect(answer["kind"] == "queens_solutions", f"kind {answer['kind']!r}")
    streamed = fetch_ndjson("/queens?n=7")
    expect(streamed == reference, "NDJSON solutions differ from the brute force")
    return f"n=7: all {len(reference)} solutions in order, JSON and NDJSON"


def permutations_small():
    answer = fetch_json("/permutations?text=abc")
    expect(answer["permutations"] == permutation_strings("abc"), f"{answer['permutations']}")
    expect(answer["total"] == "6", f"total {answer['total']!r}")
    return "abc: the 6 arrangements in order"


def permutations_streamed():
    # all 8! in one answer: a limit past the default page (--default-page), so no next_offset
    status, headers, text = fetch("/permutations", {"text": "abcdefgh", "limit": 40320})
    expect(status == 200, f"status {status}")
    expect(headers.get("Transfer-Encoding") == "chunked", "not chunked through the proxy")
    reference = permutation_strings("abcdefgh")
    answer = json.loads(text)
    expect(answer["total"] == str(len(reference)), f"total {answer['total']!r}")
    expect(answer["permutations"] == reference, "the arrangements differ from itertools")
    expect(answer.get("next_offset") is None, f"next_offset {answer.get('next_offset')!r} after the last")
    expect(fetch_ndjson("/permutations?text=abcdefg") == permutation_strings("abcdefg"),
           "NDJSON arrangements of abcdefg differ from itertools")
    return f"abcdefgh: {len(text)} bytes chunked, all {len(reference)} in order; abcdefg as NDJSON"


def permutation_rank():
    reference = permutation_strings("abcd")
    answer = fetch_json("/permutation/rank", {"text": "cadb"})
    expect(answer["rank"] == str(reference.index("cadb")), f"rank {answer['rank']!r}")
    expect(answer["total"] == str(len(reference)), f"total {answer['total']!r}")
    return f"cadb has rank {answer['rank']} of {answer['total']}"


def permutation_unrank():
    answer = fetch_json("/permutation/unrank?text=abcd&rank=13")
    expect(as_text(answer["permutation"]) == permutation_strings("abcd")[13], f"{answer['permutation']}")
    return f"abcd rank 13 is {as_text(answer['permutation'])}"


def shuffle():
    answers = [fetch_json("/shuffle?n=52&start=1&seed=12345") for _ in range(4)]
    expect(sorted(answers[0]["items"]) == list(range(1, 53)), "not a shuffle of 1..52")
    expect(all(a["items"] == answers[0]["items"] for a in answers), "a seeded shuffle differs between replicas")
    fresh = fetch_json("/shuffle", {"n": 10})
    replay = fetch_json("/shuffle", {"n": 10, "seed": fresh["seed"]})
    expect(replay["items"] == fresh["items"], "replaying the returned seed gives another shuffle")
    return "seeded 1..52 identical on 4 requests across replicas; a fresh seed replays"


def knight_tour():
    open_tour = fetch_json("/knight-tour?n=5")
    expect(open_tour["found"] is True, "no open tour on 5x5 from a corner")
    valid_tour(open_tour["path"], 5, 5, [0, 0], False)
    closed_tour = fetch_json("/knight-tour", {"rows": 6, "cols": 6, "closed": True, "start": [2, 3]})
    expect(closed_tour["found"] is True, "no closed tour on 6x6")
    valid_tour(closed_tour["path"], 6, 6, [2, 3], True)
    none = fetch_json("/knight-tour?n=5&closed=true")
    expect(none["found"] is False and none.get("reason"), "a closed tour on 5x5 (Schwenk: none exists)")
    return "5x5 open and 6x6 closed tours valid; 5x5 closed refused with a reason"


def word_ladder():
    answer = fetch_json("/word-ladder?from=cold&to=warm")
    ladder = answer["ladder"]
    shortest = ladder_distance("cold", "warm")
    expect(answer["found"] is True and ladder[0] == "cold" and ladder[-1] == "warm", f"{ladder}")
    expect(all(sum(x != y for x, y in zip(a, b)) == 1 for a, b in zip(ladder, ladder[1:])), f"{ladder}")
    expect(answer["steps"] == len(ladder) - 1 == shortest, f"{answer['steps']} steps, BFS says {shortest}")
    return " -> ".join(ladder)


for name, path, run in [("healthz", "/healthz", healthz), ("unknown path", "/healthz", unknown_path),
                        ("queens count", "/queens", queens_count), ("queens solutions", "/queens", queens_solutions),
                        ("permutations", "/permutations", permutations_small),
                        ("permutations streamed", "/permutations", permutations_streamed),
                        ("permutation rank", "/permutation/rank", permutation_rank),
                        ("permutation unrank", "/permutation/unrank", permutation_unrank),
                        ("shuffle", "/shuffle", shuffle), ("knight-tour", "/knight-tour", knight_tour),
                        ("word-ladder", "/word-ladder", word_ladder)]:
    check(name, path, run)
sys.exit(1 if results["FAIL"] else 0)
