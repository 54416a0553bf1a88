/* edge_inputs.h: the inputs of edge(): 7, 0, INT_MIN, -1 (32-bit), the same
 * in 64 bits, f32 NaN / inf / 3e9, f64 NaN / inf. Shared by the GPU
 * program and the smemu test. */
static const unsigned long long edge_inputs[16] = {
    7, 0, 0x80000000ull, 0xffffffffull,
    7, 0, 0x8000000000000000ull, 0xffffffffffffffffull,
    0x7fc00000ull, 0x7f800000ull, 0x4f32d05eull,
    0x7ff8000000000000ull, 0x7ff0000000000000ull, 0, 0, 0};
