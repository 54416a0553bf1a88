/* native.cl: the native_ math functions, which libclc-14 cannot lower for
 * NVPTX and tools/clc.c supplies with the GPU's approximate instructions
 * (tests/unit/test_opencl.c compares them with the C library). Eleven values
 * per input x: native_exp, _exp2, _exp10, _log, _log2, _log10, _sin, _cos,
 * _tan, _powr(x, 2.5) and, for the float4 form, native_exp of x again. */
__kernel void natives(__global const float *in, __global float *out)
{
  uint i = get_global_id(0);
  float x = in[i];
  __global float *o = out + i * 11;
  o[0] = native_exp(x);
  o[1] = native_exp2(x);
  o[2] = native_exp10(x);
  o[3] = native_log(x);
  o[4] = native_log2(x);
  o[5] = native_log10(x);
  o[6] = native_sin(x);
  o[7] = native_cos(x);
  o[8] = native_tan(x);
  o[9] = native_powr(x, 2.5f);
  o[10] = native_exp((float4)(x, 1.0f, 2.0f, 3.0f)).x;
}
