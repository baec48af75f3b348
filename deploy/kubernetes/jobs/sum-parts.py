#!/usr/bin/env python3
"""Adds up the parts of a split n-queens count into the whole count.

Reads the pods' logs (`kubectl logs -l job-name=NAME --tail=-1 --max-log-requests=K`, or any text
holding one answer line per part) on stdin and keeps the lines that are answers of
/queens?mode=count&part=i&parts=K: {"kind":"queens_count","n",...,"part":i,"parts":K}. Other lines
(the access log; a pod that failed printed no answer) are skipped.
Prints {"kind":"queens_count","n":N,"found":B,"total":"T","unique_total":"U","parts":K} and exits 0
when every part 0..K-1 is there exactly once (a part seen twice with the same totals counts once) and
all are of one n; else says which parts are missing or disagree and exits 1.
  ... | deploy/kubernetes/jobs/sum-parts.py K
"""
import json
import sys


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: sum-parts.py PARTS  (the answers of the parts on stdin)")
    parts = int(sys.argv[1])
    answers = {}
    for line in sys.stdin:
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            answer = json.loads(line)
        except ValueError:
            continue
        if not isinstance(answer, dict) or answer.get("kind") != "queens_count" or "part" not in answer:
            continue
        if answer.get("parts") != parts:
            sys.exit(f"sum-parts.py: an answer of a split into {answer.get('parts')} parts, not {parts}: {line}")
        seen = answers.setdefault(answer["part"], answer)
        if seen != answer:
            sys.exit(f"sum-parts.py: part {answer['part']} answered twice, differently: {seen} and {answer}")
    missing = [part for part in range(parts) if part not in answers]
    if missing:
        sys.exit(f"sum-parts.py: {len(missing)} of {parts} parts missing: {missing[:20]}")
    boards = {answer["n"] for answer in answers.values()}
    if len(boards) != 1:
        sys.exit(f"sum-parts.py: parts of different boards: n = {sorted(boards)}")
    total = sum(int(answer["total"]) for answer in answers.values())
    unique = sum(int(answer["unique_total"]) for answer in answers.values())
    print(json.dumps({"kind": "queens_count", "n": boards.pop(), "found": total > 0, "total": str(total),
                      "unique_total": str(unique), "parts": parts}, separators=(",", ":")))


main()
