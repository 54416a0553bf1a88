"""row.py JSON T0 T1 NAME VERDICT TARGET_S: one row of a whole-program table
(bench/programs.sh, bench/samples.sh): the program's verdict, wall seconds
(T1 - T0), the thread instructions of all launches in smemu run's --json
file and their rate, and whether the seconds meet the target."""
import json
import sys

path, t0, t1, name, ok, target = sys.argv[1:]
try:
    insns = sum(l["thread_instructions"] for l in json.load(open(path))["launches"])
except Exception:
    insns = 0
secs = float(t1) - float(t0)
print("%-24s %-6s %9.2f %16d %14.3g %s" % (name, ok, secs, insns, insns / secs if secs else 0,
                                           "met" if secs <= float(target) else "MISSED"))
