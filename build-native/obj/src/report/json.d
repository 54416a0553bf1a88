build-native/obj/src/report/json.o: src/report/json.c include/smemu.h
include/smemu.h:
