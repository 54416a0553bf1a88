// icall.cu: calls through function pointers. out[i] = op[i % 3](in[i], 7)
// with op = {add, mul, sub}, each warp picking one function (i / 32 % 3).
typedef int (*binop)(int, int);
__device__ __noinline__ int f_add(int a, int b) { return a + b; }
__device__ __noinline__ int f_mul(int a, int b) { return a * b; }
__device__ __noinline__ int f_sub(int a, int b) { return a - b; }
__device__ binop table[3] = {f_add, f_mul, f_sub};

extern "C" __global__ void icall(const int *in, int *out, int pick) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  binop f = (i / 32 + pick) % 3 == 0 ? f_add : (i / 32 + pick) % 3 == 1 ? f_mul : f_sub;
  out[i] = f(in[i], 7);
}

// the same through the table in global memory (relocated function addresses)
extern "C" __global__ void icall_table(const int *in, int *out, int pick) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = table[(i / 32 + pick) % 3](in[i], 7);
}
