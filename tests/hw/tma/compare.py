#!/usr/bin/env python3
"""compare.py SMEMU PROGRAM: runs tma.cu's program (built with -cudart
shared) under `smemu run` in every mode record.sh ran on the H100, and
compares its output with tests/hw/tma/recorded/, case by case. The cases
known_differences.txt names may differ (each with its reason there; the
test checks that smemu says what the file says it says). Also the ncu
bank vectors (recorded/banks_vectors.tsv) against smemu's per-launch
figures, and smemu's race checks on the misuse cases. Exit 1 on any
unexpected difference."""
import json, os, re, subprocess, sys

SMEMU, PROG = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(HERE, "recorded")
failures = []
checked = 0


def run(args, extra=()):
    p = subprocess.run([SMEMU, "run", *extra, "--", PROG, *args], capture_output=True, text=True, timeout=120)
    return p.stdout + "rc %d\n" % p.returncode, p.stderr


def cases(text):
    """{case name: lines} of an output (a name seen again gets #2, #3);
    lines outside a case's header and dump go under ''."""
    d, cur = {}, ""
    for line in text.splitlines():
        m = re.match(r"case (\S+?): ", line)
        if m:
            cur = m.group(1)
            k = 2
            while cur in d:
                cur = "%s#%d" % (m.group(1), k)
                k += 1
            d[cur] = [line]
        elif line.startswith("  ") and cur:
            d[cur].append(line)
        else:
            d.setdefault("", []).append(line)
    return d


def says(k, *texts):
    """smemu said one of the |-separated phrases of k."""
    return any(p in t for p in k.split("|") for t in texts)


known = {}
for line in open(os.path.join(HERE, "known_differences.txt")):
    m = re.match(r"^(\S+)\s+(\S+)\s+smemu says: (.*)$", line)
    if m:
        known[(m.group(1), m.group(2))] = m.group(3).strip()


def compare(mode, gpu, smemu, err):
    global checked
    g, s = cases(gpu), cases(smemu)
    for name in g:
        if name == "":
            continue
        checked += 1
        k = known.get((mode, name))
        if k is not None:
            if not says(k, err, smemu):
                failures.append("%s %s: known difference, but smemu did not say '%s'" % (mode, name, k))
            continue
        if g[name] != s.get(name):
            failures.append("%s %s: differs from the H100" % (mode, name))


def rec(name):
    return open(os.path.join(REC, name)).read()


# the encode table: every row's return code
out, err = run(["encode"])
g = rec("encode.out").splitlines()
s = out.splitlines()
for a, b in zip(g, s):
    checked += 1
    if a != b:
        failures.append("encode: H100 '%s', smemu '%s'" % (a, b))
if len(g) != len(s):
    failures.append("encode: %d lines on the H100, %d from smemu" % (len(g), len(s)))

# tile loads, one process per case as record.sh ran them
n = int(run(["ntiles"])[0].split()[0])
gpu_tile = cases(rec("tile.out"))
allout, allerr = "", ""
for i in range(n):
    out, err = run(["tile", str(i)])
    allout += out.rsplit("rc ", 1)[0]
    allerr += err
compare("tile", rec("tile.out"), allout, allerr)

for mode in ["store", "replace", "txmis", "banks"] + ["reduce %d" % t for t in range(8)]:
    f = mode.replace(" ", "") + ".out"
    out, err = run(mode.split())
    gpu = rec(f)
    if mode.startswith("reduce") or mode in ("replace", "banks"):
        checked += 1
        k = known.get((f[:-4], "*"))
        if gpu != out and not (k and says(k, err, out)):
            failures.append("%s: differs from the H100" % mode)
    else:
        compare(f[:-4], gpu, out, err)

for off in (16, 64, 128, 256, 512):
    for c in (3, 0):
        out, err = run(["misalign", str(off), str(c)])
        checked += 1
        if out != rec("misalign_%d_%d.out" % (off, c)):
            failures.append("misalign %d %d: differs from the H100" % (off, c))

# the follow-up recording (record2.sh): each store case in its own process,
# the s64 reductions one operation each
ns = int(run(["nstores"])[0].split()[0])
text = ""
for i in range(ns):
    p = subprocess.run([SMEMU, "run", "--", PROG, "store", str(i)], capture_output=True, text=True, timeout=120)
    text += p.stdout + ("store %d rc %d\n" % (i, p.returncode) if p.returncode else "")
checked += 1
# tma.cu's own line numbers in its error messages may move
norm = lambda t: re.sub(r"at line \d+", "at line N", t)
if norm(text) != norm(rec("store2.out")):
    failures.append("store (one per process): differs from the H100")
text = ""
for op in (0, 1, 2, 5, 6, 7):
    p = subprocess.run([SMEMU, "run", "--", PROG, "reduce", "6", str(op)], capture_output=True, text=True, timeout=120)
    text += p.stdout + ("reduce s64 op %d rc %d\n" % (op, p.returncode) if p.returncode else "")
checked += 1
if text != rec("reduce_s64.out"):
    failures.append("reduce s64 (one operation each): differs from the H100")

# multicast needs a cluster of two CTAs
out, err = run(["mcast"])
checked += 1
k = known.get(("mcast", "*"))
if out != rec("mcast.out") and not (k and says(k, err)):
    failures.append("mcast: differs from the H100 and smemu did not say '%s'" % k)

# ncu: the threads' reads of TMA-loaded tiles, launch by launch
jf = PROG + ".banks.json"
run(["banks"], ["--check", "banks", "--json", jf])
launches = [l for l in json.load(open(jf))["launches"] if "k_banks" in l["kernel"]]
vec = [l.rstrip("\n").split("\t") for l in open(os.path.join(REC, "banks_vectors.tsv"))][1:]
if len(launches) != len(vec):
    failures.append("banks: %d launches, %d recorded" % (len(launches), len(vec)))
for i, (l, v) in enumerate(zip(launches, vec)):
    checked += 1
    s = [l["shared_ld_requests"], l["shared_ld_wavefronts"], l["shared_ld_bank_conflicts"], l["shared_st_requests"],
         l["shared_st_wavefronts"], l["shared_st_bank_conflicts"]]
    if s != [int(x) for x in v[1:7]]:
        failures.append("banks launch %d (swizzle %d, pattern %d): smemu %s, ncu %s" % (i, i // 9, i % 9 - 1, s, v[1:7]))

# the misuse cases under smemu's race checks: racecheck reports none of
# them (it does not follow the async proxy: recorded/san_racecheck_*.txt)
def line_of(text):
    for i, l in enumerate(open(os.path.join(HERE, "tma.cu")), 1):
        if text in l:
            return "tma.cu:%d" % i
    raise SystemExit("tma.cu has no line with '%s'" % text)


expect = {0: line_of("a read the copy may not have written yet"), 1: None,
          2: line_of('case -1: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group'), 3: None,
          4: line_of("p[i] = 0x55;"), 5: None}
hint = {0: "asynchronous copy into shared memory", 2: "needs fence.proxy.async", 4: "wait_group.read"}
for case, where in expect.items():
    out, err = run(["race", str(case)], ["--check", "races"])
    checked += 1
    err += out
    found = "Race reported" in err
    if where is None and found:
        failures.append("race %d: smemu reports a race in the correct variant:\n%s" % (case, err))
    if where and (not found or where not in err):
        failures.append("race %d: smemu does not report the race at %s:\n%s" % (case, where, err))
    if case in hint and hint[case] not in err:
        failures.append("race %d: no hint '%s':\n%s" % (case, hint[case], err))

# the pipeline report (text and HTML) of the replace mode: two loads of
# 1024 bytes, each on one mbarrier with one phase
hf = PROG + ".pipeline.html"
out, err = run(["replace"], ["--report", "pipeline", "--html", hf])
checked += 1
text = out + err
for want in ["== async pipeline: k_load", "tensor loads (TMA)                    1 copy           1024 bytes",
             "count 1, 1 init, 1 phase completed, 1 copy, 1024 bytes", "at most 1 copy, 1024 bytes"]:
    if want not in text:
        failures.append("pipeline report: no '%s' in:\n%s" % (want, text))
html = open(hf).read() if os.path.exists(hf) else ""
if "Async pipeline (last launch)" not in html or "tensor loads (TMA)" not in html:
    failures.append("HTML report: no async pipeline section")

for f in failures:
    print("FAIL:", f)
print("tma: %d cases compared with the H100, %d differ unexpectedly" % (checked, len(failures)))
sys.exit(1 if failures else 0)
