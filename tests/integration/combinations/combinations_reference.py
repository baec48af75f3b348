# Reference for the /combinations integration tests: reads a JSON array of request bodies and prints,
# for each, the expected answer as one JSON line, computed independently with itertools:
# itertools.combinations(sorted(items), k), and for `distinct` the sorted set of those tuples (each
# sub-multiset once, as more_itertools.distinct_combinations gives them, in lexicographic order).
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'reference'))
from by_value import classes_of, listing


def answer(body):
    text, classes, values = classes_of(body)
    combos = list(itertools.combinations(sorted(classes), body["k"]))
    if body.get("distinct", False):
        combos = sorted(set(combos))
    return listing(body, combos, "combinations", text, values)


for body in json.load(open(sys.argv[1])):
    print(json.dumps(answer(body)))
