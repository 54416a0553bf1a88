#!/usr/bin/env python3
"""check_ptx.py: checks that the race corpus' PTX keeps every marked access
on its own source line. A marker is a trailing `//@NAME` comment on a line
of a kernel's .cu file: NAME starting with BAR marks a barrier, G a
global access, anything else a shared-memory access. For every marker the PTX must
have such an instruction under a `.loc` of that line (not inlined from
elsewhere), and every shared access must sit on a marked line.

Usage: check_ptx.py [DIR]  (default: this script's folder). Exit 1 on a
problem. Also importable: markers(path) -> {name: line}."""
import os
import re
import sys

MARK = re.compile(r"//@([A-Za-z0-9_]+)\s*$")


def markers(path):
    """{marker name: 1-based line} of a .cu file."""
    out = {}
    with open(path) as f:
        for i, line in enumerate(f, 1):
            m = MARK.search(line.rstrip("\n"))
            if m:
                if m.group(1) in out:
                    raise ValueError("%s:%d: marker @%s used twice" % (path, i, m.group(1)))
                out[m.group(1)] = i
    return out


SHARED = re.compile(r"^\s*(@!?%\w+\s+)?(ld|st|atom|red)\.[\w.]*shared")
GENERIC = re.compile(r"^\s*(@!?%\w+\s+)?(ld|st|atom|red)(\.(volatile|relaxed|acquire|release|cta|gpu|sys|weak))*\.(u|s|b|f|v|add|min|max|inc|dec|cas|exch|and|or|xor)")
GLOBAL = re.compile(r"^\s*(@!?%\w+\s+)?(ld|st|atom|red)\.[\w.]*global")
BARRIER = re.compile(r"^\s*(@!?%\w+\s+)?(bar|barrier)\.")


def ptx_lines(ptx_path, cu_name):
    """{source line of cu_name: set of kinds} for the PTX's instructions:
    kinds 'shared', 'generic', 'global', 'barrier'."""
    text = open(ptx_path).read()
    files = {}
    for m in re.finditer(r'^\s*\.file\s+(\d+)\s+"([^"]+)"', text, re.M):
        files[int(m.group(1))] = os.path.basename(m.group(2))
    cur = None
    seen = {}
    for line in text.splitlines():
        m = re.match(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+\d+(.*)$", line)
        if m:
            fidx, ln, rest = int(m.group(1)), int(m.group(2)), m.group(3)
            cur = ln if files.get(fidx) == cu_name and "inlined_at" not in rest else None
            continue
        if cur is None:
            continue
        kind = None
        if SHARED.match(line):
            kind = "shared"
        elif GLOBAL.match(line):
            kind = "global"
        elif BARRIER.match(line):
            kind = "barrier"
        elif GENERIC.match(line) and ".param" not in line and ".local" not in line \
                and ".const" not in line:
            kind = "generic"
        if kind:
            seen.setdefault(cur, set()).add(kind)
    return seen


def check(d):
    bad = 0
    for name in sorted(os.listdir(d)):
        if not name.endswith(".cu") or name == "driver.cu":
            continue
        ptx = os.path.join(d, name[:-3] + ".ptx")
        if not os.path.exists(ptx):
            print("%s: no PTX" % name)
            bad += 1
            continue
        mk = markers(os.path.join(d, name))
        seen = ptx_lines(ptx, name)
        for mname, ln in sorted(mk.items(), key=lambda kv: kv[1]):
            want = "barrier" if mname.startswith("BAR") else \
                   "global" if mname.startswith("G") else "shared"
            got = seen.get(ln, set())
            if want not in got:
                print("%s:%d: @%s has no %s instruction in the PTX (found: %s)"
                      % (name, ln, mname, want, ", ".join(sorted(got)) or "nothing"))
                bad += 1
        marked = set(mk.values())
        for ln, kinds in sorted(seen.items()):
            if ("shared" in kinds or "generic" in kinds) and ln not in marked:
                print("%s:%d: shared/generic access on an unmarked line" % (name, ln))
                bad += 1
            if "generic" in kinds:
                print("%s:%d: note: generic-address access" % (name, ln))
    return bad


if __name__ == "__main__":
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    n = check(d)
    print("check_ptx: %d problem(s)" % n)
    sys.exit(1 if n else 0)
