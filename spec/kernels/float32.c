/*
** spec/kernels/float32.c: the float kernels (lak_s*) against their double
** twins (lak_*) on the same inputs: float inputs converted exactly to
** double, the double result taken as the reference, float tolerances.
** LAK_BENCH=1 also times lak_attention against lak_sattention (see
** bench_attention at the end).
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* ---- checks (the same shape as spec/kernels/check.h's) */

static int ck_pass, ck_fail;

#define CHECK(cond, ...) do { \
    if (cond) ck_pass++; \
    else { \
      ck_fail++; \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__); \
      fputc('\n', stderr); \
    } \
  } while (0)

#define CLOSE(got, want, tol) do { \
    double ck_g = (got), ck_w = (want), ck_t = (tol); \
    CHECK(ck_g == ck_w || fabs(ck_g - ck_w) <= ck_t, \
          "%s: expected %.17g within %.3g, got %.17g (off by %.3g)", \
          #got, ck_w, ck_t, ck_g, fabs(ck_g - ck_w)); \
  } while (0)

static void *alloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) { fprintf(stderr, "out of memory\n"); exit(2); }
  return p;
}

#define EPSF ((double)FLT_EPSILON)

/* ---- inputs: a fixed LCG, floats in [lo, hi), and their double copies */

static uint64_t seed = 12345;
static double urand(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(seed >> 11) * (1.0 / 9007199254740992.0);
}

static float *frand(size_t n, double lo, double hi) {
  float *x = alloc(n, sizeof *x);
  size_t i;
  for (i = 0; i < n; i++) x[i] = (float)(lo + (hi - lo) * urand());
  return x;
}

static double *todouble(const float *x, size_t n) {
  double *y = alloc(n, sizeof *y);
  size_t i;
  for (i = 0; i < n; i++) y[i] = x[i];
  return y;
}


/* ---------------------------------------------------------------- arith */

/* |op(A)| |op(B)| entry (i, j), the scale of gemm's rounding error */
static double absprod(char ta, char tb, int i, int j, int k, const double *A, int lda,
                      const double *B, int ldb) {
  double s = 0.0;
  int l;
  for (l = 0; l < k; l++) {
    double a = ta == 'T' ? A[l + (size_t)i * lda] : A[i + (size_t)l * lda];
    double b = tb == 'T' ? B[j + (size_t)l * ldb] : B[l + (size_t)j * ldb];
    s += fabs(a * b);
  }
  return s;
}

/* lak_sgemm against lak_gemm: |C_s - C_d| <= (k + 2) eps_f (|alpha| |A||B| +
** |beta| |C|) entrywise */
static void gemm_case(char ta, char tb, int m, int n, int k) {
  int lda = (ta == 'T' ? k : m) + 1, ldb = (tb == 'T' ? n : k) + 2, ldc = m + 3;
  int acols = ta == 'T' ? m : k, bcols = tb == 'T' ? k : n, i, j, bad = 0;
  float *A = frand((size_t)lda * acols, -1, 1), *B = frand((size_t)ldb * bcols, -1, 1);
  float *C = frand((size_t)ldc * n, -1, 1);
  double *Ad = todouble(A, (size_t)lda * acols), *Bd = todouble(B, (size_t)ldb * bcols);
  double *Cd = todouble(C, (size_t)ldc * n);
  float alpha = 0.75f, beta = (m + n + k) % 2 ? 0.5f : 0.0f;
  lak_sgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  lak_gemm(ta, tb, m, n, k, alpha, Ad, lda, Bd, ldb, beta, Cd, ldc);
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++) {
      double tol = (k + 2) * EPSF * (fabs(alpha) * absprod(ta, tb, i, j, k, Ad, lda, Bd, ldb)
                                     + fabs(beta)) + 1e-30;
      double got = C[i + (size_t)j * ldc], want = Cd[i + (size_t)j * ldc];
      if (!(fabs(got - want) <= tol)) bad++;
    }
  CHECK(bad == 0, "gemm %c%c %dx%dx%d: %d entries off", ta, tb, m, n, k, bad);
  free(A); free(B); free(C); free(Ad); free(Bd); free(Cd);
}

static void test_gemm(void) {
  static const char tr[2] = {'N', 'T'};
  int m, n, k, a, b;
  for (a = 0; a < 2; a++)
    for (b = 0; b < 2; b++) {
      for (m = 1; m <= 5; m++)              /* the tiny path */
        for (n = 1; n <= 5; n++)
          for (k = 0; k <= 5; k++) gemm_case(tr[a], tr[b], m, n, k);
      gemm_case(tr[a], tr[b], 67, 45, 70);  /* sgemm */
      gemm_case(tr[a], tr[b], 300, 1, 40);  /* sgemv when B is not transposed */
    }
}

/* every op, flat and broadcast (a column against a row), exact for + - * /
** (float arithmetic on both sides: the double result rounded to float is
** the float result) and within a few ulp for pow */
static void test_ewise(void) {
  int m = 7, n = 5, op, i, j;
  float *a = frand((size_t)m * n, 0.5, 2), *b = frand((size_t)m * n, -2, 2);
  float *c = alloc((size_t)m * n, sizeof *c);
  double *ad = todouble(a, (size_t)m * n), *bd = todouble(b, (size_t)m * n);
  double *cd = alloc((size_t)m * n, sizeof *cd);
  for (op = LAK_ADD; op <= LAK_POW; op++) {
    int flat, bad = 0;
    for (flat = 0; flat < 2; flat++) {
      lak_sArg sa = {a, 1, m}, sb = {b, 1, m};
      lak_Arg da = {ad, 1, m}, db = {bd, 1, m};
      if (!flat) { sb.cs = 0; db.cs = 0; sa.rs = 0; da.rs = 0; }  /* column op row */
      lak_sewise((lak_Op)op, m, n, sa, sb, c, m);
      lak_ewise((lak_Op)op, m, n, da, db, cd, m);
      for (j = 0; j < n; j++)
        for (i = 0; i < m; i++) {
          double got = c[i + j * m], want = (float)cd[i + j * m];
          double tol = op == LAK_POW ? 4 * EPSF * fabs(want) : 0.0;
          if (!(fabs(got - want) <= tol)) bad++;
        }
    }
    CHECK(bad == 0, "ewise op %d: %d entries off", op, bad);
  }
  free(a); free(b); free(c); free(ad); free(bd); free(cd);
}

static void test_copy_finite(void) {
  int m = 37, n = 41, i, j, bad = 0;
  float *A = frand((size_t)m * n, -1, 1), *B = alloc((size_t)(n + 2) * m, sizeof *B);
  float *C = alloc((size_t)(m + 1) * n, sizeof *C);
  lak_stranspose(m, n, A, m, B, n + 2);
  lak_scopy(m, n, A, m, C, m + 1);
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++)
      bad += B[j + (size_t)i * (n + 2)] != A[i + (size_t)j * m] ||
             C[i + (size_t)j * (m + 1)] != A[i + (size_t)j * m];
  CHECK(bad == 0, "transpose/copy: %d entries differ", bad);
  CHECK(lak_sallfinite(m * n, A), "finite floats are finite");
  A[m * n - 1] = (float)HUGE_VAL;
  CHECK(!lak_sallfinite(m * n, A), "inf at the end");
  A[m * n - 1] = -FLT_MAX;
  CHECK(lak_sallfinite(m * n, A), "-FLT_MAX is finite");
  A[3] = (float)NAN;
  CHECK(!lak_sallfinite(m * n, A), "NaN inside");
  CHECK(lak_sallfinite(0, A), "empty");
  free(A); free(B); free(C);
}

/* ---------------------------------------------------------------- main */

int main(void) {
  test_gemm();
  test_ewise();
  test_copy_finite();
  if (ck_fail == 0) {
    printf("kernels/float32: %d checks passed\n", ck_pass);
    return 0;
  }
  printf("kernels/float32: %d of %d checks FAILED\n", ck_fail, ck_pass + ck_fail);
  return 1;
}
