# opencl.mk: OpenCL C through clang-14 and libclc-14 (tools/clc.c). Builds
# the OpenCL example drivers (build/examples/cl_*, run by `make demo` and
# `make test`), links tools/clc.o into the smemu tool and the OpenCL unit
# test, and, where OpenCL's header and loader are installed
# (ocl-icd-opencl-dev), the PoCL runner that the test compares with.
# Compiling .cl files needs Debian's clang-14 and libclc-14 at run time;
# without them the drivers and tests skip.

CLC_OBJ := $(BUILD)/obj/tools/clc.o
CL_INC  := -Itools -Iexamples -Iexamples/cl

# the drivers: examples/cl/NAME.c -> build/examples/cl_NAME
CL_EX_SRC := $(sort $(wildcard examples/cl/*.c))
CL_EX_BIN := $(CL_EX_SRC:examples/cl/%.c=$(BUILD)/examples/cl_%)
CL_EX_HDR := examples/common.h $(wildcard examples/cl/*.h) tools/clc.h
$(BUILD)/examples/cl_%: examples/cl/%.c $(CL_EX_HDR) $(CLC_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CL_INC) -o $@ $< $(CLC_OBJ) $(LIB) $(LDFLAGS) $(LDLIBS)

# `smemu exec FILE.cl` (tools/smemu.c calls clc_compile): the tool's link
# rule takes every prerequisite ($^)
SMEMU_OBJ += $(CLC_OBJ)

# the unit test needs clc.o beside the library, so it has its own rule
$(BUILD)/tests/test_opencl: tests/unit/test_opencl.c $(CL_EX_HDR) $(T_COMMON) $(CLC_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CL_INC) -Itests/common -o $@ $< $(T_COMMON) $(CLC_OBJ) $(LIB) $(LDFLAGS) $(LDLIBS) -lcmocka

# the examples on PoCL (or any OpenCL platform), for test_opencl to compare;
# needs OpenCL's header and the ICD loader's link library
CL_POCL :=
ifneq ($(and $(wildcard /usr/include/CL/cl.h),$(wildcard /usr/lib/libOpenCL.so /usr/lib/*/libOpenCL.so)),)
CL_POCL := $(BUILD)/tests/cl_pocl_run
$(CL_POCL): tests/cl/pocl_run.c $(CL_EX_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CL_INC) -o $@ $< $(LDFLAGS) -lOpenCL $(LDLIBS)
endif

DEMO_DEPS += $(CL_EX_BIN)
TEST_DEPS += $(CL_EX_BIN) $(CL_POCL)
