#!/usr/bin/env python3
"""same_reports.py: the corpus built both ways reports the same. compare.py
leaves, for every program it ran with checks, smemu's --json report beside
the binary (NAME.smemu.json: every launch's figures, source lines, hazards,
sync findings, bank counters). This compares the reports of the build with
the shared runtime (-cudart shared) and of the build with nvcc's default
static runtime, which reaches smemu through libcuda.so.1: everything but
the run times must be equal. Usage:
  same_reports.py SHARED_BINS STATIC_BINS [--only NAME,...] [--dir CORPUS]
(CORPUS: the folder of programs.tsv, this one by default; tests/hw/sass_programs
uses it too)
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VOLATILE = {"seconds", "jit_seconds"}


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in VOLATILE}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return "%s: %r / %r" % (path or "/", a, b)
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s/%s: only in the %s build" % (path, k, "shared" if k in a else "static")
            d = first_difference(a[k], b[k], "%s/%s" % (path, k))
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return "%s: %d / %d entries" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    return None if a == b else "%s: %r (shared) / %r (static)" % (path, a, b)


def main():
    args = sys.argv[1:]
    only = None
    base = HERE
    if "--dir" in args:
        i = args.index("--dir")
        base = args[i + 1]
        del args[i:i + 2]
    if "--only" in args:
        i = args.index("--only")
        only = set(args[i + 1].split(","))
        del args[i:i + 2]
    if len(args) != 2:
        raise SystemExit(__doc__)
    shared, static = args
    names = []
    with open(os.path.join(base, "programs.tsv")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                names.append(line.split()[0])
    if only:
        names = [n for n in names if n in only]
    bad = 0
    for n in names:
        reports = []
        for d in (shared, static):
            try:
                with open(os.path.join(d, n + ".smemu.json")) as f:
                    reports.append(strip(json.load(f)))
            except (OSError, ValueError) as e:
                reports.append(None)
                print("FAIL %s: no report of the %s build (%s)" % (n, "shared" if d == shared else "static", e))
        if None in reports:
            bad += 1
            continue
        d = first_difference(reports[0], reports[1])
        if d:
            bad += 1
            print("FAIL %s: the static build reports differently: %s" % (n, d))
    print("same reports, shared and static runtime: %d/%d programs" % (len(names) - bad, len(names)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
