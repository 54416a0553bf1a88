"""gpu.py: the H200 recording of arbit.cu (recorded/ncu_GROUP.csv with the
program's line for each profiled launch in ncu_GROUP.txt, in the same
order) and the counts the configurations' addresses give, by arithmetic.
Imported by compare.py and fit.py."""
import csv
import os
import re

OPS = ("ld", "st")
METRIC = {("ld", "req"): "smsp__sass_inst_executed_op_shared_ld.sum",
          ("st", "req"): "smsp__sass_inst_executed_op_shared_st.sum",
          ("ld", "wf"): "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
          ("st", "wf"): "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
          ("ld", "conf"): "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
          ("st", "conf"): "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"}
EXTRA = {"gld": "smsp__sass_inst_executed_op_global_ld.sum", "gst": "smsp__sass_inst_executed_op_global_st.sum",
         "hit": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
         "miss": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
         "warps": "sm__warps_active.avg.per_cycle_active"}
GROUPS = ("res", "trf", "mix", "ilp", "again")  # pure: README (its counts are not yet read)
ITERS = 128
LINE = re.compile(r"^(\w+) grid=(\d+) block=(\d+) mix=(\w+) stride=(\d) traffic=(\w+) gk=(\d+) (?:burst=(\d+) )?"
                  r"(?:pure=(\w+) )?rep=\d+ (ok|WRONG)$")


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def read_csv(path):
    """{launch id: {metric: value}} of an ncu --csv log"""
    out, hdr = {}, None
    with open(path) as f:
        for r in csv.reader(f):
            if r and r[0] == "ID":
                hdr = r
            elif hdr and len(r) == len(hdr):
                d = dict(zip(hdr, r))
                out.setdefault(int(d["ID"]), {})[d["Metric Name"]] = number(d["Metric Value"])
    return out


def read_lines(path):
    """[(config dict, ok)] of the program's output, one per launch"""
    out = []
    with open(path) as f:
        for line in f:
            m = LINE.match(line.strip())
            if m:
                name, grid, block, mix, stride, traffic, gk, burst, pure, ok = m.groups()
                out.append(({"name": name, "grid": int(grid), "block": int(block), "mix": mix,
                             "stride": int(stride), "traffic": traffic, "gk": int(gk),
                             "burst": int(burst or 0), "pure": pure}, ok == "ok"))
    return out


def load(rec):
    """{config name: config dict + "runs": [{(op, field) or extra: value}],
    "ok": all results right}; groups whose files are missing are left out;
    a group whose launches and lines do not pair up raises ValueError"""
    cfgs = {}
    for g in GROUPS:
        cp, tp = os.path.join(rec, "ncu_%s.csv" % g), os.path.join(rec, "ncu_%s.txt" % g)
        if not (os.path.exists(cp) and os.path.exists(tp)):
            continue
        byid, lines = read_csv(cp), read_lines(tp)
        # a run cut short keeps the launches profiled before the cut
        n = min(len(byid), len(lines))
        if sorted(byid)[:n] != list(range(n)):
            raise ValueError("%s: launch ids are not 0..%d" % (cp, n - 1))
        for i in range(n):
            c, ok = lines[i]
            e = cfgs.setdefault(c["name"], dict(c, runs=[], ok=True))
            e["ok"] = e["ok"] and ok
            run = {k: byid[i].get(m) for k, m in METRIC.items()}
            run.update({k: byid[i].get(m) for k, m in EXTRA.items() if m in byid[i]})
            e["runs"].append(run)
    return cfgs


def addresses(c):
    """{(op, field): count} the addresses of configuration c give: every
    warp makes 8 conflict-free STS.32 (its region), then per iteration an
    LDS.32 (ld, ldst), an LDS.128 (ld128), an STS.32 (st, ldst); stride 2
    makes each of them 2-way (128-bit: lanes i and i+4 of a quarter warp
    share banks). A 128-bit request of 32 lanes takes 4 wavefronts at best,
    which Nsight Compute does not count as conflicts. burst<K> makes K
    conflict-free LDS.32 or STS.32 per iteration, pure<KIND> one STS.32."""
    warps = c["grid"] * (c["block"] // 32)
    s, mix, k = c["stride"], c["mix"], c.get("burst", 0) or 1
    ld = {"ld": (1, s, s - 1), "ldst": (1, s, s - 1), "ld128": (1, 4 * s, 4 * s - 4), "st": (0, 0, 0)}[mix]
    st = (1, s, s - 1) if mix in ("st", "ldst") else (0, 0, 0)
    out = {}
    for op, (rq, wf, cf) in (("ld", ld), ("st", st)):
        init = 8 if op == "st" else 0
        out[(op, "req")] = warps * (init + ITERS * k * rq)
        out[(op, "wf")] = warps * (init + ITERS * k * wf)
        out[(op, "conf")] = warps * ITERS * k * cf
    return out


def excess(c):
    """{(op, field): (min, max)} of the GPU's counts beyond the addresses'"""
    a = addresses(c)
    out = {}
    for k in a:
        v = [r[k] for r in c["runs"] if r.get(k) is not None]
        if v:
            out[k] = (min(v) - a[k], max(v) - a[k])
    return out
