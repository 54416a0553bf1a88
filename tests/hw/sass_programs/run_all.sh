#!/bin/sh
# run_all.sh BINDIR PROG...: runs each program once, in order (record.sh
# runs this under one ncu session so ncu starts once for the corpus).
bin=$1
shift
for p in "$@"; do
  echo "=== $p" >&2
  (cd "$bin" && timeout 60 "./$p" > /dev/null 2>&1)
done
exit 0
