#!/usr/bin/env python3
"""mma_fit.py [FORM...]: fits models of the tensor cores' f32 accumulation
to the H100 recording (recorded/mma.out, from mma.cu) and prints, per
floating-point form, the models that reproduce the most results bit for bit
(the special-value trials, every fourth, are left out). Model parameters:
  F      bits kept below the alignment exponent
  Bk     products aligned together (the running sum joins each block)
  emode  'act': a product's exponent is its own; 'sum': the sum of its
         factors' exponents (before normalisation)
  cmode  'in': C is aligned with the products; 'after': added at the end
  final  'rz' / 'rn': rounding of each block's sum to f32
On CUDA 13.0 / H100 every form is reproduced in full by F=25, one block,
'sum', 'in', 'rz': the model src/exec/mma.c implements."""
import struct, math, sys, itertools
def f16(h):
    s = -1 if h >> 15 else 1; e = (h >> 10) & 31; m = h & 1023
    if e == 31: return math.nan if m else s * math.inf
    return s * (m * 2.0**-24 if e == 0 else (1024 + m) * 2.0**(e - 25))
def bf16(h): return struct.unpack('<f', struct.pack('<I', (h&0xffff) << 16))[0]
def f32(u): return struct.unpack('<f', struct.pack('<I', u))[0]
def tf32(u): return f32(u & 0xffffe000)
def b32(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def rz32(x):
    if x == 0 or math.isinf(x) or math.isnan(x): return b32(x)
    m, e = math.frexp(abs(x))  # abs = m*2^e, m in [0.5,1)
    # keep 24 bits
    q = math.ldexp(1.0, e - 24)
    if e - 1 < -126: q = 2.0**-149
    v = math.trunc(abs(x) / q) * q
    return b32(math.copysign(v, x))
def rn32(x): return b32(x)
def expo(t): return math.frexp(t)[1] - 1
FORMS = {"m16n8k16_f32_f16": (16, 'f16'), "m16n8k16_f32_bf16": (16, 'bf16'), "m16n8k8_f32_tf32": (8, 'tf32'), "m16n8k8_f32_f16": (8, 'f16'), "m16n8k8_f32_bf16": (8, 'bf16'),
         "m16n8k16_f32_f16_wide": (16, 'f16'), "m16n8k16_f32_bf16_wide": (16, 'bf16'), "m16n8k8_f32_tf32_wide": (8, 'tf32')}
def apos(k, ty, l, i):
    g, t = l >> 2, l & 3
    if ty == 'tf32': return g + 8 * (i & 1), t + 4 * (i >> 1)
    if k == 8: return g + 8 * (i >> 1), 2 * t + (i & 1)
    return g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2)
def bpos(k, ty, l, i):
    g, t = l >> 2, l & 3
    if ty == 'tf32': return t + 4 * i, g
    return 2 * t + (i & 1) + 8 * (i >> 1), g
def load(path):
    cur=None; data={}
    for line in open(path):
        if line.startswith('cfg'): cur=line.split()[1]; data[cur]={}; continue
        p=line.split()
        if cur in FORMS and len(p)==16: data[cur][(int(p[0]),int(p[1]))]=[int(x,16) for x in p[2:]]
    out={}
    for name,(k,ty) in FORMS.items():
        conv={'f16':f16,'bf16':bf16,'tf32':tf32}[ty]; cases=[]
        for trial in range(32):
            if trial%4==3: continue
            A=[[0.0]*k for _ in range(16)]; B=[[0.0]*8 for _ in range(k)]; C=[[0.0]*8 for _ in range(16)]; D={}
            per=1 if ty=='tf32' else 2; na=4 if (k==16 or ty=='tf32') else 2; nb=2 if (k==16 or ty=='tf32') else 1
            for l in range(32):
                w=data[name][(trial,l)]
                for i in range(na*per):
                    r,c=apos(k,ty,l,i); x=(w[i//per]>>(16*(i%per)))&0xffff if per==2 else w[i]; A[r][c]=conv(x)
                for i in range(nb*per):
                    r,c=bpos(k,ty,l,i); x=(w[4+i//per]>>(16*(i%per)))&0xffff if per==2 else w[4+i]; B[r][c]=conv(x)
                g,t=l>>2,l&3
                for i in range(4):
                    r,c=g+8*(i>>1),2*t+(i&1); C[r][c]=f32(w[6+i]); D[(r,c)]=w[10+i]
            for (r,c),d in D.items():
                cases.append((C[r][c],[A[r][j]*B[j][c] for j in range(k)],[(expo(A[r][j]) if A[r][j] else None, expo(B[j][c]) if B[j][c] else None) for j in range(k)],d))
        out[name]=cases
    return out
import sys
data=load(__import__('os').path.join(__import__('os').path.dirname(__file__), 'recorded', 'mma.out'))
def model(c, prods, ex, F, Bk, emode, cmode, final):
    k=len(prods)
    def pexp(j):
        if prods[j]==0: return None
        return expo(prods[j]) if emode=='act' else ex[j][0]+ex[j][1]
    acc=c
    rnd = rz32 if final=='rz' else rn32
    if cmode=='after':
        tot=0.0
        for j0 in range(0,k,Bk):
            es=[pexp(j) for j in range(j0,min(k,j0+Bk)) if pexp(j) is not None]
            if not es: continue
            q=2.0**(max(es)-F)
            s=sum(math.trunc(prods[j]/q)*q for j in range(j0,min(k,j0+Bk)))
            tot=f32(rz32(tot+s)) if j0 else s
        return rnd(c+tot)
    for j0 in range(0,k,Bk):
        es=[pexp(j) for j in range(j0,min(k,j0+Bk)) if pexp(j) is not None]
        if acc!=0: es.append(expo(acc))
        if not es: continue
        q=2.0**(max(es)-F)
        s=math.trunc(acc/q)*q+sum(math.trunc(prods[j]/q)*q for j in range(j0,min(k,j0+Bk)))
        acc=f32(rnd(s))
    return b32(acc)
names=sys.argv[1:] or list(data)
for name in names:
    cases=data[name]; k=len(cases[0][1])
    res=[]
    for F in range(22,30):
        for Bk in ([k] if k==8 else [4,8,16]):
            for emode in ('act','sum'):
                for cmode in ('in','after'):
                    for final in ('rz','rn'):
                        ok=sum(model(c,p,e,F,Bk,emode,cmode,final)==d for c,p,e,d in cases)
                        res.append((ok,F,Bk,emode,cmode,final))
    res.sort(reverse=True)
    print(name,len(cases),res[:6]); sys.stdout.flush()
