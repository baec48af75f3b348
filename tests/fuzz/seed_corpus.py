#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/seed-*) and the libFuzzer
dictionary of field names and keywords (tests/fuzz/fields.dict) from openapi.yaml's request examples,
so the seeds follow the documented requests. Run it again after changing the examples; the long
campaign (scripts/fuzz.sh --merge) adds what it finds next to these seeds.
Each target's input layout is described at the top of its tests/fuzz/fuzz_<surface>.c."""
import json
import pathlib
import re
import sys

import yaml

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "lib"))
from checks import query_value  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def table(source, pattern):
    """The order of an endpoint table in a target's source, which the first input byte indexes."""
    return re.findall(pattern, (HERE / source).read_text())


def examples():
    """(path, media type, example) for every request example in openapi.yaml."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    for path, operations in spec["paths"].items():
        body = operations.get("post", {}).get("requestBody", {}).get("content", {})
        for media, content in body.items():
            found = [content["example"]] if "example" in content else []
            found += [e["value"] for e in content.get("examples", {}).values()]
            for example in found:
                yield path, media, example


def query_of(example):
    """The example as a GET query string (arrays comma-separated), decoded as the server sees it."""
    return "&".join(f"{k}={query_value(v)}" for k, v in example.items())


def write(target, name, data):
    folder = HERE / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"seed-{name}").write_bytes(data)


def main():
    endpoints = table("fuzz_request.c", r'\{"(/[^"]*)", &')
    streaming = table("fuzz_streams.c", r'"(/[a-z/-]+)"')
    words = set()
    for n, (path, media, example) in enumerate(examples()):
        if media == "text/plain":
            body = example.encode()
            write("fuzz_streams", f"{n}", bytes([streaming.index(path), 1, 2, 0, 6, 254]) + body)
            write("fuzz_sudoku", f"{n}", bytes([1]) + body)
            continue
        words.update(example)
        body = json.dumps(example).encode()
        index = endpoints.index(path)
        write("fuzz_fields", f"{n}-body", bytes([index, 0]) + body)
        write("fuzz_fields", f"{n}-query", bytes([index, 1]) + query_of(example).encode())
        if path in streaming:
            write("fuzz_streams", f"{n}", bytes([streaming.index(path), n % 2, 2, 0, 6, 254]) + body)
        for value in example.values():
            if isinstance(value, str) and path.startswith("/sudoku"):
                for use in range(6):
                    write("fuzz_sudoku", f"{n}-{use}", bytes([use]) + value.encode())
        for field in ("text", "pool_text", "combination_text"):
            if field in example:
                for shape in range(7):
                    write("fuzz_text_items", f"{n}-{shape}", bytes([shape, 0x2a]) + example[field].encode())
        if "ladder" in example:
            for use in range(4):
                write("fuzz_dictionary", f"{n}-{use}", bytes([use]) + "\n".join(example["ladder"]).encode())
    # Beyond the examples: the inputs the fields' documentation names (code points of every length,
    # seeds as 64 hex digits, numbers past 2^64, capitals and apostrophes in word lists).
    for shape in range(7):
        write("fuzz_text_items", f"unicode-{shape}", bytes([shape, 0x1b]) + "héllo wörld ✓ 𝄞\nwö✓".encode())
    numbers = ["4", "0", "18446744073709551615", "340282366920938463463374607431768211456", "1e3", "-1",
               "00012", "0123456789abcdef0123456789ABCDEF0123456789abcdef0123456789abcdef"]
    for field in range(9):
        for n, number in enumerate(numbers):
            write("fuzz_big_numbers", f"{field}-{n}", bytes([field, n % 4]) + number.encode())
    for use in range(4):
        write("fuzz_dictionary", f"mixed-{use}",
              bytes([use]) + "cold\nCord\ncard's\nward\nwarm\nwörm\nΑλφα\nмир\n\r\nx\xff\n".encode("utf-8", "surrogateescape"))
    # The server's header parsers (fuzz_headers: byte 0 picks the parser): the values the docs show.
    headers = [["gzip", "gzip, deflate, br", "gzip;q=0, identity", "*;q=0.5, identity;q=1", "x-gzip;q=0.001"],
               ['"0123456789abcdef0123456789abcdef"', 'W/"0123456789abcdef0123456789abcdef", "x"', "*"],
               ["abc-123", "req.42:7", "a" * 70, "bad id"],
               ["/queens?n=8", "/\x01\xff"],
               ["10.0.0.1", "10.0.0.0/8, 192.168.1.0/24", "::1, fd00::/8", "10.0.0.0/33"],
               ["*/*", "text/event-stream, */*;q=0.1", "application/json;q=0, application/*",
                "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
                "text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, text/plain;format=fixed;q=0.4, */*;q=0.5",
                'text/plain;x="a,b;q=0";q=0.3, application/json;charset=utf-8']]
    for parser, values in enumerate(headers):
        for n, value in enumerate(values):
            write("fuzz_headers", f"{parser}-{n}", bytes([parser]) + value.encode())
    dictionary = sorted(words | {"time_limit_ms", "true", "false", "null", "common", "lexicographic", "input",
                                 "any", "solutions", "count", "first", "warnsdorff", "backtracking", "board", "path"})
    (HERE / "fields.dict").write_text("".join(f"\"{w}\"\n" for w in dictionary))


if __name__ == "__main__":
    main()
