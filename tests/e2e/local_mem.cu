/* local_mem.cu (e2e corpus): per-thread arrays in local memory, indexed with
 * values known only at run time: an insertion sort, a histogram, a struct
 * array and a lookup. LM_N sorted ints plus 4 more results per thread. */

#define LM_N 20
#define LM_OUT (LM_N + 4)

struct lmItem { short key; int val; };

__global__ void localMem(const int *in, int *out, int n)
{
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int *src = in + gid * LM_N;
  int a[LM_N];
  int hist[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  lmItem items[LM_N];
  for (int i = 0; i < LM_N; i++) {
    a[i] = src[i];
    hist[src[i] & 7]++;
    items[src[i] % LM_N].key = (short)i;
    items[i].val = src[i] * 3;
  }
  for (int i = 1; i < LM_N; i++) {      /* insertion sort */
    int x = a[i], j = i - 1;
    while (j >= 0 && a[j] > x) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = x;
  }
  int *o = out + gid * LM_OUT;
  for (int i = 0; i < LM_N; i++) o[i] = a[i];
  o[LM_N] = hist[src[0] & 7] * 100 + hist[src[1] & 7];
  o[LM_N + 1] = a[src[2] % LM_N];
  o[LM_N + 2] = items[src[3] % LM_N].val;
  o[LM_N + 3] = items[src[4] % LM_N].key;
}
