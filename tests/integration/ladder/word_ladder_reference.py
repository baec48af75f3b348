#!/usr/bin/env python3
"""Independent reference for the /word-ladder integration tests: a plain single-direction
breadth-first search in Python (two BFS passes, then every shortest ladder walked out in sorted
order), on the system word list or on random request dictionaries it makes up.

  word_ladder_reference.py builtin SEED PAIRS_PER_LENGTH [LISTS]  # pairs of several lengths from the word
                                                            # list (or the union of the ':'-separated LISTS)
  word_ladder_reference.py custom SEED                      # random request dictionaries and pairs

Prints a JSON array of cases: the words to send, the expected lowercase words, "steps" (-1 when no
ladder exists), "total" (a decimal string) and "ladders" (every shortest ladder in code-point order,
or null when there are more than LIST_AT_MOST)."""
import json
import random
import sys
import unicodedata
from collections import defaultdict, deque

LIST_AT_MOST = 1000
WORD_LIST = "/usr/share/dict/words"


def is_word(text):
    return text != "" and all(unicodedata.category(c) == "Ll" for c in text)


def adjacency(words):
    """Words one letter apart, found through the word with each position replaced by a wildcard."""
    patterns = defaultdict(list)
    for word in words:
        for i in range(len(word)):
            patterns[(i, word[:i], word[i + 1:])].append(word)
    neighbours = {word: [] for word in words}
    for members in patterns.values():
        for a in members:
            neighbours[a].extend(b for b in members if b != a)
    return neighbours


def distances(neighbours, root):
    distance = {root: 0}
    queue = deque([root])
    while queue:
        word = queue.popleft()
        for next_word in neighbours[word]:
            if next_word not in distance:
                distance[next_word] = distance[word] + 1
                queue.append(next_word)
    return distance


def shortest_ladders(neighbours, start, goal):
    from_start = distances(neighbours, start)
    if goal not in from_start:
        return {"steps": -1, "total": "0", "ladders": []}
    from_goal = distances(neighbours, goal)
    steps = from_start[goal]

    def on_a_ladder(word, position):
        return from_start.get(word) == position and from_goal.get(word) == steps - position

    paths = {start: 1}
    layer = [start]
    for position in range(1, steps + 1):
        following = {}
        for word in layer:
            for next_word in neighbours[word]:
                if on_a_ladder(next_word, position):
                    following[next_word] = following.get(next_word, 0) + paths[word]
        paths.update(following)
        layer = list(following)
    total = paths[goal]
    ladders = None
    if total <= LIST_AT_MOST:
        ladders = []

        def walk(path):
            if len(path) == steps + 1:
                ladders.append(list(path))
                return
            for next_word in sorted(neighbours[path[-1]]):
                if on_a_ladder(next_word, len(path)):
                    path.append(next_word)
                    walk(path)
                    path.pop()

        walk([start])
    return {"steps": steps, "total": str(total), "ladders": ladders}


def random_case(rng, word):
    """The word with some letters capitalised (only where capitalising and lowering round-trip)."""
    return "".join(c.upper() if rng.random() < 0.3 and len(c.upper()) == 1 and c.upper().lower() == c else c
                   for c in word)


def pick_pairs(rng, words, neighbours, count):
    """Half random pairs (often unreachable), half a word with neighbours and a word at least half as
    far from it as the farthest word it reaches."""
    linked = [w for w in words if neighbours[w]]
    pairs = []
    for k in range(count):
        if k % 2 == 0:
            pairs.append((rng.choice(words), rng.choice(words)))
            continue
        start = rng.choice(linked)
        distance = distances(neighbours, start)
        far = max(distance.values())
        pairs.append((start, rng.choice(sorted(w for w, d in distance.items() if 2 * d >= far and d > 0))))
    return pairs


def case(rng, neighbours, start, goal):
    result = {"send_from": random_case(rng, start), "send_to": random_case(rng, goal), "from": start, "to": goal}
    result.update(shortest_ladders(neighbours, start, goal))
    return result


def builtin_cases(seed, per_length, lists):
    rng = random.Random(seed)
    words = set()
    for path in lists.split(":"):
        with open(path, encoding="utf-8") as f:
            words |= {line for line in f.read().split("\n") if is_word(line)}
    cases = []
    for length in (2, 3, 4, 5, 6, 7, 8, 9):
        group = sorted(w for w in words if len(w) == length)
        neighbours = adjacency(group)
        for start, goal in pick_pairs(rng, group, neighbours, per_length):
            cases.append(case(rng, neighbours, start, goal))
    return cases


def custom_cases(seed):
    rng = random.Random(seed)
    alphabet = "abcdeéöωж"
    cases = []
    for length, size, letters in ((3, 120, 5), (4, 300, 4), (5, 400, 4), (4, 200, 9), (6, 500, 3)):
        group = sorted({"".join(rng.choice(alphabet[:letters]) for _ in range(length)) for _ in range(size)})
        neighbours = adjacency(group)
        others = ["".join(rng.choice(alphabet) for _ in range(length + 1)) for _ in range(20)]
        sent = [random_case(rng, w) for w in group] + group[:10] + others
        rng.shuffle(sent)
        for start, goal in pick_pairs(rng, group, neighbours, 8):
            result = case(rng, neighbours, start, goal)
            result["dictionary"] = sent
            cases.append(result)
    return cases


if __name__ == "__main__":
    if sys.argv[1] == "builtin":
        lists = sys.argv[4] if len(sys.argv) > 4 else WORD_LIST
        print(json.dumps(builtin_cases(int(sys.argv[2]), int(sys.argv[3]), lists), ensure_ascii=False))
    else:
        print(json.dumps(custom_cases(int(sys.argv[2])), ensure_ascii=False))
