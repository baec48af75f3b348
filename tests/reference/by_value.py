# The "by value" item order of the permutation and combination endpoints, written independently of
# the C code for the Python references: numbers (not booleans) numerically, then strings by code
# point, then any other value by its compact JSON text. Also the two halves every listing reference
# shares: the items as class ids in that order, and the answer document from a list of arrangements.
import json


def key(v):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return (0, v, "")
    if isinstance(v, str):
        return (1, 0, v)
    return (2, 0, json.dumps(v, separators=(",", ":"), ensure_ascii=False))


def classes_of(body):
    """(text, classes in input order, value of each class): class ids number the distinct values by key."""
    text = "text" in body
    items = list(body["text"]) if text else body["items"]
    keys = [key(v) for v in items]
    distinct_keys = sorted(set(keys))
    first = {}
    for v, kv in zip(items, keys):
        first.setdefault(kv, v)
    return text, [distinct_keys.index(kv) for kv in keys], [first[kv] for kv in distinct_keys]


# The service's default --default-page: a JSON list without `limit` holds at most this many.
DEFAULT_PAGE = 10000


def next_offset(total, offset, limit):
    """A JSON list's next_offset: where the page after [offset, offset + limit) starts, None after the last."""
    return str(offset + limit) if offset < total and offset + limit < total else None


def listing(body, arrangements, list_key, text, values):
    """The expected answer: its kind, the total, and unless count_only the offset/limit window (one
    default page without limit) as values, with the next page's offset."""
    if body.get("count_only", False):
        return {"kind": list_key + "_total", "total": str(len(arrangements))}
    offset, limit = int(body.get("offset", 0)), body.get("limit", DEFAULT_PAGE)
    doc = {"kind": list_key, "total": str(len(arrangements)),
           "next_offset": next_offset(len(arrangements), offset, limit)}
    shown = arrangements[offset:offset + limit]
    if text:
        doc[list_key] = ["".join(values[c] for c in a) for a in shown]
    else:
        doc[list_key] = [[values[c] for c in a] for a in shown]
    return doc
