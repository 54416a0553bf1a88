build-native/obj/src/exec/ctrl.o: src/exec/ctrl.c src/exec/exec.h \
 src/ir/program.h src/ptx/ptx.h src/ir/ops.def src/mem/mem.h \
 src/exec/hooks.h src/check/race.h src/exec/sched.h src/ir/decode.h \
 include/smemu.h
src/exec/exec.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/mem/mem.h:
src/exec/hooks.h:
src/check/race.h:
src/exec/sched.h:
src/ir/decode.h:
include/smemu.h:
