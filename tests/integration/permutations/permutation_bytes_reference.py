# Reference for the byte-exact /permutations checks: reads a JSON array of cases {"body": ..., "ndjson":
# bool} over distinct one-byte items (numbers 0-9 or one-letter text) and prints, for each, the exact
# expected answer as one JSON string line: the compact JSON document, or the NDJSON lines, with the
# window chosen by offset and limit taken from itertools.permutations of the sorted items (a window
# near the end from the permutations of the items sorted the other way, reversed, so that 12! items
# need no walk from the start).
import itertools
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'reference'))
from by_value import DEFAULT_PAGE, next_offset


def window(values, offset, limit):
    count = math.factorial(len(values))
    stop = min(count, offset + limit)
    if offset >= count:
        return []
    if offset <= count - stop:
        return list(itertools.islice(itertools.permutations(sorted(values)), offset, stop))
    from_end = list(itertools.islice(itertools.permutations(sorted(values, reverse=True)), count - stop, count - offset))
    return from_end[::-1]


def answer(case):
    body = case["body"]
    text = "text" in body
    values = list(body["text"]) if text else body["items"]
    count = math.factorial(len(values))
    offset = int(body.get("offset", 0))
    limit = body.get("limit", count if case["ndjson"] else DEFAULT_PAGE)
    shown = window(values, offset, limit)
    if text:
        lines = ['"' + "".join(p) + '"' for p in shown]
    else:
        lines = ["[" + ",".join(str(v) for v in p) + "]" for p in shown]
    if case["ndjson"]:
        return "".join(line + "\n" for line in lines)
    return '{"kind":"permutations","total":"%d","next_offset":%s,"permutations":[%s]}' % (
        count, json.dumps(next_offset(count, offset, limit)), ",".join(lines))


for case in json.load(open(sys.argv[1])):
    print(json.dumps(answer(case)))
