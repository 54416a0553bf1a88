# mk/jit.mk: the compiled tier (src/jit/, LLVM ORC through its C API). It is
# built only where llvm-config-19 is found (scripts/deps.sh installs
# llvm-19-dev); elsewhere src/jit/ compiles to stubs and every launch runs
# on the interpreter.
LLVM_CONFIG ?= $(shell command -v llvm-config-19 2>/dev/null)
ifneq ($(LLVM_CONFIG),)
LLVM_INC := $(shell $(LLVM_CONFIG) --includedir)
LLVM_LIBDIR := $(shell $(LLVM_CONFIG) --libdir)
CFLAGS += -DSMEMU_HAVE_JIT
$(BUILD)/obj/src/jit/%.o: XCF := -isystem $(LLVM_INC)
# (also what a static link of libsmemu.a needs: smemu.pc's Libs.private)
JIT_LIBS := -L$(LLVM_LIBDIR) -Wl,-rpath,$(LLVM_LIBDIR) $(shell $(LLVM_CONFIG) --libs orcjit native)
LDLIBS += $(JIT_LIBS)
endif

# The whole suite with every kernel compiled at its first launch (the
# default, auto, compiles only kernels that have run long). Slow: each
# kernel costs about 0.5 s of LLVM code generation when first launched (a
# region of ~10 instructions ~0.05 s, wgmma kernels ~7 s), so tests of many
# short kernels take 10 to 150 times their interpreted CPU time
# (test_model_exec 0.24 -> 36 s, test_wgmma 2.6 s -> minutes).
.PHONY: test-jit test-jit-ci
test-jit:
	SMEMU_TIER=jit $(MAKE) --no-print-directory test
# What CI (.ci/run) runs compiled after `make test`: the same suite less
# JIT_CI_OMIT, the tests whose time is almost all compiling; test_jit and
# the fuzz_tiers corpus compare both tiers in `make test` itself.
JIT_CI_OMIT ?= test_wgmma
test-jit-ci:
	SMEMU_TIER=jit SMEMU_TEST_OMIT="$(JIT_CI_OMIT)" $(MAKE) --no-print-directory test

# The differential fuzz target of the two tiers (tests/fuzz/fuzz_tiers.c,
# its generator in tests/common/tiers.c): the replay binary runs
# tests/fuzz/corpus_tiers/ in `make test` (it skips where this build has no
# compiled tier); `make fuzz` (or `make fuzz-tiers`) builds the libFuzzer
# binary build/fuzz_tiers, e.g.
#   nice build/fuzz_tiers -max_total_time=1800 build/corpus_tiers tests/fuzz/corpus_tiers
# The interpreter is built as in the library (-ffp-contract=off: no fused
# multiply-adds the compiled tier would not make).
$(BUILD)/fuzz_tiers_replay: tests/fuzz/fuzz_tiers.c tests/fuzz/replay.c tests/common/tiers.c tests/common/tiers.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/common -o $@ tests/fuzz/fuzz_tiers.c tests/fuzz/replay.c tests/common/tiers.c $(LIB) $(LDFLAGS) $(LDLIBS)
TEST_DEPS += $(BUILD)/fuzz_tiers_replay

.PHONY: fuzz-tiers
fuzz: fuzz-tiers
ifneq ($(LLVM_CONFIG),)
FUZZ_T_SRC := tests/fuzz/fuzz_tiers.c tests/common/tiers.c $(LIB_SRC)
FUZZ_T_OBJ := $(FUZZ_T_SRC:%.c=$(BUILD)/fuzzobj/%.o)
$(BUILD)/fuzzobj/%.o: %.c
	@mkdir -p $(dir $@)
	clang-14 -std=c11 -D_GNU_SOURCE -ffp-contract=off -frounding-math -Iinclude -Isrc -Itests/common -g -O1 \
	  -fsanitize=fuzzer,address,undefined -DSMEMU_HAVE_JIT -isystem $(LLVM_INC) -MMD -MP -c $< -o $@
$(BUILD)/fuzz_tiers: $(FUZZ_T_OBJ)
	clang-14 -fsanitize=fuzzer,address,undefined -o $@ $^ $(JIT_LIBS) -lm -pthread
fuzz-tiers: $(BUILD)/fuzz_tiers
-include $(FUZZ_T_OBJ:.o=.d)
else
fuzz-tiers:
	@echo "fuzz-tiers: no llvm-config-19, no compiled tier to compare"
endif
