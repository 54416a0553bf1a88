#!/bin/sh
# import.sh RESULTS [RESULTS2...]: copies a GPU recording (record.sh's OUT,
# as the batch returns it) into recorded/, later folders adding to and
# replacing what earlier ones gave. ncu's csv files keep only their csv rows
# and ncu's own messages (the program's output is in native/); entries a
# phase skipped for lack of time are left out.
set -u
here=$(cd "$(dirname "$0")" && pwd)
rec=$here/recorded
mkdir -p "$rec"
for res; do
  [ -f "$res/info.txt" ] || { echo "import.sh: $res: no info.txt" >&2; exit 1; }
  n=1
  while [ -f "$rec/info$n.txt" ] && ! cmp -s "$rec/info$n.txt" "$res/info.txt"; do n=$((n + 1)); done
  cp "$res/info.txt" "$rec/info$n.txt"
  [ -f "$res/run.log" ] && cp "$res/run.log" "$rec/run$n.log"
  [ -s "$res/sass.md5" ] && cat "$res/sass.md5" >> "$rec/sass.md5.new"
  for d in build native ncu ncu2 racecheck synccheck; do
    [ -d "$res/$d" ] || continue
    mkdir -p "$rec/$d"
    for rc in "$res/$d"/*.rc; do
      [ -f "$rc" ] || continue
      grep -q skipped "$rc" && continue
      p=$(basename "$rc" .rc)
      for f in "$res/$d/$p".*; do
        case $f in
          *.csv) grep -aE '^"|^==(PROF|ERROR|WARNING)==' "$f" > "$rec/$d/$(basename "$f")" ;;
          *) cp "$f" "$rec/$d/" ;;
        esac
      done
    done
    [ "$d" = build ] && cp "$res/build/"* "$rec/build/" 2>/dev/null
  done
done
# sass.md5: the last line of each program wins
if [ -f "$rec/sass.md5.new" ]; then
  cat "$rec/sass.md5" "$rec/sass.md5.new" 2>/dev/null | awk '{last[$1] = $0} END {for (p in last) print last[p]}' |
    sort > "$rec/sass.md5.tmp"
  mv "$rec/sass.md5.tmp" "$rec/sass.md5"
  rm -f "$rec/sass.md5.new"
fi
