#!/usr/bin/env python3
"""fit.py [RECORDED]: the table the arbitration estimate (src/model/arbit.c)
was fitted to: per configuration of the recording, the GPU's extra
wavefronts (min..max over its launches) per STS request and per LDS
wavefront the addresses give, with the factors varied (resident warps per
SM as Nsight Compute measured them, traffic, mix, stride, back-to-back
accesses), grouped by the case the estimate distinguishes."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu  # noqa: E402

CACHED = ("ca_hit", "ca_miss")


def case(c):
    """the estimate's case for what the configuration executes"""
    if c.get("pure"):
        return "pure<KIND>: STS with %s, no switch" % c["pure"]
    if c["traffic"] not in CACHED:
        return "no L1-cached global loads"
    if c["mix"] in ("st", "ldst"):
        return "L1-cached loads in the stores' loop"
    return "L1-cached loads, stores outside their loop"


def main():
    rec = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "recorded")
    cfgs = gpu.load(rec)
    rows = {}
    for name, c in cfgs.items():
        a, ex = gpu.addresses(c), gpu.excess(c)
        w = [r["warps"] for r in c["runs"] if r.get("warps") is not None]
        st = "%.4f..%.4f" % tuple(x / a[("st", "req")] for x in ex[("st", "wf")]) if a[("st", "req")] else "-"
        ld = "%.5f..%.5f" % tuple(x / a[("ld", "wf")] for x in ex[("ld", "wf")]) if a[("ld", "wf")] else "-"
        rows.setdefault(case(c), []).append((name, "%.0f" % (sum(w) / len(w)) if w else "?", c.get("pure") or c["traffic"],
                                             c["mix"], c["stride"], c.get("burst", 0), st, ld))
    for k in sorted(rows):
        print("== %s" % k)
        print("%-26s %5s %-8s %-5s %3s %5s %-16s %s" % ("configuration", "warps", "traffic", "mix", "s", "burst",
                                                         "extra/STS req", "extra/LDS wavefront"))
        for r in sorted(rows[k], key=lambda r: (float(r[1]) if r[1] != "?" else 0, r[0])):
            print("%-26s %5s %-8s %-5s %3d %5d %-16s %s" % r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
