/* ok_split_extern: one dynamic shared array split into an int, a short and
 * a char array (n elements each: 7 * n bytes), written, a barrier, then
 * read mirrored. Correct: no hazard. */
#include "races.cuh"

extern "C" __global__ void ok_split_extern(int *out, const int *in, int n)
{
  extern __shared__ int dyn[];
  int *a = dyn;
  short *b = (short *)&a[n];
  char *c = (char *)&b[n];
  int t = threadIdx.x;
  a[t] = in[t];                                  //@WA
  b[t] = (short)(in[t] * 3);                     //@WB
  c[t] = (char)(in[t] + t);                      //@WC
  __syncthreads();
  int m = n - 1 - t;
  out[t] = a[m] + b[m] + c[m];                   //@R
}
