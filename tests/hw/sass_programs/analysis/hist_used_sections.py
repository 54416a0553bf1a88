#!/usr/bin/env python3
"""hist_used_sections.py: why tests/programs/hist_used's load count cannot
come from a per-line mapping, and what reproduces it. The bin-sum loop
`for (j = 0; j < c; j++) sum += slots[t][j]` (c = a lane's bin count,
different in every lane of the warp) is unrolled by 4 in the PTX and again
by ptxas into sections executed in turn per lane (tests/programs/hist_used
SASS, nvdisasm -c -gi):
  a 16-element loop (8 LDS.64) run k16 = ceil((q-3)/4) times when q >= 4,
  an 8-element block (4 LDS.64) once when 2 or 3 bodies remain,
  a 4-element loop (2 LDS.64) for the rest, then the c % 4 scalar LDS,
where q = c // 4. The warp runs each section as long as any lane needs it,
so its instruction count is  1 + 8 max(k16) + 4 any(8-block) + 2 max(n4)
+ max(c % 4)  per block: summed over the 24 blocks that is 432, the H100's
count exactly (smemu, which follows the PTX's structure: 348). Counting
this needs each lane's trip count and the SASS's section structure: a
per-lane walk of the SASS control flow, not a mapping of PTX accesses.
Run: python3 hist_used_sections.py  ->  432."""
import math
s=21
def lcg():
    global s
    s=(s*1664525+1013904223)&0xffffffff
    return s>>8
blocks,threads=24,256
h=[lcg()%100000 for _ in range(blocks*threads)]
tot_sass=0
for b in range(blocks):
    cnt=[0]*16
    for t in range(threads): cnt[h[b*threads+t]%16]+=1
    cs=[min(c,64) for c in cnt]
    k16=[];b8=[];n4=[];rem=[]
    for c in cs:
        q=c>>2; r=c&3
        if c>=4:
            if q>=4:
                k=math.ceil((q-3)/4); left=q-4*k
            else: k=0; left=q
            e8 = left>=2
            if e8: left-=2
            k16.append(k); b8.append(e8); n4.append(left)
        else:
            k16.append(0); b8.append(False); n4.append(0)
        rem.append(r)
    tot_sass += 1 + 8*max(k16) + 4*any(b8) + 2*max(n4) + max(rem)
print(tot_sass)
