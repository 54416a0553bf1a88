#!/usr/bin/env python3
"""compare.py RECORDED SMEMU_OUT SMEMU_JSON: smemu's run of arbit.cu (one
launch per configuration) against the H200's recording (gpu.py reads it:
5 launches per configuration under Nsight Compute).

Checks, each able to fail:
- every launch's result is the one arithmetic gives (the program says ok,
  on the GPU and on smemu);
- smemu's shared requests, wavefronts and conflicts are those the
  addresses give (gpu.addresses: arithmetic on the configuration), and the
  GPU's requests equal them in every launch;
- the GPU never counts fewer wavefronts or conflicts than the addresses
  give (its extra ones are arbitration);
- the arbitration estimate (JSON shared_arbitration_est, model/arbit.c):
  the GPU's extra wavefronts and conflicts of loads and of stores, min..max
  over the 5 launches, lie inside smemu's low..high (+2).
The estimate's figures were fitted to this recording, so the last check
holds the implementation to the fit; heldout.py measures it on launches
the fit did not see.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu  # noqa: E402

TOL = 2
FIELD = {"req": "requests", "wf": "wavefronts", "conf": "bank_conflicts"}


def main():
    rec, out, js = sys.argv[1:4]
    cfgs = gpu.load(rec)
    lines = gpu.read_lines(out)
    launches = json.load(open(js))["launches"]
    fails = []
    if len(lines) != len(launches):
        sys.exit("arbitration: %d result lines for %d launches" % (len(lines), len(launches)))
    seen = set()
    inside = total = 0
    print("%-24s %5s %-48s %-28s %s" % ("configuration", "warps", "case", "GPU extra ld, st", "estimate ld, st"))
    for (c, ok), s in zip(lines, launches):
        name = c["name"]
        if not ok:
            fails.append("%s: smemu's result is wrong" % name)
        g = cfgs.get(name)
        if g is None or name in seen:
            continue
        seen.add(name)
        if not g["ok"]:
            fails.append("%s: the GPU's result was wrong" % name)
        a = gpu.addresses(g)
        for op in gpu.OPS:
            for f, key in FIELD.items():
                v = s.get("shared_%s_%s" % (op, key))
                if v != a[(op, f)]:
                    fails.append("%s: smemu %s %s %s, the addresses give %d" % (name, op, key, v, a[(op, f)]))
        ex = gpu.excess(g)
        for op in gpu.OPS:
            if ex[(op, "req")] != (0, 0):
                fails.append("%s: GPU %s requests differ from the addresses' by %s" % (name, op, ex[(op, "req")]))
            for f in ("wf", "conf"):
                if ex[(op, f)][0] < 0:
                    fails.append("%s: GPU %s %s below the addresses' by %d" % (name, op, FIELD[f], -ex[(op, f)][0]))
        est = s.get("shared_arbitration_est")
        if est is None:
            fails.append("%s: no shared_arbitration_est in smemu's JSON" % name)
            continue
        miss = []
        for op in gpu.OPS:
            lo, hi = est[op]
            for f in ("wf", "conf"):
                total += 1
                e0, e1 = ex[(op, f)]
                if lo - TOL <= e0 and e1 <= hi + TOL:
                    inside += 1
                else:
                    miss.append("%s %s %d..%d outside %d..%d" % (op, FIELD[f], e0, e1, lo, hi))
        if miss:
            fails.append("%s: arbitration estimate: %s" % (name, "; ".join(miss)))
        print("%-24s %5d %-48s %-28s %s" % (
            name, est["warps_per_sm"], est["case"][:48],
            "%d..%d, %d..%d" % (ex[("ld", "wf")] + ex[("st", "wf")]),
            "%d..%d, %d..%d" % tuple(est["ld"] + est["st"])))
    missing = sorted(set(cfgs) - seen)
    if missing:
        fails.append("configurations recorded but not run: %s" % ", ".join(missing))
    print("arbitration estimate: GPU's extra wavefronts and conflicts inside smemu's range: %d of %d" % (inside, total))
    for f in fails:
        print("FAIL", f)
    print("arbitration: %d configurations, %d failures" % (len(seen), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
