build-native/obj/src/api/api_runtime.o: src/api/api_runtime.c \
 src/api/internal.h src/exec/exec.h src/ir/program.h src/ptx/ptx.h \
 src/ir/ops.def src/mem/mem.h src/model/arch.h include/smemu.h
src/api/internal.h:
src/exec/exec.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/mem/mem.h:
src/model/arch.h:
include/smemu.h:
