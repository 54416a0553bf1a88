#!/bin/bash
# record.sh: records tests/hw/sparse on an sm_90 GPU (run in this folder:
# RES=OUTDIR bash record.sh): sp.cu (mma.sp, m8n8k4 f16,
# integer/b1/f64 mma shapes), spwg.cu (wgmma.mma_async.sp), texref.cu +
# texref.ptx (module-scope .texref/.surfref through the driver's legacy
# calls; texref_q.ptx: their queries), b128.cu (.b128 loads, stores, mov, atomics), sured.cu (sured.p),
# misc.cu (lop3 with a predicate, fma.oob, cvt.pack.sat).
[ -d /usr/local/cuda/bin ] && PATH="/usr/local/cuda/bin:$PATH"
RES=${RES:?}
mkdir -p "$RES"
{ date -u; nvcc --version | tail -2; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$RES/versions.txt" 2>&1
G="-gencode=arch=compute_90a,code=sm_90a -lineinfo -O3"
nvcc $G -o sp sp.cu > "$RES/sp.build.txt" 2>&1 &
nvcc $G -o spwg spwg.cu > "$RES/spwg.build.txt" 2>&1 &
nvcc $G -o b128 b128.cu > "$RES/b128.build.txt" 2>&1 &
nvcc -o texref texref.cu -lcuda > "$RES/texref.build.txt" 2>&1 &
nvcc $G -o sured sured.cu > "$RES/sured.build.txt" 2>&1 &
nvcc $G -o misc misc.cu > "$RES/misc.build.txt" 2>&1 &
wait
for p in sp spwg b128 sured misc; do
  timeout 20 ./$p > "$RES/$p.out" 2> "$RES/$p.err"
  echo "$p exit $?" >> "$RES/status.txt"
done
timeout 20 ./texref texref.ptx > "$RES/texref.out" 2> "$RES/texref.err"
echo "texref exit $?" >> "$RES/status.txt"
timeout 20 ./texref texref_q.ptx > "$RES/texref_q.out" 2> "$RES/texref_q.err"
echo "texref_q exit $?" >> "$RES/status.txt"
for p in sp spwg b128; do
  cuobjdump -sass $p 2>/dev/null | grep -oE "(HMMA|IMMA|DMMA|QMMA|BMMA|HGMMA|IGMMA|QGMMA)[A-Z0-9._]*" | sort | uniq -c > "$RES/$p.sass.txt"
done
echo done >> "$RES/status.txt"
