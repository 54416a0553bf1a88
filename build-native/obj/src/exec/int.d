build-native/obj/src/exec/int.o: src/exec/int.c src/exec/exec.h \
 src/ir/program.h src/ptx/ptx.h src/ir/ops.def src/mem/mem.h \
 src/ir/decode.h
src/exec/exec.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/mem/mem.h:
src/ir/decode.h:
