# cache_env.sh: sourced by the disk-cache suites: a temporary folder $T
# (removed at exit) and a compile cache of the test's own in it
# (SMEMU_CACHE, private as smemu requires).
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
export SMEMU_CACHE="$T/c"
mkdir -m 700 "$SMEMU_CACHE"
