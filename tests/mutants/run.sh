#!/bin/sh
# run.sh: mutation testing (`make mutants`). Applies each mutation of
# tests/mutants/list.txt, one at a time, to a scratch copy of the tree,
# rebuilds there incrementally, runs the tests the list names for the
# mutated file (fastest first, stopping at the first failure) and prints
# one line per mutant, then the kill rate per file and the survivors.
# The working tree is only read. Format of the list: tests/mutants/README.md.
#
# Environment: MUTANTS_LIST (default tests/mutants/list.txt), MUTANTS_DIR
# (scratch, default build/mutants), MUTANTS_JOBS (parallel workers, each
# with its own copy, default 2), MUTANTS_ONLY (grep -E regex: only the
# files matching it), MUTANTS_TIMEOUT (seconds per test run, default 60),
# MUTANTS_MIN (kill rate in percent every file must reach, default 90).
# Exit status: 0 when every file reaches MUTANTS_MIN, 1 when one does not,
# 2 when the list or the unmutated build and tests fail.
#
# run.sh --check only checks that every mutation's text is found once.
# Internal: run.sh --worker N runs worker N (used by the main run).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
LIST=${MUTANTS_LIST:-$root/tests/mutants/list.txt}
WORK=${MUTANTS_DIR:-$root/build/mutants}
JOBS=${MUTANTS_JOBS:-2}
TMO=${MUTANTS_TIMEOUT:-60}
MIN=${MUTANTS_MIN:-90}
US=$(printf '\037')

# ---- the test names of the list: how to build and run each ----------------
targets_of() { # TEST -> make targets
  case $1 in
    test_runtime_*) echo "build/tests/$1 build/smemu runtime build/runtime/abi_smemu" ;;
    test_*) echo "build/tests/$1" ;;
    example-*) echo "build/examples/${1#example-}" ;;
    cli) echo "build/smemu" ;;
    banks-examples) echo "build/smemu build/examples/reverse build/examples/dot build/examples/matmul build/examples/transpose build/examples/split" ;;
    fuzz-replay) echo "build/fuzz_replay" ;;
    tma-hw) echo "build/smemu runtime" ;;
    *) echo "UNKNOWN-TEST-$1" ;;
  esac
}
run_test() { # TEST, in a tree: exit status of the test
  case $1 in
    test_*) timeout "$TMO" "build/tests/$1" ;;
    example-cl_*) timeout "$TMO" "build/examples/${1#example-}" ;;
    example-*) timeout "$TMO" "build/examples/${1#example-}" --gpu tests/hw/examples ;;
    cli) timeout "$TMO" sh tests/cli.sh build ;;
    banks-examples) timeout "$TMO" sh tests/banks_examples.sh build ;;
    fuzz-replay) timeout "$TMO" build/fuzz_replay tests/fuzz/corpus ;;
    tma-hw) timeout "$TMO" sh tests/hw/tma/test_tma.sh build ;;
    *) return 99 ;;
  esac
}

# ---- applying one mutation: exactly one occurrence of the text --------------
# mutate FILE PATTERN REPLACEMENT OCC: rewrites FILE at the one occurrence
# of PATTERN (OCC 0), or at its OCC-th (1, 2, ...); prints the line number.
# Exit 3: the text is gone (stale), 4: it occurs more than once (ambiguous).
mutate() {
  PAT=$2 REP=$3 OCC=$4 awk '
    BEGIN { pat = ENVIRON["PAT"]; rep = ENVIRON["REP"]; occ = ENVIRON["OCC"] + 0; n = 0 }
    { line[NR] = $0; s = $0; off = 0
      while ((i = index(s, pat)) > 0) {
        n++
        if (n == occ || (occ == 0 && n == 1)) { at = NR; col = off + i }
        off += i + length(pat) - 1; s = substr(s, i + length(pat))
      } }
    END {
      if (n == 0 || n < occ) exit 3
      if (occ == 0 && n > 1) exit 4
      line[at] = substr(line[at], 1, col - 1) rep substr(line[at], col + length(pat))
      for (k = 1; k <= NR; k++) print line[k] > (FILENAME ".mutant")
      print at
    }' "$1" || return $?
  mv "$1.mutant" "$1"
}

# ---- a worker: mutants id % JOBS == N, in its own copy ----------------------
if [ "${1:-}" = "--worker" ]; then
  n=$2
  tree="$WORK/w$n"
  cd "$tree" || exit 2
  out="$WORK/results.$n"
  : > "$out"
  export SMEMU_E2E_NO_NVCC=1 MUTANTS_FASTLINK=1
  while IFS="$US" read -r id file tests occ pat rep eq; do
    [ $((id % JOBS)) -eq "$n" ] || continue
    cp -p "$file" "$WORK/orig.$n"
    line=$(mutate "$file" "$pat" "$rep" "$occ")
    rc=$?
    status="" by=""
    if [ $rc -eq 3 ]; then status=stale by="text not found"
    elif [ $rc -eq 4 ]; then status=stale by="text occurs more than once"
    elif [ $rc -ne 0 ]; then status=stale by="cannot rewrite"
    else
      tg=""
      for t in $tests; do tg="$tg $(targets_of "$t")"; done
      if ! nice make -j1 --no-print-directory $tg < /dev/null > "$WORK/build.$n.log" 2>&1; then
        status=unbuilt by="build failed"
      else
        status=survived
        for t in $tests; do
          if ! run_test "$t" < /dev/null > "$WORK/test.$n.log" 2>&1; then status=killed by=$t; break; fi
        done
      fi
      # the original text back, with a new time so that make rebuilds it
      cp "$WORK/orig.$n" "$file"
      touch "$file"
    fi
    if [ "$status" = survived ] && [ -n "$eq" ]; then status=equivalent by=$eq; fi
    if [ "$status" = killed ] && [ -n "$eq" ]; then by="$by (listed as equivalent: $eq)"; fi
    printf '%s%s%s%s%s%s%s%s%s%s%s%s%s\n' "$id" "$US" "$file" "$US" "${line:-?}" "$US" "$status" "$US" "$by" "$US" \
      "$pat" "$US" "$rep" >> "$out"
    printf '%-10s %s:%s  %s  ->  %s  (%s)\n' "$status" "$file" "${line:-?}" "$pat" "$rep" "$by"
  done < "$WORK/mutants.tsv"
  exit 0
fi

# ---- the main run -----------------------------------------------------------
start=$(date +%s)
mkdir -p "$WORK" || exit 2
# one run at a time in a scratch folder (a second one would mix its copies
# and results with the first's); --check works beside a run in its own files
if [ "${1:-}" = "--check" ]; then
  WORK="$WORK/check"
  mkdir -p "$WORK" || exit 2
else
  if ! mkdir "$WORK/lock" 2>/dev/null; then
    other=$(cat "$WORK/lock/pid" 2>/dev/null)
    if [ -n "$other" ] && kill -0 "$other" 2>/dev/null; then
      echo "mutants: another run (process $other) uses $WORK; wait for it or set MUTANTS_DIR"
      exit 2
    fi
  fi
  echo $$ > "$WORK/lock/pid"
  trap 'rm -rf "$WORK/lock"' EXIT
  trap 'exit 2' INT TERM
fi
# the list, flattened: id, file, tests, occurrence, pattern, replacement,
# equivalence reason
awk -v us="$US" -v only="${MUTANTS_ONLY:-}" '
  function flush() { if (have) { if (only == "" || file ~ only) print ++id us file us tests us occ us pat us rep us eq; have = 0 } }
  /^#/ || /^[ \t]*$/ { next }
  /^file / { flush(); file = substr($0, 6); tests = ""; next }
  /^tests / { flush(); tests = substr($0, 7); next }
  /^- / { flush(); pat = substr($0, 3); occ = 0; rep = ""; eq = ""; want = 1; next }
  /^-@[0-9]+ / { flush(); i = index($0, " "); occ = substr($0, 3, i - 3) + 0; pat = substr($0, i + 1); rep = ""; eq = ""; want = 1; next }
  /^\+ / || /^\+$/ { if (!want) { print "mutants: " FILENAME ":" NR ": a + line without its - line" > "/dev/stderr"; bad = 1 }
                     rep = substr($0, 3); have = 1; want = 0; next }
  /^= / { if (!have) { print "mutants: " FILENAME ":" NR ": a = line without its mutant" > "/dev/stderr"; bad = 1 }
          eq = substr($0, 3); next }
  { print "mutants: " FILENAME ":" NR ": unknown line: " $0 > "/dev/stderr"; bad = 1 }
  END { flush(); exit bad }' "$LIST" > "$WORK/mutants.tsv" || exit 2
total=$(wc -l < "$WORK/mutants.tsv")
[ "$total" -gt 0 ] || { echo "mutants: no mutants in $LIST"; exit 2; }

# --check: only whether every pattern still matches the sources (no build)
if [ "${1:-}" = "--check" ]; then
  bad=0
  while IFS="$US" read -r id file tests occ pat rep eq; do
    cp "$root/$file" "$WORK/check.c" 2>/dev/null || { echo "stale: $file: no such file"; bad=1; continue; }
    mutate "$WORK/check.c" "$pat" "$rep" "$occ" > /dev/null
    case $? in
      0) ;;
      3) echo "stale: $file: text not found: $pat"; bad=1 ;;
      *) echo "stale: $file: text occurs more than once: $pat"; bad=1 ;;
    esac
    if [ "$pat" = "$rep" ]; then echo "no change: $file: $pat"; bad=1; fi
  done < "$WORK/mutants.tsv"
  echo "mutants: $total mutants checked"
  exit $bad
fi

# every test each file needs, for the unmutated build
alltests=$(awk -F "$US" '{ print $3 }' "$WORK/mutants.tsv" | tr ' ' '\n' | grep . | sort -u)
alltargets=""
for t in $alltests; do alltargets="$alltargets $(targets_of "$t")"; done
case $alltargets in *UNKNOWN-TEST-*) echo "mutants: unknown test name in $LIST:$alltargets" | tr ' ' '\n' | grep -E 'mutants|UNKNOWN'; exit 2 ;; esac

# the copies: the working tree's files as git lists them (tracked and
# untracked, not ignored). A file whose bytes changed since the last run
# is copied with a new time, so make rebuilds what depends on it; the
# others keep theirs (and their objects in build/ stay valid)
files=$(cd "$root" && git ls-files -co --exclude-standard | grep -v '^build/')
rm -rf "$WORK/src"
mkdir -p "$WORK/src"
(cd "$root" && echo "$files" | tar -cf - -T - 2>/dev/null) | (cd "$WORK/src" && tar -xf -)
i=0
while [ $i -lt "$JOBS" ]; do
  tree="$WORK/w$i"
  mkdir -p "$tree"
  (cd "$tree" && find . -path ./build -prune -o -type f -print) | sed 's|^\./||' | sort > "$WORK/old.list"
  echo "$files" | sort > "$WORK/new.list"
  comm -23 "$WORK/old.list" "$WORK/new.list" | (cd "$tree" && xargs rm -f)
  echo "$files" | while IFS= read -r f; do
    if ! cmp -s "$WORK/src/$f" "$tree/$f"; then
      mkdir -p "$tree/$(dirname "$f")" && cp "$WORK/src/$f" "$tree/$f"
    fi
  done
  # the files mutants change: rebuilt once per run, whatever a stopped
  # run left behind (every file of the list, whatever MUTANTS_ONLY says)
  sed -n 's/^file //p' "$LIST" | sort -u | (cd "$tree" && xargs touch 2>/dev/null)
  # nvcc-built programs do not depend on smemu's sources: the working
  # tree's, when newer, with a fresh stamp so that make keeps them
  if [ -f "$root/build/runtime/progs/.built" ] &&
     [ "$root/build/runtime/progs/.built" -nt "$tree/build/runtime/progs/.copied" ]; then
    rm -rf "$tree/build/runtime/progs"
    mkdir -p "$tree/build/runtime" && cp -pr "$root/build/runtime/progs" "$tree/build/runtime/" &&
      touch "$tree/build/runtime/progs/.built" "$tree/build/runtime/progs/.copied"
  fi
  i=$((i + 1))
done

echo "mutants: $total mutants of $(awk -F "$US" '{ print $2 }' "$WORK/mutants.tsv" | sort -u | wc -l) files, $JOBS workers; building the copies"
i=0
while [ $i -lt "$JOBS" ]; do
  (cd "$WORK/w$i" && MUTANTS_FASTLINK=1 nice make -j2 --no-print-directory $alltargets build/runtime/progs/.built \
     > "$WORK/baseline.$i.log" 2>&1) || { echo "mutants: the unmutated copy does not build:"; tail -n 20 "$WORK/baseline.$i.log"; exit 2; }
  i=$((i + 1))
done
# the unmutated tests must pass, or no kill means anything
base_bad=0
for t in $alltests; do
  if ! (cd "$WORK/w0" && SMEMU_E2E_NO_NVCC=1 run_test "$t" > "$WORK/baseline.test.log" 2>&1); then
    echo "mutants: $t fails without any mutation:"; tail -n 20 "$WORK/baseline.test.log"; base_bad=1
  fi
done
[ $base_bad = 0 ] || exit 2

i=0
pids=""
while [ $i -lt "$JOBS" ]; do
  sh "$0" --worker $i &
  pids="$pids $!"
  i=$((i + 1))
done
for p in $pids; do wait "$p"; done

# ---- the table --------------------------------------------------------------
cat "$WORK"/results.* | sort -t "$US" -k1,1n > "$WORK/results.tsv"
end=$(date +%s)
echo
echo "mutants: $total in $((end - start)) s"
awk -F "$US" -v min="$MIN" '
  { f = $2; files[f] = 1; n[f]++; c[f, $4]++
    if ($4 == "survived") surv = surv sprintf("  %s:%s  %s  ->  %s\n", $2, $3, $6, $7)
    if ($4 == "stale" || $4 == "unbuilt") stale = stale sprintf("  %s  %s: %s  (%s)\n", $4, $2, $6, $5)
    if ($4 == "equivalent") eqv = eqv sprintf("  %s:%s  %s  ->  %s: %s\n", $2, $3, $6, $7, $5) }
  END {
    printf "%-22s %7s %7s %8s %10s %6s %9s\n", "file", "mutants", "killed", "survived", "equivalent", "stale", "kill rate"
    low = 0
    for (f in files) order[++k] = f
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
    for (i = 1; i <= k; i++) {
      f = order[i]; kl = c[f, "killed"]; sv = c[f, "survived"]
      rate = kl + sv ? 100 * kl / (kl + sv) : 100
      if (rate < min) low = 1
      printf "%-22s %7d %7d %8d %10d %6d %8.1f%%\n", f, n[f], kl, sv, c[f, "equivalent"], c[f, "stale"] + c[f, "unbuilt"], rate
    }
    if (surv != "") printf "\nsurvivors (tests missing):\n%s", surv
    if (eqv != "") printf "\nequivalent mutants (survive by design):\n%s", eqv
    if (stale != "") printf "\nstale mutants (the list no longer matches the source; update tests/mutants/list.txt):\n%s", stale
    printf "\nkill rate = killed / (killed + survived); every file needs %d%%: %s\n", min, low ? "NOT MET" : "met"
    exit low
  }' "$WORK/results.tsv"
