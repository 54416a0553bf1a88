# mk/cutlass.mk: the nvidia-cutlass wheel's examples under `smemu run`
# (tests/cutlass). make test runs the `test` set of tests/cutlass/examples.txt
# (suite cutlass-examples); `make cutlass-examples` builds and runs every
# example listed (the nvcc builds are minutes each; cached in
# BUILD/cutlass-examples per wheel version); CUTLASS_WHEEL_VERSION=latest
# runs them from PyPI's newest wheel.
.PHONY: cutlass-examples
cutlass-examples: $(BUILD)/smemu runtime
	@sh tests/cutlass/test.sh $(BUILD) --all
