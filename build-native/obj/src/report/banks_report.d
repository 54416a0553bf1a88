build-native/obj/src/report/banks_report.o: src/report/banks_report.c \
 src/api/internal.h src/exec/exec.h src/ir/program.h src/ptx/ptx.h \
 src/ir/ops.def src/mem/mem.h src/model/arch.h include/smemu.h \
 src/exec/hooks.h src/check/race.h
src/api/internal.h:
src/exec/exec.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/mem/mem.h:
src/model/arch.h:
include/smemu.h:
src/exec/hooks.h:
src/check/race.h:
