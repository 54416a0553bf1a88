#!/usr/bin/env python3
"""heldout.py: the arbitration estimate on launches its fit did not see.

  heldout.py --contend-json J --contend-out O      the busy kernels of
      tests/hw/contention (recorded/ncu_busy.*: 3 launches each on the H200)
      against smemu's run of contend.cu (`smemu run --check banks --json J
      -- contend 1 stencil2d,cyclic_red,conv1d > O`)
  heldout.py --corpus-res DIR                      the corpus launches whose
      wavefronts or conflicts the GPU counted above the addresses
      (tests/corpus/recorded: two ncu sessions), against smemu's JSON of
      each program in DIR (NAME.json, as `make corpus` leaves them)

For each launch and operation with GPU extra wavefronts (GPU minus smemu's
from-addresses count, min..max over the recorded launches or sessions) it
prints smemu's estimate (lo..hi) and whether the GPU's range lies inside
(+2), and the totals. It measures; it fails only on unreadable input.
"""
import argparse
import csv
import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = 2
OPS = ("ld", "st", "atom")
WF = {"ld": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "st": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "atom": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"}
BUSY = re.compile(r"^(stencil2d|cyclic_red|conv1d) grid=(\d+) block=(\d+) rep=\d+ result=traffic=(\d+)")


class Score:
    def __init__(self):
        self.inside = self.total = 0

    def add(self, label, op, gmin, gmax, est, case):
        if gmax == 0 and est[1] == 0:
            return
        self.total += 1
        ok = est[0] - TOL <= gmin and gmax <= est[1] + TOL
        self.inside += ok
        print("%-58s %-4s GPU extra %7d..%-7d estimate %7d..%-7d %-6s %s" % (
            label[:58], op, gmin, gmax, est[0], est[1], "inside" if ok else "OUT", case))


def contend(js, out, score):
    rec = os.path.join(HERE, "..", "contention", "recorded")
    keys = [m.groups() for m in (BUSY.match(x) for x in open(os.path.join(rec, "ncu_busy.txt"))) if m]
    rows, hdr, byid = list(csv.reader(open(os.path.join(rec, "ncu_busy.csv")))), None, {}
    for r in rows:
        if r and r[0] == "ID":
            hdr = r
        elif hdr and len(r) == len(hdr):
            d = dict(zip(hdr, r))
            byid.setdefault(int(d["ID"]), {})[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
    gpu = {}
    for i, k in enumerate(keys):
        gpu.setdefault(k, []).append(byid[i])
    launches = json.load(open(js))["launches"]
    mine = [m.groups() for m in (BUSY.match(x) for x in open(out)) if m]
    done = set()
    for k, s in zip(mine, launches):
        if k in done or k not in gpu:
            continue
        done.add(k)
        est = s["shared_arbitration_est"]
        for op in OPS:
            v = [g[WF[op]] - s["shared_%s_wavefronts" % op] for g in gpu[k]]
            score.add("contention %s grid=%s traffic=%s" % (k[0], k[1], k[3]), op, min(v), max(v), est[op],
                      est["case"])


def corpus(res, score):
    cdir = os.path.join(HERE, "..", "..", "corpus")
    spec = importlib.util.spec_from_file_location("corpus_compare", os.path.join(cdir, "compare.py"))
    cc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cc)
    rec = os.path.join(cdir, "recorded")
    cc.pc.BASE = cc.HERE
    gc, gc2 = cc.pc.gpu_counters(rec), cc.gpu_counters_again(rec)
    for name in sorted(gc):
        path = os.path.join(res, name + ".json")
        if not os.path.exists(path):
            continue
        sl = json.load(open(path)).get("launches", [])
        for i, g in enumerate(gc[name]):
            if i >= len(sl) or not cc.same_kernel(g["kernel"], sl[i].get("name", sl[i].get("kernel", ""))):
                break
            s = sl[i]
            if not any("GPU more" in c for c in cc.difference_classes(g, s)):
                continue
            est = s.get("shared_arbitration_est")
            if est is None:
                continue
            g2 = gc2.get(name, [])
            g2 = g2[i] if i < len(g2) and cc.same_kernel(g2[i]["kernel"], g["kernel"]) else {}
            for op in OPS:
                v = [x.get(op, {}).get("wavefronts") for x in (g, g2)]
                v = [w - s.get("shared_%s_wavefronts" % op, 0) for w in v if w is not None]
                if v:
                    score.add("corpus %s:%d %s" % (name, i, cc.kernel_base(g["kernel"])[:24]), op, min(v), max(v),
                              est[op], est["case"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--contend-json")
    ap.add_argument("--contend-out")
    ap.add_argument("--corpus-res")
    a = ap.parse_args()
    score = Score()
    if a.contend_json:
        contend(a.contend_json, a.contend_out, score)
    if a.corpus_res:
        corpus(a.corpus_res, score)
    print("held-out: GPU's extra wavefronts inside the estimate: %d of %d (launch, operation) pairs" % (
        score.inside, score.total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
