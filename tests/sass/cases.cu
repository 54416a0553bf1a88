/* cases.cu: one kernel per SASS mapping case of src/sass/map.c,
 * for tests/unit/test_sass_cases.c. Built with nvcc -arch=sm_90 -lineinfo
 * (test.sh: PTX with -ptx, the cubin with -cubin, disassembled with
 * nvdisasm -c -gi); cases.ptx and cases.nvdisasm are those files checked
 * in, for machines without nvcc or nvdisasm (regen.sh rewrites them).
 * Every kernel runs with one block of 32 threads. */

/* merged scalars: four loads of one base at +0..+12, a 16-byte aligned
 * row: ptxas emits one LDS.128 */
extern "C" __global__ void merged_scalars(const float *in, float *out)
{
  __shared__ float t[32 * 4];
  int i = threadIdx.x;
  for (int k = 0; k < 4; k++) t[k * 32 + i] = in[k * 32 + i];
  __syncthreads();
  out[i] = t[4 * i] + t[4 * i + 1] * 2 + t[4 * i + 2] * 3 + t[4 * i + 3] * 4;
}

/* merged neighbouring variables: six __shared__ scalars stored by thread
 * 0 (STS.128 + STS.64) and read back by every thread */
extern "C" __global__ void merged_neighbours(const unsigned *in, unsigned *out)
{
  __shared__ unsigned a, b, c, d, e, f;
  if (threadIdx.x == 0) {
    a = in[0];
    b = in[1];
    c = in[2];
    d = in[3];
    e = in[4];
    f = in[5];
  }
  __syncthreads();
  out[threadIdx.x] = a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;
}

/* a warp-aggregated atomic: a per-lane amount at one address, result
 * unused: ptxas adds over the warp (REDUX/VOTE) and one lane does ATOMS */
extern "C" __global__ void agg_atomic(const unsigned *in, unsigned *out)
{
  __shared__ unsigned total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  atomicAdd(&total, in[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = total;
}

/* +1 at per-lane addresses, result unused: ATOMS.POPC.INC */
extern "C" __global__ void popc_inc(const unsigned *in, unsigned *out)
{
  __shared__ unsigned bins[32];
  bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&bins[in[threadIdx.x] % 32], 1u);
  __syncthreads();
  out[threadIdx.x] = bins[threadIdx.x];
}

/* atomicAdd on a double in shared memory: no native ATOMS, a
 * compare-and-swap loop (LDS + ATOMS.CAST.SPIN.64) */
extern "C" __global__ void cas_loop(const double *in, double *out)
{
  __shared__ double sum[4];
  if (threadIdx.x < 4) sum[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&sum[threadIdx.x % 4], in[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x < 4) out[threadIdx.x] = sum[threadIdx.x];
}

/* ldmatrix .x4 and .x2 and stmatrix .x4 on a 16x16 tile of b16 */
extern "C" __global__ void ldmatrix_x4(const unsigned short *in, unsigned *out)
{
  __shared__ __align__(16) unsigned short tile[16][16];
  __shared__ __align__(16) unsigned short back[16][16];
  int l = threadIdx.x;
  for (int i = l; i < 256; i += 32) tile[i / 16][i % 16] = in[i];
  __syncwarp();
  unsigned a = (unsigned)__cvta_generic_to_shared(&tile[l % 16][8 * (l / 16)]);
  unsigned b = (unsigned)__cvta_generic_to_shared(&back[l % 16][8 * (l / 16)]);
  unsigned r0, r1, r2, r3, s0, s1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(s0), "=r"(s1) : "r"(a));
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};"
               :: "r"(b), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
  __syncwarp();
  out[l] = r0 ^ r1 ^ r2 ^ r3 ^ s0 ^ s1 ^ back[l % 16][l / 2];
}

/* generic addresses: a pointer that is shared or global by argument, so
 * ptxas keeps LD/ST/ATOM (generic) for the loads, stores and the atomic */
extern "C" __global__ void generic_select(const int *in, int *out, int *scratch, int use_shared)
{
  __shared__ int s[64];
  int *p = use_shared ? s : scratch;
  int t = threadIdx.x;
  p[t] = in[t];
  p[32 + t] = 0;
  __syncthreads();
  atomicAdd(&p[32 + (t & 3)], in[t]);
  __syncthreads();
  out[t] = p[(t * 5) % 32] + p[32 + (t & 3)];
}

/* a __noinline__ callee's atomic, at per-lane addresses (ptxas inlines
 * the call; the PTX keeps a .func whose parameter is the caller's) */
__device__ __noinline__ void bump(unsigned *c, unsigned v) { atomicAdd(c, v); }

extern "C" __global__ void func_atomic(const unsigned *in, unsigned *out)
{
  __shared__ unsigned count[4];
  if (threadIdx.x < 4) count[threadIdx.x] = 0;
  __syncthreads();
  bump(&count[threadIdx.x % 4], in[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x < 4) out[threadIdx.x] = count[threadIdx.x];
}

/* x, y, z of a 16-byte struct read by each thread: one LDS.128 covers
 * the three loads (and the unused w) */
struct p4 { float x, y, z, w; };

extern "C" __global__ void struct_xyz(const float *in, float *out)
{
  __shared__ p4 p[32];
  int t = threadIdx.x;
  p[t].x = in[t];
  p[t].y = in[t + 32];
  p[t].z = in[t + 64];
  p[t].w = 0;
  __syncthreads();
  int j = (t + 1) % 32;
  out[t] = p[j].x + 2 * p[j].y + 3 * p[j].z;
}

/* a loop whose trip count differs per lane: nvcc unrolls it by 4 in the
 * PTX, ptxas again into sections of 4, 2 and 1 bodies (LDS.64 pairs) that
 * lanes run in turn (program.h: unroll_sect) */
extern "C" __global__ void unrolled_sum(const unsigned *in, unsigned *out)
{
  __shared__ unsigned rows[32][64];
  for (int r = 0; r < 32; r++) {
    rows[r][threadIdx.x] = in[threadIdx.x] + r;
    rows[r][threadIdx.x + 32] = in[threadIdx.x] + 2 * r;
  }
  __syncwarp();
  unsigned c = in[threadIdx.x] % 19, s = 0;
  for (unsigned j = 0; j < c; j++) s += rows[threadIdx.x][j];
  out[threadIdx.x] = s;
}
