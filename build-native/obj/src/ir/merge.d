build-native/obj/src/ir/merge.o: src/ir/merge.c src/ir/merge.h \
 src/ptx/ptx.h
src/ir/merge.h:
src/ptx/ptx.h:
