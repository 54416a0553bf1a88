#!/bin/sh
# gen_tramp.sh NSLOTS EXPORTS.txt > tramp.inc: the logging shim's generated
# part. NSLOTS anonymous trampolines (slot i forwards to slots[i].real with
# twelve integer words, which covers the driver calls the static runtime
# makes: none takes floating-point or large by-value arguments), and one
# named forwarder per function the real libcuda exports (EXPORTS.txt, one
# name a line), so that a dlsym() of any name on the shim finds it and the
# call is logged.
n=$1
W="uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11"
A="a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11"
i=0
while [ $i -lt "$n" ]; do
  echo "static uint64_t tr$i($W) { return tramp_call($i, $A); }"
  i=$((i + 1))
done
echo "static const tramp_fn tramp_fns[$n] = {"
i=0
while [ $i -lt "$n" ]; do echo "tr$i,"; i=$((i + 1)); done
echo "};"
grep -E '^cu[A-Za-z0-9_]+$' "$2" | grep -vxE 'cuGetProcAddress|cuGetProcAddress_v2|cuGetExportTable' > names.tmp
echo "static const char *const export_names[] = {"
sed 's/.*/"&",/' names.tmp
echo "};"
k=0
while read -r x; do
  echo "__attribute__((visibility(\"default\"))) uint64_t $x($W) { return named_call($k, $A); }"
  k=$((k + 1))
done < names.tmp
echo "#define NEXPORTS $k"
rm -f names.tmp
