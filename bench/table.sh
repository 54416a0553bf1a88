#!/bin/sh
# table.sh BUILD: the speed table of issue 11, side by side in one run
# (`make bench` builds BUILD/bench/bench and runs this):
#  1. tiled matmul N=512: the same kernel as C + OpenMP built for this CPU
#     (bench/omp_matmul.c, the targets' baseline) and PoCL
#     (examples/cl/matmul_tiled.cl on the CPU's OpenCL, bench/pocl_matmul.c)
#     against smemu with the checks off, the
#     bank model, --check races and --check all, with the ratios and
#     targets; the peak RSS at N=1024 under --check all;
#  2. the dot product of examples/dot.ptx (32 blocks x 256 threads) against
#     Numba's CUDA simulator (Debian's python3-numba, NUMBA_ENABLE_CUDASIM=1)
#     on the same kernel and size (DOT_N, default 65536: the simulator takes
#     about 20 s there; examples/dot.c's 2^20 takes it minutes);
#  3. the whole programs of bench/programs (bench/programs.sh; needs nvcc);
#  4. worker scaling: the bench's kernels on 1 and 2 workers (WORKERS).
#  5. the GPU host's (Intel Xeon) table as bench/device/xeon/run.sh last
#     recorded it (bench/results/h200host_16cores_final.txt).
# Installs what it needs through scripts/deps.sh. Asserts nothing: a missed
# target prints MISSED.
B=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$root" || exit 2
BENCH="$B/bench/bench"
[ -x "$BENCH" ] || { echo "table.sh: $BENCH not built (make bench)"; exit 2; }
sh scripts/deps.sh
echo "== smemu speed table ($(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ))"

# 1. matmul against PoCL
pocl=0
if [ -f /usr/include/CL/cl.h ]; then
  ${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -o "$B/bench/pocl_matmul" bench/pocl_matmul.c -lOpenCL -lm &&
    line=$("$B/bench/pocl_matmul" examples/cl/matmul_tiled.cl 512) && pocl=$(echo "$line" | awk '{print $3}') &&
    echo "PoCL: $line"
fi
[ "$pocl" = 0 ] && echo "PoCL: not available (pocl-opencl-icd, ocl-icd-opencl-dev): ratios not computed"
# the same kernel as C + OpenMP for this CPU: the baseline of the targets
omp=0
w=${TABLE_WORKERS:-0}
[ "$w" = 0 ] && w=$(nproc)
if ${CC:-cc} -O3 -march=native -fopenmp -o "$B/bench/omp_matmul" bench/omp_matmul.c -lm 2>/dev/null &&
   line=$(OMP_NUM_THREADS=$w "$B/bench/omp_matmul" 512) && omp=$(echo "$line" | awk '{print $4}'); then
  echo "C+OpenMP: $line"
else
  echo "C+OpenMP: could not build or run bench/omp_matmul.c"
fi
"$BENCH" --table "$pocl" "${TABLE_WORKERS:-0}" "$omp"

# 2. dot against Numba's simulator
n=${DOT_N:-65536}
py=
for p in /usr/bin/python3 python3; do
  "$p" -c 'import numba' >/dev/null 2>&1 && { py=$p; break; }
done
"$BENCH" --dot "$n" > "$B/bench/dot.txt"
if [ -n "$py" ] && numba=$(NUMBA_ENABLE_CUDASIM=1 PYTHONWARNINGS=ignore "$py" bench/numba_dot.py "$n" | awk '/^numba/ {print $3}') && [ -n "$numba" ]; then
  awk -v nb="$numba" -v n="$n" '
    { t[$3] = $4 }
    END {
      printf "dot product n=%d (examples/dot.ptx, 32x256): Numba CUDA simulator %.2f s\n", n, nb
      for (m in t) {
        r = nb / t[m]
        v = "MISSED"
        if (r >= 10000) v = "met"
        printf "  smemu %-6s %10.6f s   simulator / smemu = %9.0fx  target >= 10000x: %s\n", m, t[m], r, v
      }
    }' "$B/bench/dot.txt"
else
  echo "dot product n=$n: Numba (python3-numba) not available; smemu:"
  cat "$B/bench/dot.txt"
fi

# 3. whole programs
sh bench/programs.sh "$B" || [ $? -eq 77 ]

# 4. scaling
echo "worker scaling (bench/scaling.sh for more workers):"
"$BENCH" "${WORKERS:-1,2}"

# 5. the other CPU family: the figures bench/device/xeon/run.sh last
# recorded on the device tool's GPU host (16-core Intel Xeon, AVX-512),
# printed as recorded (this machine cannot run them)
f=bench/results/h200host_16cores_final.txt
if [ -f "$f" ]; then
  echo "== recorded on the GPU host's Intel Xeon ($f):"
  sed -n '1p' "$f"
  sed -n '/^== bench --compile/,/^bench done/p' "$f" | grep -v '^  ('
  sed -n '/^== samples/,$p' "$f"
fi
