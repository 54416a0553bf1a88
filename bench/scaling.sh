#!/bin/sh
# scaling.sh [WORKERS]: worker scaling of the emulator from a fresh
# checkout with only a C compiler and make: builds the library (portable,
# release) and bench/bench.c into build-scaling/, then runs the bench's
# kernels (tiled matmul 512, transposes 2048, dot 4M) on each worker count
# of WORKERS (default 1,2,4,8,16) and prints seconds, instruction rates and
# the speed-up over one worker. For the GPU host's 16 cores:
#   sh bench/scaling.sh            (or sh bench/scaling.sh 1,2,4,8,16,32)
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2
cd "$root" || exit 2
B=build-scaling
W=${1:-1,2,4,8,16}
j=$(nproc 2>/dev/null || echo 2)
make -s -j"$j" BUILD=$B $B/libsmemu.a >/dev/null || exit 1
mkdir -p $B/bench
${CC:-cc} -std=c11 -ffp-contract=off -D_GNU_SOURCE -Iinclude -Isrc -O3 -pthread \
  -o $B/bench/bench bench/bench.c $B/libsmemu.a -pthread -lm 2>/dev/null ||
  ${CC:-cc} -std=c11 -ffp-contract=off -D_GNU_SOURCE -Iinclude -Isrc -O3 -pthread \
    -o $B/bench/bench bench/bench.c $B/libsmemu.a -pthread -lm || exit 1
echo "== worker scaling on $(nproc) cores ($(uname -m), $(date -u +%Y-%m-%dT%H:%MZ)); workers $W"
$B/bench/bench "$W"
