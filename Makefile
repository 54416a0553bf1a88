# smemu: one entry point. `make` builds build/libsmemu.a and build/smemu;
# `make test` builds and runs every test; `make demo` runs the examples;
# `make bench` prints throughput figures. MODE=debug|asan|release (default).
MODE    ?= release
CC      ?= cc
BUILD   ?= build
WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wno-unused-parameter
# Builds are portable: a release build runs on every CPU of its
# architecture. On x86-64 the executor, the checks and the models (the lane
# loops) are compiled twice, for the baseline and for x86-64-v3 (AVX2, FMA,
# BMI2: matmul N=512 on the interpreter 0.46 -> 0.17 s), and each of their
# functions is an ifunc that picks its copy when the program loads
# (mk/dispatch.sh). NATIVE=1 builds everything for the building CPU alone
# (-march=native: faster on that CPU, an illegal instruction on an older
# one). -ffp-contract=off keeps a*b+c two roundings, as PTX's mul and add
# are.
NATIVE  ?= 0
OPT_release := -O2 -g $(if $(filter 1,$(NATIVE)),-march=native)
OPT_debug   := -O0 -g -DSMEMU_DEBUG
OPT_asan    := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -DSMEMU_DEBUG
XCFLAGS ?=
CFLAGS  := -std=c11 -ffp-contract=off -D_GNU_SOURCE -Iinclude -Isrc $(WARN) $(OPT_$(MODE)) -fPIC -pthread $(XCFLAGS)
SAN     := -fsanitize=address,undefined
LDFLAGS := -pthread $(if $(filter asan,$(MODE)),$(SAN))
LDLIBS  := -lm

LIB_SRC := $(sort $(wildcard src/*/*.c))
ALL_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
LIB     := $(BUILD)/libsmemu.a
# The folders compiled twice (above); DUAL is 1 where that is done.
DUAL_DIRS := mem model exec async check
DUAL := $(if $(and $(filter release,$(MODE)),$(filter-out 1,$(NATIVE)),$(filter x86_64%,$(shell $(CC) -dumpmachine))),$(shell $(CC) -march=x86-64-v3 -x c -c -o /dev/null /dev/null 2>/dev/null && echo 1))
ifeq ($(DUAL),1)
DUAL_SRC := $(filter $(DUAL_DIRS:%=src/%/%),$(LIB_SRC))
DUAL_OBJ := $(DUAL_SRC:%.c=$(BUILD)/obj/%.o)
DUAL_V3  := $(DUAL_SRC:%.c=$(BUILD)/objv3/%.o)
LIB_OBJ  := $(filter-out $(DUAL_OBJ),$(ALL_OBJ)) $(DUAL_SRC:%.c=$(BUILD)/dual/%.base.o) \
            $(DUAL_SRC:%.c=$(BUILD)/dual/%.v3.o) $(BUILD)/dual/dispatch.o
else
LIB_OBJ  := $(ALL_OBJ)
endif
.PHONY: all demo test bench clean deps fuzz
all: $(BUILD)/smemu

# The floating-point semantics (model/fpsem.c) change the rounding mode at
# run time.
$(BUILD)/obj/src/model/fpsem.o: XCF := -frounding-math
# The lane loops of the hottest handlers and analyses vectorise fully only
# at -O3 (GCC 12's -O2 cost model leaves most of them scalar): matmul N=512
# 0.70 -> 0.52 s with the bank model (bench/).
ifeq ($(MODE),release)
HOT_OBJ := $(addprefix $(BUILD)/obj/src/,exec/mem.o exec/memfast.o exec/float.o exec/int.o exec/mov.o exec/launch.o check/hooks.o check/bankstat.o check/race.o check/race_shape.o check/sinit.o check/grace.o)
$(HOT_OBJ): XCF := -O3
endif
# Objects are rebuilt when the optimisation flags change (NATIVE=1 and back).
$(BUILD)/opt-flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(OPT_$(MODE))' | cmp -s - $@ || echo '$(OPT_$(MODE))' > $@
.PHONY: FORCE
$(BUILD)/obj/%.o: %.c $(BUILD)/opt-flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCF) -MMD -MP -c $< -o $@

# The x86-64-v3 copies, their renamed objects and the ifuncs that choose.
ifeq ($(DUAL),1)
$(BUILD)/objv3/src/model/fpsem.o: XCF := -frounding-math
$(HOT_OBJ:$(BUILD)/obj/%=$(BUILD)/objv3/%): XCF := -O3
# (kept: an intermediate make deleted would be compiled again next time)
.SECONDARY: $(DUAL_V3)
$(BUILD)/objv3/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XCF) -march=x86-64-v3 -MMD -MP -c $< -o $@
$(BUILD)/dual/syms.txt: $(DUAL_OBJ) mk/dispatch.sh
	@mkdir -p $(dir $@)
	sh mk/dispatch.sh syms $(DUAL_OBJ) > $@.tmp && mv $@.tmp $@
$(BUILD)/dual/%.base.o: $(BUILD)/obj/%.o $(BUILD)/dual/syms.txt
	@mkdir -p $(dir $@)
	sh mk/dispatch.sh rename base $(BUILD)/dual/syms.txt $< $@
$(BUILD)/dual/rosyms.txt: $(DUAL_OBJ) mk/dispatch.sh
	@mkdir -p $(dir $@)
	sh mk/dispatch.sh rosyms $(DUAL_OBJ) > $@.tmp && mv $@.tmp $@
$(BUILD)/dual/%.v3.o: $(BUILD)/objv3/%.o $(BUILD)/dual/syms.txt $(BUILD)/dual/rosyms.txt
	@mkdir -p $(dir $@)
	sh mk/dispatch.sh rename v3 $(BUILD)/dual/syms.txt $< $@ $(BUILD)/dual/rosyms.txt
$(BUILD)/dual/dispatch.c: $(BUILD)/dual/syms.txt mk/dispatch.sh
	sh mk/dispatch.sh source $< > $@.tmp && mv $@.tmp $@
$(BUILD)/dual/dispatch.o: $(BUILD)/dual/dispatch.c
	$(CC) $(CFLAGS) -c $< -o $@
endif

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

TOOL_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(sort $(wildcard tools/*.c)))

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
# (the build uses every core unless make was given -j itself)
NPROC := $(shell nproc 2>/dev/null || echo 1)
test: deps
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) $(BUILD)/smemu $(T_BIN) $(EX_BIN) $(BUILD)/fuzz_replay $(TEST_DEPS)
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

# The tool: tools/*.c and what mk/*.mk add to SMEMU_OBJ (the `smemu run`
# command's objects, the OpenCL C front end), which come before the library
# on the link line. Linked aside and renamed: a test running the old smemu
# meanwhile (the README's test's `make` may relink it) never sees a
# half-written file.
$(BUILD)/smemu: $(TOOL_OBJ) $(SMEMU_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@.tmp $^ $(LDLIBS) $(LIB) && mv -f $@.tmp $@
ifeq ($(DUAL),1)
# The same objects with every ifunc choosing the baseline copy, whatever
# the CPU, and no x86-64-v3 copy at all (dispatch_base.o names none):
# tests/regress/portable.sh runs the examples on it.
$(BUILD)/dual/dispatch_base.o: $(BUILD)/dual/dispatch.c
	$(CC) $(CFLAGS) -DSMEMU_DISPATCH_BASE -c $< -o $@
$(BUILD)/libsmemu-base.a: $(filter-out $(BUILD)/dual/dispatch.o $(BUILD)/dual/%.v3.o,$(LIB_OBJ)) $(BUILD)/dual/dispatch_base.o
	rm -f $@ && ar rcs $@ $^
$(BUILD)/smemu-base: $(TOOL_OBJ) $(SMEMU_OBJ) $(BUILD)/libsmemu-base.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(BUILD)/libsmemu-base.a
TEST_DEPS += $(BUILD)/smemu-base
endif

# after mk/*.mk: a rule's prerequisites are expanded when it is read, so
# DEMO_DEPS must be complete by then
demo: $(BUILD)/smemu $(EX_BIN) $(DEMO_DEPS)
	@sh scripts/demo.sh $(BUILD)

-include $(shell find $(BUILD)/obj $(BUILD)/objv3 -name '*.d' 2>/dev/null)
