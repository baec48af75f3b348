# Reference for the /combinations integration tests: reads a JSON array of request bodies and prints,
# for each, the expected answer as one JSON line, computed independently with itertools:
# itertools.combinations(sorted(items), k), and for `distinct` the sorted set of those tuples (each
# sub-multiset once, as more_itertools.distinct_combinations gives them, in lexicographic order).
import itertools
import json
import sys

from by_value import key


def answer(body):
    text = "text" in body
    items = list(body["text"]) if text else body["items"]
    keys = [key(v) for v in items]
    distinct_keys = sorted(set(keys))
    first = {}
    for v, kv in zip(items, keys):
        first.setdefault(kv, v)
    classes = sorted(distinct_keys.index(kv) for kv in keys)
    combos = list(itertools.combinations(classes, body["k"]))
    if body.get("distinct", False):
        combos = sorted(set(combos))
    doc = {"count": str(len(combos))}
    if body.get("count_only", False):
        return doc
    offset = int(body.get("offset", 0))
    limit = body.get("limit", len(combos))
    shown = combos[offset:offset + limit]
    values = [first[c] for c in distinct_keys]
    if text:
        doc["combinations"] = ["".join(values[c] for c in p) for p in shown]
    else:
        doc["combinations"] = [[values[c] for c in p] for p in shown]
    return doc


for body in json.load(open(sys.argv[1])):
    print(json.dumps(answer(body)))
