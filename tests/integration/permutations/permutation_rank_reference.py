# Reference for the /permutation/rank and /permutation/unrank integration tests: reads a JSON array of
# item lists (or strings) and prints, for each, its distinct arrangements in lexicographic order "by
# value" (numbers, then strings, then other values by compact JSON text) as one JSON array per line.
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'reference'))
from by_value import key


for case in json.load(open(sys.argv[1])):
    text = isinstance(case, str)
    items = list(case) if text else case
    by_key = {}
    for v in items:
        by_key.setdefault(key(v), v)
    arrangements = sorted(set(itertools.permutations(sorted(key(v) for v in items))))
    if text:
        print(json.dumps(["".join(by_key[k] for k in a) for a in arrangements]))
    else:
        print(json.dumps([[by_key[k] for k in a] for a in arrangements]))
