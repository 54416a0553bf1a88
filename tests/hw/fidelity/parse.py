#!/usr/bin/env python3
"""parse.py RESULTS_DIR OUT_TSV: the warpmask recording (record.sh's
warpmask/OP.SCEN.{plain,synccheck}.txt) as one TSV that test_fidelity_hw
reads:
  case OP SCEN STATUS NSYNC LINE FIRST   launch status of the plain run;
                                         synccheck's "Invalid arguments"
                                         records: their count, the source
                                         line (warpmask.cu:LINE) and the
                                         lowest thread (-1 when none)
  lane OP SCEN LANE V1 V2                the plain run's outputs (hex)
"""
import os
import re
import sys


def main():
    res, out = sys.argv[1], sys.argv[2]
    d = os.path.join(res, "warpmask")
    rows = []
    for f in sorted(os.listdir(d)):
        m = re.match(r"(\w+)\.(\w+)\.plain\.txt$", f)
        if not m:
            continue
        op, sc = m.groups()
        plain = open(os.path.join(d, f)).read().splitlines()
        st = "none"
        lanes = []
        for line in plain:
            mm = re.match(r"case \S+ \S+: (\w+)", line)
            if mm:
                st = mm.group(1)
            mm = re.match(r"lane\s+(\d+) ([0-9a-f]{8}) ([0-9a-f]{8})", line)
            if mm:
                lanes.append(mm.groups())
        sync = open(os.path.join(d, "%s.%s.synccheck.txt" % (op, sc))).read()
        # each record: the message, "at ...", "by thread (T,0,0)", then
        # device frames down to warpop's, in warpmask.cu:LINE
        recs = re.findall(r"Barrier error detected\. Invalid arguments\.\n"
                          r".*\n=+\s+by thread \((\d+),0,0\)[^\n]*\n(?:.*Device Frame: (?!warpop).*\n)*"
                          r".*Device Frame: warpop.* in warpmask\.cu:(\d+)", sync)
        threads = [int(t) for t, _ in recs]
        lines = sorted(set(int(l) for _, l in recs))
        rows.append("case\t%s\t%s\t%s\t%d\t%d\t%d" % (op, sc, st, len(recs), lines[0] if lines else 0,
                                                      min(threads) if threads else -1))
        for l, a, b in lanes:
            rows.append("lane\t%s\t%s\t%s\t%s\t%s" % (op, sc, l, a, b))
    with open(out, "w") as f:
        f.write("# warpmask on %s (tests/hw/fidelity/record.sh, parse.py)\n" % open(os.path.join(res, "versions.txt")).read().splitlines()[-2])
        f.write("\n".join(rows) + "\n")


main()
