build-native/obj/src/ptx/types.o: src/ptx/types.c src/ptx/ptx.h
src/ptx/ptx.h:
