build-native/obj/src/report/demangle.o: src/report/demangle.c \
 src/report/demangle.h
src/report/demangle.h:
