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


RESULT = re.compile(r"^(test\w+) \((\S+)\)(?:\n.*?)? \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$",
                    re.M)


def run(smemu, python, mod, timeout):
    t0 = time.time()
    try:
        p = subprocess.run([smemu, "run", "--", python, "-m", "numba.runtests", "-v",
                            "numba.cuda.tests.cudapy." + mod],
                           capture_output=True, text=True, timeout=timeout,
                           env=dict(os.environ, PYTHONWARNINGS="ignore"))
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
        for l in reversed(lines):
            if re.match(r"^\s*[\w.]*(Error|Exception|Failure|error)\b", l) or l.startswith("AssertionError"):
                why = l.strip()
                break
        out[m.group(1) + " (" + m.group(2) + ")"] = why[:300] or lines[-1].strip()[:300]
    return out


def main():
    smemu, python, out = sys.argv[1:4]
    mods = sys.argv[4:] or modules(python)
    timeout = int(os.environ.get("SUITE_TIMEOUT", "900"))
    rows, fails = [], []
    tot = [0, 0, 0, 0, 0]
    for mod in mods:
        text, secs = run(smemu, python, mod, timeout)
        res = RESULT.findall(text)
        n = len(res)
        ok = sum(1 for r in res if r[2] in ("ok", "expected failure"))
        fl = sum(1 for r in res if r[2] in ("FAIL", "unexpected success"))
        er = sum(1 for r in res if r[2] == "ERROR")
        sk = sum(1 for r in res if r[2].startswith("skipped"))
        why = reasons(text)
        if not res or ("Ran " not in text):
            # the module did not finish: count it as one error with its tail
            er += 1
            n += 1
            tail = [l for l in text.strip().split("\n") if l.strip()][-1:] or ["no output"]
            fails.append("%s: did not finish: %s" % (mod, tail[0][:300]))
        for name, cls, st in res:
            if st in ("FAIL", "ERROR", "unexpected success"):
                key = name + " (" + cls + ")"
                fails.append("%s.%s: %s: %s" % (mod, name, st, why.get(key, "")))
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
