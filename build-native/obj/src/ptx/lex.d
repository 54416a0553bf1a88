build-native/obj/src/ptx/lex.o: src/ptx/lex.c src/ptx/lex.h src/ptx/ptx.h
src/ptx/lex.h:
src/ptx/ptx.h:
