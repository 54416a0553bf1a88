# mk/harden.mk: what tests/cli_harden.sh and the fuzz targets of the
# runtime need (issue 10):
#   build/harden/crash_main: a C host program on the drop-in runtime that
#       ends without synchronising, aborts or crashes after a launch
CRASH_MAIN := $(BUILD)/harden/crash_main
$(CRASH_MAIN): tests/runtime/crash_main.c $(RT_CUDART)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< -L$(RT_DIR) -l:libcudart.so.13 $(LDFLAGS)

TEST_DEPS += $(CRASH_MAIN)
