#!/usr/bin/env python3
"""csv2vectors.py: turns Nsight Compute's CSV into tests/hw/model/vectors.tsv
(the same format as tests/hw/banks/vectors.tsv, of which this is a copy:
record.sh may only read files of its own directory).

    csv2vectors.py NCU.csv... [--sass corpus.sass] [--bases bases.txt] [-o FILE]
    csv2vectors.py --sass-counts corpus.sass      (prints shared SASS per kernel)

NCU.csv is what `ncu --csv --metrics ...` printed (one row per kernel and
metric; any other lines are ignored); several files (a run split with
BANKS_KERNELS) are merged.  The vector file has one line per
kernel: its name, the 9 counters under canonical names, and the kernel's
shared-memory SASS instructions when --sass is given.  Standard library only.
"""
import argparse
import csv
import io
import os
import re
import sys

COLS = ["inst_ld", "inst_st", "inst_atom", "wf_ld", "wf_st", "wf_atom",
        "conf_ld", "conf_st", "conf_atom"]
# Metric name fragment -> column.  Alternatives record.sh may fall back to
# (sm__ instead of smsp__, or the non-sass instruction counters) map alike.
FRAGMENTS = [
    ("inst_executed_op_shared_ld", "inst_ld"),
    ("inst_executed_op_shared_st", "inst_st"),
    ("inst_executed_op_shared_atom", "inst_atom"),
    ("wavefronts_mem_shared_op_ld", "wf_ld"),
    ("wavefronts_mem_shared_op_st", "wf_st"),
    ("wavefronts_mem_shared_op_atom", "wf_atom"),
    ("bank_conflicts_pipe_lsu_mem_shared_op_ld", "conf_ld"),
    ("bank_conflicts_pipe_lsu_mem_shared_op_st", "conf_st"),
    ("bank_conflicts_pipe_lsu_mem_shared_op_atom", "conf_atom"),
]
SHARED_OPS = ("LDS", "STS", "ATOMS", "LDSM", "STSM")  # RED/ATOM on shared do not exist on sm_90


def column_of(metric):
    for frag, col in FRAGMENTS:
        if frag in metric:
            return col
    return None


def number(s):
    s = s.strip().replace(",", "").replace(" ", "")
    if s in ("", "n/a", "N/A"):
        return None
    try:
        v = float(s)
    except ValueError:
        return None
    return int(round(v))


def read_ncu(path):
    """{kernel: {col: value}} in launch order."""
    with open(path, newline="", errors="replace") as f:
        lines = [l for l in f if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("".join(lines))))
    if not rows:
        sys.exit("csv2vectors: no CSV rows in %s" % path)
    head = rows[0]
    try:
        i_id = head.index("ID")
        i_k = head.index("Kernel Name")
        i_m = head.index("Metric Name")
        i_v = head.index("Metric Value")
    except ValueError:
        sys.exit("csv2vectors: unexpected CSV header: %r" % head)
    out, seen_id = {}, {}
    for r in rows[1:]:
        if len(r) <= max(i_id, i_k, i_m, i_v) or r[i_id] == "ID":
            continue
        name = re.sub(r"\(.*$", "", r[i_k]).strip()
        col = column_of(r[i_m])
        if col is None:
            continue
        # One launch per kernel; if a kernel was profiled twice keep the first.
        if name in seen_id and seen_id[name] != r[i_id]:
            continue
        seen_id[name] = r[i_id]
        out.setdefault(name, {})[col] = number(r[i_v])
    return out


def sass_counts(path):
    """{kernel: [shared SASS opcodes in order]} from cuobjdump -sass."""
    res, cur = {}, None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"Function : (\S+)", line)
            if m:
                cur = m.group(1)
                res[cur] = []
                continue
            m = re.search(r"\*/\s+(@!?U?P\w+\s+)?([A-Z0-9]+)(\.[A-Z0-9_.]+)?\s", line)
            if cur and m and m.group(2) in SHARED_OPS:
                res[cur].append(m.group(2) + (m.group(3) or ""))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="*")
    ap.add_argument("--sass")
    ap.add_argument("--sass-counts")
    ap.add_argument("--bases")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()

    if a.sass_counts:
        for k, ops in sass_counts(a.sass_counts).items():
            print("%s\t%d\t%s" % (k, len(ops), ",".join(ops) or "-"))
        return
    if not a.csv:
        ap.error("the CSV file is required")

    data = {}
    for path in a.csv:
        for k, v in read_ncu(path).items():
            data.setdefault(k, v)
    sass = sass_counts(a.sass) if a.sass else {}
    warn = []
    if a.bases:
        with open(a.bases) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and not parts[0].startswith("lay_") and int(parts[1], 16) % 128:
                    warn.append("%s: array at %s is not 128-byte aligned" %
                                (parts[0], parts[1]))
    out = io.StringIO()
    out.write("# vectors.tsv: Nsight Compute counters of the kernels in model.cu\n")
    out.write("# (one launch each), recorded by record.sh; made by\n")
    out.write("# csv2vectors.py from %s.\n" % ", ".join(os.path.basename(p) for p in a.csv))
    meta = os.path.join(os.path.dirname(os.path.abspath(a.csv[0])), "metrics.txt")
    if os.path.exists(meta):
        with open(meta) as f:
            for line in f:
                out.write("# " + line.rstrip("\n") + "\n")
    out.write("# kernel\t" + "\t".join(COLS) + "\tsass\n")
    for k, v in data.items():
        missing = [c for c in COLS if v.get(c) is None]
        if missing:
            warn.append("%s: no value for %s" % (k, ",".join(missing)))
        ops = sass.get(k)
        if ops is not None:
            n = (v.get("inst_ld") or 0) + (v.get("inst_st") or 0) + (v.get("inst_atom") or 0)
            if n != len(ops):
                warn.append("%s: %d shared instructions executed, %d in SASS (%s)"
                            % (k, n, len(ops), ",".join(ops)))
        out.write(k + "\t" + "\t".join("-" if v.get(c) is None else str(v[c])
                                       for c in COLS))
        out.write("\t" + (",".join(ops) if ops else "-") + "\n")
    text = out.getvalue()
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    for w in warn:
        print("csv2vectors: warning: " + w, file=sys.stderr)
    print("csv2vectors: %d kernels" % len(data), file=sys.stderr)


if __name__ == "__main__":
    main()
