"""launches.py FILE.json: one line for an `smemu run --json` file: the
thread instructions of all its launches, the sum of their compile seconds
(jit_seconds) and the tiers they ran on (i interpreter, j compiled);
"0 0 ?" where the file is missing or unreadable (a run that was stopped)."""
import json
import sys

try:
    d = json.load(open(sys.argv[1]))["launches"]
    print(sum(l["thread_instructions"] for l in d), "%.3f" % sum(l.get("jit_seconds", 0) for l in d),
          "".join(sorted(set(l.get("tier", "?")[0] for l in d))))
except Exception:
    print(0, 0, "?")
