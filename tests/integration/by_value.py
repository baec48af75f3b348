# The "by value" item order of the permutation endpoints, written independently of the C code for the
# Python references: numbers (not booleans) numerically, then strings by code point, then any other
# value by its compact JSON text.
import json


def key(v):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return (0, v, "")
    if isinstance(v, str):
        return (1, 0, v)
    return (2, 0, json.dumps(v, separators=(",", ":"), ensure_ascii=False))
