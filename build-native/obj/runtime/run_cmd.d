build-native/obj/runtime/run_cmd.o: runtime/run_cmd.c runtime/run_cmd.h \
 include/smemu.h
runtime/run_cmd.h:
include/smemu.h:
