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

/* ---------------------------------------------------------------- elementwise */

/* same value, or both NaN */
static int same(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

/* float result within ulps of the double result rounded to float (libmvec's
** float functions are within 4 ulp); special values give the same class */
static int ulps_ok(double got, double want, double ulps) {
  double w = (float)want;
  if (isnan(w) || isinf(w) || w == 0.0) return same(got, w);
  return fabs(got - w) <= ulps * EPSF * fabs(w);
}

static void test_unary(void) {
  static const struct { lak_Fn f; double lo, hi; } fn[] = {
    {LAK_EXP, -80, 80}, {LAK_LOG, 1e-3, 1e3}, {LAK_LOG1P, -0.9, 10}, {LAK_EXPM1, -5, 5},
    {LAK_SQRT, 0, 100}, {LAK_ABS, -3, 3}, {LAK_SIGN, -3, 3}, {LAK_FLOOR, -9, 9},
    {LAK_CEIL, -9, 9}, {LAK_ROUND, -9, 9}, {LAK_SIN, -3, 3}, {LAK_COS, -3, 3},
    {LAK_TAN, -1.5, 1.5}, {LAK_TANH, -5, 5}, {LAK_SINH, -5, 5}, {LAK_COSH, -5, 5},
    {LAK_ASIN, -1, 1}, {LAK_ACOS, -1, 1}, {LAK_ATAN, -9, 9}, {LAK_LOG2, 1e-3, 1e3},
    {LAK_LOG10, 1e-3, 1e3}, {LAK_ISNAN, -1, 1}, {LAK_ISINF, -1, 1}, {LAK_ISFINITE, -1, 1}
  };
  static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, (float)HUGE_VAL,
                                  -(float)HUGE_VAL, (float)NAN, 0.5f, 2.5f, -2.5f};
  int m = 203, n = 5, ld = 211, nsp = (int)(sizeof special / sizeof *special), t, i, j;
  for (t = 0; t < (int)(sizeof fn / sizeof *fn); t++) {
    float *x = frand((size_t)ld * n, fn[t].lo, fn[t].hi), *y = alloc((size_t)ld * n, sizeof *y);
    double *xd, *yd = alloc((size_t)ld * n, sizeof *yd);
    int bad = 0;
    for (i = 0; i < nsp; i++) x[i * 7] = special[i];
    xd = todouble(x, (size_t)ld * n);
    lak_sunary(fn[t].f, m, n, x, ld, y, ld);            /* columns of a view */
    lak_unary(fn[t].f, m, n, xd, ld, yd, ld);
    for (j = 0; j < n; j++)
      for (i = 0; i < m; i++) bad += !ulps_ok(y[i + j * ld], yd[i + j * ld], 4);
    lak_sunary(fn[t].f, ld, n, x, ld, y, ld);           /* one flat loop */
    lak_unary(fn[t].f, ld, n, xd, ld, yd, ld);
    for (i = 0; i < ld * n; i++) bad += !ulps_ok(y[i], yd[i], 4);
    for (i = 0; i < nsp; i++)
      bad += !ulps_ok(lak_sunary1(fn[t].f, special[i]), lak_unary1(fn[t].f, special[i]), 4);
    CHECK(bad == 0, "unary %d: %d entries off", (int)fn[t].f, bad);
    free(x); free(y); free(xd); free(yd);
  }
}

/* maximum / minimum propagate NaN from either side; comparisons give 1 / 0,
** false with NaN except ne; where and clip as NumPy's */
static void test_binary(void) {
  float a[6] = {1, (float)NAN, 3, -(float)HUGE_VAL, 2, 0}, b[6] = {2, 1, (float)NAN, 0, 2, -0.0f};
  float c[6], k[6] = {9, 9, 9, 9, 9, 9};
  double ad[6], bd[6], cd[6], kd[6];
  lak_sArg sa = {a, 1, 6}, sb = {b, 1, 6}, sk = {k, 1, 6};
  lak_Arg da = {ad, 1, 6}, db = {bd, 1, 6}, dk = {kd, 1, 6};
  int op, i;
  for (i = 0; i < 6; i++) { ad[i] = a[i]; bd[i] = b[i]; kd[i] = k[i]; }
  for (op = 0; op < LAK_NBIN; op++) {
    int bad = 0;
    lak_sbinary((lak_Bin)op, 6, 1, sa, sb, c, 6);
    lak_binary((lak_Bin)op, 6, 1, da, db, cd, 6);
    for (i = 0; i < 6; i++) bad += !ulps_ok(c[i], cd[i], 4);
    CHECK(bad == 0, "binary %d: %d entries off", op, bad);
  }
  lak_sbinary(LAK_MAXIMUM, 6, 1, sa, sb, c, 6);
  CHECK(c[0] == 2 && isnan(c[1]) && isnan(c[2]) && c[3] == 0, "maximum %g %g %g %g",
        c[0], c[1], c[2], c[3]);
  lak_sbinary(LAK_MINIMUM, 6, 1, sa, sb, c, 6);
  CHECK(c[0] == 1 && isnan(c[1]) && isnan(c[2]) && c[3] == -(float)HUGE_VAL, "minimum");
  lak_sbinary(LAK_NE, 6, 1, sa, sb, c, 6);
  CHECK(c[0] == 1 && c[1] == 1 && c[2] == 1 && c[4] == 0 && c[5] == 0, "ne");
  lak_sbinary(LAK_EQ, 6, 1, sa, sb, c, 6);
  CHECK(c[0] == 0 && c[1] == 0 && c[4] == 1 && c[5] == 1, "eq: 0 == -0");
  lak_swhere(6, 1, sa, sb, sk, c, 6);            /* a ~= 0 ? b : k; NaN is nonzero */
  lak_where(6, 1, da, db, dk, cd, 6);
  CHECK(c[0] == 2 && c[1] == 1 && isnan(c[2]) && c[5] == 9, "where");
  for (i = 0; i < 6; i++) CHECK(same(c[i], cd[i]), "where %d", i);
  sb.p = k; sk.p = a + 2; sk.rs = 0;           /* clip(a, 9, 3): lo > hi gives hi */
  db.p = kd; dk.p = ad + 2; dk.rs = 0;
  lak_sclip(6, 1, sa, sb, sk, c, 6);
  lak_clip(6, 1, da, db, dk, cd, 6);
  CHECK(c[0] == 3 && isnan(c[1]) && c[3] == 3, "clip %g %g %g", c[0], c[1], c[3]);
  for (i = 0; i < 6; i++) CHECK(same(c[i], cd[i]), "clip %d", i);
}

/* ---------------------------------------------------------------- main */

int main(void) {
  test_gemm();
  test_ewise();
  test_copy_finite();
  test_unary();
  test_binary();
  if (ck_fail == 0) {
    printf("kernels/float32: %d checks passed\n", ck_pass);
    return 0;
  }
  printf("kernels/float32: %d of %d checks FAILED\n", ck_fail, ck_pass + ck_fail);
  return 1;
}
