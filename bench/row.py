"""row.py JSON T0 T1 NAME VERDICT TARGET_S [HEADER]: one row of a
whole-program table (bench/programs.sh, bench/samples.sh): the program's
verdict, wall seconds (T1 - T0), the thread instructions of all launches in
smemu run's --json file and their rate, the tiers its launches ran (i
interpreter, j compiled), the CPU seconds of its compiles, and whether the
seconds meet the target. `row.py --header TARGET_S` prints the header."""
import json
import sys

if sys.argv[1] == "--header":
    print("%-24s %-6s %9s %16s %10s %5s %9s %s" % ("program", "result", "seconds", "thread-insns", "insns/s",
                                                  "tiers", "compile s", "target <= %s s" % sys.argv[2]))
    sys.exit(0)
path, t0, t1, name, ok, target = sys.argv[1:7]
try:
    launches = json.load(open(path))["launches"]
except Exception:
    launches = []
insns = sum(l.get("thread_instructions", 0) for l in launches)
tiers = "".join(t[0] for t in ("interp", "jit") if any(l.get("tier") == t for l in launches)) or "-"
compile_s = sum(l.get("jit_seconds", 0.0) for l in launches)
secs = float(t1) - float(t0)
print("%-24s %-6s %9.2f %16d %10.3g %5s %9.3f %s" % (name, ok, secs, insns, insns / secs if secs else 0, tiers,
                                                     compile_s, "met" if secs <= float(target) else "MISSED"))
