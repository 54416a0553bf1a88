#!/bin/sh
# pack_dev.sh DEVDIR [CUTLASS_SOURCE]: prepares a GPU recording in DEVDIR
# (the integrator's batch runs `RES=dir bash run.sh` there): corpus.tgz
# holds tests/corpus and the staged third-party sources; run.sh unpacks it,
# builds with the host's nvcc and runs record.sh into $RES.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dev=${1:?usage: pack_dev.sh DEVDIR [CUTLASS_SOURCE]}
tmp=$(mktemp -d)
mkdir -p "$tmp/tests" "$dev"
cp -r "$here" "$tmp/tests/corpus"
rm -rf "$tmp/tests/corpus/recorded"
sh "$here/stage.sh" "$tmp/src" "${2:-}" || exit $?
tar czf "$dev/corpus.tgz" -C "$tmp" tests src
rm -rf "$tmp"
cat > "$dev/run.sh" <<'EOS'
#!/bin/bash
# Records the third-party corpus (tests/corpus/record.sh) into $RES.
set -u
mkdir -p work "$RES"
tar xzf corpus.tgz -C work
BIN=$PWD/work/bin DEADLINE=${DEADLINE:-290} JOBS=$(nproc) \
  sh work/tests/corpus/record.sh work/src "$RES"
ls "$RES"/* | head -5; du -sh "$RES"
EOS
ls -la "$dev"
