#!/bin/bash
# record.sh: records the cdp programs' output on a GPU (run as
# `RES=DIR bash record.sh` in a folder holding the .cu files). Builds each
# with nvcc -rdc=true (nvcc's default static runtime), runs it twice (device
# printf order is not fixed), and runs oob under compute-sanitizer memcheck
# and race under racecheck. Writes NAME.out, NAME.2.out, NAME.rc and the
# sanitizer logs into $RES.
RES=${RES:-recorded}
mkdir -p "$RES"
nvidia-smi -L > "$RES/gpu.txt" 2>&1
nvcc --version > "$RES/nvcc.txt" 2>&1
progs="depth tail streams pending oob race api graph reset structarg"
for p in $progs; do
  nvcc -arch=sm_90 -rdc=true -lineinfo -o "$p" "$p.cu" > "$RES/$p.build.log" 2>&1 &
done
wait
for p in $progs; do
  timeout 20 ./$p > "$RES/$p.out" 2>&1; echo $? > "$RES/$p.rc"
  timeout 20 ./$p > "$RES/$p.2.out" 2>&1
done
timeout 30 compute-sanitizer --tool memcheck ./oob > "$RES/oob.memcheck.txt" 2>&1
timeout 30 compute-sanitizer --tool racecheck ./race > "$RES/race.racecheck.txt" 2>&1
echo done > "$RES/finished"
