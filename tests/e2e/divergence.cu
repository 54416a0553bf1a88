/* divergence.cu (e2e corpus): control flow that splits warps: nested
 * if/else, loops whose trip count differs per lane (Collatz), break and
 * continue, a switch, an early return, and a shuffle after reconvergence. */

#define DV_OUT 8

__global__ void divergent(const int *in, int *out, int n)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];
  int *o = out + gid * DV_OUT;

  /* nested if/else */
  int cls;
  if (v < 300) {
    if (v & 1) cls = 1;
    else if (v % 3 == 0) cls = 2;
    else cls = 3;
  } else {
    if (v > 900) cls = (v & 4) ? 4 : 5;
    else cls = 6 + (v % 5 == 0);
  }
  o[0] = cls;

  /* per-lane trip counts */
  unsigned c = (unsigned)v + 1u;
  int steps = 0;
  while (c != 1u && steps < 500) {
    c = (c & 1u) ? 3u * c + 1u : c >> 1;
    steps++;
  }
  o[1] = steps;

  /* break and continue */
  int acc = 0;
  for (int i = 0; i < 64; i++) {
    if ((i ^ v) % 3 == 0) continue;
    acc += i * (v & 7);
    if (acc > v) break;
  }
  o[2] = acc;

  /* a switch */
  int sw;
  switch (v % 9) {
  case 0: sw = 11; break;
  case 1: sw = v * 2; break;
  case 2: sw = -v; break;
  case 3: sw = v ^ 0x55; break;
  case 4: sw = v >> 2; break;
  case 5: /* fall through */
  case 6: sw = 66; break;
  case 7: sw = v % 13; break;
  default: sw = 8 * v + 1; break;
  }
  o[3] = sw;

  /* warps reconverge before a collective */
  o[4] = __shfl_xor_sync(0xffffffffu, steps, 1);

  /* an early return: these lanes skip the rest */
  if (v % 7 == 0) {
    o[5] = -1; o[6] = -1; o[7] = -1;
    return;
  }
  int x = v, depth = 0;
  do {                           /* do-while with a data-dependent exit */
    x = x / 2 + (x & 1) * 17;
    depth++;
  } while (x > 20 && depth < 40);
  o[5] = x;
  o[6] = depth;
  o[7] = (steps > depth) ? steps - depth : depth * 3;
}
