# Reference for the /permutations integration tests: reads a JSON array of request bodies and prints,
# for each, the expected answer as one JSON line, computed independently with itertools.
# Items compare "by value": numbers (not booleans) numerically, then strings by code point, then any
# other value by its compact JSON text; "any" order is documented as the lexicographic one.
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
    classes = [distinct_keys.index(kv) for kv in keys]
    k = body.get("k", len(items))
    order = body.get("order", "lexicographic")
    if order == "input":
        perms = itertools.permutations(classes, k)
        if body.get("distinct", False):
            perms = list(dict.fromkeys(perms))
    elif body.get("distinct", False):
        perms = sorted(set(itertools.permutations(classes, k)))
    else:
        perms = itertools.permutations(sorted(classes), k)
    perms = list(perms)
    doc = {"count": str(len(perms))}
    if body.get("count_only", False):
        return doc
    offset = int(body.get("offset", 0))
    limit = body.get("limit", len(perms))
    shown = perms[offset:offset + limit]
    values = [first[c] for c in distinct_keys]
    if text:
        doc["permutations"] = ["".join(values[c] for c in p) for p in shown]
    else:
        doc["permutations"] = [[values[c] for c in p] for p in shown]
    return doc


for body in json.load(open(sys.argv[1])):
    print(json.dumps(answer(body)))
