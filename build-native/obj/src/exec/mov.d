build-native/obj/src/exec/mov.o: src/exec/mov.c src/exec/exec.h \
 src/ir/program.h src/ptx/ptx.h src/ir/ops.def src/mem/mem.h \
 src/exec/fpsem.h src/ir/decode.h
src/exec/exec.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/mem/mem.h:
src/exec/fpsem.h:
src/ir/decode.h:
