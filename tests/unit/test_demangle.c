/* test_demangle.c: unit tests of the Itanium C++ ABI demangler (src/api/demangle.c). Expected
 * strings are c++filt's output, written out; c++filt itself, when installed, is only an extra check.
 * Malformed and randomly mutated names must return 0 with a copy, never crash or overrun. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/demangle.h"

typedef struct pair { const char *mangled, *want; } pair;

/* Each checked against c++filt (GNU binutils). */
static const pair names[] = {
    {"_Z3dotPKfS0_Pfi",
     "dot(float const*, float const*, float*, int)"},
    {"_Z6reduceILi256EEvPKfPfi",
     "void reduce<256>(float const*, float*, int)"},
    {"_Z4axpyfPKfPf",
     "axpy(float, float const*, float*)"},
    {"_Z1fv",
     "f()"},
    {"_Z5typesbcahstijlmxyfdenowgz",
     "types(bool, char, signed char, unsigned char, short, unsigned short, int, unsigned int, "
     "long, unsigned long, long long, unsigned long long, float, double, long double, __int128, "
     "unsigned __int128, wchar_t, __float128, ...)"},
    {"_Z1fDhDsDiDn",
     "f(half, char16_t, char32_t, decltype(nullptr))"},
    {"_Z4swapRiS_",
     "swap(int&, int&)"},
    {"_Z4moveOi",
     "move(int&&)"},
    {"_Z1fPVKi",
     "f(int const volatile*)"},
    {"_Z5countPKPKcPVj",
     "count(char const* const*, unsigned int volatile*)"},
    {"_ZN6thrust6detail6kernelEPKfPfm",
     "thrust::detail::kernel(float const*, float*, unsigned long)"},
    {"_ZN6thrust8cuda_cub4core13_kernel_agentINS0_14__parallel_for16ParallelForAgentIN"
     "S0_20__uninitialized_fill7functorINS_10device_ptrIiEEiEEmEES9_mEEvT0_T1_",
     "void thrust::cuda_cub::core::_kernel_agent<"
     "thrust::cuda_cub::__parallel_for::ParallelForAgent<"
     "thrust::cuda_cub::__uninitialized_fill::functor<thrust::device_ptr<int>, int>, unsigned long>, "
     "thrust::cuda_cub::__uninitialized_fill::functor<thrust::device_ptr<int>, int>, unsigned long>("
     "thrust::cuda_cub::__uninitialized_fill::functor<thrust::device_ptr<int>, int>, unsigned long)"},
    {"_ZN3cub17CUB_200200_800_NS11EmptyKernelIvEEvv",
     "void cub::CUB_200200_800_NS::EmptyKernel<void>()"},
    {"_ZN7cutlass6KernelINS_4gemm6kernel4GemmINS1_11threadblock3MmaEEEEEvNT_6ParamsE",
     "void cutlass::Kernel<cutlass::gemm::kernel::Gemm<cutlass::gemm::threadblock::Mma> >("
     "cutlass::gemm::kernel::Gemm<cutlass::gemm::threadblock::Mma>::Params)"},
    {"_Z6kernelIfLi128ELb1EEvPT_PKS0_i",
     "void kernel<float, 128, true>(float*, float const*, int)"},
    {"_Z1fILj5ELl5ELm5ELx5ELy5ELb1ELb0ELc65ELin5EEvv",
     "void f<5u, 5l, 5ul, 5ll, 5ull, true, false, (char)65, -5>()"},
    {"_Z1fIL4Mode3EEvv",
     "void f<(Mode)3>()"},
    {"_Z10add_kernelIiEvPT_S1_S1_m",
     "void add_kernel<int>(int*, int*, int*, unsigned long)"},
    {"_ZSt4swapIiEvRT_S1_",
     "void std::swap<int>(int&, int&)"},
    {"_Z1fSt6vectorIiSaIiEE",
     "f(std::vector<int, std::allocator<int> >)"},
    {"_Z1fNSt3__16vectorIiNS_9allocatorIiEEEE",
     "f(std::__1::vector<int, std::__1::allocator<int> >)"},
    {"_ZNK3Foo3barEv",
     "Foo::bar() const"},
    {"_ZN3FooC1Ev",
     "Foo::Foo()"},
    {"_ZN3FooD2Ev",
     "Foo::~Foo()"},
    {"_ZN3FooplERKS_",
     "Foo::operator+(Foo const&)"},
    {"_ZN1AltIiEEvv",
     "void A::operator< <int>()"},
    {"_ZN12_GLOBAL__N_16kernelEPf",
     "(anonymous namespace)::kernel(float*)"},
    {"_Z1fPA16_f",
     "f(float (*) [16])"},
    {"_Z1fRKA3_i",
     "f(int const (&) [3])"},
    {"_Z1fIA2_A3_iEvv",
     "void f<int [2][3]>()"},
    {"_Z5applyPFffEPfi",
     "apply(float (*)(float), float*, int)"},
    {"_Z1fIiEPFvvEv",
     "void (*f<int>())()"},
    {"_Z1fM3FooFvvE",
     "f(void (Foo::*)())"},
    {"_Z4fillP6float4S_",
     "fill(float4*, float4)"},
    {"_Z4halfP6__halfPKS_",
     "half(__half*, __half const*)"},
    {"_Z6launchIJifEEvDpT_",
     "void launch<int, float>(int, float)"},
    {"_Z6launchIJEEvDpT_",
     "void launch<>()"},
    {"_Z3fooB5cxx11v",
     "foo[abi:cxx11]()"},
    {"_ZN2ns7counterE",
     "ns::counter"},
    {"_ZN2ns6MatrixIfLi4ELi4EE8multiplyERKS1_",
     "ns::Matrix<float, 4, 4>::multiply(ns::Matrix<float, 4, 4> const&)"},
    {"_Z7forwardIRiEvOT_",
     "void forward<int&>(int&)"},
    {"_ZZ5saxpyE4tile",
     "saxpy::tile"},
    {"_ZZ11matmulTiledPKfS0_PfiE5tileA",
     "matmulTiled(float const*, float const*, float*, int)::tileA"},
    {"_ZZ1fIiEvvE1x_0",
     "f<int>()::x"},
    {"_ZZNK3Foo3barEvE3acc",
     "Foo::bar() const::acc"},
    {"_Z10atomic_addPU3AS1Vii",
     "atomic_add(int volatile AS1*, int)"},
};
#define NNAMES (sizeof names / sizeof *names)

static void test_names(void **state) {
  (void)state;
  char out[1024];
  for (size_t i = 0; i < NNAMES; i++) {
    memset(out, 'X', sizeof out);
    int r = demangle(names[i].mangled, out, sizeof out);
    if (!r || strcmp(out, names[i].want))
      print_error("%s\n  got  %s\n  want %s\n", names[i].mangled, out, names[i].want);
    assert_int_equal(r, 1);
    assert_string_equal(out, names[i].want);
  }
}

/* Not mangled (extern "C"), malformed, or using what the demangler leaves out (clones, vtables,
 * lambdas, expressions, float literals): 0 and a copy. */
static void test_refused(void **state) {
  (void)state;
  static const char *const in[] = {
      "vecAdd", "", "main", "__Z3foov", "_Z", "_Z3do", "_Z999999999x", "_Z1", "_ZN", "_ZNE",
      "_ZN3foo", "_Z3fooS_", "_Z1fIiEvT0_", "_Z3dotPKfS0_Pfj@", "_Z3foo\x01\xff", "_Z1fPFvE", "_ZNK3Foo3barE",
      "_ZN1fIiEES_", "_Z1fIiEvPT_S9_", "_ZNSt6vectorIiE", "_ZNStIcEC1Ev",
      "_Z3foov.constprop.0", "_ZTV3Foo", "_ZZ4mainENKUlvE_clEv", "_Z1fIXadL_Z1gvEEEvv",
      "_Z1fILf3f800000EEvv"};
  char out[256];
  for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
    memset(out, 'X', sizeof out);
    if (demangle(in[i], out, sizeof out)) print_error("demangled %s as %s\n", in[i], out);
    assert_int_equal(demangle(in[i], out, sizeof out), 0);
    assert_string_equal(out, in[i]);
  }
  assert_int_equal(demangle(NULL, out, sizeof out), 0);
  assert_string_equal(out, "");
}

static void test_truncation(void **state) {
  (void)state;
  char out[16];
  memset(out, 'X', sizeof out);
  assert_int_equal(demangle("_Z3dotPKfS0_Pfi", out, 8), 1);
  assert_string_equal(out, "dot(flo");
  assert_int_equal(out[8], 'X');
  assert_int_equal(demangle("_Z3dotPKfS0_Pfi", out, 1), 1);
  assert_string_equal(out, "");
  out[0] = 'X';
  assert_int_equal(demangle("_Z3dotPKfS0_Pfi", out, 0), 1);
  assert_int_equal(demangle("extern_c_kernel", out, 0), 0);
  assert_int_equal(out[0], 'X');
  assert_int_equal(demangle("extern_c_kernel", out, 7), 0);
  assert_string_equal(out, "extern");
}

/* Writes the substitution S_, S0_, S1_, ... that refers to candidate number id. */
static void sub_ref(char *s, int id) {
  char d[8];
  int n = 0;
  for (int v = id - 1; id && (v || !n); v /= 36) d[n++] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v % 36];
  *s++ = 'S';
  while (n) *s++ = d[--n];
  strcpy(s, "_");
}

/* Deep nesting is refused, a substitution bomb truncated: neither takes much stack or time. */
static void test_limits(void **state) {
  static char m[40000], out[4096];
  (void)state;
  strcpy(m, "_Z1f");
  memset(m + 4, 'P', 5000), strcpy(m + 5004, "i");
  assert_int_equal(demangle(m, out, sizeof out), 0);
  assert_memory_equal(out, m, sizeof out - 1);
  strcpy(m, "_Z1fI");
  for (int i = 0; i < 3000; i++) strcat(m, "J");
  strcat(m, "i");
  for (int i = 0; i < 3000; i++) strcat(m, "E");
  assert_int_equal(demangle(strcat(m, "Evv"), out, sizeof out), 0);
  strcpy(m, "_Z1fPi"); /* S_ is int*; parameter i is A<previous, previous>, 2^60 characters in full */
  for (int i = 0; i < 60; i++) {
    char ref[8];
    sub_ref(ref, 2 * i); /* A is candidate 2i+1, A<...> 2i+2 */
    strcat(m, "1AI"), strcat(m, ref), strcat(m, ref), strcat(m, "E");
  }
  assert_int_equal(demangle(m, out, sizeof out), 1);
  assert_int_equal(strlen(out), sizeof out - 1);
  assert_memory_equal(out, "f(int*, A<int*, int*>, A<A<int*, int*>, A<int*, int*> >, ", 57);
  strcpy(m, "_Z1fPi"); /* a chain of pointers, each to the last */
  for (int i = 0; i < 2000; i++) {
    char ref[8];
    sub_ref(ref, i);
    strcat(m, "P"), strcat(m, ref);
  }
  assert_int_equal(demangle(m, out, sizeof out), 0);
}

static uint64_t rng(uint64_t *x) {
  *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
  return *x;
}

/* Random bytes and random edits of the names above: whatever comes back stays inside out and is
 * NUL-terminated; a refused name comes back as a copy. Also run under -fsanitize=address,undefined. */
static void test_mutations(void **state) {
  (void)state;
  static const char alpha[] = "_0123456789SNEIJLTKVPROFADMZtsabcdefhijlmnovxyzuC";
  uint64_t x = 0x9e3779b97f4a7c15ull;
  char m[600], out[300];
  for (int it = 0; it < 200000; it++) {
    size_t len, n;
    if (it % 10 == 0) { /* random bytes */
      len = rng(&x) % 40;
      memcpy(m, "_Z", 2);
      for (size_t j = 2; j < len; j++) m[j] = (char)(rng(&x) % 255 + 1);
      m[len < 2 ? 2 : len] = 0;
    } else {
      strcpy(m, names[rng(&x) % NNAMES].mangled);
      for (int k = 1 + (int)(rng(&x) % 4); k > 0; k--) {
        len = strlen(m);
        size_t pos = rng(&x) % (len + 1);
        char c = rng(&x) % 4 ? alpha[rng(&x) % (sizeof alpha - 1)] : (char)(rng(&x) % 255 + 1);
        switch (rng(&x) % 4) {
        case 0: if (len) m[pos % len] = c; break;
        case 1: if (len < sizeof m - 2) { memmove(m + pos + 1, m + pos, len - pos + 1); m[pos] = c; } break;
        case 2: if (len) memmove(m + pos % len, m + pos % len + 1, len - pos % len); break;
        default: m[pos] = 0; break;
        }
      }
    }
    n = rng(&x) % 4 ? sizeof out - 1 : rng(&x) % 24;
    memset(out, 'X', sizeof out);
    int r = demangle(m, out, n);
    assert_int_equal(out[n], 'X');
    if (n) assert_true(memchr(out, 0, n) != NULL);
    if (!r && n) assert_int_equal(strncmp(out, m, n - 1), 0);
  }
}

extern char **environ;

/* The first line c++filt ARG prints, run without a shell; -1 when it
 * cannot run or fails. */
static int cxxfilt(const char *arg, char *line, size_t n) {
  int fd[2];
  if (pipe(fd) < 0) return -1;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  char *argv[] = {"c++filt", (char *)arg, NULL};
  pid_t pid;
  int rc = posix_spawnp(&pid, "c++filt", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fd[1]);
  size_t k = 0;
  ssize_t r;
  while (rc == 0 && (r = read(fd[0], line + k, n - 1 - k)) != 0) {
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 || (k += (size_t)r) == n - 1) break;
  }
  line[k] = 0;
  close(fd[0]);
  int st = 1;
  if (rc == 0)
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
  line[strcspn(line, "\n")] = 0;
  return rc == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* An extra check, skipped where c++filt is not installed. */
static void test_against_cxxfilt(void **state) {
  (void)state;
  char line[1024];
  if (cxxfilt("--version", line, sizeof line) != 0) skip();
  for (size_t i = 0; i < NNAMES; i++) {
    char got[1024];
    assert_int_equal(cxxfilt(names[i].mangled, line, sizeof line), 0);
    demangle(names[i].mangled, got, sizeof got);
    assert_string_equal(got, line);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_refused),
      cmocka_unit_test(test_truncation),
      cmocka_unit_test(test_limits),
      cmocka_unit_test(test_mutations),
      cmocka_unit_test(test_against_cxxfilt),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
