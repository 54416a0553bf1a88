#!/usr/bin/env python3
"""compare.py OUT RECORDED: the recording program's output under smemu
(OUT) against the GPU's (RECORDED), line by line and bit for bit: fragment
dumps, stores and mma results alike (smemu models the tensor cores' sums
exactly). Prints each differing case with its largest difference in
units of the last place; exits 1 on any difference."""
import sys


def lines(path):
    d = {}
    for line in open(path):
        f = line.split()
        if f:  # loads: NAME pP WORDS (one line a pattern)
            k = 2 if len(f) > 1 and f[1].startswith("p") else 1
            d[" ".join(f[:k])] = f[k:]
    return d


got, want = lines(sys.argv[1]), lines(sys.argv[2])
bad = 0
for name, w in want.items():
    g = got.get(name)
    if g == w:
        continue
    bad += 1
    if g is None:
        print("wmma: %s: missing from smemu's output" % name)
        continue
    d = [abs(int(x, 16) - int(y, 16)) for x, y in zip(g, w)]
    print("wmma: %s: %d of %d words differ (largest %d)" % (name, sum(1 for x in d if x), len(w), max(d)))
print("wmma: %d of %d cases match the recording" % (len(want) - bad, len(want)))
sys.exit(1 if bad else 0)
