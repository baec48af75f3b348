#!/usr/bin/env python3
"""Independent reference for the /shuffle seed stream, written from the definitions in docs/shuffle.md
(splitmix64 seeding, xoshiro256**, dice rolled two at a time and rejected when the final low word is
below 2^64 mod the product of their bounds), not from the C fast paths. Used by the unit and
integration tests.

Arguments: jobs "shuffle:SEED:ALGORITHM:N:COUNT" (ALGORITHM also derangement or cycle),
"sample:SEED:N:K:COUNT" or "dice:SEED:BOUND[:BOUND]:COUNT", each with a fresh
generator; SEED is decimal (expanded by splitmix64) or 64 hex digits (the state, most significant
word first). Prints one line of space-separated numbers per shuffle or roll."""
import sys

M = (1 << 64) - 1


def state_from(seed):
    if len(seed) == 64:
        return [int(seed[16 * i:16 * i + 16], 16) for i in range(4)]
    x, state = int(seed), []
    for _ in range(4):  # splitmix64
        x = (x + 0x9e3779b97f4a7c15) & M
        z = ((x ^ (x >> 30)) * 0xbf58476d1ce4e5b9) & M
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
        state.append(z ^ (z >> 31))
    return state


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M


class Xoshiro256ss:
    def __init__(self, state):
        self.s = state

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & M, 7) * 9) & M
        t = (s[1] << 17) & M
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result


def roll(g, bounds):
    """Dice with these bounds from one word: each bound multiplies the leftover low word."""
    product = 1
    for b in bounds:
        product *= b
    while True:
        x, values = g.next(), []
        for b in bounds:
            v, x = divmod(x * b, 1 << 64)
            values.append(v)
        if x >= (1 << 64) % product:
            return values


def dice(g, bounds):
    """The dice of a shuffle, two at a time, the last alone when their number is odd."""
    out = []
    for k in range(0, len(bounds) - 1, 2):
        out += roll(g, bounds[k:k + 2])
    if len(bounds) % 2:
        out += roll(g, bounds[-1:])
    return out


def fisher_yates(g, n):
    a = list(range(n))
    for i, j in zip(range(n - 1, 0, -1), dice(g, list(range(n, 1, -1)))):
        a[i], a[j] = a[j], a[i]
    return a


def inside_out(g, n):
    a = [0] * n
    for i, j in zip(range(1, n), dice(g, list(range(2, n + 1)))):
        a[i] = a[j]
        a[j] = i
    return a


def naive(g, n):
    rest, out = list(range(n)), []
    for j in dice(g, list(range(n, 1, -1))):
        out.append(rest.pop(j))
    return out + rest


def derangement(g, n):
    """Fisher-Yates from the identity, restarted as soon as a settled position holds its own value."""
    while True:
        a, i, fixed = list(range(n)), n - 1, False
        while i >= 2 and not fixed:
            j1, j2 = roll(g, [i + 1, i])
            a[i], a[j1] = a[j1], a[i]
            fixed = a[i] == i
            if not fixed:
                a[i - 1], a[j2] = a[j2], a[i - 1]
                fixed = a[i - 1] == i - 1
            i -= 2
        if not fixed and i == 1:
            j, = roll(g, [2])
            a[1], a[j] = a[j], a[1]
            fixed = a[1] == 1
        if not fixed and (n == 0 or a[0] != 0):
            return a


def cycle(g, n):
    """Sattolo: j = die(i) for i = n-1 down to 2, then i = 1 swaps with 0."""
    a = list(range(n))
    if n < 2:
        return a
    for i, j in zip(range(n - 1, 1, -1), dice(g, list(range(n - 1, 1, -1)))):
        a[i], a[j] = a[j], a[i]
    a[1], a[0] = a[0], a[1]
    return a


def sample(g, n, k):
    """The first k steps of Fisher-Yates from the top on a sparse array: output a[j], move a[i] to j."""
    picks = dice(g, [b for b in range(n, n - k, -1) if b >= 2])
    moved, out = {}, []
    for t in range(k):
        i = n - 1 - t
        j = picks[t] if i >= 1 else 0
        out.append(moved.get(j, j))
        moved[j] = moved.get(i, i)
    return out


ALGORITHMS = {'fisher-yates': fisher_yates, 'inside-out': inside_out, 'naive': naive, 'derangement': derangement,
              'cycle': cycle}

for job in sys.argv[1:]:
    mode, seed, *rest = job.split(':')
    g = Xoshiro256ss(state_from(seed))
    if mode == 'shuffle':
        results = [ALGORITHMS[rest[0]](g, int(rest[1])) for _ in range(int(rest[2]))]
    elif mode == 'sample':
        results = [sample(g, int(rest[0]), int(rest[1])) for _ in range(int(rest[2]))]
    else:
        bounds = [int(b) for b in rest[:-1]]
        results = [roll(g, bounds) for _ in range(int(rest[-1]))]
    for r in results:
        print(' '.join(map(str, r)))
