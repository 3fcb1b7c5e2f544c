#define _POSIX_C_SOURCE 199309L   /* clock_gettime */
/*
** spec/kernels/float32.c: the float kernels (lak_s*) against their double
** twins (lak_*) on the same inputs: float inputs converted exactly to
** double, the double result taken as the reference, float tolerances.
** With LAK_BENCH=1 set it runs no checks but times lak_attention against
** lak_sattention (bench_attention at the end):
**   make build/ktest/float32 && OPENBLAS_NUM_THREADS=1 LAK_BENCH=1 build/ktest/float32
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "kernels.h"

#define EPSF ((double)FLT_EPSILON)

/* ---- inputs: a fixed LCG, floats in [lo, hi), and their double copies */

static uint64_t seed = 12345;
static double urand(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(seed >> 11) * (1.0 / 9007199254740992.0);
}

static float *frand(size_t n, double lo, double hi) {
  float *x = ck_alloc(n, sizeof *x);
  size_t i;
  for (i = 0; i < n; i++) x[i] = (float)(lo + (hi - lo) * urand());
  return x;
}

static double *todouble(const float *x, size_t n) {
  double *y = ck_alloc(n, sizeof *y);
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
  float *c = ck_alloc((size_t)m * n, sizeof *c);
  double *ad = todouble(a, (size_t)m * n), *bd = todouble(b, (size_t)m * n);
  double *cd = ck_alloc((size_t)m * n, sizeof *cd);
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
  float *A = frand((size_t)m * n, -1, 1), *B = ck_alloc((size_t)(n + 2) * m, sizeof *B);
  float *C = ck_alloc((size_t)(m + 1) * n, sizeof *C);
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
    float *x = frand((size_t)ld * n, fn[t].lo, fn[t].hi), *y = ck_alloc((size_t)ld * n, sizeof *y);
    double *xd, *yd = ck_alloc((size_t)ld * n, sizeof *yd);
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

/* ---------------------------------------------------------------- attention */

/* lak_sexpsum against exp in double over every 61st float in [-87.33, 0]
** (18 million arguments): the measured error is printed and must stay
** within 2 ulp (the float result's ulp) */
static void test_expsum(void) {
  enum { CH = 4096 };
  static float x[CH], m[CH], sum[CH];
  static double ref[CH];
  uint32_t lo, bits;
  double maxulp = 0.0, maxrel = 0.0, where = 0.0;
  long count = 0;
  float f = -87.33f;
  int i, n;
  memcpy(&lo, &f, sizeof lo);            /* negative floats: larger bits, larger magnitude */
  bits = lo;
  for (;;) {
    for (n = 0; n < CH && bits >= 0x80000000u; n++, bits = bits >= 61 + 0x80000000u ? bits - 61 : 0) {
      memcpy(&x[n], &bits, sizeof x[n]);
      ref[n] = exp((double)x[n]);
      m[n] = 0.0f; sum[n] = 0.0f;
    }
    if (n == 0) break;
    lak_sexpsum(x, m, sum, n);
    for (i = 0; i < n; i++) {
      float r = (float)ref[i];
      double ulp = nextafterf(r, (float)HUGE_VAL) - r, e = fabs(x[i] - ref[i]);
      if (e / ulp > maxulp) { maxulp = e / ulp; memcpy(&f, &bits, sizeof f); where = ref[i]; }
      if (e / ref[i] > maxrel) maxrel = e / ref[i];
      if (sum[i] != x[i]) maxulp = HUGE_VAL;
    }
    count += n;
    if (bits < 0x80000000u) break;
  }
  printf("lak_sexpsum: max error %.2f ulp, %.2e relative, over %ld arguments in [-87.33, 0]\n",
         maxulp, maxrel, count);
  CHECK(maxulp <= 2.0, "lak_sexpsum: %.2f ulp near exp = %g", maxulp, where);
  {  /* edges: 0 -> 1 exactly, -inf and below the float range -> 0, NaN -> NaN */
    float e[6] = {0.0f, -(float)HUGE_VAL, -87.34f, -100.0f, (float)NAN, -1.0f};
    float mm[6] = {0, 0, 0, 0, 0, 0}, ss[6] = {1, 1, 1, 1, 1, 1};
    lak_sexpsum(e, mm, ss, 6);
    CHECK(e[0] == 1.0f && ss[0] == 2.0f, "exp(0) = %.9g", e[0]);
    CHECK(e[1] == 0.0f && e[2] == 0.0f && e[3] == 0.0f && ss[1] == 1.0f, "underflow");
    CHECK(isnan(e[4]) && isnan(ss[4]), "NaN stays NaN");
    CLOSE(e[5], exp(-1.0), 2 * EPSF);
  }
}

/* lak_ssimd_exp2 against exp2 in double over every 61st float in [-126, 0],
** within 2 ulp as lak_sexpsum; lak_simd_exp2 (double) against exp2l on a
** grid, within 2 ulp of a double. Skipped without AVX-512. */
static void test_simd_exp2(void) {
  enum { CH = 4096 };
  static float x[CH];
  static double ref[CH], xd[CH];
  uint32_t bits = 0x80000000u;
  double maxulp = 0.0, where = 0.0;
  long count = 0;
  float f = -126.0f, probe = -1.0f;
  int i, n;
  if (!lak_ssimd_exp2(&probe, 1)) { printf("lak_ssimd_exp2: no AVX-512 here, skipped\n"); return; }
  CHECK(probe == 0.5f, "2^-1 = %.9g", probe);
  for (;;) {
    uint32_t lo;
    memcpy(&lo, &f, sizeof lo);
    for (n = 0; n < CH && bits <= lo; n++, bits += 61) {
      memcpy(&x[n], &bits, sizeof x[n]);
      ref[n] = exp2((double)x[n]);
    }
    if (n == 0) break;
    lak_ssimd_exp2(x, n);
    for (i = 0; i < n; i++) {
      float r = (float)ref[i];
      double ulp = nextafterf(r, (float)HUGE_VAL) - r, e = fabs(x[i] - ref[i]);
      if (e / ulp > maxulp) { maxulp = e / ulp; where = ref[i]; }
    }
    count += n;
    if (bits > lo) break;
  }
  printf("lak_ssimd_exp2: max error %.2f ulp over %ld arguments in [-126, 0]\n", maxulp, count);
  CHECK(maxulp <= 2.0, "lak_ssimd_exp2: %.2f ulp near 2^x = %g", maxulp, where);
  {  /* edges: 0 -> 1, -inf and below -126 -> 0, NaN -> NaN */
    float e[5] = {0.0f, -(float)HUGE_VAL, -126.5f, -1000.0f, (float)NAN};
    lak_ssimd_exp2(e, 5);
    CHECK(e[0] == 1.0f && e[1] == 0.0f && e[2] == 0.0f && e[3] == 0.0f && isnan(e[4]),
          "2^x edges: %g %g %g %g %g", e[0], e[1], e[2], e[3], e[4]);
  }
  maxulp = 0.0;
  for (i = 0; i < CH; i++) xd[i] = -1022.0 * i / (CH - 1) - 1e-3 * (i % 7);
  memcpy(ref, xd, sizeof ref);
  lak_simd_exp2(xd, CH);
  for (i = 0; i < CH; i++) {
    long double r = exp2l((long double)ref[i]);
    double ulp = nextafter((double)r, HUGE_VAL) - (double)r;
    if (ref[i] >= -1022.0 && fabsl(xd[i] - r) / ulp > maxulp) maxulp = (double)(fabsl(xd[i] - r) / ulp);
  }
  printf("lak_simd_exp2: max error %.2f ulp over %d arguments in [-1022, 0]\n", maxulp, CH);
  CHECK(maxulp <= 2.0, "lak_simd_exp2: %.2f ulp", maxulp);
}

/* an attention problem in both types: Q nq x dk, K nk x dk, V nk x dv */
typedef struct Prob {
  int nq, nk, dk, dv;
  float *Q, *K, *V, *mask, *bias;
  double *Qd, *Kd, *Vd, *maskd, *biasd;
} Prob;

static void prob_init(Prob *p, int nq, int nk, int dk, int dv) {
  p->nq = nq; p->nk = nk; p->dk = dk; p->dv = dv;
  p->Q = frand((size_t)nq * dk, -1, 1); p->Qd = todouble(p->Q, (size_t)nq * dk);
  p->K = frand((size_t)nk * dk, -1, 1); p->Kd = todouble(p->K, (size_t)nk * dk);
  p->V = frand((size_t)nk * dv, -2, 2); p->Vd = todouble(p->V, (size_t)nk * dv);
  p->mask = frand((size_t)nq * nk, 0, 1);
  { size_t i; for (i = 0; i < (size_t)nq * nk; i++) p->mask[i] = p->mask[i] < 0.3f ? 0.0f : 1.0f; }
  for (size_t j = 0; j < (size_t)nk; j++) p->mask[5 + j * nq] = 0.0f;   /* row 5: no key */
  p->maskd = todouble(p->mask, (size_t)nq * nk);
  p->bias = frand((size_t)nk, -3, 3); p->biasd = todouble(p->bias, (size_t)nk);
}

static void prob_free(Prob *p) {
  free(p->Q); free(p->K); free(p->V); free(p->mask); free(p->bias);
  free(p->Qd); free(p->Kd); free(p->Vd); free(p->maskd); free(p->biasd);
}

/* kind: 0 plain, 1 causal top-left, 2 causal bottom-right, 3 mask, 4 bias
** (a 1 x nk row) and mask */
static void attn_set(const Prob *p, int kind, lak_sAttn *s, lak_Attn *d) {
  memset(s, 0, sizeof *s); memset(d, 0, sizeof *d);
  s->nq = d->nq = p->nq; s->nk = d->nk = p->nk; s->dk = d->dk = p->dk; s->dv = d->dv = p->dv;
  s->Q = p->Q; s->K = p->K; s->V = p->V; d->Q = p->Qd; d->K = p->Kd; d->V = p->Vd;
  s->ldq = d->ldq = p->nq; s->ldk = d->ldk = p->nk; s->ldv = d->ldv = p->nk;
  s->scale = (float)(1.0 / sqrt((double)p->dk)); d->scale = s->scale;
  s->causal = d->causal = kind == 1 || kind == 2;
  s->coff = d->coff = kind == 2 ? p->nk - p->nq : 0;
  if (kind >= 3) {
    s->mask = p->mask; d->mask = p->maskd;
    s->mrs = d->mrs = 1; s->mcs = d->mcs = p->nq;
  }
  if (kind == 4) {
    s->bias = p->bias; d->bias = p->biasd;
    s->brs = d->brs = 0; s->bcs = d->bcs = 1;
  }
}

/* rows of O within 1e-5 of the row's largest |entry|; lse within 1e-5
** relative (or both -inf) */
static int rows_close(int nq, int dv, const float *O, const double *Od, const float *lse,
                      const double *lsed) {
  int i, j, bad = 0;
  for (i = 0; i < nq; i++) {
    double big = 0.0;
    for (j = 0; j < dv; j++) big = fmax(big, fabs(Od[i + (size_t)j * nq]));
    for (j = 0; j < dv; j++)
      bad += !(fabs(O[i + (size_t)j * nq] - Od[i + (size_t)j * nq]) <= 1e-5 * big);
    if (lse) bad += !(lse[i] == lsed[i] || fabs(lse[i] - lsed[i]) <= 1e-5 * fmax(1.0, fabs(lsed[i])));
  }
  return bad;
}

/* the largest work any kind of attn_set needs on nthreads threads */
static size_t work_max(const Prob *p, int nthreads, int dbl) {
  size_t n = 0, w;
  int kind;
  for (kind = 0; kind < 5; kind++) {
    lak_sAttn s;
    lak_Attn d;
    attn_set(p, kind, &s, &d);
    w = dbl ? lak_attn_work(&d, nthreads) : lak_sattn_work(&s, nthreads);
    if (w > n) n = w;
  }
  return n;
}

static void test_attention(void) {
  /* more queries than keys: bottom-right causal rows 0 .. 399 see no key */
  static const int shapes[4][4] = {{300, 700, 24, 17}, {40, 1100, 64, 64}, {7, 9, 3, 2},
                                   {700, 300, 16, 8}};
  int sh, kind, threads;
  for (sh = 0; sh < 4; sh++) {
    Prob p;
    int nq = shapes[sh][0], nk = shapes[sh][1], dv = shapes[sh][3];
    float *O = ck_alloc((size_t)nq * dv, sizeof *O), *lse = ck_alloc(nq, sizeof *lse);
    float *W;
    float *A = ck_alloc((size_t)nq * nk, sizeof *A), *mx = ck_alloc(nq, 4);
    double *sm = ck_alloc(nq, 8);                       /* the softmax sums: double */
    double *Od = ck_alloc((size_t)nq * dv, sizeof *Od), *lsed = ck_alloc(nq, sizeof *lsed);
    double *Wd;
    double *Ad = ck_alloc((size_t)nq * nk, sizeof *Ad), *mxd = ck_alloc(nq, 8), *smd = ck_alloc(nq, 8);
    prob_init(&p, nq, nk, shapes[sh][2], dv);
    W = ck_alloc(work_max(&p, 3, 0), sizeof *W);
    Wd = ck_alloc(work_max(&p, 1, 1), sizeof *Wd);
    for (kind = 0; kind < 5; kind++) {
      lak_sAttn s;
      lak_Attn d;
      int bad, j;
      attn_set(&p, kind, &s, &d);
      lak_attention(&d, Od, nq, lsed, Wd, 1);
      for (threads = 1; threads <= 3; threads += 2) {
        lak_sattention(&s, O, nq, lse, W, threads);
        bad = rows_close(nq, dv, O, Od, lse, lsed);
        CHECK(bad == 0, "attention %dx%dx%d kind %d threads %d: %d entries off", nq, nk,
              shapes[sh][2], kind, threads, bad);
      }
      if (kind == 2 && nq > nk) {          /* the first nq - nk rows see no key */
        int zero = 1;
        for (j = 0; j < dv; j++) zero &= O[nq - nk - 1 + (size_t)j * nq] == 0.0f;
        CHECK(zero && lse[nq - nk - 1] == -(float)HUGE_VAL && lse[nq - nk] > -(float)HUGE_VAL,
              "causal bottom-right: rows without a key");
      }
      if (kind >= 3 && nq > 5) {           /* row 5 sees no key: zeros, -inf */
        int zero = 1;
        for (j = 0; j < dv; j++) zero &= O[5 + (size_t)j * nq] == 0.0f;
        CHECK(zero && lse[5] == -(float)HUGE_VAL, "masked row: lse %g", lse[5]);
      }
      lak_sattention_weights(&s, O, nq, A, nq, lse, mx, sm);
      lak_attention_weights(&d, Od, nq, Ad, nq, lsed, mxd, smd);
      bad = rows_close(nq, dv, O, Od, lse, lsed);
      for (j = 0; j < nq * nk; j++) bad += !(fabs(A[j] - Ad[j]) <= 1e-6);
      CHECK(bad == 0, "attention_weights %dx%d kind %d: %d entries off", nq, nk, kind, bad);
    }
    {  /* keys split in two, each half's result combined: the whole's result */
      lak_sAttn s, s2;
      lak_Attn d;
      float *O2 = ck_alloc((size_t)nq * dv, sizeof *O2), *lse2 = ck_alloc(nq, sizeof *lse2);
      int h = nk / 3;
      attn_set(&p, 3, &s, &d);
      lak_attention(&d, Od, nq, lsed, Wd, 1);
      s2 = s;
      s.nk = h;
      s2.nk = nk - h; s2.K = p.K + h; s2.V = p.V + h; s2.mask = p.mask + (size_t)h * nq;
      lak_sattention(&s, O, nq, lse, W, 1);
      lak_sattention(&s2, O2, nq, lse2, W, 1);
      lak_sattn_combine(nq, dv, O, nq, lse, O2, nq, lse2, O, nq, lse);
      CHECK(rows_close(nq, dv, O, Od, lse, lsed) == 0, "combine %dx%d", nq, nk);
      free(O2); free(lse2);
    }
    {  /* NaN in a query row reaches that row's output, as in double */
      lak_sAttn s;
      lak_Attn d;
      p.Q[1] = (float)NAN; p.Qd[1] = NAN;
      attn_set(&p, 0, &s, &d);
      lak_sattention(&s, O, nq, lse, W, 1);
      lak_attention(&d, Od, nq, lsed, Wd, 1);
      CHECK(isnan(O[1]) && isnan(Od[1]) && isnan(lse[1]) && !isnan(O[0]), "NaN row");
    }
    prob_free(&p);
    free(O); free(lse); free(W); free(A); free(mx); free(sm);
    free(Od); free(lsed); free(Wd); free(Ad); free(mxd); free(smd);
  }
}

/* softmax and log-softmax, rows of -inf included */
static void test_softmax(void) {
  int m = 33, n = 70, lds = 35, logs, i, j;
  for (logs = 0; logs < 2; logs++) {
    float *S = frand((size_t)lds * n, -30, 30), mx[33];
    double *Sd, mxd[33], sumd[33], sum[33];
    int bad = 0;
    for (j = 0; j < n; j++) S[3 + j * lds] = -(float)HUGE_VAL;
    S[4] = (float)NAN;
    Sd = todouble(S, (size_t)lds * n);
    lak_ssoftmax(m, n, S, lds, S, lds, logs, mx, sum);
    lak_softmax(m, n, Sd, lds, Sd, lds, logs, mxd, sumd);
    for (j = 0; j < n; j++)
      for (i = 0; i < m; i++) {
        double g = S[i + j * lds], w = Sd[i + j * lds];
        /* s - max rounds to eps_f |s - max| in float: exp's relative error
        ** grows with |log w| */
        double tol = logs ? 8 * EPSF * fmax(fabs(w), 1.0) : EPSF * (8 + 2 * fabs(log(w))) * w;
        bad += !(g == w || (isnan(g) && isnan(w)) || fabs(g - w) <= tol);
      }
    CHECK(bad == 0, "softmax logs=%d: %d entries off", logs, bad);
    CHECK(S[3] == (logs ? -(float)HUGE_VAL : 0.0f) && isnan(S[4 + lds]), "softmax edges");
    free(S); free(Sd);
  }
}

/* ---------------------------------------------------------------- gram_schmidt */

/* every method, unblocked (k <= LAK_GS_NB) and blocked: V = Q R within
** 1e-5 of |V|, Q'Q = I within 1e-4 (loss of orthogonality eps_f * cond,
** cond of a random 300 x k matrix is small), R within 1e-4 of the double R;
** a dependent column is dropped or reported */
static void test_gram_schmidt(void) {
  static const int ks[2] = {10, 75};
  int ik, meth, m = 300;
  for (ik = 0; ik < 2; ik++)
    for (meth = LAK_MGS; meth <= LAK_CGS2; meth++) {
      int k = ks[ik], i, j, l, r, rd, bad = 0, keep[75], keepd[75];
      float *V = frand((size_t)m * k, -1, 1), *W = ck_alloc((size_t)m * k, sizeof *W);
      float *R = ck_alloc((size_t)k * k, sizeof *R), *work = ck_alloc(LAK_GS_WORK(k), sizeof *work);
      double *Wd = todouble(V, (size_t)m * k), *Rd = ck_alloc((size_t)k * k, sizeof *Rd);
      double *workd = ck_alloc(LAK_GS_WORK(k), sizeof *workd), orth = 0.0, rec = 0.0, rerr = 0.0;
      lak_GSFail fail;
      memcpy(W, V, (size_t)m * k * sizeof *W);
      r = lak_sgram_schmidt((lak_GS)meth, m, k, W, m, R, k, 1e-4, 0, keep, work, &fail);
      rd = lak_gram_schmidt((lak_GS)meth, m, k, Wd, m, Rd, k, 1e-4, 0, keepd, workd, &fail);
      CHECK(r == k && rd == k, "gram_schmidt %d k %d: kept %d", meth, k, r);
      for (j = 0; j < k; j++)
        for (i = 0; i < k; i++) {
          double q = 0.0;
          for (l = 0; l < m; l++) q += (double)W[l + (size_t)i * m] * W[l + (size_t)j * m];
          orth = fmax(orth, fabs(q - (i == j)));
          rerr = fmax(rerr, fabs(R[i + (size_t)j * k] - Rd[i + (size_t)j * k]));
        }
      for (j = 0; j < k; j++)
        for (l = 0; l < m; l++) {
          double v = 0.0;
          for (i = 0; i <= j; i++) v += (double)W[l + (size_t)i * m] * R[i + (size_t)j * k];
          rec = fmax(rec, fabs(v - V[l + (size_t)j * m]));
        }
      bad = !(orth <= 1e-4) + !(rec <= 1e-5 * 18) + !(rerr <= 1e-4 * 18);  /* |v| <= sqrt(300) */
      CHECK(bad == 0, "gram_schmidt %d k %d: orthogonality %.2g, V - QR %.2g, R %.2g",
            meth, k, orth, rec, rerr);
      /* column 3 = column 1 + column 2: dropped, or reported */
      for (l = 0; l < m; l++) V[l + 3 * (size_t)m] = V[l + (size_t)m] + V[l + 2 * (size_t)m];
      memcpy(W, V, (size_t)m * k * sizeof *W);
      memset(R, 0, (size_t)k * k * sizeof *R);
      r = lak_sgram_schmidt((lak_GS)meth, m, k, W, m, R, k, 1e-4, 1, keep, work, &fail);
      CHECK(r == k - 1 && keep[3] == 0 && keep[2] == 1, "drop: kept %d", r);
      memcpy(W, V, (size_t)m * k * sizeof *W);
      memset(R, 0, (size_t)k * k * sizeof *R);
      r = lak_sgram_schmidt((lak_GS)meth, m, k, W, m, R, k, 1e-4, 0, keep, work, &fail);
      CHECK(r == -1 && fail.col == 3 && fail.unorm < 1e-4 * fail.vnorm,
            "dependent: %d at column %d", r, fail.col);
      free(V); free(W); free(R); free(work); free(Wd); free(Rd); free(workd);
    }
}

/* ---------------------------------------------------------------- bench */

/* LAK_BENCH=1: lak_attention against lak_sattention at n = 2048, 4096,
** 8192, d = 64, one thread (run with OPENBLAS_NUM_THREADS=1, as make ktest
** does), full and causal; medians of 3 (process CPU time and wall time). */
static double now(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double median3(double *t) {
  double a = t[0], b = t[1], c = t[2];
  if (a > b) { double x = a; a = b; b = x; }
  if (b > c) b = c;
  return a > b ? a : b;
}

static void bench_attention(void) {
  static const int ns[3] = {2048, 4096, 8192};
  int d = 64, in, rep, causal, type;
  printf("%6s %7s %12s %12s %8s   (ms: CPU / wall, median of 3)\n", "n", "mask",
         "float64", "float32", "f32/f64");
  for (in = 0; in < 3; in++) {
    int n = ns[in];
    size_t nd = (size_t)n * d;
    float *Q = frand(nd, -1, 1), *K = frand(nd, -1, 1), *V = frand(nd, -1, 1);
    float *O = ck_alloc(nd, sizeof *O), *W = ck_alloc((size_t)LAK_ATTN_BQ * LAK_ATTN_BK + 4 * LAK_ATTN_BQ, sizeof *W);
    double *Qd = todouble(Q, nd), *Kd = todouble(K, nd), *Vd = todouble(V, nd);
    double *Od = ck_alloc(nd, sizeof *Od), *Wd = ck_alloc((size_t)LAK_ATTN_BQ * LAK_ATTN_BK + 4 * LAK_ATTN_BQ, sizeof *Wd);
    double full[2][2];
    for (causal = 0; causal < 2; causal++) {
      double med[2][2];
      for (type = 0; type < 2; type++) {
        double cpu[3], wall[3];
        for (rep = 0; rep < 3; rep++) {
          double c0 = now(CLOCK_PROCESS_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
          if (type == 0) {
            lak_Attn a;
            memset(&a, 0, sizeof a);
            a.nq = a.nk = n; a.dk = a.dv = d; a.Q = Qd; a.K = Kd; a.V = Vd;
            a.ldq = a.ldk = a.ldv = n; a.scale = 0.125; a.causal = causal;
            lak_attention(&a, Od, n, NULL, Wd, 1);
          } else {
            lak_sAttn a;
            memset(&a, 0, sizeof a);
            a.nq = a.nk = n; a.dk = a.dv = d; a.Q = Q; a.K = K; a.V = V;
            a.ldq = a.ldk = a.ldv = n; a.scale = 0.125f; a.causal = causal;
            lak_sattention(&a, O, n, NULL, W, 1);
          }
          cpu[rep] = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
          wall[rep] = now(CLOCK_MONOTONIC) - w0;
        }
        med[type][0] = median3(cpu); med[type][1] = median3(wall);
        if (!causal) { full[type][0] = med[type][0]; full[type][1] = med[type][1]; }
      }
      printf("%6d %7s %5.0f / %4.0f %5.0f / %4.0f %8.2f", n, causal ? "causal" : "full",
             1e3 * med[0][0], 1e3 * med[0][1], 1e3 * med[1][0], 1e3 * med[1][1],
             med[1][0] / med[0][0]);
      if (causal)
        printf("   causal/full: f64 %.2f f32 %.2f", med[0][0] / full[0][0], med[1][0] / full[1][0]);
      printf("\n");
    }
    free(Q); free(K); free(V); free(O); free(W); free(Qd); free(Kd); free(Vd); free(Od); free(Wd);
  }
}

/* ---------------------------------------------------------------- main */

int main(void) {
  if (getenv("LAK_BENCH")) { bench_attention(); return 0; }
  test_gemm();
  test_ewise();
  test_copy_finite();
  test_unary();
  test_binary();
  test_expsum();
  test_simd_exp2();
  test_attention();
  test_softmax();
  test_gram_schmidt();
  return ck_done("float32");
}
