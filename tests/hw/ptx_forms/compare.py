#!/usr/bin/env python3
"""compare.py RECORDED SMEMU: the lines of forms.cu's output, smemu's
against a GPU's. Every form must give the GPU's bits exactly, except the
.approx transcendental forms (tanh, ex2), whose hardware tables smemu does
not reproduce: their results must lie within the bound below of the GPU's
(in units in the last place of the result's format, per f32 or per half),
and agree on NaN, infinities and signed zero. Exit status 0 when all do."""
import struct, sys

# form name prefix -> (format of each result part, largest ulp distance)
APPROX = {
    "tanh_f32": ("f32", 256),       # measured 114 ulp (PTX allows about 2^-11 relative)
    "ex2_f32": ("f32", 2),          # PTX: max 2 ulp
    "ex2_ftz_f32": ("f32", 2),
    "tanh_f16x2": ("h2", 1),        # measured: 1 ulp at most, per half
    "tanh_bf16x2": ("h2", 1),
    "ex2_f16x2": ("h2", 1),
    "ex2_ftz_bf16x2": ("h2", 1),
}

def ordered(v, bits):
    """The integer order of a float's bits (sign-magnitude to two's complement)."""
    sign = 1 << (bits - 1)
    return -(v & (sign - 1)) if v & sign else v

def is_nan(v, bits, bf):
    if bits == 32:
        return (v & 0x7fffffff) > 0x7f800000
    return (v & 0x7fff) > (0x7f80 if bf else 0x7c00)

def close(name, fmt, limit, a, b):
    parts = [(a, b, 32)] if fmt == "f32" else [(a & 0xffff, b & 0xffff, 16), (a >> 16, b >> 16, 16)]
    bf = "bf16" in name
    for x, y, bits in parts:
        if is_nan(x, bits, bf) or is_nan(y, bits, bf):
            if not (is_nan(x, bits, bf) and is_nan(y, bits, bf)):
                return False
            continue
        if abs(ordered(x, bits) - ordered(y, bits)) > limit:
            return False
    return True

def lines(path):
    out = {}
    for ln in open(path):
        f = ln.split()
        if len(f) >= 4 and f[-2] == "->":
            out[(f[0], f[1])] = (f[2:-2], int(f[-1], 16))
    return out

def main():
    gpu, emu = lines(sys.argv[1]), lines(sys.argv[2])
    bad = 0
    worst = {}
    for key, (ins, want) in gpu.items():
        name = key[0]
        if key not in emu:
            print("missing:", *key)
            bad += 1
            continue
        eins, got = emu[key]
        if eins != ins:
            print("inputs differ:", *key)
            bad += 1
        elif name in APPROX:
            fmt, limit = APPROX[name]
            if not close(name, fmt, limit, want, got):
                print("beyond %d ulp: %s %s %s gpu %08x smemu %08x" % (limit, name, key[1], " ".join(ins), want, got))
                bad += 1
        elif want != got:
            print("differs: %s %s %s gpu %08x smemu %08x" % (name, key[1], " ".join(ins), want, got))
            bad += 1
    print("%d results compared, %d forms, %d bad" % (len(gpu), len({k[0] for k in gpu}), bad))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
