#!/bin/sh
# wheel.sh BUILD VERSION: installs the nvidia-cutlass wheel VERSION (or the
# newest with `latest`) from PyPI into BUILD/cutlass-wheel-VERSION unless it
# is there, and prints that folder. Suites that share a folder take turns
# (flock). Fails when pip cannot fetch it.
B=${1:?usage: wheel.sh BUILD VERSION}
V=${2:?usage: wheel.sh BUILD VERSION}
if [ "$V" = latest ]; then
  V=$(python3 -m pip index versions nvidia-cutlass 2> /dev/null | sed -n 's/^nvidia-cutlass (\(.*\))$/\1/p')
  [ -n "$V" ] || exit 1
fi
W="$B/cutlass-wheel-$V"
mkdir -p "$B" || exit 1
flock "$B/cutlass.lock" sh -c '[ -d "$1/cutlass_library/source/include/cute" ] ||
  python3 -m pip install --quiet --no-deps --target "$1" "nvidia-cutlass==$2" > "$1.log" 2>&1' sh "$W" "$V" || exit 1
echo "$W"
