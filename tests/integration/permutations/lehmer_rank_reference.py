# Reference for the hopeless-work integration test of /permutation/rank: reads a JSON array of
# permutations of distinct numbers and prints, for each, its 0-based lexicographic rank and the number
# of permutations (n!) as one JSON array of two decimal strings per line. The textbook way: Lehmer
# digits (how many of the remaining items are smaller), read in the factorial base by Horner's rule.
import bisect
import json
import math
import sys

sys.set_int_max_str_digits(0)  # the ranks of thousands of items have thousands of digits

for permutation in json.load(open(sys.argv[1])):
    remaining = sorted(permutation)
    rank = 0
    for i, value in enumerate(permutation):
        digit = bisect.bisect_left(remaining, value)
        remaining.pop(digit)
        rank = rank * (len(permutation) - i) + digit
    print(json.dumps([str(rank), str(math.factorial(len(permutation)))]))
