/* split.cu: one extern __shared__ byte array carved into an int, a float, a
 * char and a double array (the doubles 8-byte aligned after the odd-sized
 * chars). Every thread fills, then reads other threads' elements of, all four. */

/* Per block: nI ints, nF floats, nC chars, nD doubles, taken from slice
 * blockIdx.x of the inputs. The output of a block is a record laid out like
 * its shared memory (ints | floats | chars | pad | doubles, `rec` bytes):
 *   int    i: si[(i + 1) % nI] + sc[i % nC]
 *   float  i: sf[nF - 1 - i] * 2 + (float)si[i % nI]
 *   char   i: sc[nC - 1 - i] ^ (signed char)i
 *   double i: sd[(i + 7) % nD] + (double)sf[i % nF]
 * Launch with `rec` bytes of dynamic shared memory. */
__global__ void splitShared(const int *gi, const float *gf, const signed char *gc, const double *gd,
                            unsigned char *out, int nI, int nF, int nC, int nD)
{
  extern __shared__ __align__(16) unsigned char smem[];
  size_t offF = (size_t)nI * sizeof(int);
  size_t offC = offF + (size_t)nF * sizeof(float);
  size_t offD = (offC + (size_t)nC + 7) & ~(size_t)7; /* doubles need 8-byte alignment */
  size_t rec = offD + (size_t)nD * sizeof(double);
  int *si = (int *)smem;
  float *sf = (float *)(smem + offF);
  signed char *sc = (signed char *)(smem + offC);
  double *sd = (double *)(smem + offD);
  int b = blockIdx.x;

  for (int i = threadIdx.x; i < nI; i += blockDim.x) si[i] = gi[b * nI + i];
  for (int i = threadIdx.x; i < nF; i += blockDim.x) sf[i] = gf[b * nF + i];
  for (int i = threadIdx.x; i < nC; i += blockDim.x) sc[i] = gc[b * nC + i];
  for (int i = threadIdx.x; i < nD; i += blockDim.x) sd[i] = gd[b * nD + i];
  __syncthreads();

  unsigned char *o = out + (size_t)b * rec;
  int *oi = (int *)o;
  float *of = (float *)(o + offF);
  signed char *oc = (signed char *)(o + offC);
  double *od = (double *)(o + offD);
  for (int i = threadIdx.x; i < nI; i += blockDim.x) oi[i] = si[(i + 1) % nI] + sc[i % nC];
  for (int i = threadIdx.x; i < nF; i += blockDim.x) of[i] = sf[nF - 1 - i] * 2.0f + (float)si[i % nI];
  for (int i = threadIdx.x; i < nC; i += blockDim.x) oc[i] = sc[nC - 1 - i] ^ (signed char)i;
  for (int i = threadIdx.x; i < nD; i += blockDim.x) od[i] = sd[(i + 7) % nD] + (double)sf[i % nF];
  /* the padding between chars and doubles stays as the host left it */
}
