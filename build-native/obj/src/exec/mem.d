build-native/obj/src/exec/mem.o: src/exec/mem.c src/exec/exec.h \
 src/ir/program.h src/ptx/ptx.h src/ir/ops.def src/mem/mem.h \
 src/exec/hooks.h src/check/race.h src/ir/decode.h
src/exec/exec.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/mem/mem.h:
src/exec/hooks.h:
src/check/race.h:
src/ir/decode.h:
