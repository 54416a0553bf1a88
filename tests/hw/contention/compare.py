#!/usr/bin/env python3
"""compare.py RECORDED SMEMU_OUT SMEMU_JSON [SMEMU_JSON_JIT] [--sweep]: smemu's
run of contend.cu (or with --sweep, of sweep.cu) against the H200's
(recorded/ncu_*.csv and ncu_*.txt, with --sweep recorded/sweep_ncu_*: every
launch profiled by Nsight Compute, the program's line for each launch in
the same order; plain*.txt: the kernels' own iteration counts without a
profiler).

Checks, each able to fail:
- every launch's result is the one arithmetic gives (the program says ok);
- the shared counters of every configuration: requests and wavefronts
  within 2% + 2 of the GPU's range over its launches (min..max), unless the
  configuration is in known_differences.txt (known_sweep.txt with --sweep;
  reported, not failed); for the CAS.SPIN loop and the flag chain
  (ROUNDS), whose rounds differ between the profiler's passes, every
  counter read as rounds within 2% + 2 of the range over all passes and
  launches;
- bank conflicts from addresses on the busy kernels: equal to the GPU's on
  one block (nothing else runs), and on a full grid no more than the GPU's:
  the GPU's excess is printed as the arbitration estimate;
- contention: in cas_fadd, the CAS requests a warp alone would not make are
  the requests beyond 32 per warp (one lane of 32 swaps per round alone);
- a second JSON (the other tier) gives the same figures.
"""
import csv, json, os, re, sys

SWEEP = "--sweep" in sys.argv
args = [a for a in sys.argv[1:] if a != "--sweep"]
REC, OUT, JS = args[0], args[1], args[2]
JS2 = args[3] if len(args) > 3 else None
PREFIX, GROUPS = ("sweep_", ("nf", "nfx", "reload", "cas", "chain")) if SWEEP else ("", ("cas", "spin", "int", "busy"))
KNOWN = "known_sweep.txt" if SWEEP else "known_differences.txt"
HERE = os.path.dirname(os.path.abspath(__file__))
M = {"ld": "smsp__sass_inst_executed_op_shared_ld.sum", "st": "smsp__sass_inst_executed_op_shared_st.sum",
     "atom": "smsp__sass_inst_executed_op_shared_atom.sum",
     "ld_w": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
     "st_w": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
     "atom_w": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
     "ld_c": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     "st_c": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"}
BUSY = ("stencil2d", "cyclic_red", "conv1d")
# ptxas's LDS + ATOMS.CAST.SPIN loop (atomicAdd on a shared float): rounds
# from each counter: one LDS and one CAST.SPIN of 2 wavefronts a round, and
# thread 0's final LDS of the word
LOOP_ROUNDS = {"atom": lambda x: x["atom"], "atom_w": lambda x: x["atom_w"] / 2, "ld": lambda x: x["ld"] - 1,
               "ld_w": lambda x: x["ld_w"] - 1}
# a chain of warps polling a flag: every poll is one LDS of one wavefront
POLLS = {"ld": lambda x: x["ld"], "ld_w": lambda x: x["ld_w"]}
ROUNDS = {"native_fadd": LOOP_ROUNDS, "nf_all": LOOP_ROUNDS, "nf_part8": LOOP_ROUNDS, "nf_words4": LOOP_ROUNDS,
          "flag_chain": POLLS}
LINE = re.compile(r"^(\w+) grid=(\d+) block=(\d+) rep=\d+ result=(\S+) (ok|WRONG)")


def key_of(line):
    m = LINE.match(line)
    if not m:
        return None, None
    name, grid, block, res, ok = m.groups()
    tag = res.split(":")[0] if res.startswith(("traffic=", "work=")) else ""
    return (name, int(grid), int(block), tag), ok == "ok"


def launches_of_lines(path):
    out = []
    for line in open(path):
        k, ok = key_of(line)
        if k:
            out.append((k, ok))
    return out


gpu = {}
for grp in GROUPS:
    lines = launches_of_lines(os.path.join(REC, "%sncu_%s.txt" % (PREFIX, grp)))
    rows = list(csv.reader(open(os.path.join(REC, "%sncu_%s.csv" % (PREFIX, grp)))))
    hdr, byid = None, {}
    for r in rows:
        if r and r[0] == "ID":
            hdr = r
            continue
        if hdr and len(r) == len(hdr):
            d = dict(zip(hdr, r))
            byid.setdefault(int(d["ID"]), {})[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
    if len(byid) != len(lines):
        sys.exit("compare: %s: %d profiled launches for %d lines" % (grp, len(byid), len(lines)))
    for i, (k, ok) in enumerate(lines):
        gpu.setdefault(k, []).append({n: byid[i][m] for n, m in M.items()})

known = set()
for line in open(os.path.join(HERE, KNOWN)):
    f = line.split("#")[0].split()
    if len(f) >= 3:
        known.add((f[0], int(f[1]), int(f[2]), f[3] if len(f) > 3 else ""))


def smemu_launches(js):
    d = json.load(open(js))
    return d["launches"]


lines = launches_of_lines(OUT)
L = smemu_launches(JS)
if len(L) != len(lines):
    sys.exit("compare: smemu ran %d launches for %d lines" % (len(L), len(lines)))
fails, reported, checked, shown = [], [], 0, set()


def fail(msg):
    fails.append(msg)


for (k, ok), l in zip(lines, L):
    if not ok:
        fail("%s: wrong result" % (k,))
    s = {"ld": l["shared_ld_requests"], "st": l["shared_st_requests"], "atom": l["shared_atom_requests"],
         "ld_w": l["shared_ld_wavefronts"], "st_w": l["shared_st_wavefronts"], "atom_w": l["shared_atom_wavefronts"],
         "ld_c": l["shared_ld_bank_conflicts"], "st_c": l["shared_st_bank_conflicts"]}
    g = gpu.get(k)
    if not g:
        fail("%s: not recorded" % (k,))
        continue
    name, grid, block, tag = k
    if name == "cas_fadd":
        alone = 32 * (block // 32)
        if l["shared_contention_requests"] != s["atom"] - alone:
            fail("%s: contention %d, expected %d - %d" % (k, l["shared_contention_requests"], s["atom"], alone))
    if name in BUSY:
        for c in ("ld_c", "st_c"):
            lo = min(x[c] for x in g)
            if grid == 1 and s[c] != lo:
                fail("%s %s: %d conflicts from addresses, GPU %d" % (k, c, s[c], lo))
            elif s[c] > lo:
                fail("%s %s: %d conflicts from addresses, more than the GPU's %d" % (k, c, s[c], lo))
            elif grid > 1 and (s[c] or lo) and (k, c) not in shown:
                shown.add((k, c))
                print("arbitration estimate %s %s: GPU %d..%d, from addresses %d, extra %.2f%% of the wavefronts" % (
                    k, c, lo, max(x[c] for x in g), s[c], 100.0 * (lo - s[c]) / max(1, s[c[:-1] + "w"])))
        metrics = ("ld", "st")
    else:
        metrics = ("ld", "st", "atom", "ld_w", "st_w", "atom_w")
    bad = []
    if name in ROUNDS:
        # the profiler's passes replay the kernel, and each pass's loop
        # takes its own number of rounds: every counter, read as rounds,
        # must lie in the range of all passes and launches
        R = ROUNDS[name]
        gr = [f(x) for x in g for f in R.values()]
        lo, hi = min(gr), max(gr)
        tol = 0.02 * hi + 2
        for m, f in R.items():
            checked += 1
            if not (lo - tol <= f(s) <= hi + tol):
                bad.append("%s %d rounds, GPU %d..%d over its passes" % (m, f(s), lo, hi))
        metrics = tuple(m for m in metrics if m not in R)
    for m in metrics:
        lo, hi = min(x[m] for x in g), max(x[m] for x in g)
        tol = 0.02 * hi + 2
        checked += 1
        if not (lo - tol <= s[m] <= hi + tol):
            bad.append("%s %d, GPU %d..%d" % (m, s[m], lo, hi))
    if bad:
        (reported if k in known else fails).append("%s: %s" % (k, "; ".join(bad)))
    elif k in known:
        fail("%s: listed in known_differences.txt but agrees now" % (k,))

if JS2:
    L2 = smemu_launches(JS2)
    drop = ("seconds", "tier", "jit_seconds")
    for (k, _), a, b in zip(lines, L, L2):
        if k in known:  # timing decides their counts (spins across blocks vary from run to run)
            continue
        if {x: y for x, y in a.items() if x not in drop} != {x: y for x, y in b.items() if x not in drop}:
            fail("%s: the two tiers differ" % a["name"])
for r in reported:
    print("known difference: " + r)
for f in fails:
    print("FAIL: " + f)
print("contention%s: %d launches, %d counter checks, %d known differences, %d failures" % (
    " (sweep)" if SWEEP else "", len(L), checked, len(reported), len(fails)))
sys.exit(1 if fails else 0)
