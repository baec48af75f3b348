#!/usr/bin/env python3
"""Which SCOWL size makes a good common-words dictionary for word ladders: for each size (the union
of SCOWL's English and American word lists up to it) and for the full default list, the shortest
ladder of classic puzzle pairs, so one can read which pairs connect and which words the ladders use.
Reuses the plain breadth-first search of the integration tests' reference. Run from the repository:

  python3 bench/ladder/common_levels.py

docs/word-ladder.md ("Common words") quotes its output and the choice made from it."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "integration"))
from word_ladder_reference import adjacency, shortest_ladders  # noqa: E402

SCOWL = "/usr/share/dict/scowl/"
SIZES = (10, 20, 35, 40, 50, 55, 60, 70)
PAIRS = [("cold", "warm"), ("head", "tail"), ("cat", "dog"), ("love", "hate"), ("ape", "man"),
         ("wheat", "bread"), ("black", "white"), ("hard", "easy"), ("lead", "gold"), ("poor", "rich"),
         ("fish", "bird"), ("sleep", "dream"), ("word", "game"), ("rose", "lily")]


def words_of(paths):
    words = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            words |= {line.strip() for line in f if re.fullmatch("[a-z]+", line.strip())}
    return words


def scowl_up_to(size):
    return [f"{SCOWL}{variety}-words.{s}" for s in SIZES if s <= size for variety in ("english", "american")
            if os.path.exists(f"{SCOWL}{variety}-words.{s}")]


for name, paths in [("SCOWL 20", scowl_up_to(20)), ("SCOWL 35", scowl_up_to(35)), ("SCOWL 50", scowl_up_to(50)),
                    ("/usr/share/dict/words", ["/usr/share/dict/words"])]:
    words = words_of(paths)
    print(f"== {name}: {len(words)} words of a-z")
    for start, goal in PAIRS:
        if start not in words or goal not in words:
            print(f"{start} -> {goal}: an end is missing")
            continue
        result = shortest_ladders(adjacency(sorted(w for w in words if len(w) == len(start))), start, goal)
        ladder = " ".join(result["ladders"][0]) if result["ladders"] else "no ladder"
        print(f"{start} -> {goal}: {result['steps']} steps, {result['total']} shortest: {ladder}")
