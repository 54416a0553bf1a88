#!/usr/bin/env python3
"""gen_entries.py: runtime/entries.def, the table of every entry point that
CUDA's cuda_runtime_api.h and cuda.h declare, with its API area and status.

  gen_entries.py init [--force]   write runtime/entries.def from the headers
                                  (once; afterwards the table is kept by hand)
  gen_entries.py check BUILD      the coverage test: the table lists exactly
                                  the headers' functions, every one is
                                  exported by BUILD/runtime/libcudart.so.13 or
                                  libcuda.so.1 (nm -D), and README.md's table
                                  is the table's
  gen_entries.py table            the README table (counts per area)

The headers are read as a C compiler reads them (cc -E): a declaration's
name is the one a program built against the header references, so the
driver's versioned names (cuMemAlloc_v2) come out as such.
"""
import os
import re
import subprocess
import sys
from collections import OrderedDict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEF = os.path.join(ROOT, "runtime", "entries.def")
PT_DEF = os.path.join(ROOT, "runtime", "entries_pt.def")
README = os.path.join(ROOT, "README.md")
CUDA_INC = os.environ.get("CUDA_INC", "/usr/local/cuda/include")
HEADERS = (("RT", "cuda_runtime_api.h"), ("CU", "cuda.h"))
STATUSES = ("IMPL", "STUB", "NODEV")
TABLE_BEGIN = "<!-- entries table: scripts/gen_entries.py table -->"
TABLE_END = "<!-- end of entries table -->"


def declarations(header, defines=()):
    """Function names declared by a header, in order, after preprocessing."""
    out = subprocess.run(["cc", "-E", "-P", "-x", "c", "-I" + CUDA_INC] + list(defines) + ["-"],
                         input="#include <%s>\n" % header, capture_output=True, text=True, check=True).stdout
    names, depth, cur = [], 0, []
    stmts = []
    for ch in out:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                cur = []  # a definition or a type body: not a declaration
                continue
        if ch == ";" and depth == 0:
            stmts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    for s in stmts:
        s = " ".join(s.split())
        if s.startswith("typedef") or "(" not in s:
            continue
        m = re.match(r"^(.*?)\b((?:cuda|cu)[A-Za-z0-9_]*)\s*\(", s)
        if m and m.group(2) not in names:
            names.append(m.group(2))
    return names


# The area of an entry point: the first pattern its name (without cuda/cu)
# matches. Areas are the files' names under runtime/cudart and driver/.
AREAS = [
    (r"^Graphics", "interop"),
    (r"ExternalSemaphore|ExternalMemory|Import(External)", "external"),
    (r"^Ipc", "ipc"),
    (r"NvSci", "external"),
    (r"^Multicast", "multicast"),
    (r"^Checkpoint", "checkpoint"),
    (r"^Coredump", "coredump"),
    (r"^Logs", "log"),
    (r"^UserObject", "userobj"),
    (r"^(Graph|DeviceGraphMem|DeviceGetGraphMem|DeviceSetGraphMem)", "graph"),
    (r"Captur", "capture"),
    (r"^(MemPool|MallocFromPool|MemAllocFromPool|DeviceGetMemPool|DeviceSetMemPool|DeviceGetDefaultMemPool|"
     r"MemGetDefaultMemPool|MemGetMemPool|MemSetMemPool|MallocAsync|FreeAsync|MemAllocAsync|MemFreeAsync)", "pool"),
    (r"MipmappedArray|^Array|Array(Async)?(_v2)?$|ArrayToArray|ToArray|FromArray|^Memcpy(Dto|Hto|Ato)A|^MemcpyAto|"
     r"ChannelDesc|^MallocArray|^Malloc3DArray|^FreeArray", "array"),
    (r"^(TexRef|Tex|Surf|CreateTexture|DestroyTexture|GetTexture|CreateSurface|DestroySurface|GetSurface|"
     r"ModuleGetTexRef|ModuleGetSurfRef)|Texture1DLinear|^ParamSetTexRef", "texture"),
    (r"^TensorMap", "tensormap"),
    (r"^(Library|Kernel|GetKernel)", "library"),
    (r"^(Module|Link)", "module"),
    (r"^GreenCtx|GreenCtx|DevResource|DevSmResource", "greenctx"),
    (r"^Ctx|^DevicePrimaryCtx", "context"),
    (r"^Occupancy", "occupancy"),
    (r"Peer|P2P", "peer"),
    (r"^(Launch|Func|ParamSet|GetFuncBySymbol|ConfigureCall|SetupArgument)", "launch"),
    (r"^Stream(WaitValue|WriteValue|BatchMemOp)", "streammemop"),
    (r"^Stream|^ThreadExchange", "stream"),
    (r"^Event", "event"),
    (r"^Mem(AddressReserve|AddressFree|Create|Release|Map|Unmap|SetAccess|GetAccess|ExportToShareable|"
     r"ImportFromShareable|GetAllocation|RetainAllocation)", "vmm"),
    (r"^(Mem|Malloc|Free|Host|Pointer|GetSymbol|Memcpy|Memset)", "memory"),
    (r"^(GetLastError|PeekAtLastError|GetErrorName|GetErrorString)", "error"),
    (r"^(GetProcAddress|GetDriverEntryPoint|GetExportTable)", "proc"),
    (r"^(Init|DriverGetVersion|RuntimeGetVersion)", "version"),
    (r"^(Device|GetDevice|SetDevice|ChooseDevice|InitDevice|SetValidDevices|FlushGPUDirect|Ctx)", "device"),
]

# What cannot exist on one emulated device with no graphics and no other
# processes: an H100 host without the feature answers "not supported".
NODEV_AREAS = {"interop", "external", "ipc", "multicast", "checkpoint"}
NODEV_NAMES = {"cuDeviceGetLuid", "cuMemExportToShareableHandle", "cuMemImportFromShareableHandle",
               "cudaMemPoolExportToShareableHandle", "cudaMemPoolImportFromShareableHandle",
               "cuMemPoolExportToShareableHandle", "cuMemPoolImportFromShareableHandle", "cudaMemPoolExportPointer",
               "cudaMemPoolImportPointer", "cuMemPoolExportPointer", "cuMemPoolImportPointer"}
# Stubs until the work of other branches lands (the integrator flips them):
# entry points smemu exports today only as "not supported" stubs.
OLD_STUBS_FILE = os.path.join(ROOT, "runtime", "cudart", "unsupported.c")


def area_of(name):
    base = re.sub(r"^(cuda|cu)", "", name)
    for pat, area in AREAS:
        if re.search(pat, base):
            return area
    return "misc"


def exported(build):
    names = set()
    for lib in ("libcudart.so.13", "libcuda.so.1"):
        path = os.path.join(build, "runtime", lib)
        out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) >= 3:
                names.add(parts[2].split("@")[0])
    return names


def read_def():
    rows = []
    pat = re.compile(r"^ENTRY\((RT|CU), (\w+), (\w+), (\w+)\)\s*$")
    for n, line in enumerate(open(DEF), 1):
        if not line.startswith("ENTRY"):
            continue
        m = pat.match(line)
        if not m or m.group(4) not in STATUSES:
            sys.exit("%s:%d: expected ENTRY(RT|CU, name, area, IMPL|STUB|NODEV)" % (DEF, n))
        rows.append(m.groups())
    return rows


def init(force):
    if os.path.exists(DEF) and not force:
        sys.exit("%s exists: it is kept by hand now (init --force rewrites it)" % DEF)
    old_stubs = set(re.findall(r"^UNSUPPORTED\((\w+)\)", open(OLD_STUBS_FILE).read(), re.M)) \
        if os.path.exists(OLD_STUBS_FILE) else set()
    have = exported(os.path.join(ROOT, "build"))
    lines = []
    for api, header in HEADERS:
        lines.append("")
        lines.append("/* ---- %s ---- */" % header)
        for name in declarations(header):
            area = area_of(name)
            if name in have and name not in old_stubs:
                status = "IMPL"
            elif area in NODEV_AREAS or name in NODEV_NAMES:
                status = "NODEV"
            else:
                status = "STUB"
            lines.append("ENTRY(%s, %s, %s, %s)" % (api, name, area, status))
    with open(DEF, "w") as f:
        f.write(HEAD + "\n".join(lines).lstrip("\n") + "\n")
    with open(PT_DEF, "w") as f:
        f.write(PT_HEAD + "".join("PT(%s, %s)\n" % (v, b) for v, b in per_thread()))


PT = ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]


def per_thread():
    """(variant, base) of every per-thread default-stream name (_ptds,
    _ptsz) the headers declare with CUDA_API_PER_THREAD_DEFAULT_STREAM."""
    pairs = []
    for api, header in HEADERS:
        plain = set(declarations(header))
        for n in declarations(header, PT):
            if n not in plain and re.search(r"_pt(ds|sz)$", n):
                pairs.append((n, n[:-5]))
    return pairs


def read_pt():
    pat = re.compile(r"^PT\((\w+), (\w+)\)\s*$")
    rows = []
    for n, line in enumerate(open(PT_DEF), 1):
        if line.startswith("PT("):
            m = pat.match(line)
            if not m:
                sys.exit("%s:%d: expected PT(variant, base)" % (PT_DEF, n))
            rows.append(m.groups())
    return rows


PT_HEAD = """/* entries_pt.def: the per-thread default-stream names (_ptds, _ptsz) of
 * CUDA 13.0's headers, which a program built with `nvcc --default-stream
 * per-thread` (or CUDA_API_PER_THREAD_DEFAULT_STREAM) references, and the
 * entry point each stands for: PT(variant, base). On one in-order queue the
 * per-thread default stream is the default stream, so each variant is its
 * base (core/per_thread.c jumps there, implemented or stub). Made by
 * scripts/gen_entries.py init, kept by hand; checked with entries.def. */
"""


HEAD = """/* entries.def: every function CUDA 13.0's cuda_runtime_api.h (RT) and
 * cuda.h (CU) declare, as a program built against them references it (the
 * driver's versioned names: cuMemAlloc_v2), with its API area and status:
 *   IMPL   implemented (runtime/cudart/<area>.c, runtime/driver/...)
 *   STUB   not yet: a generated stub returns cudaErrorNotSupported /
 *          CUDA_ERROR_NOT_SUPPORTED and says so once on stderr
 *   NODEV  cannot exist on one emulated device (graphics interop, external
 *          memory and semaphores, IPC, multicast, NvSci): the stub returns
 *          what a GPU host without the feature returns, not supported
 * ENTRY(API, name, area, status). Made once by scripts/gen_entries.py init,
 * kept by hand since: implementing a function is defining it and turning
 * its STUB into IMPL. runtime/cudart/stubs.c makes the stubs, the coverage
 * test (scripts/gen_entries.py check) compares the table with the headers
 * and the libraries' exports, and README.md's table counts it. */
"""


def table(rows):
    areas = OrderedDict()
    for api, name, area, status in rows:
        a = areas.setdefault(area, {"RT": [0, 0], "CU": [0, 0], "STUB": 0, "NODEV": 0})
        a[api][0] += 1
        if status == "IMPL":
            a[api][1] += 1
        elif status == "STUB":
            a["STUB"] += 1
        else:
            a["NODEV"] += 1
    out = [TABLE_BEGIN, "",
           "| area | runtime (implemented / declared) | driver (implemented / declared) | stubs | not on one device |",
           "|---|---|---|---|---|"]
    tot = {"RT": [0, 0], "CU": [0, 0], "STUB": 0, "NODEV": 0}
    for area in sorted(areas):
        a = areas[area]
        cell = lambda k: "%d / %d" % (a[k][1], a[k][0]) if a[k][0] else "-"
        out.append("| %s | %s | %s | %d | %d |" % (area, cell("RT"), cell("CU"), a["STUB"], a["NODEV"]))
        for k in ("RT", "CU"):
            tot[k][0] += a[k][0]
            tot[k][1] += a[k][1]
        tot["STUB"] += a["STUB"]
        tot["NODEV"] += a["NODEV"]
    out.append("| **all** | **%d / %d** | **%d / %d** | **%d** | **%d** |" % (
        tot["RT"][1], tot["RT"][0], tot["CU"][1], tot["CU"][0], tot["STUB"], tot["NODEV"]))
    out += ["", TABLE_END]
    return "\n".join(out)


def check(build):
    rows = read_def()
    fails = []
    seen = {}
    for api, name, area, status in rows:
        if name in seen:
            fails.append("%s listed twice" % name)
        seen[name] = api
    for api, header in HEADERS:
        declared = declarations(header)
        listed = [r[1] for r in rows if r[0] == api]
        for n in declared:
            if n not in seen:
                fails.append("%s: %s is declared but not in runtime/entries.def" % (header, n))
        for n in listed:
            if n not in declared:
                fails.append("runtime/entries.def: %s is not declared by %s" % (n, header))
    pt = read_pt()
    if sorted(pt) != sorted(per_thread()):
        fails.append("runtime/entries_pt.def is not the headers' per-thread names (scripts/gen_entries.py init)")
    have = exported(build)
    missing = [r[1] for r in rows if r[1] not in have] + [v for v, b in pt if v not in have]
    for n in missing:
        fails.append("%s is not exported by libcudart.so.13 / libcuda.so.1" % n)
    for api in ("RT", "CU"):
        sel = [r for r in rows if r[0] == api]
        exp = [r for r in sel if r[1] in have]
        impl = [r for r in sel if r[3] == "IMPL"]
        print("%s: %d declared, %d exported (%.1f%%), %d implemented, %d stubs, %d not on one device" % (
            dict(HEADERS)[api], len(sel), len(exp), 100.0 * len(exp) / max(1, len(sel)), len(impl),
            sum(r[3] == "STUB" for r in sel), sum(r[3] == "NODEV" for r in sel)))
    print("per-thread default-stream names: %d declared, %d exported" % (len(pt), sum(v in have for v, b in pt)))
    readme = open(README).read()
    if table(rows) not in readme:
        fails.append("README.md's entries table is not the table's (scripts/gen_entries.py table)")
    for f in fails:
        print("FAIL: " + f)
    return 1 if fails else 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "init":
        init("--force" in argv)
        return 0
    if len(argv) == 3 and argv[1] == "check":
        return check(argv[2])
    if len(argv) == 2 and argv[1] == "table":
        print(table(read_def()))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
