#!/usr/bin/env python3
"""compare.py: runs every corpus program under `smemu run` and compares it
with the GPU recording in tests/programs/recorded (made by record.sh):

  output   the program's stdout and exit status equal the native run's;
  races    racecheck's findings (analysis mode): the same classes (Error /
           Warning) on the same source line pairs, nothing on clean programs;
  sync     synccheck finds errors exactly when smemu's sync check does;
  counters per launch, the nine ncu shared-memory counters (instructions,
           wavefronts, bank conflicts of ld/st/atom) against smemu's
           requests/wavefronts/bank conflicts: exact for programs of class
           `exact` in programs.tsv, within a tolerance for class `busy`.

Differences listed in known_differences.txt (with the reason) are reported
but do not fail the test; a listed difference that has gone away is
reported too, so the list can shrink. Exit status 0 when nothing else
differs. Usage:
  compare.py --smemu build/smemu --bins build/programs [--only NAME,...]
"""
import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# the corpus directory (programs.tsv, known_differences.txt, recorded/):
# this one, or --dir (tests/hw/sass_programs uses this script too)
BASE = HERE
COUNTING = None  # --counting sass|ptx passed on to smemu run
OPS = ("ld", "st", "atom")
# ncu metric -> (op, smemu field)
METRICS = {}
for _op in OPS:
    METRICS["smsp__sass_inst_executed_op_shared_%s.sum" % _op] = (_op, "requests")
    METRICS["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum" % _op] = (_op, "wavefronts")
    METRICS["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum" % _op] = (_op, "bank_conflicts")
FIELDS = ("requests", "wavefronts", "bank_conflicts")
# busy kernels: wavefronts and conflicts may differ by this share of the
# GPU's wavefronts of the same op, plus a small constant
# (HARDWARE.md measured 0.35-0.9% over on busy kernels: 3% leaves room)
TOL_REL = 0.03
TOL_ABS = 2


def read_manifest():
    progs = []
    with open(os.path.join(BASE, "programs.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, cls = line.split()[:2]
            if cls not in ("exact", "busy"):
                raise SystemExit("programs.tsv: %s: class %s is not exact or busy" % (name, cls))
            progs.append((name, cls))
    return progs


def read_known():
    """known_differences.txt: PROGRAM WHAT REASON...; WHAT is output, checks,
    races, sync, launches, or launch:N:OPS (N a launch index or *, OPS ld,st,atom or *)."""
    known = []
    with open(os.path.join(BASE, "known_differences.txt")) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise SystemExit("known_differences.txt:%d: want PROGRAM WHAT REASON" % n)
            known.append({"prog": parts[0], "what": parts[1], "reason": parts[2].strip(), "used": False, "line": n})
    return known


def known_for(known, prog, what, launch=None, op=None):
    for k in known:
        if k["prog"] != prog:
            continue
        w = k["what"]
        if w == what:
            return k
        if what == "launch" and w.startswith("launch:"):
            _, idx, ops = w.split(":")
            if (idx == "*" or int(idx) == launch) and (ops == "*" or op in ops.split(",")):
                return k
    return None


def kernel_key(name):
    """a kernel's base name, without return type, template arguments or
    parameters, so ncu's and smemu's spellings of one kernel agree (launches
    are matched by order; the name is a sanity check)"""
    name = name.strip()
    if name.startswith("_ZN"):
        # a name smemu could not demangle: the last <length><identifier> of
        # the nested name
        i, last = 3, name
        while i < len(name) and name[i].isdigit():
            j = i
            while j < len(name) and name[j].isdigit():
                j += 1
            n = int(name[i:j])
            last, i = name[j:j + n], j + n
        return last
    if name.startswith("void "):
        name = name[5:]
    m = re.match(r"[A-Za-z_][\w:]*", name)
    # the last component: ncu drops namespaces cub's kernels are in
    # (cub::CUB_300001_SM_900::detail::reduce:: against reduce::)
    return m.group(0).split("::")[-1] if m else name


# ---------------------------------------------------------------- the GPU side

def gpu_counters(rec):
    """{program: [launch dict: kernel, ld: {requests,..}, ...]} from ncu csv"""
    by_proc = {}
    files = []
    ncu_dir = os.path.join(rec, "ncu")
    if os.path.exists(os.path.join(ncu_dir, "all.csv")):
        files.append((None, os.path.join(ncu_dir, "all.csv")))
    for fn in sorted(os.listdir(ncu_dir)) if os.path.isdir(ncu_dir) else []:
        if fn.endswith(".csv") and fn != "all.csv":
            files.append((fn[:-4], os.path.join(ncu_dir, fn)))
    for forced, path in files:
        with open(path, errors="replace") as f:
            rows = [l for l in f if l.startswith('"')]
        if not rows:
            continue
        launches = {}
        for r in csv.DictReader(io.StringIO("".join(rows))):
            if r.get("Metric Name") not in METRICS:
                continue
            prog = forced or os.path.basename(r["Process Name"])
            key = (prog, r["Process ID"], int(r["ID"]))
            L = launches.setdefault(key, {"kernel": r["Kernel Name"], "grid": r["Grid Size"],
                                          "block": r["Block Size"]})
            op, field = METRICS[r["Metric Name"]]
            val = (r.get("Metric Value") or "").replace(",", "")
            try:
                L.setdefault(op, {})[field] = int(float(val))
            except ValueError:  # n/a, empty or garbled: not compared
                L.setdefault(op, {})[field] = None
        for (prog, _pid, _id), L in sorted(launches.items(), key=lambda kv: (kv[0][0], int(kv[0][1]), kv[0][2])):
            if forced is None or prog not in by_proc or by_proc.get("_from_" + prog) == path:
                by_proc.setdefault(prog, []).append(L)
                by_proc["_from_" + prog] = path
    return {k: v for k, v in by_proc.items() if not k.startswith("_from_")}


RC_HEAD = re.compile(r"(Error|Warning): Race reported between (\w+) access at .* in (\S+):(\d+)\s*$")
RC_AND = re.compile(r"and (\w+) access at .* in (\S+):(\d+) \[(\d+) hazards?\]")
RC_SUM = re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)")


def gpu_races(text):
    """set of (severity, ((access, line), (access, line)) sorted), or None
    when racecheck did not finish (no summary line)"""
    pairs = set()
    head = None
    done = False
    for raw in text.splitlines():
        line = raw.replace("=========", "").strip()
        m = RC_HEAD.search(line)
        if m:
            head = (m.group(1).lower(), m.group(2), int(m.group(4)))
            continue
        m = RC_AND.search(line)
        if m and head:
            a = (head[1], head[2])
            b = (m.group(1), int(m.group(3)))
            pairs.add((head[0], tuple(sorted((a, b)))))
            continue
        if RC_SUM.search(line):
            done = True
        if not line:
            head = None
    return pairs if done else None


def gpu_sync_errors(text):
    m = re.search(r"ERROR SUMMARY: (\d+) errors?", text)
    return int(m.group(1)) if m else None


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


# --------------------------------------------------------------- the smemu side

def run_smemu(smemu, binary, checks, jsonpath, timeout):
    """one `smemu run` of a program: (stdout of the program, exit status,
    the --json data or None, stderr); with checks, smemu's report that
    follows the program's output on stdout is cut off"""
    cmd = [os.path.abspath(smemu), "run"]
    if COUNTING:
        cmd += ["--counting", COUNTING]
    if checks:
        if os.path.exists(jsonpath):
            os.unlink(jsonpath)
        cmd += ["--check", checks, "--json", jsonpath]
    try:
        p = subprocess.run(cmd + ["--", binary], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           cwd=os.path.dirname(binary))
    except subprocess.TimeoutExpired:
        return None, None, None, "timed out after %d s" % timeout
    own = []
    for line in p.stdout.decode(errors="replace").splitlines(keepends=True):
        if line.startswith("== checks of ") or line.startswith("== smemu checks"):
            break
        own.append(line)
    data = None
    if checks:
        try:
            with open(jsonpath) as f:
                data = json.load(f)
        except (OSError, ValueError):
            pass
    return "".join(own), p.returncode, data, p.stderr.decode(errors="replace")


def smemu_races(data):
    pairs = set()
    for L in data.get("launches", []):
        for h in L.get("hazards", []):
            if h.get("space", "shared") != "shared":
                continue
            a = (h["first"]["access"], h["first"]["line"])
            b = (h["second"]["access"], h["second"]["line"])
            pairs.add((h["severity"].lower(), tuple(sorted((a, b)))))
    return pairs


def fmt_pairs(pairs):
    return "; ".join("%s %s:%d/%s:%d" % (s, a[0], a[1], b[0], b[1]) for s, (a, b) in sorted(pairs)) or "none"


# ------------------------------------------------------------------- comparing

def issue14_figures(g, s):
    """(requests exact, wavefronts and conflicts within noise) of one
    launch, whatever its class: the counting figures. Noise is the
    busy tolerance (TOL_REL of the GPU's wavefronts of the op, plus TOL_ABS)."""
    req = True
    waves = True
    for op in OPS:
        go = g.get(op, {})
        for f in FIELDS:
            gv = go.get(f)
            sv = s.get("shared_%s_%s" % (op, f), 0)
            if gv is None or gv == sv:
                continue
            if f == "requests":
                req = False
            elif abs(sv - gv) > TOL_REL * (go.get("wavefronts") or 0) + TOL_ABS:
                waves = False
    return req, waves


def compare_launch(g, s, cls):
    """-> (verdict, {op: [differences]}, [differences within tolerance]);
    verdict is exact, tolerance or differ"""
    bad = {}
    tol_msgs = []
    for op in OPS:
        go = g.get(op, {})
        for f in FIELDS:
            gv = go.get(f)
            sv = s.get("shared_%s_%s" % (op, f), 0)
            if gv is None or gv == sv:
                continue
            msg = "%s %s gpu %d smemu %d" % (op, f, gv, sv)
            tol = TOL_REL * (go.get("wavefronts") or 0) + TOL_ABS
            if cls == "busy" and f != "requests" and abs(sv - gv) <= tol:
                tol_msgs.append(msg)
            else:
                bad.setdefault(op, []).append(msg)
    if bad:
        return "differ", bad, tol_msgs
    return ("tolerance" if tol_msgs else "exact"), {}, tol_msgs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--smemu", required=True)
    ap.add_argument("--bins", required=True)
    ap.add_argument("--dir", default=HERE, help="the corpus directory (default: this script's)")
    ap.add_argument("--rec", help="the GPU recording (default: DIR/recorded)")
    ap.add_argument("--counting", choices=("sass", "ptx"), help="smemu run --counting")
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--tsv", help="write every launch's GPU and smemu counters to this file")
    a = ap.parse_args()
    global BASE, COUNTING
    BASE = os.path.abspath(a.dir)
    COUNTING = a.counting
    if not a.rec:
        a.rec = os.path.join(BASE, "recorded")

    progs = read_manifest()
    if a.only:
        keep = set(a.only.split(","))
        progs = [p for p in progs if p[0] in keep]
    known = read_known()
    gc = gpu_counters(a.rec)
    failures = []
    stats = {"exact": 0, "tolerance": 0, "known": 0, "differ": 0}
    checks = {"output": [0, 0], "races": [0, 0], "sync": [0, 0]}  # [agree, total]
    notes = []
    rows = []
    figs = [0, 0, 0]  # launches compared, requests exact, and also within noise
    ran = set()  # (program, output|checks|races|sync|launches|launch) compared

    def differ(prog, what, msg, launch=None, op=None):
        k = known_for(known, prog, what, launch, op)
        if k:
            k["used"] = True
            notes.append("known   %s %s: %s  [%s]" % (prog, what if launch is None else "launch %d" % launch,
                                                        msg, k["reason"]))
            return True
        failures.append("%s %s: %s" % (prog, what if launch is None else "launch %d" % launch, msg))
        return False

    for prog, cls in progs:
        binary = os.path.join(os.path.abspath(a.bins), prog)
        if not os.access(binary, os.X_OK):
            failures.append("%s: not built (%s)" % (prog, binary))
            continue
        # as a user runs it (output), then with the checks and counters
        own, rc, _, err = run_smemu(a.smemu, binary, None, None, a.timeout)
        if own is None:
            failures.append("%s: %s" % (prog, err))
            continue
        _, crc, data, cerr = run_smemu(a.smemu, binary, "races,sync,banks", binary + ".smemu.json", a.timeout)
        checked = data is not None and crc == rc
        if not checked:
            why = (cerr or "").strip().splitlines()
            differ(prog, "checks", "with --check races,sync,banks: exit status %s, %s" % (
                crc, why[-1][:160] if why else "no --json data"))

        ran.add((prog, "output"))
        ran.add((prog, "checks"))
        # output and exit status
        gout = read(os.path.join(a.rec, "native", prog + ".out"))
        grc = (read(os.path.join(a.rec, "native", prog + ".rc")) or "").strip()
        checks["output"][1] += 1
        if gout is None:
            failures.append("%s: no GPU output recorded" % prog)
        elif own == gout and str(rc) == grc:
            checks["output"][0] += 1
        else:
            why = err.strip().splitlines()[0] if err.strip() else ""
            differ(prog, "output", "gpu %r rc %s, smemu %r rc %s %s" % (gout.strip()[:90], grc, own.strip()[:90], rc,
                                                                        why[:160]))

        if not checked:
            notes.append("skipped %s races, sync, counters: the run with checks failed" % prog)
            continue

        # racecheck
        rtext = read(os.path.join(a.rec, "racecheck", prog + ".txt"))
        gr = gpu_races(rtext) if rtext is not None else None
        if gr is None:
            notes.append("skipped %s races: no complete racecheck recording" % prog)
        else:
            checks["races"][1] += 1
            ran.add((prog, "races"))
            sr = smemu_races(data)
            if gr == sr:
                checks["races"][0] += 1
            else:
                differ(prog, "races", "racecheck {%s}, smemu {%s}" % (fmt_pairs(gr), fmt_pairs(sr)))

        # synccheck
        stext = read(os.path.join(a.rec, "synccheck", prog + ".txt"))
        gs = gpu_sync_errors(stext) if stext is not None else None
        if gs is None:
            notes.append("skipped %s sync: no complete synccheck recording" % prog)
        else:
            checks["sync"][1] += 1
            ran.add((prog, "sync"))
            ss = sum(len(L.get("barrier_errors", [])) for L in data.get("launches", []))
            if (gs > 0) == (ss > 0):
                checks["sync"][0] += 1
            else:
                differ(prog, "sync", "synccheck %d errors, smemu %d" % (gs, ss))

        # counters, launch by launch
        gl = gc.get(prog, [])
        sl = data.get("launches", [])
        if not gl:
            notes.append("skipped %s counters: no ncu recording" % prog)
            continue
        ran.add((prog, "launches"))
        if sl:
            ran.add((prog, "launch"))
        if len(gl) != len(sl):
            if not differ(prog, "launches", "ncu saw %d launches, smemu ran %d" % (len(gl), len(sl))):
                continue
        for i, (g, s) in enumerate(zip(gl, sl)):
            if kernel_key(g["kernel"]) != kernel_key(s.get("name", s.get("kernel", ""))):
                failures.append("%s launch %d: ncu kernel %s, smemu kernel %s" % (prog, i, g["kernel"], s.get("name")))
                stats["differ"] += 1
                continue
            verdict, diffs, tol_msgs = compare_launch(g, s, cls)
            fig = issue14_figures(g, s)
            figs[0] += 1
            figs[1] += fig[0]
            figs[2] += fig[0] and fig[1]
            if a.verbose and not (fig[0] and fig[1]):
                notes.append("fig14   %s launch %d: requests %s, wavefronts/conflicts %s" % (
                    prog, i, "exact" if fig[0] else "differ", "within noise" if fig[1] else "beyond noise"))
            if verdict == "differ":
                all_known = True
                for op, msgs in diffs.items():
                    if not differ(prog, "launch", ", ".join(msgs), i, op):
                        all_known = False
                verdict = "known" if all_known else "differ"
            elif verdict == "tolerance" and a.verbose:
                notes.append("within  %s launch %d: %s" % (prog, i, ", ".join(tol_msgs)))
            stats[verdict] += 1
            rows.append([prog, str(i), kernel_key(g["kernel"]), verdict] +
                        [str(g.get(op, {}).get(f, "")) for op in OPS for f in FIELDS] +
                        [str(s.get("shared_%s_%s" % (op, f), 0)) for op in OPS for f in FIELDS])
            if a.verbose:
                print("%-16s launch %d %-28s %s" % (prog, i, kernel_key(g["kernel"])[:28], verdict))

    for k in known:
        kind = "launch" if k["what"].startswith("launch:") else k["what"]
        if not k["used"] and (k["prog"], kind) in ran:
            notes.append("stale   known_differences.txt:%d (%s %s) did not occur: remove it" % (k["line"], k["prog"],
                                                                                             k["what"]))
    if a.tsv:
        with open(a.tsv, "w") as f:
            cols = ["%s_%s" % (op, f) for op in OPS for f in FIELDS]
            f.write("\t".join(["program", "launch", "kernel", "verdict"] + ["gpu_" + c for c in cols] +
                               ["smemu_" + c for c in cols]) + "\n")
            for r in rows:
                f.write("\t".join(r) + "\n")
    for n in notes:
        print(n)
    total = sum(stats.values())
    print("programs: %d; output agrees %d/%d, racecheck %d/%d, synccheck %d/%d" % (
        len(progs), checks["output"][0], checks["output"][1], checks["races"][0], checks["races"][1],
        checks["sync"][0], checks["sync"][1]))
    print("launches: %d; counters exact %d, within tolerance %d, known differences %d, differing %d" % (
        total, stats["exact"], stats["tolerance"], stats["known"], stats["differ"]))
    print("counting figures (known differences included): requests exact %d/%d, requests exact and "
          "wavefronts/conflicts within noise %d/%d" % (figs[1], figs[0], figs[2], figs[0]))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
