#!/usr/bin/env python3
"""check.py: runs the sanitizer corpus on smemu and compares with what
compute-sanitizer 2025.3 printed on an H200 (recorded/, made by record.sh).

    python3 tests/hw/sanitizer/check.py BUILD_DIR [CASE.CONFIG ...]

Each row of runs.tsv (case, configuration) runs `BUILD_DIR/smemu run` with
the options matching the configuration on the program the GPU ran
(recorded/bin/CASE, built there with -cudart shared), parses both outputs
with parse.py and compares:
  * the records: kind, space, access, size, kernel, file, line, thread,
    block, misaligned/out of bounds, and the address as an offset into the
    allocation the program printed, as multisets;
  * the ERROR SUMMARY count and the LEAK SUMMARY;
  * the program's own output (every runtime call's result), but for
    addresses.
A difference listed in known_differences.txt (case.config, the part, why)
is printed and does not fail. Exit status: 0 all agree, 1 a difference,
77 nothing to compare with (no recording, or no program and no nvcc)."""
import json
import os
import shutil
import tempfile
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# the corpus: this folder, or another one with the same layout (--dir)
SRC = HERE
import parse  # noqa: E402

# configuration -> smemu run options (compute-sanitizer's in record.sh)
OPTIONS = {
    "plain": [],
    "initcheck": ["--check", "init"],
    "initcheck_exit": ["--check", "init", "--error-exitcode", "9"],
    # initcheck catches no bad address: the fault is the hardware's, sticky,
    # whatever --destroy-on-device-error says (recorded); smemu's initcheck alike
    "initcheck_kernel": ["--check", "init"],
    "initcheck_pl3": ["--check", "init", "--print-limit", "3"],
    "memcheck": ["--check", "memcheck"],
    "memcheck_kernel": ["--check", "memcheck", "--destroy-on-device-error", "kernel"],
    "memcheck_pl5": ["--check", "memcheck", "--print-limit", "5"],
    "memcheck_pl5_kernel": ["--check", "memcheck", "--print-limit", "5", "--continue-after-error"],
    "leak": ["--check", "memcheck", "--leak-check", "full"],
    "leak_kernel": ["--check", "memcheck", "--leak-check", "full", "--continue-after-error"],
    "leak_exit": ["--check", "memcheck", "--leak-check", "full", "--error-exitcode", "9"],
    "leak_pl2": ["--check", "memcheck", "--leak-check", "full", "--print-limit", "2"],
    "leak_pl0": ["--check", "memcheck", "--leak-check", "full", "--print-limit", "0"],
    "initcheck_pl0": ["--check", "init", "--print-limit", "0"],
    "racecheck": ["--check", "races"],
    "synccheck": ["--check", "sync"],
}
# the programs whose default runs differ by smemu's red zones alone: run
# again with --padding 0 (check.py main)
PADDING_ZERO = {"mem_redzone"}
# recorded for reference only (racecheck's per-byte hazard mode): not compared
REFERENCE_ONLY = {"racecheck_hazard"}


def options(cfg):
    """smemu run's options for a configuration of record.sh."""
    if cfg.startswith("memcheck_pad"):
        n = cfg[len("memcheck_pad"):]
        kernel = n.endswith("_kernel")
        n = n[:-len("_kernel")] if kernel else n
        return ["--check", "memcheck", "--padding", n] + (["--continue-after-error"] if kernel else [])
    return OPTIONS[cfg]


def known_differences():
    kd = {}
    p = os.path.join(SRC, "known_differences.txt")
    if os.path.exists(p):
        for line in open(p):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            f = line.split(None, 2)
            kd[(f[0], f[1])] = f[2] if len(f) > 2 else ""
    return kd


def program(build, rec, case):
    p = os.path.join(rec, "bin", case)
    if os.path.exists(p):
        return p
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if not nvcc:
        return None
    out = os.path.join(build, "sanitizer_hw", case)
    src = os.path.join(SRC, case + ".cu")
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(src):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        r = subprocess.run([nvcc, "-arch=sm_90", "-lineinfo", "-cudart", "shared", "-I" + HERE, "-o", out, src],
                           capture_output=True, text=True)
        if r.returncode:
            print(r.stdout + r.stderr)
            return None
    return out


JSON_KINDS = {"uninitialized-global-read": "uninit-read", "out-of-bounds": "invalid-access",
              "misaligned": "invalid-access", "leak": "leak", "api-error": "api-error",
              "uninitialized-copy-source": "host-uninit", "kernel-fault": "other"}


def json_key(r):
    """The part of a record the text and the JSON both carry."""
    # (the text of a failed assert has no line; the JSON has smemu's)
    return (r.get("kind"), r.get("size") if r.get("kind") != "api-error" else None,
            r.get("line") if r.get("kind") != "other" else None,
            tuple(r.get("thread") or []), tuple(r.get("block") or []), r.get("call") if r.get("kind") == "api-error" else None)


def compare_json(gpu, js):
    """smemu's --json "sanitizer" member against the GPU's printed records."""
    san = js.get("sanitizer")
    if san is None:
        return [("json", "no \"sanitizer\" member")] if gpu["error_summary"] is not None else []
    diffs = []
    if gpu["error_summary"] is not None and san["error_count"] != gpu["error_summary"]:
        diffs.append(("json", "error_count %s, GPU ERROR SUMMARY %s" % (san["error_count"], gpu["error_summary"])))
    recs = []
    for r in san["errors"]:
        r = dict(r, kind=JSON_KINDS.get(r["kind"], r["kind"]))
        recs.append(json_key(r))
    g = Counter(json_key(r) for r in gpu["records"])
    if Counter(recs) != g:
        diffs.append(("json", "records differ: GPU only %s; JSON only %s" %
                      (list((g - Counter(recs)).items())[:3], list((Counter(recs) - g).items())[:3])))
    return diffs


def compare(name, gpu, emu, kd):
    """-> list of (part, message) differences."""
    diffs = []
    g, e = Counter(parse.key(r, False) for r in gpu["records"]), Counter(parse.key(r, False) for r in emu["records"])
    if g == e:
        # the same records; their nearest-allocation lines on their own
        g, e = Counter(parse.key(r) for r in gpu["records"]), Counter(parse.key(r) for r in emu["records"])
        part = "near"
    else:
        part = "records"
    if g != e:
        miss, extra = g - e, e - g
        msg = []
        for k in list(miss)[:4]:
            msg.append("  GPU only:   %s x%d" % (k, miss[k]))
        for k in list(extra)[:4]:
            msg.append("  smemu only: %s x%d" % (k, extra[k]))
        diffs.append((part, "%d GPU records, %d smemu; %d differ\n%s" %
                      (sum(g.values()), sum(e.values()), sum(miss.values()) + sum(extra.values()), "\n".join(msg))))
    if gpu["error_summary"] != emu["error_summary"]:
        diffs.append(("summary", "ERROR SUMMARY: GPU %s, smemu %s" % (gpu["error_summary"], emu["error_summary"])))
    if gpu["not_printed"] != emu["not_printed"]:
        diffs.append(("summary", "not printed: GPU %s, smemu %s" % (gpu["not_printed"], emu["not_printed"])))
    cfg = name.split(".")[-1]
    # racecheck: the same hazards (severity and source lines); the GPU
    # lists one per pair of SASS instructions (an unrolled loop's copies
    # apart), smemu one per pair of lines, so the counts of displayed
    # hazards differ where a line has several instructions: compared are
    # the set of hazards and whether there are errors and warnings
    if cfg == "racecheck" and set(gpu["races"]) != set(emu["races"]):
        diffs.append(("races", "racecheck: GPU %s; smemu %s" % (sorted_races(gpu["races"]), sorted_races(emu["races"]))))
    # (smemu prints a launch's RACECHECK SUMMARY only when it found something)
    gs, es = gpu["race_summary"] or (0, 0), emu["race_summary"] or (0, 0)
    if cfg == "racecheck" and (gs[0] > 0, gs[1] > 0) != (es[0] > 0, es[1] > 0):
        diffs.append(("races", "RACECHECK SUMMARY (errors, warnings): GPU %s, smemu %s" % (gs, es)))
    if cfg == "synccheck" and gpu["barriers"] != emu["barriers"]:
        diffs.append(("barriers", "barrier errors (threads): GPU %s, smemu %s" %
                      (dict(gpu["barriers"]), dict(emu["barriers"]))))
    if gpu["leak_summary"] != emu["leak_summary"]:
        diffs.append(("leaks", "LEAK SUMMARY: GPU %s, smemu %s" % (gpu["leak_summary"], emu["leak_summary"])))
    if gpu["asserts"] != emu["asserts"]:
        diffs.append(("program", "failed asserts: GPU %s, smemu %s" % (gpu["asserts"], emu["asserts"])))
    gp = [l for l in gpu["program"] if l.strip()]
    ep = [l for l in emu["program"] if l.strip()]
    if gp != ep:
        first = next((i for i in range(min(len(gp), len(ep))) if gp[i] != ep[i]), min(len(gp), len(ep)))
        diffs.append(("program", "output differs at line %d: GPU %r, smemu %r" %
                      (first + 1, gp[first] if first < len(gp) else None, ep[first] if first < len(ep) else None)))
    return diffs


def sorted_races(c):
    return sorted((k[0], sorted(k[1]), n) for k, n in c.items())


def bad_options(smemu):
    """smemu run refuses bad values of the sanitizer options (status 2, a
    message naming the option). -> number of failures."""
    bad = 0
    for args, word in ((["--print-limit", "x"], "--print-limit"), (["--print-limit", "-1"], "--print-limit"),
                       (["--destroy-on-device-error", "foo"], "--destroy-on-device-error"),
                       (["--padding", "-3"], "--padding"), (["--padding", "1k"], "--padding"),
                       (["--leak-check", "yes"], "--leak-check")):
        r = subprocess.run([smemu, "run"] + args + ["--", "/bin/true"], capture_output=True, text=True)
        if r.returncode != 2 or word not in r.stderr:
            print("FAIL smemu run %s: status %d, %r" % (" ".join(args), r.returncode, r.stderr[:200]))
            bad += 1
    return bad


# mem_oob_many.cu's kernel by hand: out[t] = in[t + 40], 64 threads
OOB_PTX = """.version 8.0
.target sm_90
.address_size 64
.visible .entry shiftRead(.param .u64 po, .param .u64 pi)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [po];
  ld.param.u64 %rd2, [pi];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4+160];
  add.s64 %rd5, %rd1, %rd3;
  st.global.u32 [%rd5], %r2;
  ret;
}
"""


def exec_memcheck(smemu, rec):
    """smemu exec --check memcheck lists the same threads and offsets as the
    GPU's memcheck did for mem_oob_many. -> number of failures."""
    raw = os.path.join(rec, "mem_oob_many.memcheck.txt")
    if not os.path.exists(raw):
        return 0
    gpu = parse.parse(open(raw, errors="replace").read())
    want = Counter((tuple(r["thread"]), tuple(r["block"]), r.get("offset"), r["size"], r["access"])
                   for r in gpu["records"] if r["kind"] == "invalid-access")
    with tempfile.TemporaryDirectory() as tmp:
        ptx = os.path.join(tmp, "oob.ptx")
        open(ptx, "w").write(OOB_PTX)
        r = subprocess.run([smemu, "exec", ptx, "--kernel", "shiftRead", "--grid", "1", "--block", "64",
                            "--arg", "buf:s32:64", "--arg", "buf:s32:64", "--check", "memcheck"],
                           capture_output=True, text=True)
    emu = parse.parse(r.stderr)
    # offsets from the second buffer (in): the allocations are laid out as cudaMalloc's, 512 apart
    base = min((x["address"] for x in emu["records"] if "address" in x), default=0) - 256
    got = Counter((tuple(x["thread"]), tuple(x["block"]), x["address"] - base, x["size"], x["access"])
                  for x in emu["records"] if x["kind"] == "invalid-access")
    if got != want or emu["error_summary"] != sum(want.values()):
        print("FAIL smemu exec --check memcheck: %d records (ERROR SUMMARY %s), the GPU's memcheck %d" %
              (sum(got.values()), emu["error_summary"], sum(want.values())))
        return 1
    print("ok   smemu exec --check memcheck: the %d records of mem_oob_many.memcheck" % sum(want.values()))
    return 0


def summary_classes(smemu, build):
    """ERROR SUMMARY counts every class the run checks, beyond what one
    compute-sanitizer tool shows: racecheck's errors with memcheck
    (block_sum_race: one hazard of error severity, recorded), shared-memory
    initcheck (init_shared: threads 32-63 read words only threads 0-31
    wrote: 32). -> number of failures."""
    bad = 0
    cases = [(os.path.join(HERE, "..", "sanitizer_patterns"), "block_sum_race", ["--check", "memcheck,races"], 1),
             (HERE, "init_shared", ["--check", "init"], 32)]
    for src, case, opts, want in cases:
        prog = program(build, os.path.join(src, "recorded"), case)
        if not prog:
            continue
        r = subprocess.run([smemu, "run"] + opts + ["--", prog], capture_output=True, text=True,
                           env=dict(os.environ, SMEMU_THREADS="2"), timeout=120)
        got = parse.parse(r.stdout + r.stderr)["error_summary"]
        if got != want:
            print("FAIL ERROR SUMMARY of %s %s: %s, want %d" % (case, " ".join(opts), got, want))
            bad += 1
        else:
            print("ok   ERROR SUMMARY of %s %s: %d" % (case, " ".join(opts), want))
    return bad


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    global SRC
    build = sys.argv[1]
    rest = sys.argv[2:]
    if rest[:1] == ["--dir"] and len(rest) > 1:
        SRC = os.path.abspath(rest[1])
        rest = rest[2:]
    only = set(rest)
    if bad_options(os.path.join(build, "smemu")):
        return 1
    rec = os.path.join(SRC, "recorded")
    if not os.path.isdir(rec):
        print("SKIP: no recording in %s (run record.sh on a GPU machine)" % rec)
        return 77
    smemu = os.path.join(build, "smemu")
    if exec_memcheck(smemu, rec):
        return 1
    if SRC == HERE and summary_classes(smemu, build):
        return 1
    kd = known_differences()
    runs = [l.split() for l in open(os.path.join(SRC, "runs.tsv")) if l.strip() and not l.startswith("#")]
    agree = known = failed = skipped = 0
    # each row as configured; then the red-zone rows again with --padding 0,
    # which must agree in full (cudaMalloc's own layout, as the GPU ran them)
    rows = [(case, cfg, (), case + "." + cfg) for case, cfg in runs]
    rows += [(case, cfg, ("--padding", "0"), case + "." + cfg + "+padding0") for case, cfg in runs
             if case in PADDING_ZERO and not cfg.startswith("memcheck_pad")]
    for case, cfg, extra, name in rows:
        base = "%s.%s" % (case, cfg)
        if (only and base not in only) or cfg in REFERENCE_ONLY:
            continue
        raw = os.path.join(rec, base + ".txt")
        if not os.path.exists(raw):
            print("SKIP %s: not recorded" % name)
            skipped += 1
            continue
        prog = program(build, rec, case)
        if not prog:
            print("SKIP %s: no program (no recorded binary, no nvcc)" % name)
            skipped += 1
            continue
        env = dict(os.environ, SMEMU_THREADS="2")
        with tempfile.TemporaryDirectory() as tmp:
            jpath = os.path.join(tmp, "run.json")
            r = subprocess.run([smemu, "run", "--json", jpath] + options(cfg) + list(extra) + ["--", prog],
                               capture_output=True, text=True, env=env, timeout=120)
            try:
                js = json.load(open(jpath))
            except (OSError, ValueError) as ex:
                js = {"error": str(ex)}
        gpu = parse.parse(open(raw, errors="replace").read())
        emu = parse.parse(r.stdout + r.stderr)
        diffs = compare(base, gpu, emu, kd)
        if "error" in js:
            diffs.append(("json", "no JSON: %s" % js["error"]))
        else:
            diffs += compare_json(gpu, js)
        # the GPU's exit status: the program's (or --error-exitcode's 9)
        grc = open(os.path.join(rec, base + ".rc")).read().split()[1]
        if grc in ("124", "137"):
            pass
        elif str(r.returncode) != grc:
            diffs.append(("status", "exit status: GPU %s, smemu %d" % (grc, r.returncode)))
        hard = [d for d in diffs if (name, d[0]) not in kd]
        if not diffs:
            agree += 1
            print("ok   %s (%d records, ERROR SUMMARY %s)" % (name, len(gpu["records"]), gpu["error_summary"]))
        elif not hard:
            known += 1
            print("KNOWN %s: %s" % (name, "; ".join("%s (%s)" % (d[0], kd[(name, d[0])]) for d in diffs)))
        else:
            failed += 1
            print("FAIL %s" % name)
            for part, msg in hard:
                print("  [%s] %s" % (part, msg))
    print("sanitizer corpus: %d agree, %d known differences, %d differ, %d skipped" % (agree, known, failed, skipped))
    if failed:
        return 1
    return 0 if agree + known else 77


if __name__ == "__main__":
    sys.exit(main())
