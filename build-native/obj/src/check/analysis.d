build-native/obj/src/check/analysis.o: src/check/analysis.c \
 src/exec/hooks.h src/check/race.h src/exec/exec.h src/ir/program.h \
 src/ptx/ptx.h src/ir/ops.def src/mem/mem.h src/ir/merge.h \
 src/model/banks.h src/model/arch.h
src/exec/hooks.h:
src/check/race.h:
src/exec/exec.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/mem/mem.h:
src/ir/merge.h:
src/model/banks.h:
src/model/arch.h:
