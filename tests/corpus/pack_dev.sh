#!/bin/sh
# pack_dev.sh DEVDIR [CUTLASS_SOURCE [PLAN BINDIR]]: prepares a GPU recording
# in DEVDIR (the team's batch runs `RES=dir bash run.sh` there): corpus.tar.xz
# holds tests/corpus and the staged third-party sources; run.sh unpacks it,
# builds with the host's nvcc and runs record.sh into $RES.
# With PLAN (a file of lines `PHASES|NAME...`), it carries instead
# the binaries of BINDIR that the plan names (stripped; built here, they run
# on the GPU host's newer glibc) and run.sh runs record.sh once per line,
# into $RES/1, $RES/2, ..., within one DEADLINE (seconds, the environment's
# DEADLINE when packing, default 290).
set -u
here=$(cd "$(dirname "$0")" && pwd)
dev=${1:?usage: pack_dev.sh DEVDIR [CUTLASS_SOURCE [PLAN BINDIR]]}
plan=${3:-}
tmp=$(mktemp -d)
mkdir -p "$tmp/tests" "$dev"
cp -r "$here" "$tmp/tests/corpus"
rm -rf "$tmp/tests/corpus/recorded"
if [ -n "$plan" ]; then
  mkdir -p "$tmp/src" "$tmp/bin"
  cp "$plan" "$tmp/plan"
  for p in $(cut -d'|' -f2 "$plan"); do
    strip -o "$tmp/bin/$p" "${4:?pack_dev.sh: PLAN needs BINDIR}/$p" || exit 1
  done
else
  sh "$here/stage.sh" "$tmp/src" "${2:-}" || exit $?
fi
# xz: the binaries of a PLAN are large
tar cf - -C "$tmp" . | xz -6 -T2 > "$dev/corpus.tar.xz"
rm -rf "$tmp"
cat > "$dev/run.sh" <<'EOS'
#!/bin/bash
# Records the third-party corpus (tests/corpus/record.sh) into $RES.
set -u
mkdir -p work "$RES"
tar xf corpus.tar.xz -C work
start=$(date +%s)
total=${DEADLINE:-@DEADLINE@}
if [ -f work/plan ]; then
  touch work/bin/*
  i=0
  while IFS='|' read -r phases names; do
    i=$((i + 1))
    left=$((total - ($(date +%s) - start)))
    [ "$left" -gt 0 ] || break
    BIN=$PWD/work/bin DEADLINE=$left JOBS=$(nproc) PHASES="$phases" \
      sh work/tests/corpus/record.sh work/src "$RES/$i" $names
  done < work/plan
else
  BIN=$PWD/work/bin DEADLINE=$total JOBS=$(nproc) sh work/tests/corpus/record.sh work/src "$RES"
fi
du -sh "$RES"
EOS
sed -i "s/@DEADLINE@/${DEADLINE:-290}/" "$dev/run.sh"
ls -la "$dev"
