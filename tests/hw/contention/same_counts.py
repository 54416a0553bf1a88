#!/usr/bin/env python3
"""same_counts.py NAME OUT_A JSON_A OUT_B JSON_B: the launches of kernel NAME
in two smemu runs of contend.cu (program output and JSON each) have the same
shared-memory counters, launch for launch; exits 1 when one differs or when
there is none to compare."""
import json, sys

name = sys.argv[1]


def launches(out, js):
    lines = [l.split()[0:3] for l in open(out) if l.startswith(name + " ")]
    L = [l for l in json.load(open(js))["launches"] if name in l["name"]]
    if len(lines) != len(L):
        sys.exit("same_counts: %s: %d lines for %d launches" % (out, len(lines), len(L)))
    return [(" ".join(k), {x: y for x, y in l.items() if x.startswith("shared_")}) for k, l in zip(lines, L)]


a = launches(sys.argv[2], sys.argv[3])
b = launches(sys.argv[4], sys.argv[5])
bad = 0
if not a or len(a) != len(b):
    sys.exit("same_counts: %d and %d launches of %s" % (len(a), len(b), name))
for (ka, ca), (kb, cb) in zip(a, b):
    if ka != kb or ca != cb:
        bad += 1
        print("same_counts: %s: %s / %s differ: %s vs %s" % (name, ka, kb, ca, cb))
print("same_counts: %s: %d launches, %d differ" % (name, len(a), bad))
sys.exit(1 if bad else 0)
