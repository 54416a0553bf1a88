build-native/obj/tools/clc.o: tools/clc.c tools/clc.h
tools/clc.h:
