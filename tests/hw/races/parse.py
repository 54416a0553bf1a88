#!/usr/bin/env python3
"""parse.py: turns record.sh's compute-sanitizer outputs into vectors.

Usage:
  parse.py RAW [--manifest M] [-o vectors.json] [--tsv vectors.tsv]
           [--summary summary.txt]
RAW is record.sh's raw/ folder or the races.tgz that holds it. Per case of
the manifest it reads raw/CASE.{plain,analysis,hazard,synccheck,initcheck}.txt
(and .rc) and writes:
  hazards      racecheck's analysis records, one per pair of source lines
               (PCs on the same lines are summed): type RAW/WAR/WAW,
               severity error/warning, first and second access kind, file
               (base name) and line, [N hazards] summed; the type is taken
               from the hazard-mode records of the same pair, or else from
               the access kinds (Write then Read is RAW, and so on)
  hazard_mode  the hazard-mode records aggregated the same way (records,
               addresses, one pair of threads)
  sync_errors  synccheck's errors per (kind, file, line): threads, blocks
  initcheck    initcheck's error lines
  summaries    the RACECHECK SUMMARY / ERROR SUMMARY lines, exit statuses
  raw          every output as text, so later tools can parse again
The TSV holds what tests/unit/test_races_hw.c compares:
  case    NAME PLAIN_OK CHECKSUM ANALYSIS_DONE SYNCCHECK_DONE
  hazard  NAME TYPE SEVERITY ACC1 FILE1 LINE1 ACC2 FILE2 LINE2 COUNT
  sync    NAME KIND FILE LINE THREADS
A tool's run is "done" when its summary line was printed (so a timeout or a
crash is not read as "no hazards")."""
import argparse
import io
import json
import os
import re
import sys
import tarfile

TOOLS = ("plain", "analysis", "hazard", "synccheck", "initcheck")
MARK = re.compile(r"//@([A-Za-z0-9_]+)\s*$")

# "at LOC in FILE:LINE": FILE has no blank or colon (the old format put
# ":FUNC" after the line, which this ignores).
LOC = re.compile(r"^(?P<loc>.*?)(?:\s+in\s+(?P<file>[^\s:]+):(?P<line>\d+)(?::[^\[]*?)?)?"
                 r"(?:\s*\[(?P<n>\d+)\s+hazards?\].*)?\s*$")
SEVERITY = {"error": "error", "warning": "warning", "warn": "warning", "info": "info"}


def norm_sev(s):
    return SEVERITY.get(s.lower(), s.lower())


def strip_prefix(text):
    """Lines without the '========= ' prefix (indentation kept)."""
    out = []
    for ln in text.splitlines():
        m = re.match(r"^=+ ?(.*)$", ln)
        out.append(m.group(1) if m else ln)
    return out


def split_loc(s):
    m = LOC.match(s.strip())
    d = {"loc": m.group("loc"), "file": None, "line": None, "n": None}
    if m.group("file"):
        d["file"] = os.path.basename(m.group("file"))
        d["line"] = int(m.group("line"))
    else:
        # no function or PC, only FILE:LINE (smemu's own reports)
        f = re.match(r"^(?P<file>[^\s:]+):(?P<line>\d+)", d["loc"])
        if f:
            d["file"], d["line"] = os.path.basename(f.group("file")), int(f.group("line"))
    if m.group("n"):
        d["n"] = int(m.group("n"))
    pc = re.search(r"\+(0x[0-9a-fA-F]+)\s*$", d["loc"]) or re.match(r"^(0x[0-9a-fA-F]+)", d["loc"])
    d["pc"] = pc.group(1) if pc else None
    return d


def kind_of(acc):
    a = acc.capitalize()
    return a if a in ("Read", "Write", "Atomic") else acc


def derive_type(a1, a2):
    w = ("Write", "Atomic")
    if a1 in w and a2 == "Read":
        return "RAW"
    if a1 == "Read" and a2 in w:
        return "WAR"
    if a1 in w and a2 in w:
        return "WAW"
    return "?"


# ---- racecheck, analysis mode ------------------------------------------------
ANALYSIS_HEAD = re.compile(r"^\s*(?P<sev>Error|Warning|Info|ERROR|WARN|WARNING|INFO)\s*:?\s*"
                           r"(?:\(Warp Level Programming\)\s*)?Race reported between\s+(?P<rest>.*)$")
ACCESS = re.compile(r"(?:^|\s)(?:and\s+)?(?P<acc>\w+) access at\s+")


def parse_analysis(text):
    """[{severity, first:{access,loc,pc,file,line}, second:{...}, count}]."""
    recs = []
    cur = None
    for ln in strip_prefix(text) + [""]:
        m = ANALYSIS_HEAD.match(ln)
        if m:
            if cur:
                recs.append(cur)
            cur = [norm_sev(m.group("sev")), m.group("rest")]
            continue
        if cur is not None:
            s = ln.strip()
            # "and X access at ..." lines; a record wrapped after "at" or
            # before its "[N hazards]" goes on too.
            if s.startswith("and ") or s.startswith("[") or (s and cur[1].rstrip().endswith(" at")):
                cur[1] += " " + s
            else:
                recs.append(cur)
                cur = None
    out = []
    for sev, body in recs:
        parts = []
        ms = list(ACCESS.finditer(body))
        for i, m in enumerate(ms):
            end = ms[i + 1].start() if i + 1 < len(ms) else len(body)
            d = split_loc(body[m.end():end])
            d["access"] = kind_of(m.group("acc"))
            parts.append(d)
        if len(parts) < 2:
            continue
        first = parts[0]
        for p in parts[1:]:
            out.append({"severity": sev,
                        "first": {k: first[k] for k in ("access", "loc", "pc", "file", "line")},
                        "second": {k: p[k] for k in ("access", "loc", "pc", "file", "line")},
                        "count": p["n"] if p["n"] is not None else first["n"]})
    return out


# ---- racecheck, hazard mode --------------------------------------------------
HAZARD_HEAD = re.compile(r"^\s*(?P<sev>Error|Warning|Info|ERROR|WARN|WARNING|INFO)\s*:?\s*"
                         r"(?P<wlp>\(Warp Level Programming\))?\s*Potential (?P<type>RAW|WAR|WAW) hazard "
                         r"detected at __shared__ (?P<addr>0x[0-9a-fA-F]+|\d+) in block \((?P<block>[\d,\s]+)\)")
THREAD = re.compile(r"^\s*(?P<acc>\w+) Thread \((?P<tid>[\d,\s]+)\) at\s+(?P<rest>.*)$")


def tuple3(s):
    return [int(x) for x in s.replace(" ", "").split(",") if x != ""]


def parse_hazard(text):
    """[{type, severity, warp_level, address, block, first:{access,thread,loc,pc,file,line}, second}]."""
    out = []
    cur = None
    for ln in strip_prefix(text):
        m = HAZARD_HEAD.match(ln)
        if m:
            cur = {"type": m.group("type"), "severity": norm_sev(m.group("sev")),
                   "warp_level": bool(m.group("wlp")), "address": m.group("addr"),
                   "block": tuple3(m.group("block")), "accesses": []}
            out.append(cur)
            continue
        if cur is None:
            continue
        t = THREAD.match(ln)
        if t and len(cur["accesses"]) < 2:
            d = split_loc(t.group("rest"))
            cur["accesses"].append({"access": kind_of(t.group("acc")), "thread": tuple3(t.group("tid")),
                                    "loc": d["loc"], "pc": d["pc"], "file": d["file"], "line": d["line"]})
            continue
        vm = re.search(r"Current Value\s*:\s*([^,\s]+),?\s+Incoming Value\s*:\s*(\S+)", ln)
        if vm and "values" not in cur:
            cur["values"] = [vm.group(1), vm.group(2)]
    for r in out:
        acc = r.pop("accesses")
        empty = {"access": "?", "thread": None, "loc": None, "pc": None, "file": None, "line": None}
        r["first"] = acc[0] if acc else empty
        r["second"] = acc[1] if len(acc) > 1 else empty
    return out


def pair_key(t, sev, a, b):
    return (t, sev, a["access"], a["file"], a["line"], b["access"], b["file"], b["line"])


def aggregate_hazard_mode(recs):
    agg = {}
    for r in recs:
        k = pair_key(r["type"], r["severity"], r["first"], r["second"])
        a = agg.get(k)
        if not a:
            a = agg[k] = {"type": r["type"], "severity": r["severity"], "warp_level": r["warp_level"],
                          "first_access": r["first"]["access"], "first_file": r["first"]["file"],
                          "first_line": r["first"]["line"], "second_access": r["second"]["access"],
                          "second_file": r["second"]["file"], "second_line": r["second"]["line"],
                          "records": 0, "addresses": [], "blocks": [],
                          "example": {"block": r["block"], "address": r["address"],
                                      "first_thread": r["first"]["thread"],
                                      "second_thread": r["second"]["thread"],
                                      "values": r.get("values")}}
        a["records"] += 1
        if r["address"] not in a["addresses"]:
            a["addresses"].append(r["address"])
        if r["block"] not in a["blocks"]:
            a["blocks"].append(r["block"])
    return list(agg.values())


def aggregate_analysis(recs, hz_agg):
    """One entry per (severity, accesses, lines); type from the hazard mode."""
    types = {}
    for h in hz_agg:
        k = (h["severity"], h["first_access"], h["first_file"], h["first_line"],
             h["second_access"], h["second_file"], h["second_line"])
        types.setdefault(k, set()).add(h["type"])
    agg = {}
    for r in recs:
        a, b = r["first"], r["second"]
        k = (r["severity"], a["access"], a["file"], a["line"], b["access"], b["file"], b["line"])
        rk = (r["severity"], b["access"], b["file"], b["line"], a["access"], a["file"], a["line"])
        if k not in types and rk in types:
            # the hazard mode (which names the type) has the pair the other
            # way round: follow it
            a, b, k = b, a, rk
        e = agg.get(k)
        if not e:
            ts = sorted(types.get(k, set()))
            t = ts[0] if len(ts) == 1 else derive_type(a["access"], b["access"])
            e = agg[k] = {"type": t, "severity": r["severity"],
                          "type_from": "hazard mode" if len(ts) == 1 else "access kinds",
                          "first_access": a["access"], "first_file": a["file"], "first_line": a["line"],
                          "second_access": b["access"], "second_file": b["file"], "second_line": b["line"],
                          "count": 0, "pcs": []}
        e["count"] += r["count"] or 0
        pcs = [a["pc"], b["pc"]]
        if pcs not in e["pcs"]:
            e["pcs"].append(pcs)
    return list(agg.values())


# ---- synccheck and initcheck ------------------------------------------------
SYNC_HEAD = re.compile(r"^\s*(?:Error:\s*)?Barrier error detected\.?\s*(?P<kind>.*?)\.?\s*$")


def sync_kind(text):
    t = text.lower()
    if "divergent" in t and "warp" in t:
        return "divergent-warp"
    if "divergent" in t and "block" in t:
        return "divergent-block"
    if "invalid argument" in t:
        return "invalid-arguments"
    return re.sub(r"[^a-z0-9]+", "-", t).strip("-") or "barrier-error"


def ranges(nums):
    """'0-15,32' for [0..15, 32]."""
    out, nums = [], sorted(set(nums))
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append("%d" % nums[i] if i == j else "%d-%d" % (nums[i], nums[j]))
        i = j + 1
    return ",".join(out) or "-"


def parse_sync(text, cu_file, block_dims=(1, 1, 1)):
    """Errors aggregated per (kind, file, line). The line is the frame in the
    case's .cu file when the faulting one is elsewhere (an inlined helper).
    thread_set: the linear thread indices (x + y*bx + z*bx*by) named, over
    all blocks, as ranges."""
    errs = []
    cur = None
    for ln in strip_prefix(text):
        m = SYNC_HEAD.match(ln)
        if m:
            cur = {"text": m.group("kind"), "at": None, "frames": [], "thread": None, "block": None}
            errs.append(cur)
            continue
        if cur is None:
            continue
        s = ln.strip()
        if s.startswith("at ") and cur["at"] is None:
            cur["at"] = split_loc(s[3:])
        elif s.startswith("Device Frame:"):
            cur["frames"].append(split_loc(s[len("Device Frame:"):]))
        else:
            t = re.match(r"^by thread \(([\d,\s]+)\) in block \(([\d,\s]+)\)", s)
            if t:
                cur["thread"], cur["block"] = tuple3(t.group(1)), tuple3(t.group(2))
    agg = {}
    for e in errs:
        at = e["at"] or {"file": None, "line": None, "loc": None}
        loc = at
        if at.get("file") != cu_file:
            for fr in e["frames"]:
                if fr["file"] == cu_file:
                    loc = fr
                    break
        k = (sync_kind(e["text"]), loc.get("file"), loc.get("line"))
        a = agg.get(k)
        if not a:
            a = agg[k] = {"kind": k[0], "text": e["text"], "file": k[1], "line": k[2],
                          "at_file": at.get("file"), "at_line": at.get("line"), "at": at.get("loc"),
                          "threads": 0, "thread_list": [], "blocks": [], "linear": []}
        a["threads"] += 1
        if e["thread"] is not None:
            x, y, z = e["thread"]
            a["linear"].append(x + y * block_dims[0] + z * block_dims[0] * block_dims[1])
            if len(a["thread_list"]) < 64:
                a["thread_list"].append(e["thread"])
        if e["block"] is not None and e["block"] not in a["blocks"]:
            a["blocks"].append(e["block"])
    for a in agg.values():
        a["thread_set"] = ranges(a.pop("linear"))
    return list(agg.values())


def parse_init(text):
    errs = []
    cur = None
    for ln in strip_prefix(text):
        s = ln.strip()
        if re.match(r"^(Uninitialized|Uninitialised)", s):
            cur = {"text": s, "at": None}
            errs.append(cur)
        elif cur is not None and s.startswith("at ") and cur["at"] is None:
            d = split_loc(s[3:])
            cur["at"] = d["loc"]
            cur["file"], cur["line"] = d["file"], d["line"]
    return errs


def summaries(text):
    d = {}
    m = re.search(r"RACECHECK SUMMARY:\s*(\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", text)
    if m:
        d["racecheck"] = {"displayed": int(m.group(1)), "errors": int(m.group(2)), "warnings": int(m.group(3))}
    m = re.search(r"ERROR SUMMARY:\s*(\d+) errors?", text)
    if m:
        d["errors"] = int(m.group(1))
    if re.search(r"Maximum number of hazards reached", text):
        d["hazard_limit_reached"] = True
    return d


def parse_plain(text):
    d = {"ok": bool(re.search(r"^launch: ok", text, re.M)), "checksum": None, "error": None, "out": None}
    m = re.search(r"^checksum \S+ (0x[0-9a-fA-F]+)", text, re.M)
    if m:
        d["checksum"] = m.group(1).lower()
    m = re.search(r"^launch: (.*failed.*)$", text, re.M)
    if m:
        d["error"] = m.group(1)
    m = re.search(r"^out:(.*)$", text, re.M)
    if m:
        d["out"] = [int(x) for x in m.group(1).split()]
    return d


# ---- input ------------------------------------------------------------------
class Raw:
    """raw/ as a folder or inside a .tgz."""

    def __init__(self, path):
        self.files = {}
        if os.path.isdir(path):
            for n in os.listdir(path):
                p = os.path.join(path, n)
                if os.path.isfile(p):
                    with open(p, "rb") as f:
                        self.files[n] = f.read().decode("utf-8", "replace")
        else:
            with tarfile.open(path) as t:
                for m in t.getmembers():
                    if m.isfile() and m.name.count("/") == 1:
                        self.files[os.path.basename(m.name)] = \
                            t.extractfile(m).read().decode("utf-8", "replace")

    def get(self, name):
        return self.files.get(name)


def read_manifest(text):
    rows = []
    for ln in text.splitlines():
        if not ln.strip() or ln.startswith("#"):
            continue
        c = ln.split("\t")
        rows.append({"name": c[0], "file": c[1], "kernel": c[2], "grid": c[3], "block": c[4],
                     "shared": int(c[5]), "n": int(c[6]), "flags": c[7], "expect": c[8],
                     "description": c[9] if len(c) > 9 else ""})
    return rows


def marker_lines(cu_path):
    out = {}
    if cu_path and os.path.exists(cu_path):
        with open(cu_path) as f:
            for i, ln in enumerate(f, 1):
                m = MARK.search(ln.rstrip("\n"))
                if m:
                    out[i] = m.group(1)
    return out


def done(text, key):
    """A tool's run counts when it printed its summary and the kernel ran
    (the driver printed "launch: ok" or "launch: kernel failed")."""
    if not text or key not in summaries(text):
        return False
    return bool(re.search(r"^launch: (ok|kernel failed)", text, re.M))


def case_vectors(raw, row, src_dir):
    name = row["name"]
    v = dict(row)
    texts, rcs = {}, {}
    for t in TOOLS:
        texts[t] = raw.get("%s.%s.txt" % (name, t))
        rc = raw.get("%s.%s.rc" % (name, t))
        rcs[t] = rc.split() if rc else None
    v["runs"] = {}
    for t in TOOLS:
        r = {"ran": texts[t] is not None}
        if rcs[t]:
            r["rc"] = rcs[t][1]
            r["seconds"] = int(rcs[t][3]) if len(rcs[t]) > 3 and rcs[t][3].isdigit() else None
        if texts[t] is not None:
            r["summary"] = summaries(texts[t])
            r["launch_ok"] = bool(re.search(r"^launch: ok", texts[t], re.M))
        v["runs"][t] = r
    v["plain"] = parse_plain(texts["plain"] or "")
    an = parse_analysis(texts["analysis"] or "")
    hz = parse_hazard(texts["hazard"] or "")
    hz_agg = aggregate_hazard_mode(hz)
    v["recorded"] = any(texts[t] is not None for t in TOOLS)
    v["analysis_done"] = done(texts["analysis"], "racecheck")
    v["hazard_done"] = done(texts["hazard"], "racecheck")
    if v["analysis_done"]:
        v["hazards"] = aggregate_analysis(an, hz_agg)
        v["hazards_from"] = "analysis"
    else:
        v["hazards"] = [dict(h, count=h["records"], type_from="hazard mode") for h in hz_agg]
        v["hazards_from"] = "hazard" if v["hazard_done"] else "none"
    v["hazard_mode"] = hz_agg
    v["analysis_records"] = an
    v["synccheck_done"] = done(texts["synccheck"], "errors")
    bd = [int(x) for x in row["block"].split("x")] + [1, 1]
    v["sync_errors"] = parse_sync(texts["synccheck"] or "", row["file"], tuple(bd[:3]))
    v["initcheck"] = parse_init(texts["initcheck"] or "")
    marks = marker_lines(os.path.join(src_dir, row["file"])) if src_dir else {}
    for h in v["hazards"] + v["hazard_mode"]:
        for w in ("first", "second"):
            if h.get(w + "_file") == row["file"]:
                h[w + "_marker"] = marks.get(h[w + "_line"])
    for e in v["sync_errors"]:
        if e["file"] == row["file"]:
            e["marker"] = marks.get(e["line"])
    v["raw"] = {t: texts[t] for t in TOOLS}
    return v


def summary_line(v):
    if not v["recorded"]:
        return "%-30s not recorded" % v["name"]
    hz = ", ".join("%s %s %s@%s %s@%s x%s" % (h["type"], h["severity"], h["first_access"],
                                               h.get("first_marker") or h["first_line"],
                                               h["second_access"],
                                               h.get("second_marker") or h["second_line"],
                                               h.get("count")) for h in v["hazards"]) or "-"
    sy = ", ".join("%s@%s x%d [%s]" % (e["kind"], e.get("marker") or e["line"], e["threads"], e["thread_set"])
                   for e in v["sync_errors"]) or "-"
    rc = v["runs"]["analysis"].get("summary", {}).get("racecheck")
    rs = "%d/%d" % (rc["errors"], rc["warnings"]) if rc else "n/a"
    st = " ".join("%s=%s" % (t[:4], v["runs"][t].get("rc", "?")) for t in TOOLS)
    return "%-30s %-5s races(err/warn) %-6s hazards: %s | sync: %s | init: %d | %s" % (
        v["name"], "ok" if v["plain"]["ok"] else "FAIL", rs, hz, sy, len(v["initcheck"]), st)


def write_tsv(f, cases):
    f.write("# vectors.tsv: compute-sanitizer recordings of tests/hw/races (parse.py);\n"
            "# read by tests/unit/test_races_hw.c. Rows:\n"
            "# case NAME PLAIN_OK CHECKSUM ANALYSIS_DONE SYNCCHECK_DONE\n"
            "# hazard NAME TYPE SEVERITY ACC1 FILE1 LINE1 ACC2 FILE2 LINE2 COUNT\n"
            "# sync NAME KIND FILE LINE THREADS THREAD_SET\n"
            "# (THREADS: errors reported; THREAD_SET: linear thread indices named, as ranges)\n")
    for v in cases:
        if not v["recorded"]:
            continue
        f.write("case\t%s\t%d\t%s\t%d\t%d\n" % (v["name"], 1 if v["plain"]["ok"] else 0,
                                              v["plain"]["checksum"] or "-",
                                              1 if v["hazards_from"] != "none" else 0,
                                              1 if v["synccheck_done"] else 0))
        for h in v["hazards"]:
            f.write("hazard\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" % (
                v["name"], h["type"], h["severity"], h["first_access"], h["first_file"] or "-",
                h["first_line"] if h["first_line"] is not None else 0, h["second_access"],
                h["second_file"] or "-", h["second_line"] if h["second_line"] is not None else 0,
                h.get("count") or 0))
        for e in v["sync_errors"]:
            f.write("sync\t%s\t%s\t%s\t%s\t%d\t%s\n" % (v["name"], e["kind"], e["file"] or "-",
                                                      e["line"] if e["line"] is not None else 0,
                                                      e["threads"], e["thread_set"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("raw", help="record.sh's raw/ folder or races.tgz")
    ap.add_argument("--manifest", help="manifest.tsv (default: the one in RAW, else next to this script)")
    ap.add_argument("--src", help="folder of the .cu files (markers); default: this script's folder")
    ap.add_argument("-o", "--json", help="write vectors.json here")
    ap.add_argument("--tsv", help="write vectors.tsv here")
    ap.add_argument("--summary", help="write one line per case here (default: stdout)")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    raw = Raw(a.raw)
    if a.manifest:
        man = open(a.manifest).read()
    elif raw.get("manifest.tsv"):
        man = raw.get("manifest.tsv")
    else:
        man = open(os.path.join(here, "manifest.tsv")).read()
    rows = read_manifest(man)
    src = a.src or here
    cases = [case_vectors(raw, r, src) for r in rows]
    doc = {"format": "smemu race corpus vectors 1",
           "versions": raw.get("versions.txt"),
           "ptx_diff": raw.get("ptx_diff.txt"),
           "cases": cases}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    if a.tsv:
        with open(a.tsv, "w") as f:
            write_tsv(f, cases)
    lines = [summary_line(v) for v in cases]
    if a.summary:
        with open(a.summary, "w") as f:
            f.write("\n".join(lines) + "\n")
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
