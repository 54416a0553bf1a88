build-native/obj/src/model/banks.o: src/model/banks.c src/model/banks.h \
 src/model/arch.h
src/model/banks.h:
src/model/arch.h:
