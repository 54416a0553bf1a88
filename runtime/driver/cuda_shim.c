/* cuda_shim.c: libcuda.so.1, the driver library programs that load PTX
 * themselves link with. It holds no code: it depends on libcudart.so.13,
 * which defines the driver API subset (driver.c) next to the runtime API,
 * so that both APIs share one emulated device. Programs' references to
 * cuInit & co. (unversioned, as NVIDIA's stub exports them) bind there. */
const char smemu_cuda_shim[] = "smemu libcuda.so.1";
