build-native/obj/src/exec/fpsem.o: src/exec/fpsem.c src/exec/fpsem.h
src/exec/fpsem.h:
