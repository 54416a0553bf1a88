build-native/obj/src/mem/mem.o: src/mem/mem.c src/mem/mem.h
src/mem/mem.h:
