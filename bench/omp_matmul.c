/* omp_matmul.c: the tiled matrix product of examples/matmul.cu written as
 * C for the CPU, the native baseline of the speed table (bench/table.sh):
 * each 16x16 block of C is one OpenMP iteration that copies its tiles of A
 * and B into local arrays (the kernel's shared tiles) and accumulates as
 * the kernel's threads do, in the same order, so its results equal the
 * kernel's. Built with -O3 -march=native -fopenmp.
 *   omp_matmul N   prints "omp matmul N SECONDS THREADS" (best of 5) after
 *                  checking C against a plain triple loop on 16 rows. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TILE 16

static void matmul(const float *A, const float *B, float *C, int n) {
  int nb = n / TILE;
#pragma omp parallel for schedule(static)
  for (int blk = 0; blk < nb * nb; blk++) {
    int by = blk / nb, bx = blk % nb;
    float ta[TILE][TILE], tb[TILE][TILE], acc[TILE][TILE] = {{0}};
    for (int base = 0; base < n; base += TILE) {
      for (int ty = 0; ty < TILE; ty++)
        for (int tx = 0; tx < TILE; tx++) {
          ta[ty][tx] = A[(by * TILE + ty) * n + base + tx];
          tb[ty][tx] = B[(base + ty) * n + bx * TILE + tx];
        }
      for (int ty = 0; ty < TILE; ty++)
        for (int k = 0; k < TILE; k++)
          for (int tx = 0; tx < TILE; tx++) acc[ty][tx] += ta[ty][k] * tb[k][tx];
    }
    for (int ty = 0; ty < TILE; ty++)
      for (int tx = 0; tx < TILE; tx++) C[(by * TILE + ty) * n + bx * TILE + tx] = acc[ty][tx];
  }
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 512;
  if (n <= 0 || n % TILE) {
    fprintf(stderr, "omp_matmul: N must be a positive multiple of %d\n", TILE);
    return 2;
  }
  float *A = malloc(sizeof(float) * n * n), *B = malloc(sizeof(float) * n * n), *C = malloc(sizeof(float) * n * n);
  if (!A || !B || !C) return 2;
  srand(1);
  for (long i = 0; i < (long)n * n; i++) {
    A[i] = (float)rand() / RAND_MAX - 0.5f;
    B[i] = (float)rand() / RAND_MAX - 0.5f;
  }
  double best = 1e30;
  for (int r = 0; r < 5; r++) {
    double t0 = now();
    matmul(A, B, C, n);
    double t = now() - t0;
    if (t < best) best = t;
  }
  for (int i = 0; i < n; i += n / 16)
    for (int j = 0; j < n; j++) {
      double ref = 0;
      for (int k = 0; k < n; k++) ref += (double)A[i * n + k] * B[k * n + j];
      if (fabs(ref - C[i * n + j]) > 1e-3) {
        fprintf(stderr, "omp_matmul: C[%d][%d] = %g, want %g\n", i, j, C[i * n + j], ref);
        return 1;
      }
    }
  printf("omp matmul %d %.6f %d\n", n, best, omp_get_max_threads());
  free(A);
  free(B);
  free(C);
  return 0;
}
