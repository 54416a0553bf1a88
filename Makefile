# smemu: one entry point. `make` builds build/libsmemu.a and build/smemu;
# `make test` builds and runs every test; `make demo` runs the examples;
# `make bench` prints throughput figures. MODE=debug|asan|release (default).
MODE    ?= release
CC      ?= cc
BUILD   ?= build
WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wno-unused-parameter
# Release builds use the host CPU's instructions (FMA, POPCNT, AVX2 for the
# lane loops) where the compiler can target it; PORTABLE=1 builds for the
# compiler's default target (packages, other machines). -ffp-contract=off
# keeps a*b+c two roundings, as PTX's mul and add are.
PORTABLE ?= 0
NATIVE  := $(if $(filter 0,$(PORTABLE)),$(shell $(CC) -march=native -x c -c -o /dev/null /dev/null 2>/dev/null && echo -march=native))
OPT_release := -O2 -g $(NATIVE)
OPT_debug   := -O0 -g -DSMEMU_DEBUG
OPT_asan    := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -DSMEMU_DEBUG
XCFLAGS ?=
CFLAGS  := -std=c11 -ffp-contract=off -D_GNU_SOURCE -Iinclude -Isrc $(WARN) $(OPT_$(MODE)) -fPIC -pthread $(XCFLAGS)
SAN     := -fsanitize=address,undefined
LDFLAGS := -pthread $(if $(filter asan,$(MODE)),$(SAN))
LDLIBS  := -lm

LIB_SRC := $(sort $(wildcard src/*/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
LIB     := $(BUILD)/libsmemu.a

.PHONY: all demo test bench clean deps fuzz
all: $(BUILD)/smemu

# Floating-point families change the rounding mode at run time.
$(BUILD)/obj/src/exec/fp%.o: XCF := -frounding-math
# The lane loops of the hottest handlers and analyses vectorise fully only
# at -O3 (GCC 12's -O2 cost model leaves most of them scalar): matmul N=512
# 0.70 -> 0.52 s with the bank model (bench/).
ifeq ($(MODE),release)
HOT_OBJ := $(addprefix $(BUILD)/obj/src/,exec/mem.o exec/float.o exec/int.o exec/mov.o exec/launch.o check/hooks.o check/bankstat.o check/race.o check/race_shape.o check/sinit.o check/grace.o)
$(HOT_OBJ): XCF := -O3
endif
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCF) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

TOOL_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(sort $(wildcard tools/*.c)))
$(BUILD)/smemu: $(TOOL_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# ---- examples -------------------------------------------------------------
EX_SRC := $(sort $(wildcard examples/*.c))
EX_BIN := $(EX_SRC:examples/%.c=$(BUILD)/examples/%)
$(BUILD)/examples/%: examples/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

# ---- tests ----------------------------------------------------------------
deps:
	@sh scripts/deps.sh
T_SRC := $(sort $(wildcard tests/unit/test_*.c))
T_BIN := $(T_SRC:tests/unit/%.c=$(BUILD)/tests/%)
T_COMMON := $(sort $(wildcard tests/common/*.c))
$(BUILD)/tests/%: tests/unit/%.c $(T_COMMON) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/common -o $@ $< $(T_COMMON) $(LIB) $(LDFLAGS) $(LDLIBS) -lcmocka
test: deps
	@$(MAKE) --no-print-directory $(BUILD)/smemu $(T_BIN) $(EX_BIN) $(BUILD)/fuzz_replay $(TEST_DEPS)
	@sh scripts/test.sh $(BUILD)

# The fuzz target: replayed over its corpus by the tests; `make fuzz` builds
# the libFuzzer binary with clang.
$(BUILD)/fuzz_replay: tests/fuzz/fuzz_ptx.c tests/fuzz/replay.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ tests/fuzz/fuzz_ptx.c tests/fuzz/replay.c $(LIB) $(LDFLAGS) $(LDLIBS)
fuzz:
	clang-14 -std=c11 -D_GNU_SOURCE -Iinclude -Isrc -g -O1 -fsanitize=fuzzer,address,undefined \
	  -o $(BUILD)/fuzz_ptx tests/fuzz/fuzz_ptx.c $(LIB_SRC) -lm -pthread

bench: $(LIB) $(BUILD)/smemu runtime
	@mkdir -p $(BUILD)/bench
	$(CC) $(CFLAGS) -O3 -o $(BUILD)/bench/bench bench/bench.c $(LIB) $(LDFLAGS) $(LDLIBS)
	@sh bench/table.sh $(BUILD)
	$(BUILD)/bench/bench --tiers

clean:
	rm -rf $(BUILD)

# Parts with build rules of their own (the CUDA runtime drop-in, OpenCL):
# each mk/*.mk may add targets and append to TEST_DEPS / DEMO_DEPS.
-include $(sort $(wildcard mk/*.mk))

# after mk/*.mk: a rule's prerequisites are expanded when it is read, so
# DEMO_DEPS must be complete by then
demo: $(BUILD)/smemu $(EX_BIN) $(DEMO_DEPS)
	@sh scripts/demo.sh $(BUILD)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
