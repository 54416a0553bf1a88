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
# default, auto, compiles only kernels that have run long).
.PHONY: test-jit
test-jit:
	SMEMU_TIER=jit $(MAKE) --no-print-directory test
