"""suite.py: numba-cuda's own test suite (numba.cuda.tests.cudapy, shipped
in the wheel) under `smemu run`, one process per test module.

usage: python3 suite.py SMEMU PYTHON OUT [MODULE...]

SMEMU is the smemu binary, PYTHON the interpreter of a virtual environment
holding numba-cuda (and pytest, filecheck, cffi, ml_dtypes, which its tests
import); MODULE names are test modules of numba.cuda.tests.cudapy (default:
every one). Writes OUT (a table: module, tests, passed, failed, errors,
skipped, seconds) and OUT.failures (each failing test with the first line of
its reason), prints the totals; exit status 0 when every test that ran
passed."""
import json
import os
import re
import subprocess
import sys
import time


def modules(python):
    out = subprocess.run([python, "-c", "import numba.cuda.tests.cudapy as t, os; "
                          "print('\\n'.join(sorted(f[:-3] for f in os.listdir(os.path.dirname(t.__file__)) "
                          "if f.startswith('test_') and f.endswith('.py'))))"],
                         capture_output=True, text=True, env=dict(os.environ, NUMBA_DISABLE_CUDA="1"))
    return out.stdout.split()


# a test's verdict in -v output: "test_x (mod.Class.test_x) ... ok", the
# name line maybe followed by its docstring's first line, and the verdict
# maybe after messages on a line of its own
NAME = re.compile(r"^(test\w+) \((\S+)\)", re.M)
VERDICT = re.compile(r"(?:\.\.\. |^)(ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)$", re.M)
SUMMARY = re.compile(r"^Ran (\d+) tests? in .*\n+(OK|FAILED)(?: \((.*)\))?", re.M)


def verdicts(text):
    """(name, class, verdict) of each test, in order."""
    out = []
    names = list(NAME.finditer(text))
    for i, m in enumerate(names):
        end = names[i + 1].start() if i + 1 < len(names) else len(text)
        v = VERDICT.search(text, m.end(), end)
        if v:
            said = re.search(r"smemu: .*", text[m.end():v.start() + 1])
            out.append((m.group(1), m.group(2), v.group(1), said.group(0) if said else ""))
    return out


def counts(text):
    """tests, passed, failed, errors, skipped from the summary, or None."""
    m = SUMMARY.search(text)
    if not m:
        return None
    n = int(m.group(1))
    kv = dict((k.strip(), int(v)) for k, v in (x.split("=") for x in (m.group(3) or "").split(",") if "=" in x))
    fl = kv.get("failures", 0) + kv.get("unexpected successes", 0)
    er = kv.get("errors", 0)
    sk = kv.get("skipped", 0)
    return n, n - fl - er - sk, fl, er, sk


def run(smemu, python, mod, timeout):
    return run_one(smemu, python, "numba.cuda.tests.cudapy." + mod, timeout)


def run_one(smemu, python, test, timeout):
    t0 = time.time()
    try:
        p = subprocess.run([smemu, "run", "--", python, "-m", "numba.runtests", "-v", test],
                           capture_output=True, text=True, timeout=timeout,
                           env=os.environ)  # the tests look at warnings themselves
        text = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        text = (e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(errors="replace")
        text += "\nTIMEOUT after %d s\n" % timeout
    return text, time.time() - t0


def reasons(text):
    """The first telling line of each failure's traceback, by test name."""
    out = {}
    for block in re.split(r"^={50,}$", text, flags=re.M)[1:]:
        m = re.search(r"^(?:FAIL|ERROR): (test\w+) \((\S+)\)", block, re.M)
        if not m:
            continue
        lines = [l for l in block.split("\n") if l.strip() and not l.startswith("-" * 20)]
        # the exception line: the last line that names an error
        why = ""
        skipped = [l for l in lines if l.startswith("Skipped: ")]
        if skipped:
            out[m.group(1) + " (" + m.group(2) + ")"] = skipped[0].strip()
            continue
        # smemu's own message says best why a call failed
        smemu = [l for l in lines if l.startswith("smemu: ") and "cudaError" not in l]
        for l in reversed(lines):
            if re.match(r"^\s*[\w.]*(Error|Exception|Failure|error)\b", l) or l.startswith("AssertionError"):
                why = l.strip()
                break
        why = why or lines[-1].strip()
        why = re.sub(r"^cuda\.core\._utils\.cuda_utils\.", "", why)
        why = re.sub(r"(CUDA_ERROR_\w+): This .*", r"\1", why)
        if smemu:
            why += " [" + smemu[0] + "]"
        out[m.group(1) + " (" + m.group(2) + ")"] = why[:400]
    return out


def main():
    smemu, python, out = sys.argv[1:4]
    mods = sys.argv[4:] or modules(python)
    timeout = int(os.environ.get("SUITE_TIMEOUT", "900"))
    logdir = os.environ.get("SUITE_LOGS")  # each module's output, when set
    replay = os.environ.get("SUITE_REPLAY")
    if logdir:
        os.makedirs(logdir, exist_ok=True)
    rows, fails = [], []
    tot = [0, 0, 0, 0, 0]
    for mod in mods:
        if replay:
            # SUITE_REPLAY=DIR: read the outputs SUITE_LOGS kept instead of running
            try:
                text, secs = open(os.path.join(replay, mod + ".log")).read(), 0.0
            except OSError:
                continue
        else:
            text, secs = run(smemu, python, mod, timeout)
        if logdir and not replay:
            with open(os.path.join(logdir, mod + ".log"), "w") as f:
                f.write(text)
        res = [r for r in verdicts(text) if not r[1].startswith("numba.") or ".tests." in r[1]]
        c = counts(text)
        why = reasons(text)
        if c:
            n, ok, fl, er, sk = c
            # an error in a test's clean-up counts twice in the summary
            if ok < 0:
                ok = sum(1 for r in res if r[2] in ("ok", "expected failure"))
                er = max(0, n - ok - fl - sk)
        elif re.search(r"^Skipped: .*\s*$", text.strip().split("\n")[-1]):
            # pytest.importorskip while unittest loads the module: all skipped
            n, ok, fl, er, sk = 1, 0, 0, 0, 1
        else:
            # the module did not finish: what finished, and one error for the rest
            n = len(res) + 1
            ok = sum(1 for r in res if r[2] in ("ok", "expected failure"))
            fl = sum(1 for r in res if r[2] in ("FAIL", "unexpected success"))
            sk = sum(1 for r in res if r[2].startswith("skipped"))
            er = n - ok - fl - sk
            tail = [l for l in text.strip().split("\n") if l.strip()][-1:] or ["no output"]
            fails.append("%s: did not finish: %s" % (mod, tail[0][:300]))
        # pytest.importorskip under unittest's runner: an error that is a skip
        for key in [k for k, w in why.items() if w.startswith("Skipped:")]:
            del why[key]
            if c:
                er -= 1
                sk += 1
        listed = set()
        said = dict((r[0] + " (" + r[1] + ")", r[3]) for r in res)
        # A kernel fault is sticky: the tests after it in the same process
        # fail for it. Each failed test then runs again on its own, and one
        # that passes alone counts as passed.
        alone = {}
        if c and why and "smemu: error: kernel" in text and len(why) <= 80:
            rerun_file = os.path.join(replay or logdir or "", mod + ".alone.json")
            if replay:
                try:
                    alone = json.load(open(rerun_file))
                except (OSError, ValueError):
                    alone = {}
            else:
                for key in why:
                    tid = key[key.index("(") + 1:-1]
                    t, _ = run_one(smemu, python, tid, timeout)
                    cc = counts(t)
                    if cc and cc[1] == cc[0] - cc[4] and cc[0]:
                        alone[key] = "ok"
                    else:
                        w = list(reasons(t).values())
                        alone[key] = "alone: " + (w[0] if w else "failed")
                if logdir:
                    with open(rerun_file, "w") as f:
                        json.dump(alone, f)
            if alone:
                for key, v in alone.items():
                    if v == "ok" and key in why:
                        del why[key]
                # what is left are the listed failures
                fl = sum(1 for k in why if re.search(r"^FAIL: " + re.escape(k), text, re.M))
                er = len(why) - fl
                ok = n - sk - fl - er
        for key, v in alone.items():
            if key in why and v != "ok":
                why[key] = v
        for key, w in why.items():
            listed.add(key)
            if said.get(key) and "smemu: " not in w:
                w += " [" + said[key][:200] + "]"
            fails.append("%s.%s: %s" % (mod, key.split(" ")[0], w))
        if c is None:
            for name, cls, st, _ in res:
                if st in ("FAIL", "ERROR", "unexpected success") and name + " (" + cls + ")" not in listed:
                    fails.append("%s.%s: %s" % (mod, name, st))
        rows.append((mod, n, ok, fl, er, sk, secs))
        for i, v in enumerate((n, ok, fl, er, sk)):
            tot[i] += v
        print("%-40s %4d tests %4d ok %3d failed %3d errors %3d skipped %6.1f s" % (mod, n, ok, fl, er, sk, secs),
              flush=True)
    with open(out, "w") as f:
        f.write("# module tests passed failed errors skipped seconds\n")
        for r in rows:
            f.write("%s %d %d %d %d %d %.1f\n" % r)
        f.write("# total %d %d %d %d %d\n" % tuple(tot))
    with open(out + ".failures", "w") as f:
        f.write("\n".join(fails) + ("\n" if fails else ""))
    ran = tot[0] - tot[4]
    print("total: %d tests, %d passed, %d failed, %d errors, %d skipped; %.1f%% of those run passed" %
          (tot[0], tot[1], tot[2], tot[3], tot[4], 100.0 * tot[1] / ran if ran else 0))
    return 0 if tot[2] == tot[3] == 0 else 1


sys.exit(main())
