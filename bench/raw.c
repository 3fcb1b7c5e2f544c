/* raw: the same operations as the linalg benchmarks, called directly on
** OpenBLAS / LAPACKE from C. Prints "key seconds" lines (median of reps).
**   raw dgemm N REPS          raw sgemm N REPS (float32)
**   raw lstsq M N REPS (dgelsd) */
#include <cblas.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp);
  return t[n / 2];
}

static void fill(double *a, size_t n, unsigned seed) {
  size_t i;
  srand(seed);
  for (i = 0; i < n; i++) a[i] = rand() / (double)RAND_MAX - 0.5;
}

static double bench_dgemm(int n, int reps) {
  double *A = malloc(sizeof(double) * n * n), *B = malloc(sizeof(double) * n * n),
         *C = malloc(sizeof(double) * n * n), t[64];
  int r;
  fill(A, (size_t)n * n, 1); fill(B, (size_t)n * n, 2);
  for (r = 0; r < reps; r++) {
    double t0 = now();
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, A, n,
                B, n, 0.0, C, n);
    t[r] = now() - t0;
  }
  free(A); free(B); free(C);
  return median(t, reps);
}

static void fills(float *a, size_t n, unsigned seed) {
  size_t i;
  srand(seed);
  for (i = 0; i < n; i++) a[i] = (float)(rand() / (double)RAND_MAX - 0.5);
}

/* the float32 twin of bench_dgemm: one cblas_sgemm per repetition */
static double bench_sgemm(int n, int reps) {
  float *A = malloc(sizeof(float) * n * n), *B = malloc(sizeof(float) * n * n),
        *C = malloc(sizeof(float) * n * n);
  double t[64];
  int r;
  fills(A, (size_t)n * n, 1); fills(B, (size_t)n * n, 2);
  for (r = 0; r < reps; r++) {
    double t0 = now();
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A, n,
                B, n, 0.0f, C, n);
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
    printf("dgemm_%d %.9g\n", n, bench_dgemm(n, reps_of(argv[3])));
  } else if (argc >= 4 && strcmp(argv[1], "sgemm") == 0) {
    int n = atoi(argv[2]);
    printf("sgemm_%d %.9g\n", n, bench_sgemm(n, reps_of(argv[3])));
  } else if (argc >= 5 && strcmp(argv[1], "lstsq") == 0) {
    int m = atoi(argv[2]), n = atoi(argv[3]);
    printf("lstsq_%d_%d %.9g\n", m, n, bench_lstsq(m, n, reps_of(argv[4])));
  } else {
    fprintf(stderr, "usage: raw dgemm N REPS | raw sgemm N REPS | raw lstsq M N REPS\n");
    return 2;
  }
  return 0;
}
