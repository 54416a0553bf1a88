#!/usr/bin/env python3
"""parse.py: compute-sanitizer output (and smemu's, which has the same shape)
-> records. Used by check.py on both sides, and runnable on a recording:

    python3 tests/hw/sanitizer/parse.py tests/hw/sanitizer/recorded [CASE.CONFIG]

A run's text is the program's own lines mixed with "========= " lines. A
record starts at an unindented "========= MESSAGE" line and takes the
indented "=========     ..." lines after it:
  at KERNEL[+0xOFF] in FILE:LINE      kernel (or device function), file, line
  Device Frame: F[+0xOFF] in FILE:LINE  frames (the call sites, outwards)
  by thread (x,y,z) in block (x,y,z)  thread, block
  Address 0xA [is misaligned | is out of bounds]
  and is N bytes after|before the nearest allocation at 0xB of size S bytes
Records: kind (uninit-read, invalid-access, leak, api-error, other), size,
access (read/write), space, kernel (its base name), file (base name), line,
thread, block, address, and offset = address - the allocation the program
printed as "addr NAME 0x..." (so GPU and smemu addresses compare)."""
import json
import os
import re
import sys

PFX = "========= "
R_UNINIT = re.compile(r"Uninitialized __(\w+)__ memory read of size (\d+) bytes")
R_INVALID = re.compile(r"Invalid __(\w+)__ (read|write|atomic) of size (\d+) bytes")
R_LEAK = re.compile(r"Leaked ([\d,]+) bytes at (0x[0-9a-fA-F]+)")
R_LEAKSUM = re.compile(r"LEAK SUMMARY: (\d+) bytes leaked in (\d+) allocations")
R_ERRSUM = re.compile(r"ERROR SUMMARY: (\d+) errors?")
R_APIERR = re.compile(r"Program hit (\w+) \(error (\d+)\) due to \"(.*)\" on CUDA API call to (\w+)")
R_AT = re.compile(r"at (.+?)(?:\+0x[0-9a-fA-F]+)? in (.+):(\d+)$")
R_FRAME = re.compile(r"Device Frame: ?(.+?)(?:\+0x[0-9a-fA-F]+)? in (.+):(\d+)$")
R_BY = re.compile(r"by thread \((\d+),(\d+),(\d+)\) in block \((\d+),(\d+),(\d+)\)")
R_ADDR = re.compile(r"(?:Address|Access to) (0x[0-9a-fA-F]+)(?: is (misaligned|out of bounds))?")
R_NEAR = re.compile(r"and is ([\d,]+) bytes (after|before) the nearest allocation at (0x[0-9a-fA-F]+) of size ([\d,]+) bytes")
R_INSIDE = re.compile(r"and is inside the nearest allocation at (0x[0-9a-fA-F]+) of size ([\d,]+) bytes")
R_HOSTAPI = re.compile(r"Host API memory access error at host access to (0x[0-9a-fA-F]+) of size (\d+) bytes")
R_HOSTUNINIT = re.compile(r"Uninitialized access to (0x[0-9a-fA-F]+) on access by (\w+) source")
R_NOTPRINTED = re.compile(r"ERROR SUMMARY: (\d+) errors? (?:were|was) not printed")
# racecheck and synccheck (compute-sanitizer's "========= " lines, smemu's
# checks section without the prefix)
R_RACE = re.compile(r"^(Error|Warning): Race reported between (\w+) access at (?:.+? in )?(\S+?):(\d+)$")
R_RACE_AND = re.compile(r"^and (\w+) access at (?:.+? in )?(\S+?):(\d+)(?: \[(\d+) hazards?\])?")
R_RACESUM = re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)")
R_BARRIER = re.compile(r"^(?:Error: )?Barrier error detected\. ([^.(]+\.?)")
R_SMEMU_BAR_AT = re.compile(r"^at (\S+?):(\d+) by thread .*?(?:\[(\d+) threads?\])?$")
# smemu's own lines: messages, the per-launch checks section
SMEMU_OWN = re.compile(r"^(smemu: |  at '|== |RACECHECK SUMMARY|INITCHECK SUMMARY|SYNCCHECK SUMMARY|Error: |Warning: "
                       r"|    at |    and )")
R_ASSERT = re.compile(r"^(\S+\.cu)(:\d+: .*Assertion `.*` failed\.)$")
R_PROG_ADDR = re.compile(r"^addr (\S+) (0x[0-9a-fA-F]+|\(nil\))$")


def base_kernel(k):
    """copyKernel(int *, const int *, int) -> copyKernel; a called device
    function's "[clone kernel(int *)] f(int *)" -> f"""
    k = k.strip()
    if k.startswith("[clone ") and "] " in k:
        k = k[k.index("] ") + 2:]
    return k.split("(")[0].strip()


def checks(text):
    """racecheck's and synccheck's findings in a run's text, either side's:
    -> (races: Counter of (severity, frozenset of (access, file, line))),
    race summary (errors, warnings) or None, barrier errors: Counter of
    message -> threads)."""
    from collections import Counter
    races, bars = Counter(), Counter()
    race_sum = None
    cur = bar = None
    for line in text.splitlines():
        b = line[len(PFX):] if line.startswith(PFX) else line
        b = b.strip()
        m = R_RACE.match(b)
        if m:
            if cur is not None:
                races[(cur[0], frozenset(cur[1]))] += 1
            cur = [m.group(1), {(m.group(2), os.path.basename(m.group(3)), int(m.group(4)))}]
            continue
        m = R_RACE_AND.match(b)
        if m and cur is not None:
            cur[1].add((m.group(1), os.path.basename(m.group(2)), int(m.group(3))))
            continue
        if cur is not None:
            races[(cur[0], frozenset(cur[1]))] += 1
            cur = None
        m = R_RACESUM.search(b)
        if m:
            e, w = int(m.group(2)), int(m.group(3))
            race_sum = (race_sum[0] + e, race_sum[1] + w) if race_sum else (e, w)
            continue
        m = R_BARRIER.match(b)
        if m:
            bar = m.group(1).strip()
            bars[bar] += 1
            continue
        m = R_SMEMU_BAR_AT.match(b)
        if m and bar is not None and m.group(3):
            bars[bar] += int(m.group(3)) - 1
        if not b.startswith("at ") and not b.startswith("by ") and not b.startswith("Device Frame"):
            bar = None
    if cur is not None:
        races[(cur[0], frozenset(cur[1]))] += 1
    return races, race_sum, bars


def parse(text):
    """-> dict: records, error_summary, leak_summary, program (the program's
    own lines but addresses), allocs (name -> address)."""
    recs, prog, allocs, asserts = [], [], {}, []
    err_sum = leak_sum = not_printed = None
    cur = None
    for line in text.splitlines():
        if not line.startswith("=========") :
            m = R_PROG_ADDR.match(line)
            if m:
                allocs[m.group(1)] = int(m.group(2), 16) if m.group(2) != "(nil)" else 0
            elif R_ASSERT.match(line):
                # CUDA's own line for a failed assert comes when the driver
                # flushes it, before or after the program's buffered output
                m = R_ASSERT.match(line)
                asserts.append(os.path.basename(m.group(1)) + m.group(2))
            elif not SMEMU_OWN.match(line):
                prog.append(line)
            continue
        body = line[len(PFX):] if line.startswith(PFX) else ""
        if body.startswith("    "):
            if cur is None:
                continue
            b = body.strip()
            m = R_AT.match(b)
            if m and "kernel" not in cur:
                cur["kernel"] = base_kernel(m.group(1))
                cur["file"] = os.path.basename(m.group(2))
                cur["line"] = int(m.group(3))
                continue
            m = R_FRAME.match(b)
            if m:
                cur.setdefault("frames", []).append(
                    (base_kernel(m.group(1)), os.path.basename(m.group(2)), int(m.group(3))))
                continue
            m = R_BY.match(b)
            if m:
                v = [int(x) for x in m.groups()]
                cur["thread"], cur["block"] = v[:3], v[3:]
                continue
            m = R_ADDR.match(b)
            if m:
                cur["address"] = int(m.group(1), 16)
                if m.group(2):
                    cur["cause"] = m.group(2)
                continue
            m = R_NEAR.match(b)
            if m:
                cur["near"] = "%s %s of %s" % (m.group(1).replace(",", ""), m.group(2), m.group(4).replace(",", ""))
                continue
            m = R_INSIDE.match(b)
            if m:
                cur["near"] = "inside of %s" % m.group(2).replace(",", "")
                continue
            m = R_HOSTUNINIT.match(b)
            if m:
                cur["address"] = int(m.group(1), 16)
                cur["call"] = m.group(2)
            continue
        b = body.strip()
        cur = None
        if not b:
            continue
        m = R_NOTPRINTED.search(b)
        if m:
            not_printed = int(m.group(1))
            continue
        m = R_ERRSUM.search(b)
        if m:
            err_sum = int(m.group(1))
            continue
        m = R_LEAKSUM.search(b)
        if m:
            leak_sum = [int(m.group(1)), int(m.group(2))]
            continue
        m = R_UNINIT.match(b)
        if m:
            cur = {"kind": "uninit-read", "space": m.group(1), "size": int(m.group(2))}
        elif R_INVALID.match(b):
            m = R_INVALID.match(b)
            cur = {"kind": "invalid-access", "space": m.group(1), "access": m.group(2), "size": int(m.group(3))}
        elif R_LEAK.match(b):
            m = R_LEAK.match(b)
            cur = {"kind": "leak", "size": int(m.group(1).replace(",", "")), "address": int(m.group(2), 16)}
        elif R_HOSTAPI.match(b):
            m = R_HOSTAPI.match(b)
            cur = {"kind": "host-uninit", "size": int(m.group(2)), "copy": int(m.group(1), 16)}
        elif R_APIERR.match(b):
            m = R_APIERR.match(b)
            cur = {"kind": "api-error", "error": m.group(1), "call": m.group(4)}
        elif R_RACE.match(b) or R_RACESUM.search(b) or R_BARRIER.match(b):
            cur = None
            continue
        elif b.startswith("COMPUTE-SANITIZER") or b.startswith("Target application") \
                or b.startswith("(") or b.startswith("Saved host") or b.startswith("Host Frame"):
            continue
        else:
            cur = {"kind": "other", "message": b}
        recs.append(cur)
    # offsets from the program's own allocations
    for r in recs:
        a = r.get("address")
        if a is None:
            continue
        best = None
        for name, base in allocs.items():
            if base and a >= base and (best is None or base > allocs[best]):
                best = name
        if best is not None and a - allocs[best] < (1 << 20):
            r["alloc"], r["offset"] = best, a - allocs[best]
    races, race_sum, bars = checks(text)
    return {"records": recs, "error_summary": err_sum, "leak_summary": leak_sum, "not_printed": not_printed,
            "program": prog, "asserts": sorted(asserts), "allocs": allocs, "races": races,
            "race_summary": race_sum, "barriers": bars}


def key(r, near=True):
    """What check.py compares of a record (addresses only as offsets); near:
    with the nearest-allocation line (which depends on the allocator's layout
    where the address lies between two allocations)."""
    return (r.get("kind"), r.get("space"), r.get("access"), r.get("size"), r.get("kernel"), r.get("file"),
            r.get("line"), tuple(r.get("thread", [])), tuple(r.get("block", [])), r.get("cause"),
            r.get("alloc"), r.get("offset"), r.get("error"), r.get("call"),
            r.get("near") if near and r.get("alloc") else None, tuple(r.get("frames", [])))


def main():
    d = sys.argv[1]
    only = sys.argv[2] if len(sys.argv) > 2 else None
    out = {}
    for f in sorted(os.listdir(d)):
        if not f.endswith(".txt") or f.count(".") != 2:
            continue
        name = f[:-4]
        if only and name != only:
            continue
        with open(os.path.join(d, f), errors="replace") as fh:
            out[name] = parse(fh.read())
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
