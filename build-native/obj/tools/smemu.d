build-native/obj/tools/smemu.o: tools/smemu.c tools/../runtime/run_cmd.h \
 tools/clc.h include/smemu.h
tools/../runtime/run_cmd.h:
tools/clc.h:
include/smemu.h:
