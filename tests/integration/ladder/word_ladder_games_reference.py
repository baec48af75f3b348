#!/usr/bin/env python3
"""Independent references for the word-ladder game endpoints, by brute force in Python, on the
system word list or the union of the word lists named in the input. One argument: a JSON file
holding {"mode": ..., "lists": [paths]?, ...}; prints JSON.

  {"mode": "neighbours", "seed": S, "count": N}
      N random words of 2 to 7 letters (half from the list, half with one letter changed, often not
      words), each with the words one letter away found by comparing it with every word of its
      length: [{"word", "in_dictionary", "neighbours"}]
  {"mode": "puzzles", "puzzles": [{"from", "to"}, ...]}
      for each pair, a plain breadth-first search over the words of its length plus the two ends
      (which may lie outside the list): [{"steps", "total", "ladders", "ends_in_dictionary"}], the
      ladders (every shortest one in code-point order) as word_ladder_reference.py lists them"""
import json
import random
import sys

from word_ladder_reference import WORD_LIST, adjacency, is_word, shortest_ladders


def load(paths):
    words = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            words |= {line for line in f.read().split("\n") if is_word(line)}
    return words


def one_letter_apart(a, b):
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def neighbour_cases(request, words):
    rng = random.Random(request["seed"])
    by_length = {length: sorted(w for w in words if len(w) == length) for length in range(2, 8)}
    cases = []
    for k in range(request["count"]):
        word = rng.choice(by_length[rng.randrange(2, 8)])
        if k % 2 == 1:
            position = rng.randrange(len(word))
            word = word[:position] + rng.choice("abcdefghijklmnopqrstuvwxyz") + word[position + 1:]
        cases.append({"word": word, "in_dictionary": word in words,
                      "neighbours": sorted(w for w in words if one_letter_apart(w, word))})
    return cases


def puzzle_cases(request, words):
    answers = []
    for puzzle in request["puzzles"]:
        start, goal = puzzle["from"], puzzle["to"]
        group = sorted({w for w in words if len(w) == len(start)} | {start, goal})
        result = shortest_ladders(adjacency(group), start, goal)
        result["ends_in_dictionary"] = [start in words, goal in words]
        answers.append(result)
    return answers


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        request = json.load(f)
    words = load(request.get("lists", [WORD_LIST]))
    cases = neighbour_cases(request, words) if request["mode"] == "neighbours" else puzzle_cases(request, words)
    print(json.dumps(cases, ensure_ascii=False))
