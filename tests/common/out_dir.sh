# out_dir.sh, sourced by suites that keep their built programs in the build
# folder between runs: O is where they go, BUILD/static when nvcc is the
# static-runtime wrapper (tests/hw/static_rt/nvcc_static, the suites'
# *-static twins), so the two builds of a program never share a file (they
# run at the same time, and a cached shared build must not stand in for
# the static one). Needs B.
case ":$PATH:" in
*/static_rt/nvcc_static:*) O="$B/static" ;;
*) O="$B" ;;
esac
mkdir -p "$O"
