/* raw: the same operations as the linalg benchmarks, called directly on
** OpenBLAS / LAPACKE from C. Prints "key seconds" lines (median of reps).
**   raw dgemm N REPS          raw sgemm N REPS (float32)
**   raw lstsq M N REPS (dgelsd) */
#include <cblas.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

static void fill(double *a, size_t n, unsigned seed) {
  size_t i;
  srand(seed);
  for (i = 0; i < n; i++) a[i] = rand() / (double)RAND_MAX - 0.5;
}

/* one n x n product per repetition: cblas_dgemm, or cblas_sgemm on the
** same values rounded to float32 (single) */
static double bench_gemm(int n, int reps, int single) {
  size_t nn = (size_t)n * n, i;
  double *A = malloc(sizeof(double) * nn), *B = malloc(sizeof(double) * nn),
         *C = malloc(sizeof(double) * nn), t[64];
  float *a = (float *)A, *b = (float *)B, *c = (float *)C;   /* float32 in the same blocks */
  int r;
  fill(A, nn, 1); fill(B, nn, 2);
  if (single) for (i = 0; i < nn; i++) { a[i] = (float)A[i]; b[i] = (float)B[i]; }
  for (r = 0; r < reps; r++) {
    double t0 = now();
    if (single)
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    else
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n, B, n, 0.0, C, n);
    t[r] = now() - t0;
  }
  free(A); free(B); free(C);
  return median(t, reps);
}

/* dgelsd with a workspace query, as linalg and NumPy do */
static double bench_lstsq(int m, int n, int reps) {
  size_t mn = (size_t)m * n;
  double *A0 = malloc(sizeof(double) * mn), *A = malloc(sizeof(double) * mn),
         *b0 = malloc(sizeof(double) * m), *b = malloc(sizeof(double) * m),
         *s = malloc(sizeof(double) * n), t[64], q, *w;
  lapack_int rank, iw0, *iw;
  int r;
  fill(A0, mn, 3); fill(b0, (size_t)m, 4);
  for (r = 0; r < reps; r++) {
    double t0 = now();
    memcpy(A, A0, sizeof(double) * mn); memcpy(b, b0, sizeof(double) * m);
    LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, m, n, 1, A, m, b, m, s, -1.0, &rank, &q, -1, &iw0);
    w = malloc(sizeof(double) * (size_t)q);
    iw = malloc(sizeof(lapack_int) * (size_t)(iw0 > 1 ? iw0 : 1));
    LAPACKE_dgelsd_work(LAPACK_COL_MAJOR, m, n, 1, A, m, b, m, s, -1.0, &rank, w, (lapack_int)q, iw);
    free(w); free(iw);
    t[r] = now() - t0;
  }
  free(A0); free(A); free(b0); free(b); free(s);
  return median(t, reps);
}

/* repetitions: 1 to 64 (the size of the timing arrays) */
static int reps_of(const char *s) {
  int r = atoi(s);
  return r < 1 ? 1 : r > 64 ? 64 : r;
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "dgemm") == 0) {
    int n = atoi(argv[2]);
    printf("dgemm_%d %.9g\n", n, bench_gemm(n, reps_of(argv[3]), 0));
  } else if (argc >= 4 && strcmp(argv[1], "sgemm") == 0) {
    int n = atoi(argv[2]);
    printf("sgemm_%d %.9g\n", n, bench_gemm(n, reps_of(argv[3]), 1));
  } else if (argc >= 5 && strcmp(argv[1], "lstsq") == 0) {
    int m = atoi(argv[2]), n = atoi(argv[3]);
    printf("lstsq_%d_%d %.9g\n", m, n, bench_lstsq(m, n, reps_of(argv[4])));
  } else {
    fprintf(stderr, "usage: raw dgemm N REPS | raw sgemm N REPS | raw lstsq M N REPS\n");
    return 2;
  }
  return 0;
}
