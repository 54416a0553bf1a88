# mk/python.mk: what Python's CUDA stacks need beside the drop-in runtime.
#   build/runtime/libnvJitLink.so.13: smemu's stand-in for the JIT linker
#       (runtime/nvjitlink/), found before the toolkit's under `smemu run`
#   build/py/: numba-cuda from PyPI (pip --target), installed for the
#       Numba tests by tests/numba/setup.sh
RT_JITLINK := $(BUILD)/runtime/libnvJitLink.so.13
$(RT_JITLINK): runtime/nvjitlink/nvjitlink.c runtime/nvjitlink/nvjitlink.map
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fvisibility=hidden -shared -o $@ $< -Wl,-soname,libnvJitLink.so.13 \
	  -Wl,--version-script=runtime/nvjitlink/nvjitlink.map -Wl,-z,defs
	ln -sf libnvJitLink.so.13 $(BUILD)/runtime/libnvJitLink.so

all: $(RT_JITLINK)
TEST_DEPS += $(RT_JITLINK)

# `make bench`: a Numba script under smemu and under Numba's simulator
.PHONY: bench-numba
bench-numba: $(BUILD)/smemu $(BUILD)/runtime/libcudart.so.13 $(BUILD)/runtime/libcuda.so.1 $(RT_JITLINK)
	@sh bench/numba_bench.sh $(BUILD) || [ $$? = 77 ]
bench: bench-numba
