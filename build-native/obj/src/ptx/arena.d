build-native/obj/src/ptx/arena.o: src/ptx/arena.c src/ptx/arena.h
src/ptx/arena.h:
