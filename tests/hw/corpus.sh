# corpus.sh: what the record.sh of the two program corpora (tests/programs,
# tests/hw/sass_programs) share, sourced after common.sh: every *.cu of HERE
# built as a user builds it, its SASS, two native runs and the sanitizers.
# Every command runs under `timeout`; failures are noted and skipped.

# corpus_start DIR...: BIN, the output folders (sass, native, racecheck,
# synccheck and the DIRs named), start, progs (the programs), METRICS and
# the head of info.txt.
corpus_start() {
  BIN="$OUT/bin"
  for d in bin sass native racecheck synccheck "$@"; do mkdir -p "$OUT/$d"; done
  start=$(date +%s)
  progs=$(cd "$HERE" && ls *.cu | sed 's/\.cu$//')
  echo "$progs" > "$OUT/programs.txt"
  METRICS=$SHARED_METRICS
  {
    hw_versions
    echo "metrics: $METRICS"
    echo "build: $NVCC -arch=sm_90 -cudart shared -lineinfo -o P P.cu"
  } > "$OUT/info.txt"
}

# corpus_build [ptx]: builds every program in parallel, then dumps the SASS
# (and with `ptx` the PTX) of each.
corpus_build() {
  echo "$progs" | xargs -P "$JOBS" -I P sh -c \
    "timeout 120 '$NVCC' -arch=sm_90 -cudart shared -lineinfo -o '$BIN/P' '$HERE/P.cu' > '$BIN/P.build.log' 2>&1 || echo 'build failed: P' >> '$OUT/info.txt'"
  for p in $progs; do
    [ -x "$BIN/$p" ] || continue
    timeout 30 "$CUOBJDUMP" -sass "$BIN/$p" > "$OUT/sass/$p.sass" 2>&1
    [ "${1:-}" = ptx ] && timeout 30 "$CUOBJDUMP" -ptx "$BIN/$p" > "$OUT/ptx/$p.ptx" 2>&1
  done
  t1=$(date +%s)
  echo "built in $((t1 - start)) s" >> "$OUT/info.txt"
}

# corpus_native: each program twice (P.out and P.rc, then P.out2: the output
# must not vary).
corpus_native() {
  echo "$progs" | xargs -P "$JOBS" -I P sh -c \
    "[ -x '$BIN/P' ] || exit 0; cd '$BIN' && timeout 30 ./P > '$OUT/native/P.out' 2>&1; echo \$? > '$OUT/native/P.rc'; timeout 30 ./P > '$OUT/native/P.out2' 2>&1"
  t2=$(date +%s)
  echo "native in $((t2 - t1)) s" >> "$OUT/info.txt"
}

# corpus_sanitize LIST: compute-sanitizer over the lines "PROGRAM TOOL" of
# LIST, TOOL racecheck (analysis report), synccheck or hazard (racecheck's
# hazard report), into OUT/TOOL/PROGRAM.txt and .rc, 8 at a time.
corpus_sanitize() {
  cs="$SANITIZER --print-limit 10000 --show-backtrace no"
  echo "$1" | xargs -P 8 -n 2 sh -c '
  p=$1 tool=$2
  [ -x "'"$BIN"'/$p" ] || exit 0
  case $tool in
    racecheck) extra="--tool racecheck --racecheck-report analysis" ;;
    synccheck) extra="--tool synccheck" ;;
    hazard) extra="--tool racecheck --racecheck-report hazard" ;;
  esac
  cd "'"$BIN"'" && timeout 60 '"$cs"' $extra ./$p > "'"$OUT"'/$tool/$p.txt" 2>&1
  echo $? > "'"$OUT"'/$tool/$p.rc"' sh
  t3=$(date +%s)
  echo "sanitizers in $((t3 - t2)) s" >> "$OUT/info.txt"
}
