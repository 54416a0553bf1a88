#!/bin/sh
# html_test.sh BUILD: the HTML report in a real browser. smemu writes the
# reports of the naive and padded transposes (examples/transpose.ptx, on
# the 256 x 512 matrix the H200 recording used), headless Chromium loads
# each, takes a screenshot (BUILD/html/*.png) and dumps the DOM after the
# page's script ran; the test checks the DOM against Nsight Compute's
# figures for the same launches (tests/hw/examples/examples_banks.tsv):
# the naive one shows its conflict count, the 32-way line 33 and a grid of
# 32 passes on one bank; the padded one no conflicts, no grid. Chromium's
# console must report no script error. Where a CUDA program with a race is
# built (BUILD/runtime/progs/racecheck), `smemu run --html` is checked too:
# each race shows both of its source lines. Exit 77 without chromium.
B=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cd "$root" || exit 2
browser=$(command -v chromium || command -v chromium-browser) ||
  { echo "html_test: chromium is not installed (scripts/deps.sh installs Debian's chromium)"; exit 77; }
O="$B/html"
mkdir -p "$O"
fail() { echo "html_test: FAIL: $*"; bad=1; }
bad=0
tsv=tests/hw/examples/examples_banks.tsv
gpu() { awk -F'\t' -v k="$1" -v c="$2" '$1 == k { print $c }' "$tsv"; }

# Chromium: --dump-dom prints the DOM once the page has loaded and its
# script has run; console errors go to stderr with --enable-logging.
show() { # NAME: screenshot and DOM of $O/NAME.html
  url="file://$(cd "$O" && pwd)/$1.html"
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,2200 \
    --screenshot="$O/$1.png" "$url" >"$O/$1.shot.log" 2>&1 || fail "$1: screenshot (see $O/$1.shot.log)"
  [ -s "$O/$1.png" ] || fail "$1: no screenshot"
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --dump-dom "$url" \
    >"$O/$1.dom.html" 2>"$O/$1.console.log" || fail "$1: dump-dom"
  grep -q 'data-loaded="[1-9]' "$O/$1.dom.html" || fail "$1: the page's script did not run"
  if grep -E 'Uncaught|CONSOLE.*(Error|error)' "$O/$1.console.log"; then fail "$1: script errors"; fi
}

for k in transposeCoalesced transposeNoBankConflicts; do
  "$B/smemu" exec examples/transpose.ptx --kernel $k --grid 8,16 --block 32,8 --arg buf:f32:131072 \
    --arg buf:f32:131072:rand=1 --arg s32:256 --arg s32:512 --check races,sync --quiet --html "$O/$k.html" \
    >"$O/$k.exec.log" 2>&1 || fail "$k: smemu exec (see $O/$k.exec.log)"
  show $k
done

# naive: the H200's conflict count, the 32-way line, a 32-pass grid on one bank
d="$O/transposeCoalesced.dom.html"
want=$(gpu transposeCoalesced 4)
[ -n "$want" ] && [ "$want" -gt 0 ] || fail "no recording for transposeCoalesced"
grep -q "<td class=\"conflicts\">$want</td>" "$d" || fail "naive: launch table lacks $want conflicts"
grep -q "class=\"total\" data-conflicts=\"$want\"" "$d" || fail "naive: kernel total is not $want"
grep -q "<tr class=\"hot\" data-line=\"33\" data-conflicts=\"$want\"" "$d" || fail "naive: line 33 does not carry $want conflicts"
grep -q 'data-line="33".*32-way' "$d" || fail "naive: line 33 is not 32-way"
grep -q 'odata\[(outRow + r) \* height + outCol\] = tile\[tx\]\[ty + r\]' "$d" || fail "naive: line 33's source not shown"
grep -q '<div class="inst" data-way="32" data-line="33">' "$d" || fail "naive: no 32-way worst instance"
passes=$(sed -n '/<div class="inst" data-way="32"/,/<\/div>/p' "$d" | grep -c '<tr><th>[0-9]')
[ "$passes" = 32 ] || fail "naive: the grid has $passes passes, not 32"
worst=$(sed -n '/<div class="inst" data-way="32"/,/<\/div>/p' "$d" | grep -o 'class="hit worst"' | wc -l)
[ "$worst" = 32 ] || fail "naive: $worst cells on the worst bank, not 32"
# the column read tile[tx][ty + r] of a float tile[32][32]: lane tx reads
# word 32 * tx + c for one column c, so every cell of the grid is bank c,
# word c + 32 * lane, one lane each
cells=$(sed -n '/<div class="inst" data-way="32"/,/<\/div>/p' "$d" |
  grep -o 'title="bank [0-9]* word [0-9]* lanes [0-9,]*"' |
  awk '{ b = $2; w = $4; l = $6; sub(/"$/, "", l); if (l ~ /,/ || w != b + 32 * l) bad++; n++ }
       END { print n + 0, bad + 0 }')
[ "$cells" = "32 0" ] || fail "naive: grid cells (count, wrong) = $cells"
grep -q 'No hazards' "$d" || fail "naive: race section missing"

# padded: none
d="$O/transposeNoBankConflicts.dom.html"
[ "$(gpu transposeNoBankConflicts 4)" = 0 ] || fail "recording of the padded transpose has conflicts"
grep -q '<td class="conflicts">0</td>' "$d" || fail "padded: launch table does not show 0 conflicts"
grep -q 'No bank conflicts' "$d" || fail "padded: no 'No bank conflicts'"
grep -q 'class="inst"' "$d" && fail "padded: a worst-instance grid"
grep -q -- '-way' "$d" && grep -q '32-way' "$d" && fail "padded: a 32-way line"
grep -o 'data-conflicts="[0-9]*"' "$d" | grep -v '"0"' && fail "padded: a line with conflicts"

# a whole program with a race, through smemu run
if [ -x "$B/runtime/progs/racecheck" ]; then
  "$B/smemu" run --check races,sync --quiet --html "$O/racecheck.html" -- "$B/runtime/progs/racecheck" >"$O/racecheck.run.log" 2>&1
  show racecheck
  d="$O/racecheck.dom.html"
  races=$(grep -c '<div class="race error">' "$d")
  [ "$races" -ge 1 ] || fail "racecheck: no race shown"
  # every race shows two source lines, with their text
  codes=$(sed -n '/<div class="race/,/<\/div>/p' "$d" | grep -c '<pre class="code">.*racecheck.cu:[0-9]*: ')
  [ "$codes" = $((2 * $(grep -c '<div class="race' "$d"))) ] || fail "racecheck: races without both lines ($codes)"
  grep -q '(source not available)' "$d" && fail "racecheck: a race line without its source"
else
  echo "html_test: no nvcc-built racecheck program: smemu run part skipped"
fi
[ $bad = 0 ] && echo "html_test: ok (screenshots: $O/transposeCoalesced.png, $O/transposeNoBankConflicts.png)"
exit $bad
