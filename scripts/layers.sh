#!/bin/sh
# The layering test: a folder uses only the floors below it
# (shared/DESIGN.md, "Layout"). Reads the symbol tables of the built
# objects (nm), maps every symbol an object defines to its file and floor,
# and fails when an object refers to a function or variable that a folder
# above it (or another folder of its own floor) defines, printing each
# arrow as
#   src/exec/foo.o -> src/check/bar.o: race_access, race_begin
# The floors, lowest first (runtime/ with all its areas is one folder):
#   1 src/mem  2 src/ptx  3 src/model  4 src/ir  5 src/exec, src/async
#   6 src/check, src/jit  7 src/sass  8 src/api  9 src/report
#   10 runtime  11 tools
# On one floor only async may use exec (the families of async run on the
# executor's core), and the family dispatch (src/exec/dispatch.c, whose
# table names every family's decoder) may use async; no other arrow
# between the folders of a floor. Arrows within a folder are not this
# test's business.
# Usage: layers.sh [BUILD]   (from the source root; the objects are
# BUILD/obj/..., each with its source beside the root's path)
#        layers.sh --self-test  (builds small trees with cc: one with
#        arrows up the floors, which must fail with exactly those arrows,
#        and one without, which must pass)
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }

if [ "${1:-}" = --self-test ]; then
  command -v cc >/dev/null 2>&1 || { echo "SKIP: no cc"; exit 77; }
  self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
  T=$(mktemp -d) || exit 1
  trap 'rm -rf "$T"' EXIT INT TERM
  # unit FILE 'C source': the source and its object under build/obj
  unit() {
    mkdir -p "$T/$(dirname "$1")" "$T/build/obj/$(dirname "$1")"
    printf '%s\n' "$2" >"$T/$1"
    cc -c -o "$T/build/obj/${1%.c}.o" "$T/$1" || exit 1
  }
  unit src/mem/m.c 'int m_fn(void) { return 1; }'
  unit src/exec/core.c 'int m_fn(void); int core_fn(void) { return m_fn(); }'
  unit src/exec/dispatch.c 'int fam_fn(void); int disp_fn(void) { return fam_fn(); }'
  unit src/async/fam.c 'int core_fn(void); int fam_fn(void) { return core_fn(); }'
  unit src/check/chk.c 'int core_fn(void); int chk_fn(void) { return core_fn(); }'
  unit runtime/core/st.c 'int disp_fn(void); int st_fn(void) { return disp_fn(); }'
  unit runtime/cudart/dev.c 'int st_fn(void); int dev_fn(void) { return st_fn(); }'
  unit tools/t.c 'int dev_fn(void); int main(void) { return dev_fn(); }'
  (cd "$T" && sh "$self" build) >"$T/good.txt" 2>&1 || { echo "layers self-test: a tree without arrows failed:"; cat "$T/good.txt"; exit 1; }
  unit src/ir/ir.c 'int core_fn(void); int chk_fn(void); int ir_fn(void) { return core_fn() + chk_fn(); }'
  unit src/exec/up.c 'int chk_fn(void); int fam_fn(void); int up_fn(void) { return chk_fn() + fam_fn(); }'
  unit src/check/side.c 'extern int jit_var; int side_fn(void) { return jit_var; }'
  unit src/jit/j.c 'int jit_var = 1;'
  unit runtime/core/tl.c 'int main(void); int tl_fn(void) { return main(); }'
  if (cd "$T" && sh "$self" build) >"$T/bad.txt" 2>&1; then
    echo "layers self-test: a tree with arrows up the floors passed:"; cat "$T/bad.txt"; exit 1
  fi
  cat >"$T/want.txt" <<'WANT'
runtime/core/tl.o -> tools/t.o: main
src/check/side.o -> src/jit/j.o: jit_var
src/exec/up.o -> src/async/fam.o: fam_fn
src/exec/up.o -> src/check/chk.o: chk_fn
src/ir/ir.o -> src/check/chk.o: chk_fn
src/ir/ir.o -> src/exec/core.o: core_fn
layers: 6 arrow(s) up the floors (shared/DESIGN.md, Layout)
WANT
  diff "$T/want.txt" "$T/bad.txt" || { echo "layers self-test: not the arrows expected"; exit 1; }
  echo "layers self-test: passed"
  exit 0
fi

B=${1:-build}
O="$B/obj"
[ -d "$O/src" ] || { echo "layers: no objects under $O/src (build first)"; exit 1; }

tab=$(mktemp) || exit 1
trap 'rm -f "$tab"' EXIT INT TERM
# One line per symbol: OBJECT KIND NAME, KIND D (defined: text, data,
# read-only data, bss, common, weak) or U (undefined: used).
find "$O/src" "$O/runtime" "$O/tools" -name '*.o' 2>/dev/null | LC_ALL=C sort | while read -r f; do
  rel=${f#"$O"/}
  # an object left from a source since moved or removed is not the code
  [ -f "${rel%.o}.c" ] || [ ! -d src ] || continue
  nm -P "$f" 2>/dev/null | awk -v f="$rel" '
    $2 ~ /^[TDRBCWV]$/ { print f, "D", $1; next }
    $2 == "U" { print f, "U", $1 }'
done >"$tab"

LC_ALL=C awk '
  function floor_of(p) {
    if (p ~ /^src\/mem\//) return 1
    if (p ~ /^src\/ptx\//) return 2
    if (p ~ /^src\/model\//) return 3
    if (p ~ /^src\/ir\//) return 4
    if (p ~ /^src\/(exec|async)\//) return 5
    if (p ~ /^src\/(check|jit)\//) return 6
    if (p ~ /^src\/sass\//) return 7
    if (p ~ /^src\/api\//) return 8
    if (p ~ /^src\/report\//) return 9
    if (p ~ /^runtime\//) return 10
    if (p ~ /^tools\//) return 11
    return 0
  }
  # the runtime is one folder here, its areas (core, cudart, driver, ...)
  # included
  function folder_of(p) {
    if (p ~ /^runtime\//) return "runtime"
    sub(/\/[^\/]*$/, "", p)
    return p
  }
  # 1 when file a (floor fa) may use file b (floor fb)
  function allowed(a, fa, b, fb) {
    if (folder_of(a) == folder_of(b)) return 1
    if (fa > fb) return 1
    if (fa < fb) return 0
    if (a ~ /^src\/async\// && b ~ /^src\/exec\//) return 1
    # the family dispatch tops floor 5: its table names every decoder
    return a == "src/exec/dispatch.o" && b ~ /^src\/async\//
  }
  $2 == "D" {
    if ($3 in def) def[$3] = def[$3] " " $1
    else def[$3] = $1
    next
  }
  { use[++n] = $1 " " $3 }
  END {
    bad = 0
    for (i = 1; i <= n; i++) {
      split(use[i], u, " ")
      if (!(u[2] in def)) continue   # libc, LLVM, cmocka: outside the floors
      fu = floor_of(u[1])
      if (!fu) continue
      nd = split(def[u[2]], d, " ")
      ok = 0
      for (j = 1; j <= nd; j++)
        if (d[j] == u[1] || allowed(u[1], fu, d[j], floor_of(d[j]))) ok = 1
      if (ok) continue
      for (j = 1; j <= nd; j++) {
        k = u[1] " -> " d[j]
        if (k in arrow) arrow[k] = arrow[k] ", " u[2]
        else arrow[k] = u[2]
      }
    }
    for (k in arrow) { print k ": " arrow[k] | "LC_ALL=C sort"; bad++ }
    close("LC_ALL=C sort")
    if (bad) {
      printf "layers: %d arrow(s) up the floors (shared/DESIGN.md, Layout)\n", bad
      exit 1
    }
    print "layers: every object uses only the floors below it"
  }' "$tab"
