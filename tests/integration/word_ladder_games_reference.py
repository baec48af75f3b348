#!/usr/bin/env python3
"""Independent references for the word-ladder game endpoints, on the system word list or a given
one, by brute force in Python:

  word_ladder_games_reference.py neighbours SEED COUNT [WORD_LIST]
      random words of 2 to 7 letters (half from the list, half one letter changed, often not words), each with the
      words one letter away found by comparing it with every word of its length: JSON cases
      {"word", "in_dictionary", "neighbours"}"""
import json
import random
import sys

from word_ladder_reference import WORD_LIST, is_word


def load(path):
    with open(path, encoding="utf-8") as f:
        return {line for line in f.read().split("\n") if is_word(line)}


def one_letter_apart(a, b):
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def neighbour_cases(seed, count, path):
    rng = random.Random(seed)
    words = load(path)
    by_length = {length: sorted(w for w in words if len(w) == length) for length in range(2, 8)}
    cases = []
    for k in range(count):
        word = rng.choice(by_length[rng.randrange(2, 8)])
        if k % 2 == 1:
            position = rng.randrange(len(word))
            word = word[:position] + rng.choice("abcdefghijklmnopqrstuvwxyz") + word[position + 1:]
        cases.append({"word": word, "in_dictionary": word in words,
                      "neighbours": sorted(w for w in words if one_letter_apart(w, word))})
    return cases


if __name__ == "__main__":
    word_list = sys.argv[4] if len(sys.argv) > 4 else WORD_LIST
    print(json.dumps(neighbour_cases(int(sys.argv[2]), int(sys.argv[3]), word_list), ensure_ascii=False))
