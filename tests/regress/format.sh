#!/bin/sh
# format.sh: the C of src/, runtime/ and tools/ is in the house format
# (.clang-format; STYLE.md): clang-format --dry-run -Werror over every
# tracked .c and .h file there. Exit 77 without clang-format or git.
cd "$(dirname "$0")/../.." || exit 2
CF=$(command -v clang-format || command -v clang-format-14) || { echo "format.sh: clang-format not found"; exit 77; }
command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1 || { echo "format.sh: not a git checkout"; exit 77; }
files=$(git ls-files 'src/*.[ch]' 'runtime/*.[ch]' 'tools/*.[ch]')
n=$(echo "$files" | wc -l)
bad=0
for f in $files; do
  "$CF" --dry-run -Werror "$f" >/dev/null 2>&1 || { echo "not formatted: $f (clang-format -i $f)"; bad=$((bad + 1)); }
done
[ $bad -eq 0 ] || { echo "FAIL: $bad of $n files differ from .clang-format"; exit 1; }
echo "format: $n files in the house format"
