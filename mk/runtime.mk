# mk/runtime.mk: the CUDA runtime drop-in (runtime/, see runtime/README.md).
#   build/runtime/libcudart.so.13 (+ libcudart.so): the runtime and driver API
#       on smemu, for programs built with `nvcc -cudart shared`
#   build/runtime/libcuda.so.1 (+ libcuda.so): the driver library's name,
#       depending on libcudart.so.13
#   build/runtime/smemu-run: `smemu run` on its own (tests; tools/smemu.c
#       calls smemu_cmd_run for the real command)
#   build/runtime/progs/: the example and corpus programs, built by nvcc
#       when it is on the PATH (tests/runtime/build.sh)
RT_DIR    := $(BUILD)/runtime
# By API area: core/ (state, lifecycle, queue, fatbin, bounds), cudart/ (the
# runtime API), driver/ (the driver API), report/ (the end-of-program
# reports); files still at the top are built as well. driver/cuda_shim.c is
# libcuda.so.1's own object.
RT_AREAS  := runtime runtime/core runtime/cudart runtime/driver runtime/report
RT_SRC    := $(filter-out runtime/driver/cuda_shim.c,$(sort $(foreach d,$(RT_AREAS),$(wildcard $(d)/*.c))))
# `smemu run` itself (tools/): the command, the compile cache, spawning
RUN_OBJ   := $(patsubst %.c,$(BUILD)/obj/%.o,$(sort $(wildcard tools/run_*.c)))
RT_OBJ    := $(RT_SRC:%.c=$(BUILD)/obj/%.o)
RT_CUDART := $(RT_DIR)/libcudart.so.13
RT_CUDA   := $(RT_DIR)/libcuda.so.1
RT_RUN    := $(RT_DIR)/smemu-run
RT_PROGS  := $(RT_DIR)/progs/.built
NVCC      ?= $(shell command -v nvcc 2>/dev/null)

# Only the CUDA entry points are exported (RT_EXPORT and runtime/cudart.map);
# every area includes runtime/'s shared headers (rt.h, cuda_abi.h).
$(BUILD)/obj/runtime/%.o: XCF := -fvisibility=hidden -Iruntime

$(RT_CUDART): $(RT_OBJ) $(LIB) runtime/cudart.map
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $(RT_OBJ) $(LIB) -Wl,-soname,libcudart.so.13 \
	  -Wl,--version-script=runtime/cudart.map -Wl,-z,defs $(LDFLAGS) $(LDLIBS)
	ln -sf libcudart.so.13 $(RT_DIR)/libcudart.so

$(RT_CUDA): $(BUILD)/obj/runtime/driver/cuda_shim.o $(RT_CUDART)
	$(CC) -shared -o $@ $(BUILD)/obj/runtime/driver/cuda_shim.o -Wl,-soname,libcuda.so.1 \
	  -Wl,--no-as-needed -L$(RT_DIR) -l:libcudart.so.13 $(LDFLAGS)
	ln -sf libcuda.so.1 $(RT_DIR)/libcuda.so

$(RT_RUN): tests/runtime/run_main.c $(RUN_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itools -o $@ $^ $(LDFLAGS) $(LDLIBS)

# runtime/cuda_abi.h's structure layout, compared with NVIDIA's by the tests
$(RT_DIR)/abi_smemu: tests/runtime/abi_check.c tests/runtime/abi_fields.h runtime/cuda_abi.h runtime/errors.def
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Iruntime -o $@ $<

# `smemu run` lives in tools/run_cmd.o; linking it into build/smemu lets
# tools/smemu.c call smemu_cmd_run (tools/run_cmd.h). It comes after
# libsmemu.a on the link line, hence the library once more after it.
SMEMU_OBJ += $(BUILD)/obj/runtime/core/fatbin.o $(BUILD)/obj/runtime/core/devrt.o

$(RT_PROGS): $(wildcard tests/runtime/corpus/*.cu tests/runtime/corpus/*/*.cu examples/programs/*.cu \
               examples/programs/*.cpp examples/*.cu tests/hw/rtapi/*.cu) tests/runtime/build.sh tests/runtime/programs.txt
	@sh tests/runtime/build.sh $(RT_DIR)/progs "$(NVCC)"

.PHONY: runtime
runtime: $(RT_CUDART) $(RT_CUDA) $(RT_RUN)

all: runtime
TEST_DEPS += $(RT_CUDART) $(RT_CUDA) $(RT_RUN) $(RT_PROGS) $(RT_DIR)/abi_smemu
DEMO_DEPS += $(RT_CUDART) $(RT_CUDA) $(RT_PROGS)
