build-native/obj/src/ir/cfg.o: src/ir/cfg.c src/ir/cfg.h src/ir/program.h \
 src/ptx/ptx.h src/ir/ops.def
src/ir/cfg.h:
src/ir/program.h:
src/ptx/ptx.h:
src/ir/ops.def:
