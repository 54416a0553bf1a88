#!/usr/bin/env python3
"""fit_layout.py check|table|LOAD_NAME...: the wmma fragment mapping from
the recording (recorded/wmma.out, gen_wmma.py's load patterns). mapping()
names the (row, column) of every lane's register field; fit() checks that
it is linear in the bits of lane and element index and gives the steps;
`check` prints them per fragment, `table` the C rows of src/exec/wmma.c,
load names the first lanes' elements."""
import re,collections
L=collections.defaultdict(dict)
for line in open(__import__("os").path.join(__import__("os").path.dirname(__file__) or ".", "recorded/wmma.out")):
    f=line.split()
    if f[0].startswith("load_"):
        L[f[0]][int(f[1][1:])]=[int(x,16) for x in f[2:]]
BITS={"f16":16,"bf16":16,"tf32":32,"f32":32,"s32":32,"f64":64,"s8":8,"u8":8,"s4":4,"u4":4,"b1":1}
SH={"m16n16k16":(16,16,16),"m32n8k16":(32,8,16),"m8n32k16":(8,32,16),"m16n16k8":(16,16,8),"m8n8k4":(8,8,4),"m8n8k32":(8,8,32),"m8n8k128":(8,8,128)}
def mapping(name):
    p=name.split("_"); fr,lay,s,t=p[1],p[2],p[3],p[4]
    b=BITS[t]; pats=L[name]; M,N,K=SH[s]
    R,C={"a":(M,K),"b":(K,N),"c":(M,N)}[fr]
    ld=(1 if name.endswith("_dflt") else 2)*(C if lay=="row" else R)
    words=pats[0]
    nw=len(words)//32
    res={}
    for lane in range(32):
        for r in range(nw):
            if b==64:
                if r%2: continue
                import struct
                v=struct.unpack("<d",struct.pack("<Q",words[lane*nw+r]|words[lane*nw+r+1]<<32))[0]
                idxs=[int(v)]
            elif b>=16:
                per=32//b
                idxs=[(words[lane*nw+r]>>(b*h))&((1<<b)-1) for h in range(per)]
            else:
                per=32//b; idxs=[]
                for h in range(per):
                    e=0
                    for p,ws in pats.items(): e|=((ws[lane*nw+r]>>(b*h))&((1<<b)-1))<<(b*p)
                    idxs.append(e)
            for h,e in enumerate(idxs):
                maj,mn=divmod(e,ld)
                rc=(maj,mn) if lay=="row" else (mn,maj)
                res[(lane,r if b!=64 else r//2,h)]=rc
    return res
import sys
for n in [a for a in sys.argv[1:] if a.startswith("load_")]:
    m=mapping(n); print(n)
    for lane in (0,1,2,3,4,5,31):
        print(lane,[m[k] for k in sorted(m) if k[0]==lane])

def fit(m):
    nj=max(k[1] for k in m)+1; per=max(k[2] for k in m)+1
    slots=nj*per
    def rc(l,j): return m[(l,j//per,j%per)]
    base=rc(0,0)
    lb=[tuple(x-y for x,y in zip(rc(1<<b,0),base)) for b in range(5)]
    jb=[tuple(x-y for x,y in zip(rc(0,1<<b),base)) for b in range((slots-1).bit_length())]
    for l in range(32):
        for j in range(slots):
            e=list(base)
            for b in range(5):
                if l>>b&1: e=[x+y for x,y in zip(e,lb[b])]
            for b in range(len(jb)):
                if j>>b&1: e=[x+y for x,y in zip(e,jb[b])]
            if tuple(e)!=rc(l,j): return None
    return base,lb,jb
if __name__=="__main__" and sys.argv[1:]==["check"]:
    seen={}
    for n in L:
        p=n.split("_")
        m=mapping(n); f=fit(m)
        key=(p[1],p[3],p[4])
        if f is None: print("NOFIT",n); continue
        if key in seen:
            if seen[key]!=f: print("DIFF",n)
            continue
        seen[key]=f
        print(key,f)

def ctable():
    """The C rows of src/exec/wmma.c's fragment table, from the recording."""
    rows = {}
    for n in L:
        p = n.split("_")
        fr, s, t = p[1], p[3], p[4]
        cls = {"u8": "s8", "u4": "s4", "f32": "c32", "s32": "c32", "f16": "f16" if fr != "c" else "c32"}.get(t, t)
        if fr == "c" and t == "f64":
            cls = "c64"
        f = fit(mapping(n))
        key = (fr, s, cls)
        if key not in rows:
            rows[key] = f
    for (fr, s, cls), (base, lb, jb) in sorted(rows.items()):
        pr = lambda v: "{" + ", ".join("{%d, %d}" % x for x in v) + "}"
        print("    {'%s', SH_%s, FC_%s, %s, %d, %s}," % (fr, s.upper(), cls.upper(), pr(lb), len(jb), pr(jb)))
if __name__=="__main__" and sys.argv[1:]==["table"]: ctable()
