#!/usr/bin/env python3
"""mma_model.py RECORDING: fits models of the tensor cores' f32 accumulation
to a recorded mma.out (mma.cu). For each floating-point form it rebuilds A,
B, C from the recorded fragments (PTX ISA layouts), computes D under several
models and prints how many results each reproduces bit for bit:
  rn        the exact sum rounded once to nearest (what smemu does)
  tF[bB]    terms aligned to the largest exponent, truncated to F bits below
            it, summed exactly in blocks of B products (+ the running sum),
            the block result truncated to f32 (round toward zero)
The recording stays the oracle; this only explains the differences."""
import struct, sys, math
from fractions import Fraction as Fr

def f16(h):
    s = -1 if h >> 15 else 1; e = (h >> 10) & 31; m = h & 1023
    if e == 31: return math.nan if m else s * math.inf
    return s * (m * 2.0**-24 if e == 0 else (1024 + m) * 2.0**(e - 25))
def bf16(h): return struct.unpack('<f', struct.pack('<I', h << 16))[0]
def f32(u): return struct.unpack('<f', struct.pack('<I', u))[0]
def tf32(u): return f32(u & 0xffffe000)
def bits32(x): return struct.unpack('<I', struct.pack('<f', x))[0]

def rz32(x):
    """x (a Fraction) rounded toward zero to f32 bits."""
    if x == 0: return 0
    s = 0x80000000 if x < 0 else 0; a = abs(x)
    e = math.floor(math.log2(a))
    while Fr(2)**e > a: e -= 1
    while Fr(2)**(e + 1) <= a: e += 1
    if e > 127: return s | 0x7f7fffff
    if e < -126: q = int(a / Fr(2)**-149); return s | q
    q = int(a / Fr(2)**(e - 23))
    return s | ((e + 127) << 23) | (q - (1 << 23))
def rn32(x):
    return bits32(float(x)) if abs(x) < 2**128 else (0xff800000 if x < 0 else 0x7f800000)

def expo(x):
    a = abs(x); e = math.floor(math.log2(a))
    while Fr(2)**e > a: e -= 1
    while Fr(2)**(e + 1) <= a: e += 1
    return e

def trunc_sum(terms, F):
    nz = [t for t in terms if t != 0]
    if not nz: return Fr(0)
    emax = max(expo(t) for t in nz)
    q = Fr(2)**(emax - F)
    return sum((Fr(int(t / q)) * q for t in nz), Fr(0))

FORMS = {"m16n8k16_f32_f16": (16, 'f16'), "m16n8k16_f32_bf16": (16, 'bf16'),
         "m16n8k8_f32_tf32": (8, 'tf32'), "m16n8k8_f32_f16": (8, 'f16'), "m16n8k8_f32_bf16": (8, 'bf16')}

def apos(k, ty, l, i):
    g, t = l >> 2, l & 3
    if ty == 'tf32': return g + 8 * (i & 1), t + 4 * (i >> 1)
    if k == 8: return g + 8 * (i >> 1), 2 * t + (i & 1)
    return g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)
def bpos(k, ty, l, i):
    g, t = l >> 2, l & 3
    if ty == 'tf32': return t + 4 * i, g
    return 2 * t + (i & 1) + 8 * (i >> 1), g

def main():
    cur = None; data = {}
    for line in open(sys.argv[1]):
        if line.startswith('cfg'):
            cur = line.split()[1]; data[cur] = {}; continue
        p = line.split()
        if cur in FORMS and len(p) == 16:
            data[cur][(int(p[0]), int(p[1]))] = [int(x, 16) for x in p[2:]]
    models = [('rn', None, None)] + [('t%d b%d' % (F, B), F, B) for F in (23, 24, 25, 26, 27) for B in (4, 8, 16)]
    for name, (k, ty) in FORMS.items():
        if name not in data: continue
        conv = {'f16': f16, 'bf16': bf16, 'tf32': tf32}[ty]
        score = {m[0]: 0 for m in models}; total = 0
        for trial in range(32):
            A = [[0.0] * k for _ in range(16)]; B = [[0.0] * 8 for _ in range(k)]; C = [[0.0] * 8 for _ in range(16)]
            D = {}
            for l in range(32):
                w = data[name].get((trial, l))
                if not w: break
                na = 4 if (k == 16 or ty == 'tf32') else 2; nb = 2 if (k == 16 or ty == 'tf32') else 1
                per = 1 if ty == 'tf32' else 2
                for i in range(na * per):
                    r, c = apos(k, ty, l, i); x = w[i // per] >> (16 * (i % per)) if per == 2 else w[i]
                    A[r][c] = conv(x & 0xffff if per == 2 else x)
                for i in range(nb * per):
                    r, c = bpos(k, ty, l, i); x = w[4 + i // per] >> (16 * (i % per)) if per == 2 else w[4 + i]
                    B[r][c] = conv(x & 0xffff if per == 2 else x)
                g, t = l >> 2, l & 3
                for i in range(4):
                    r, c = g + 8 * (i >> 1), 2 * t + (i & 1)
                    C[r][c] = f32(w[6 + i]); D[(r, c)] = w[10 + i]
            if trial % 4 == 3: continue  # specials: compared by the C test
            for (r, c), d in D.items():
                if any(map(math.isinf, [C[r][c]] + [A[r][j] * B[j][c] for j in range(k)])): continue
                total += 1
                prods = [Fr(A[r][j]) * Fr(B[j][c]) for j in range(k)]
                for m, F, Bk in models:
                    if F is None:
                        got = rn32(Fr(C[r][c]) + sum(prods, Fr(0)))
                    else:
                        acc = Fr(C[r][c])
                        for j in range(0, k, Bk):
                            acc = Fr(f32(rz32(trunc_sum([acc] + prods[j:j + Bk], F))))
                        got = rz32(acc)
                    score[m] += got == d
        best = sorted(score.items(), key=lambda x: -x[1])[:5]
        print(name, total, 'results;', ', '.join('%s %d' % b for b in best))

main()
