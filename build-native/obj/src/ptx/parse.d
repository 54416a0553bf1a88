build-native/obj/src/ptx/parse.o: src/ptx/parse.c src/ptx/ptx.h \
 src/ptx/arena.h src/ptx/lex.h
src/ptx/ptx.h:
src/ptx/arena.h:
src/ptx/lex.h:
