build-native/obj/src/check/race.o: src/check/race.c src/check/race.h \
 src/exec/exec.h src/ir/program.h src/ptx/ptx.h src/ir/ops.def \
 src/mem/mem.h src/exec/hooks.h
src/check/race.h:
src/exec/exec.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/mem/mem.h:
src/exec/hooks.h:
