# mk/runtime_harden.mk (read after mk/runtime.mk, whose RT_* it uses): what tests/cli_harden.sh and the fuzz targets of the
# runtime need (issue 10):
#   build/harden/crash_main: a C host program on the drop-in runtime that
#       ends without synchronising, aborts or crashes after a launch
CRASH_MAIN := $(BUILD)/harden/crash_main
$(CRASH_MAIN): tests/runtime/crash_main.c $(RT_CUDART)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< -L$(RT_DIR) -l:libcudart.so.13 $(LDFLAGS)

TEST_DEPS += $(CRASH_MAIN)

# Fuzz targets of the runtime (tests/fuzz/fuzz_rtapi.c: copies and fills;
# tests/fuzz/fuzz_rtnew.c: the smaller API areas;
# tests/fuzz/fuzz_rtgraph.c: graphs, capture and pools;
# tests/fuzz/fuzz_fatbin.c: the fatbinary / cubin reader), replayed over
# their corpora by `make test`; `make fuzz-runtime` builds the libFuzzer
# binaries with clang.
FUZZ_RT := $(BUILD)/fuzz_rtapi_replay $(BUILD)/fuzz_fatbin_replay $(BUILD)/fuzz_rtarray_replay $(BUILD)/fuzz_rtnew_replay \
  $(BUILD)/fuzz_rtgraph_replay
$(BUILD)/fuzz_rtarray_replay: tests/fuzz/fuzz_rtarray.c tests/fuzz/fuzz_reader.h tests/fuzz/replay.c $(RT_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iruntime -o $@ tests/fuzz/fuzz_rtarray.c tests/fuzz/replay.c $(RT_OBJ) $(LIB) $(LDFLAGS) $(LDLIBS) -ldl
$(BUILD)/fuzz_rtapi_replay: tests/fuzz/fuzz_rtapi.c tests/fuzz/fuzz_reader.h tests/fuzz/replay.c $(RT_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ tests/fuzz/fuzz_rtapi.c tests/fuzz/replay.c $(RT_OBJ) $(LIB) $(LDFLAGS) $(LDLIBS) -ldl
# tests/fuzz/fuzz_rtnew.c: the smaller API areas (attributes, libraries, user
# objects, the log, peers, batches, 2D fills)
$(BUILD)/fuzz_rtnew_replay: tests/fuzz/fuzz_rtnew.c tests/fuzz/fuzz_reader.h tests/fuzz/replay.c $(RT_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ tests/fuzz/fuzz_rtnew.c tests/fuzz/replay.c $(RT_OBJ) $(LIB) $(LDFLAGS) $(LDLIBS) -ldl
# tests/fuzz/fuzz_rtgraph.c: graphs, stream capture, memory pools
$(BUILD)/fuzz_rtgraph_replay: tests/fuzz/fuzz_rtgraph.c tests/fuzz/fuzz_reader.h tests/fuzz/replay.c $(RT_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iruntime -o $@ tests/fuzz/fuzz_rtgraph.c tests/fuzz/replay.c $(RT_OBJ) $(LIB) $(LDFLAGS) $(LDLIBS) -ldl
$(BUILD)/fuzz_fatbin_replay: tests/fuzz/fuzz_fatbin.c tests/fuzz/replay.c $(BUILD)/obj/runtime/core/fatbin.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS) -ldl
TEST_DEPS += $(FUZZ_RT)

FUZZ_CC := clang-14 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -Iruntime -g -O1 -fsanitize=fuzzer,address,undefined
.PHONY: fuzz-runtime
fuzz-runtime:
	@mkdir -p $(BUILD)
	$(FUZZ_CC) -o $(BUILD)/fuzz_fatbin tests/fuzz/fuzz_fatbin.c runtime/core/fatbin.c -ldl
	$(FUZZ_CC) -pthread -o $(BUILD)/fuzz_rtapi tests/fuzz/fuzz_rtapi.c $(RT_SRC) $(LIB_SRC) -lm -ldl
	$(FUZZ_CC) -pthread -o $(BUILD)/fuzz_rtarray tests/fuzz/fuzz_rtarray.c $(RT_SRC) $(LIB_SRC) -lm -ldl
	$(FUZZ_CC) -pthread -o $(BUILD)/fuzz_rtnew tests/fuzz/fuzz_rtnew.c $(RT_SRC) $(LIB_SRC) -lm -ldl
	$(FUZZ_CC) -pthread -o $(BUILD)/fuzz_rtgraph tests/fuzz/fuzz_rtgraph.c $(RT_SRC) $(LIB_SRC) -lm -ldl
