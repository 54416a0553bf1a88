build-native/obj/src/model/arch.o: src/model/arch.c src/model/arch.h
src/model/arch.h:
