#!/bin/sh
# sass_counts.sh FILE.sass: per kernel of cuobjdump -sass (or nvdisasm)
# output, one line: name, shared loads (LDS*), shared stores (STS*), the
# opcodes in order (comma-separated, "-" when none).
awk '
  function flush() { if (name != "") printf "%s\t%d\t%d\t%s\n", name, nl, ns, ops == "" ? "-" : ops }
  /Function : / { flush(); name = $NF; nl = ns = 0; ops = ""; next }
  /^[ \t]*\.text\./ && /:$/ { flush(); name = $1; sub(/^\.text\./, "", name); sub(/:$/, "", name); nl = ns = 0; ops = ""; next }
  {
    for (i = 1; i <= NF; i++) {
      op = $i
      if (op ~ /^(LDS|STS)(\.|$)/) {
        if (op ~ /^LDS/) nl++; else ns++
        ops = ops (ops == "" ? "" : ",") op
        break
      }
    }
  }
  END { flush() }' "$1"
