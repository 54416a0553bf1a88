#!/bin/sh
# test_program.sh BUILD: cluster.cu, unmodified, built with nvcc -cudart
# shared and run under `smemu run`, against the H100's recording
# (recorded/): every launch configuration's error code and special
# registers (launch.out), the occupancy answers (occ.out), the distributed
# shared memory results except the words that are raw addresses (dsmem.out;
# known_differences.txt), the misuse cases' error codes and outputs, and
# memcheck's / racecheck's records of them.
B=${1:-build}
HERE=$(dirname "$0")
R="$HERE/recorded"
fail=0
# smemu exec --cluster: the histogram of 0..255 over 1024 bins in clusters
# of 2 (each block holds 512 bins): 1 in bins 0..255, 0 after
out=$("$B/smemu" exec "$HERE/cluster.ptx" --kernel k_hist --grid 4 --block 64 --cluster 2 --shared 2048 \
  --arg buf:u32:1024:print --arg buf:u32:256:iota --arg s32:256 --arg s32:1024 2>&1)
ones=$(printf '%s\n' "$out" | sed -n '2,33p' | tr ' ' '\n' | grep -c '^1$')
zeros=$(printf '%s\n' "$out" | sed -n '34,129p' | tr ' ' '\n' | grep -c '^0$')
if [ "$ones" = 256 ] && [ "$zeros" = 768 ]; then echo "ok: smemu exec --cluster"; else
  echo "FAIL: smemu exec --cluster 2: $ones ones, $zeros zeros"; printf '%s\n' "$out" | head -5; fail=1; fi
"$B/smemu" exec "$HERE/cluster.ptx" --kernel k_sreg --grid 6 --block 32 --cluster 4 --arg buf:u32:96 > /dev/null 2>&1
[ $? = 0 ] && { echo "FAIL: smemu exec --cluster 4 on a grid of 6 ran"; fail=1; }
command -v nvcc > /dev/null 2>&1 || { echo "SKIP: nvcc not on the PATH: cluster.cu cannot be built"; [ $fail = 0 ] && exit 77; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
nvcc -gencode=arch=compute_90a,code=compute_90a -lineinfo -O3 -cudart shared -o "$T/cluster" "$HERE/cluster.cu" -lcuda \
  > "$T/build.log" 2>&1 || { cat "$T/build.log"; exit 1; }
run() { "$B/smemu" run "$@" 2>&1 | grep -v "^smemu:\|^  at '"; }
same() { # same NAME MINE RECORDED
  if diff "$2" "$3" > "$T/diff" 2>&1; then echo "ok: $1"; else echo "FAIL: $1 differs from the H100's:"; head -20 "$T/diff"; fail=1; fi
}
run "$T/cluster" launch > "$T/launch.out"
grep -v "^rc " "$R/launch.out" > "$T/launch.rec"
same "launch configurations (codes and special registers)" "$T/launch.out" "$T/launch.rec"
run "$T/cluster" occ > "$T/occ.out"
grep -v "^rc " "$R/occ.out" > "$T/occ.rec"
same "cudaOccupancyMaxActiveClusters / MaxPotentialClusterSize" "$T/occ.out" "$T/occ.rec"
# dsmem: words 400..439, 451, 454, 455 and 458 of each block are raw
# shared::cluster / generic addresses, whose layout differs (field i+3)
run "$T/cluster" dsmem > "$T/dsmem.out"
strip='/^block/ { for (i = 403; i <= 442; i++) $i = "*"; $454 = "*"; $457 = "*"; $458 = "*"; $461 = "*" } { print }'
awk "$strip" "$T/dsmem.out" > "$T/dsmem.mine"
grep -v "^rc " "$R/dsmem.out" | awk "$strip" > "$T/dsmem.rec"
same "distributed shared memory, remote mbarrier, histogram" "$T/dsmem.mine" "$T/dsmem.rec"
# misuse: error codes (and outputs where they are not a race's outcome)
for n in 0 1 2 3 5 6 8; do
  run "$T/cluster" bad $n > "$T/bad$n.out"
  grep -v "^rc " "$R/bad$n.out" > "$T/bad$n.rec"
  same "misuse case $n" "$T/bad$n.out" "$T/bad$n.rec"
done
# memcheck: the __remote_shared__ records (kind, thread, block, CTA, offset)
for n in 1 2 8; do
  "$B/smemu" run --check memcheck "$T/cluster" bad $n 2>&1 | grep -E "Invalid __|by thread|Access to" > "$T/mc$n.mine"
  grep -E "Invalid __|by thread|Access to" "$R/san_memcheck_bad$n.txt" > "$T/mc$n.rec"
  same "memcheck record of case $n" "$T/mc$n.mine" "$T/mc$n.rec"
done
# racecheck: no hazard with the cluster barrier, the race without it, and
# k_mbar's race (lines 189/200, 248 byte hazards as racecheck counts them)
"$B/smemu" run --check races "$T/cluster" bad 5 2>&1 | grep -q "checked, 0 hazards" ||
  { echo "FAIL: case 5 (ordered by barrier.cluster) has hazards"; fail=1; }
"$B/smemu" run --check races "$T/cluster" bad 4 2>&1 | grep -q "between block ranks" ||
  { echo "FAIL: case 4's race through remote stores not reported"; fail=1; }
"$B/smemu" run --check races "$T/cluster" dsmem > "$T/race.txt" 2>&1
grep -A1 "Race reported between Write access at .*cluster.cu:189" "$T/race.txt" | grep -q "cluster.cu:200 \[248 hazards\]" ||
  { echo "FAIL: k_mbar's race (H100 racecheck: 248 hazards, lines 189/200):"; cat "$T/race.txt" | grep -v "^block"; fail=1; }
[ $fail = 0 ] && echo "ok: racecheck cases"
exit $fail
