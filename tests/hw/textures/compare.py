#!/usr/bin/env python3
"""compare.py RECORDED OUT [KNOWN]: compares textures.cu's output under smemu
with the GPU's recording, section by section (a section is the lines that
start with the same name). Prints each section that differs with its first
differing values; sections listed in KNOWN (one name a line, '#' comments,
each with its reason; "NAME N" allows at most N differing values) are
reported but do not fail. Exit status 0 when every other section is
identical and none is missing."""
import sys


def sections(path):
    out = {}
    order = []
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line:
            continue
        head = line.split(":", 1)[0]
        parts = head.split(" ")
        name = parts[0] if len(parts) == 2 and parts[1].isdigit() else head
        if name.startswith("FAIL"):
            name = "FAIL_" + line.split(" ")[1].rstrip(":")
        if name not in out:
            out[name] = []
            order.append(name)
        out[name].append(line)
    return out, order


def main():
    rec, order = sections(sys.argv[1])
    got, _ = sections(sys.argv[2])
    known = {}
    if len(sys.argv) > 3:
        for line in open(sys.argv[3]):
            words = line.split("#", 1)[0].split()
            if words:
                known[words[0]] = int(words[1]) if len(words) > 1 else None
    bad = same = 0
    for name in order:
        a, b = rec[name], got.get(name)
        if a == b:
            same += 1
            continue
        tag = "known" if name in known else "DIFF"
        nd = None
        if b is None:
            print(f"{tag} {name}: missing from smemu's output")
        else:
            wa = " ".join(l.split(":", 1)[1] if ":" in l else l for l in a).split()
            wb = " ".join(l.split(":", 1)[1] if ":" in l else l for l in b).split()
            nd = sum(1 for x, y in zip(wa, wb) if x != y) + abs(len(wa) - len(wb))
            first = next((i for i, (x, y) in enumerate(zip(wa, wb)) if x != y), min(len(wa), len(wb)))
            print(f"{tag} {name}: {nd} of {len(wa)} values differ; first at {first}: "
                  f"GPU {' '.join(wa[first:first + 4])} smemu {' '.join(wb[first:first + 4])}")
        if name in known and known[name] is not None and nd is not None and nd > known[name]:
            print(f"DIFF {name}: more than the {known[name]} known differing values")
            bad += 1
        elif name not in known:
            bad += 1
    extra = [n for n in got if n not in rec and n not in known]
    for n in extra:
        print(f"extra section in smemu's output: {n}")
    print(f"textures: {same} of {len(order)} sections identical, {bad} differ (not known)")
    return 1 if bad or extra else 0


sys.exit(main())
