build-native/obj/src/api/api.o: src/api/api.c src/api/internal.h \
 src/exec/exec.h src/ir/program.h src/ptx/ptx.h src/ir/ops.def \
 src/mem/mem.h src/model/arch.h include/smemu.h src/check/race.h \
 src/exec/hooks.h src/ir/decode.h src/report/demangle.h
src/api/internal.h:
src/exec/exec.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/mem/mem.h:
src/model/arch.h:
include/smemu.h:
src/check/race.h:
src/exec/hooks.h:
src/ir/decode.h:
src/report/demangle.h:
