// A struct with a padding byte copied whole through shared memory: ptxas
// reads the padding (ld.shared.v2.u8 of bytes 14 and 15) and --check init
// reports an uninitialised __shared__ read, though copying padding is no
// use of it (valgrind-style checkers report only values that reach a branch,
// an address or the host).
// smemu exec tests/qa/bugs/init_struct_padding.cu --kernel copyStruct --grid 1 --block 32 --arg buf:u8:512 --check init
// expected: no finding
struct S { int a; short b[5]; char c; }; /* 16 bytes, byte 15 is padding */

__global__ void copyStruct(S *out)
{
  __shared__ S s[32];
  S v;
  v.a = threadIdx.x; v.b[0] = v.b[1] = v.b[2] = v.b[3] = v.b[4] = 1; v.c = 'x';
  s[31 - threadIdx.x] = v;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
