# Reference for the /permutations integration tests: reads a JSON array of request bodies and prints,
# for each, the expected answer as one JSON line, computed independently with itertools.
# Items compare "by value": numbers (not booleans) numerically, then strings by code point, then any
# other value by its compact JSON text; "any" order is documented as the lexicographic one.
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'reference'))
from by_value import classes_of, listing


def answer(body):
    text, classes, values = classes_of(body)
    k = body.get("k", len(classes))
    order = body.get("order", "lexicographic")
    if order == "input":
        perms = itertools.permutations(classes, k)
        if body.get("distinct", False):
            perms = list(dict.fromkeys(perms))
    elif body.get("distinct", False):
        perms = sorted(set(itertools.permutations(classes, k)))
    else:
        perms = itertools.permutations(sorted(classes), k)
    return listing(body, list(perms), "permutations", text, values)


for body in json.load(open(sys.argv[1])):
    print(json.dumps(answer(body)))
