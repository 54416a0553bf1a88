build-native/obj/src/ir/decode.o: src/ir/decode.c src/ir/decode.h \
 src/ir/program.h src/ptx/ptx.h src/ir/ops.def src/exec/fpsem.h \
 src/ir/cfg.h src/ir/merge.h src/exec/sched.h src/exec/exec.h \
 src/mem/mem.h
src/ir/decode.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
src/exec/fpsem.h:
src/ir/cfg.h:
src/ir/merge.h:
src/exec/sched.h:
src/exec/exec.h:
src/mem/mem.h:
