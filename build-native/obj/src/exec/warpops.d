build-native/obj/src/exec/warpops.o: src/exec/warpops.c src/exec/exec.h \
 src/ir/program.h src/ptx/ptx.h src/ir/ops.def src/mem/mem.h \
 src/ir/decode.h include/smemu.h
src/exec/exec.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/mem/mem.h:
src/ir/decode.h:
include/smemu.h:
