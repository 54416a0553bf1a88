# mk/python.mk: what Python's CUDA stacks need beside the drop-in runtime.
#   build/runtime/libnvJitLink.so.13: smemu's stand-in for the JIT linker
#       (runtime/nvjitlink/), found before the toolkit's under `smemu run`
#   build/py/venv-pinned, build/py/venv-latest: numba-cuda from PyPI, the
#       pinned versions (tests/numba/requirements-pinned.txt) and the newest
#       releases, installed by tests/numba/numba_test.sh (`make test`);
#       `make numba-suite` runs numba-cuda's whole cudapy suite on both
RT_JITLINK := $(BUILD)/runtime/libnvJitLink.so.13
$(RT_JITLINK): runtime/nvjitlink/nvjitlink.c src/mem/bytes.c runtime/nvjitlink/nvjitlink.map
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fvisibility=hidden -shared -o $@ $(filter %.c,$^) -Wl,-soname,libnvJitLink.so.13 \
	  -Wl,--version-script=runtime/nvjitlink/nvjitlink.map -Wl,-z,defs
	ln -sf libnvJitLink.so.13 $(BUILD)/runtime/libnvJitLink.so

all: $(RT_JITLINK)
TEST_DEPS += $(RT_JITLINK)

# `make bench`: a Numba script under smemu and under Numba's simulator
.PHONY: bench-numba
bench-numba: $(BUILD)/smemu $(BUILD)/runtime/libcudart.so.13 $(BUILD)/runtime/libcuda.so.1 $(RT_JITLINK)
	@sh bench/numba_bench.sh $(BUILD) || [ $$? = 77 ]
bench: bench-numba

# `make numba-suite`: numba-cuda's own test suite (numba.cuda.tests.cudapy,
# every module) under smemu, on the pinned and the newest versions; slow
# (tens of minutes), so not part of `make test`
.PHONY: numba-suite
numba-suite: $(BUILD)/smemu $(BUILD)/runtime/libcudart.so.13 $(BUILD)/runtime/libcuda.so.1 $(RT_JITLINK)
	@sh tests/numba/suite.sh $(BUILD)
