#!/usr/bin/env python3
"""compare.py: runs the third-party corpus (tests/corpus/programs) under
`smemu run --check races,sync,banks --json` and compares each program with
its GPU recording (record.sh, an H200), per program and per suite:

  output     exit status and output equal; `verdict` when they are equal
             once timings, the device's name and other per-run figures are
             masked (lines naming times, clocks, rates)
  requests   per launch of the first 10 (ncu --launch-count 10), the
             shared ld/st/atom instructions equal
  noise      wavefronts and bank conflicts within 1% of the GPU's
             wavefronts + 2 (the issue's tolerance)
  racecheck  the hazard classes (severity and the two accesses' kinds)
             compute-sanitizer racecheck reports equal smemu's
  synccheck  synccheck finds errors exactly when smemu's sync check does
  mapped     static shared accesses the SASS mapping placed, of those
             it tried (per distinct kernel; the rest fall back to PTX
             rules: "ambiguous mapping")

Differences listed in known_differences.txt (PROGRAM WHAT REASON, WHAT one
of output, verdict, races, sync, run) are shown but do not fail; the exit
status is 1 when another verdict, racecheck or synccheck difference, a
crash, a hang or a missing build occurs (counter figures are measured, not
failed on). Usage:
  compare.py --smemu build/smemu --bins build/corpus/bin [--only A,B] [--jobs N]
"""
import argparse
import concurrent.futures
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# the ncu csv and sanitizer parsers of the project's own corpus comparison
_spec = importlib.util.spec_from_file_location("programs_compare",
                                               os.path.join(HERE, "..", "programs", "compare.py"))
pc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pc)

OPS = pc.OPS
FIELDS = pc.FIELDS
TOL_REL = 0.01
TOL_ABS = 2
# a line with one of these words carries per-run figures (timings, rates,
# clocks, the device's name): its numbers are masked for the verdict
PER_RUN = re.compile(r"(time|millis|msec|(\b|\d)ms\b|sec|clock|gb/s|gflop|throughput|elapsed|bandwidth|"
                     r"rate|occupancy|speed|seconds|\bus\b|/s\b)", re.I)
# the line naming the device (cub's DeviceInit): the whole line is masked
DEVICE = re.compile(r"^Using device \d+: ")
# device addresses differ from run to run on any machine
POINTER = re.compile(r"0x[0-9a-fA-F]{6,}")
NUMBER = re.compile(r"[-+]?\d+(\.\d*)?([eE][-+]?\d+)?")


def kernel_base(name):
    """a kernel's unqualified name: ncu shortens namespaces that smemu's
    demangled name keeps (radix_sort::X against cub::...::radix_sort::X)"""
    return pc.kernel_key(name).split("::")[-1]


def same_kernel(gpu_name, smemu_name):
    """ncu's kernel name and smemu's name the same kernel (smemu leaves a
    name it cannot demangle mangled: its unqualified name then appears as
    <length><name> in it)"""
    base = kernel_base(gpu_name)
    if smemu_name.startswith("_Z"):
        return ("%d%s" % (len(base), base)) in smemu_name
    return base == kernel_base(smemu_name)


def read_programs():
    """[(name, source)] of `programs` (they run without arguments)"""
    with open(os.path.join(HERE, "programs")) as f:
        rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
    return [(r[0], r[1]) for r in rows]


def suite_of(name, source):
    if source.startswith("cub/examples/block/"):
        return "cub-block"
    if source.startswith("cub/examples/device/"):
        return "cub-device"
    return source.split("/")[0]


def masked(text):
    """the output with per-run figures masked, for the verdict"""
    out = []
    for line in text.splitlines():
        line = POINTER.sub("0xP", line.rstrip())
        if DEVICE.search(line):
            line = "<device>"
        elif PER_RUN.search(line):
            line = NUMBER.sub("N", line)
        out.append(line)
    return "\n".join(out).strip()


def gpu_race_classes(text):
    """racecheck's analysis report -> classes, or None when it did not finish"""
    classes = set()
    done = False
    head = None
    for raw in text.splitlines():
        line = raw.replace("=========", "").strip()
        m = re.search(r"(Error|Warning): Race reported between (\w+) access", line)
        if m:
            head = (m.group(1).lower(), m.group(2).lower())
            continue
        m = re.search(r"and (\w+) access", line)
        if m and head:
            classes.add((head[0], tuple(sorted((head[1], m.group(1).lower())))))
            head = None
            continue
        if pc.RC_SUM.search(line):
            done = True
    return classes if done else None


def smemu_race_classes(data):
    """smemu's shared hazards (pc.smemu_races) as classes, without lines"""
    return {(sev, tuple(sorted(acc.lower() for acc, _line in pair))) for sev, pair in pc.smemu_races(data)}


def fmt_classes(c):
    return ",".join("%s %s/%s" % (s, a, b) for s, (a, b) in sorted(c)) or "none"


def launch_figures(g, s):
    """(gpu has shared accesses, requests exact, wavefronts/conflicts within
    noise, [differences]) of one launch; the figures are the programs
    corpus's (pc.issue14_figures) with this corpus's tolerance"""
    pc.TOL_REL, pc.TOL_ABS = TOL_REL, TOL_ABS
    req, noise = pc.issue14_figures(g, s)
    pairs = [(op, f, g.get(op, {}).get(f), s.get("shared_%s_%s" % (op, f), 0)) for op in OPS for f in FIELDS]
    diffs = ["%s %s gpu %d smemu %d" % p for p in pairs if p[2] is not None and p[2] != p[3]]
    return any(p[2] for p in pairs), req, noise, diffs


def reuse_one(binary, res):
    """the results run_one left in res, or None"""
    base = os.path.join(res, os.path.basename(binary))
    try:
        with open(base + ".out") as f:
            text = f.read()
    except OSError:
        return None
    own, sep, rest = text.rpartition("--- stderr\n")
    m = re.search(r"--- rc (-?\d+) ([\d.]+) s\n$", rest)
    if not sep or not m:
        return None
    err = rest[:m.start()]
    try:
        with open(base + ".json") as f:
            data = json.load(f)
    except (OSError, ValueError):
        data = {"launches": []} if "smemu" not in err and not os.path.exists(base + ".json") else None
    return own, int(m.group(1)), data, err, float(m.group(2))


def gpu_counters_again(rec):
    """the second ncu session (ncu2/), read as the first: {program: [launch]}"""
    if not os.path.isdir(os.path.join(rec, "ncu2")):
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.abspath(os.path.join(rec, "ncu2")), os.path.join(tmp, "ncu"))
        return pc.gpu_counters(tmp)


def difference_classes(g, s):
    """the classes of one launch's differences: requests (smemu counts more
    or fewer instructions: the SASS mapping, merged or split accesses) or,
    with requests exact, wavefronts (the GPU's extra wavefronts no address
    explains: arbitration, contention; or smemu's extra)"""
    out = []
    for op in OPS:
        go = g.get(op, {})
        gr, sr = go.get("requests"), s.get("shared_%s_requests" % op, 0)
        if gr is not None and gr != sr:
            out.append("%s requests: smemu %s" % (op, "more" if sr > gr else "fewer"))
            continue
        gw, sw = go.get("wavefronts"), s.get("shared_%s_wavefronts" % op, 0)
        gc, sc = go.get("bank_conflicts"), s.get("shared_%s_bank_conflicts" % op, 0)
        tol = TOL_REL * (gw or 0) + TOL_ABS
        if (gw is not None and abs(gw - sw) > tol) or (gc is not None and abs(gc - sc) > tol):
            more = (gw or 0) - sw + (gc or 0) - sc > 0
            out.append("%s wavefronts/conflicts: %s" % (op, "GPU more" if more else "smemu more"))
    return out


def within_gpu_range(g, g2, s):
    """whether smemu's wavefronts and conflicts lie within the two GPU
    sessions' range (+ TOL_ABS), and whether the GPU itself varied"""
    inside = True
    varied = False
    for op in OPS:
        for f in ("wavefronts", "bank_conflicts"):
            a, b = g.get(op, {}).get(f), g2.get(op, {}).get(f)
            if a is None or b is None:
                continue
            varied = varied or a != b
            v = s.get("shared_%s_%s" % (op, f), 0)
            if not min(a, b) - TOL_ABS <= v <= max(a, b) + TOL_ABS:
                inside = False
    return inside, varied


def run_one(smemu, binary, res, timeout):
    """smemu run of one program with the checks (pc.run_smemu), kept in
    RES/NAME.out and .json: (own output, rc, data, stderr, seconds)"""
    base = os.path.join(res, os.path.basename(binary))
    t0 = time.time()
    own, rc, data, err = pc.run_smemu(smemu, binary, "races,sync,banks", base + ".json", timeout)
    secs = time.time() - t0
    if own is None:
        return None, None, None, err, secs
    if data is None and not os.path.exists(base + ".json") and "smemu" not in err:
        data = {"launches": []}  # smemu writes no JSON for a program that launched no kernel
    with open(base + ".out", "w") as f:
        f.write(own + "--- stderr\n" + err + "--- rc %d %.2f s\n" % (rc, secs))
    return own, rc, data, err, secs


class Tally:
    def __init__(self):
        self.n = {}

    def add(self, key, ok):
        a = self.n.setdefault(key, [0, 0])
        a[0] += 1 if ok else 0
        a[1] += 1

    def get(self, key):
        return self.n.get(key, [0, 0])


def pct(a):
    return "%d/%d" % (a[0], a[1]) + (" (%.0f%%)" % (100.0 * a[0] / a[1]) if a[1] else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--smemu", required=True)
    ap.add_argument("--bins", required=True)
    ap.add_argument("--rec", default=os.path.join(HERE, "recorded"))
    ap.add_argument("--res", help="where smemu's outputs and JSON go (default BINS/../res)")
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--reuse", action="store_true", help="take smemu's results from RES where a run left them")
    ap.add_argument("--verbose", "-v", action="store_true")
    a = ap.parse_args()
    res = os.path.abspath(a.res or os.path.join(os.path.dirname(os.path.abspath(a.bins)), "res"))
    os.makedirs(res, exist_ok=True)
    progs = read_programs()
    if a.only:
        keep = set(a.only.split(","))
        progs = [p for p in progs if p[0] in keep]
    pc.BASE = HERE
    known = pc.read_known() if os.path.exists(os.path.join(HERE, "known_differences.txt")) else []
    gc = pc.gpu_counters(a.rec)
    gc2 = gpu_counters_again(a.rec)
    classes = {}  # difference class -> [launches, examples]
    bins = os.path.abspath(a.bins)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = {}
        for name, source in progs:
            binary = os.path.join(bins, name)
            if not os.access(binary, os.X_OK):
                continue
            old = reuse_one(binary, res) if a.reuse else None
            if old:
                futs[name] = ex.submit(lambda r: r, old)
            else:
                futs[name] = ex.submit(run_one, a.smemu, binary, res, a.timeout)
        runs = {name: f.result() for name, f in futs.items()}

    t = Tally()
    fails = []
    notes = []
    mapped = {}  # suite -> {kernel: (mapped, fallback)}
    print("%-40s %-7s %-8s %-9s %-6s %-6s %-10s %s" % ("program", "output", "launches", "requests", "noise",
                                                       "races", "sync", "smemu s"))

    def differ(name, what, msg):
        k = pc.known_for(known, name, what)
        if k:
            k["used"] = True
            notes.append("known   %s %s: %s  [%s]" % (name, what, msg, k["reason"]))
        else:
            fails.append("%s %s: %s" % (name, what, msg))

    for name, source in progs:
        suite = suite_of(name, source)
        gout = pc.read(os.path.join(a.rec, "native", name + ".out"))
        grc = (pc.read(os.path.join(a.rec, "native", name + ".rc")) or "").strip()
        if name not in runs:
            if gout is None:
                notes.append("skipped %s: built neither here nor on the GPU" % name)
            else:
                differ(name, "run", "not built here (%s)" % os.path.join(bins, name + ".build.log"))
            continue
        own, rc, data, err, secs = runs[name]
        if gout is None or not grc.lstrip("-").isdigit():
            notes.append("skipped %s: no GPU run recorded" % name)
            continue
        if own is None:
            t.add((suite, "output"), False)
            t.add(("all", "output"), False)
            differ(name, "run", err)
            print("%-40s %-7s" % (name, "SLOW"))
            continue
        if rc < 0 or rc >= 128:
            differ(name, "run", "smemu ended by signal (status %d): %s" % (rc, err.strip()[-200:]))
        # output
        exact = own == gout and str(rc) == grc
        verdict = exact or (str(rc) == grc and masked(own) == masked(gout))
        t.add((suite, "output"), exact)
        t.add(("all", "output"), exact)
        t.add((suite, "verdict"), verdict)
        t.add(("all", "verdict"), verdict)
        ocol = "exact" if exact else "verdict" if verdict else "DIFFER"
        if not verdict:
            differ(name, "verdict", "gpu rc %s, smemu rc %s; first differing line: %s" % (
                grc, rc, first_diff(masked(gout), masked(own))))
        if data is None:
            differ(name, "run", "no --json data (rc %s): %s" % (rc, err.strip()[-200:]))
            print("%-40s %-7s" % (name, ocol))
            continue
        # racecheck, synccheck
        rcol = scol = "-"
        rtext = pc.read(os.path.join(a.rec, "racecheck", name + ".txt"))
        gr = gpu_race_classes(rtext) if rtext else None
        if gr is not None:
            sr = smemu_race_classes(data)
            t.add((suite, "races"), gr == sr)
            t.add(("all", "races"), gr == sr)
            rcol = "agree" if gr == sr else "DIFFER"
            if gr != sr:
                differ(name, "races", "racecheck {%s}, smemu {%s}" % (fmt_classes(gr), fmt_classes(sr)))
        stext = pc.read(os.path.join(a.rec, "synccheck", name + ".txt"))
        gs = pc.gpu_sync_errors(stext) if stext else None
        if gs is not None:
            ss = sum(len(L.get("barrier_errors", [])) for L in data.get("launches", []))
            ok = (gs > 0) == (ss > 0)
            t.add((suite, "sync"), ok)
            t.add(("all", "sync"), ok)
            scol = "agree" if ok else "DIFFER"
            if not ok:
                differ(name, "sync", "synccheck %d errors, smemu %d" % (gs, ss))
        # the mapping, per distinct kernel
        for L in data.get("launches", []):
            if "counting_mapped" in L:
                for key in (suite, "all"):
                    mapped.setdefault(key, {})[L["kernel"]] = (L["counting_mapped"], L["counting_fallback"])
        # counters of the first launches
        gl = gc.get(name, [])
        sl = data.get("launches", [])
        n = req = noise = 0
        for i, g in enumerate(gl):
            if i >= len(sl):
                notes.append("counters %s: ncu saw %d launches, smemu ran %d" % (name, len(gl), len(sl)))
                break
            s = sl[i]
            if not same_kernel(g["kernel"], s.get("name", s.get("kernel", ""))):
                notes.append("counters %s launch %d: ncu kernel %s, smemu %s: launches compared up to here" % (
                    name, i, pc.kernel_key(g["kernel"]), pc.kernel_key(s.get("name", ""))))
                break
            shared, rq, nz, diffs = launch_figures(g, s)
            for key in (suite, "all"):
                t.add((key, "requests"), rq)
                t.add((key, "noise"), rq and nz)
                if shared:
                    t.add((key, "requests_shared"), rq)
                    t.add((key, "noise_shared"), rq and nz)
            n += 1
            req += rq
            noise += rq and nz
            if diffs:
                notes.append("counters %s launch %d %s: %s" % (name, i, pc.kernel_key(g["kernel"])[-40:],
                                                               ", ".join(diffs)))
            for c in difference_classes(g, s):
                e = classes.setdefault(c, [0, []])
                e[0] += 1
                ex = "%s:%d %s" % (name, i, kernel_base(g["kernel"]))
                if len(e[1]) < 4 and not any(x.startswith(name + ":") for x in e[1]):
                    e[1].append(ex)
            g2 = gc2.get(name, [])
            if i < len(g2) and same_kernel(g2[i]["kernel"], g["kernel"]):
                inside, varied = within_gpu_range(g, g2[i], s)
                for key in (suite, "all"):
                    t.add((key, "gpu_range"), inside)
                    t.add((key, "gpu_varied"), varied)
        print("%-40s %-7s %-8s %-9s %-6s %-6s %-10s %.1f" % (name, ocol, n if gl else "-", "%d/%d" % (req, n),
                                                             "%d/%d" % (noise, n), rcol, scol, secs))
    if a.verbose:
        for line in notes:
            print(line)
    print()
    print("%-11s %-14s %-14s %-16s %-16s %-16s %-16s %-14s %-14s %s" % (
        "suite", "output exact", "verdict", "requests exact", "+within noise", "requests(shared)",
        "+noise(shared)", "racecheck", "synccheck", "mapped"))
    suites = []
    for name, source in progs:
        s = suite_of(name, source)
        if s not in suites:
            suites.append(s)
    for s in suites + ["all"]:
        m = mapped.get(s, {})
        mp = sum(v[0] for v in m.values())
        fb = sum(v[1] for v in m.values())
        print("%-11s %-14s %-14s %-16s %-16s %-16s %-16s %-14s %-14s %s" % (
            s, pct(t.get((s, "output"))), pct(t.get((s, "verdict"))), pct(t.get((s, "requests"))),
            pct(t.get((s, "noise"))), pct(t.get((s, "requests_shared"))), pct(t.get((s, "noise_shared"))),
            pct(t.get((s, "races"))), pct(t.get((s, "sync"))),
            "%d/%d (%.1f%%, %d kernels)" % (mp, mp + fb, 100.0 * mp / (mp + fb), len(m)) if mp + fb else "-"))
    print()
    print("launches profiled twice (ncu2): smemu's wavefronts and conflicts within the two GPU sessions' range "
          "(+%d): %s; the GPU's own figures varied in %s" % (TOL_ABS, pct(t.get(("all", "gpu_range"))),
                                                            pct(t.get(("all", "gpu_varied")))))
    print("difference classes (launches; examples PROGRAM:LAUNCH KERNEL):")
    for c, (n, ex) in sorted(classes.items(), key=lambda kv: -kv[1][0]):
        print("  %-40s %4d  %s" % (c, n, "; ".join(ex)))
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


def first_diff(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for x, y in zip(la, lb):
        if x != y:
            return "gpu %r, smemu %r" % (x[:100], y[:100])
    return "gpu %d lines, smemu %d lines" % (len(la), len(lb))


if __name__ == "__main__":
    sys.exit(main())
