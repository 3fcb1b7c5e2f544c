/*
** spec/kernels/reduce.c: lak_reduce / lak_sreduce, lak_argext and lak_scan
** against plain loops (known answers, strided lines, NaN, the empty line),
** and the float kernels accumulating in double: a float line of 2^24 and
** ones sums exactly where float adds would lose every one; lak_vnorm and
** lak_dotd of both types.
*/
#include <string.h>

#include "check.h"
#include "kernels.h"

/* x = 4, -1, 2.5, 3, 7, -6 at stride 2 (the odd slots hold 99) */
static const double XD[12] = {4, 99, -1, 99, 2.5, 99, 3, 99, 7, 99, -6, 99};

/* sum 9.5, prod 1260, mean 9.5/6, min -6 at 5, max 7 at 4; var with
** ddof 0 and 1 from NumPy 1.24: np.var(x) = 17.034722222222225,
** np.var(x, ddof=1) = 20.44166666666667 */
static void known(void) {
  float xf[12];
  int i, t;
  for (i = 0; i < 12; i++) xf[i] = (float)XD[i];
  for (t = 0; t < 2; t++) {
#define RED(r, ddof) (t ? lak_sreduce((r), 6, xf, 2, (ddof)) : lak_reduce((r), 6, XD, 2, (ddof)))
    CLOSE(RED(LAK_SUM, 0), 9.5, 0);
    CLOSE(RED(LAK_PROD, 0), 1260, 0);
    CLOSE(RED(LAK_MEAN, 0), 9.5 / 6, 1e-15);
    CLOSE(RED(LAK_MIN, 0), -6, 0);
    CLOSE(RED(LAK_MAX, 0), 7, 0);
    CLOSE(RED(LAK_VAR, 0), 17.034722222222225, 1e-14);
    CLOSE(RED(LAK_VAR, 1), 20.44166666666667, 1e-14);
    CLOSE(RED(LAK_STD, 1), sqrt(20.44166666666667), 1e-14);
    CLOSE(t ? lak_sreduce(LAK_SUM, 0, xf, 2, 0) : lak_reduce(LAK_SUM, 0, XD, 2, 0), 0, 0);
    CLOSE(t ? lak_sreduce(LAK_PROD, 0, xf, 2, 0) : lak_reduce(LAK_PROD, 0, XD, 2, 0), 1, 0);
#undef RED
    CHECK((t ? lak_sargext(0, 6, xf, 2) : lak_argext(0, 6, XD, 2)) == 5, "argmin");
    CHECK((t ? lak_sargext(1, 6, xf, 2) : lak_argext(1, 6, XD, 2)) == 4, "argmax");
  }
}

/* the first NaN wins in argext (and so in min / max); ties: the first */
static void nan_ties(void) {
  double x[5] = {1, 3, NAN, 3, NAN};
  float xf[5] = {1, 3, NAN, 3, NAN};
  double y[4] = {2, -1, 2, -1};
  CHECK(lak_argext(1, 5, x, 1) == 2, "argmax NaN");
  CHECK(lak_sargext(0, 5, xf, 1) == 2, "argmin NaN (float)");
  CHECK(isnan(lak_reduce(LAK_MAX, 5, x, 1, 0)), "max NaN");
  CHECK(isnan(lak_sreduce(LAK_SUM, 5, xf, 1, 0)), "sum NaN");
  CHECK(lak_argext(1, 4, y, 1) == 0 && lak_argext(0, 4, y, 1) == 1, "first of ties");
  CHECK(lak_argext(1, 2, x, 1) == 1, "argmax before the NaN");
}

/* sums of more than four entries (the four running sums and the tail), of
** a line whose float adds would round: 2^24 then n - 1 ones */
static void double_accumulation(void) {
  enum { N = 1003 };
  float *xf = ck_alloc(N, sizeof *xf), *yf = ck_alloc(2 * N, sizeof *yf);
  double *x = ck_alloc(N, sizeof *x), *y = ck_alloc(N, sizeof *y), want = 0.0;
  int i;
  for (i = 0; i < N; i++) { x[i] = i % 7 - 3 + 0.25 * (i % 5); xf[i] = (float)x[i]; want += x[i]; }
  CLOSE(lak_reduce(LAK_SUM, N, x, 1, 0), want, 1e-12);
  CLOSE(lak_sreduce(LAK_SUM, N, xf, 1, 0), want, 1e-12);   /* exact inputs, double sums */
  for (i = 0; i < N; i++) xf[i] = i ? 1.0f : 16777216.0f;
  CLOSE(lak_sreduce(LAK_SUM, N, xf, 1, 0), 16777216.0 + N - 1, 0);
  CLOSE(lak_sreduce(LAK_MEAN, N, xf, 1, 0), (16777216.0 + N - 1) / N, 1e-9);
  /* the scan stores each running sum rounded to float: 2^24 + k rounds to
  ** even at odd k, never stays at 2^24 as float adds would */
  lak_sscan(0, N, xf, 1, yf, 2);
  CLOSE(yf[2 * 2], 16777218.0, 0);
  CLOSE(yf[2 * (N - 1)], (double)(float)(16777216.0 + N - 1), 0);
  for (i = 0; i < N; i++) x[i] = 1.0 + (i % 3) * 0.5;
  lak_scan(1, 6, x, 1, y, 1);       /* 1, 1.5, 2, 1, 1.5, 2 */
  CLOSE(y[5], 1 * 1.5 * 2 * 1 * 1.5 * 2, 0);
  lak_scan(0, 4, XD, 2, y, 1);      /* 4, 3, 5.5, 8.5 */
  CLOSE(y[0], 4, 0); CLOSE(y[1], 3, 0); CLOSE(y[2], 5.5, 0); CLOSE(y[3], 8.5, 0);
  free(xf); free(yf); free(x); free(y);
}

/* p-norms of v = 3, -4, 12 at stride 3 (np.linalg.norm(v, ord): 2 -> 13,
** 1 -> 19, inf -> 12, -inf -> 3, 0 -> 3, 3 -> 12.207054953820636), the
** float 2-norm past float's range, dot products of both types */
static void norms_dots(void) {
  double v[9] = {3, 0, 0, -4, 0, 0, 12, 0, 0}, w[3] = {1, 2, 0.5};
  float vf[9] = {3, 0, 0, -4, 0, 0, 12, 0, 0}, wf[3] = {1, 2, 0.5f};
  float big[2] = {3e38f, 3e38f};
  double p[6] = {2, 1, HUGE_VAL, -HUGE_VAL, 0, 3}, want[6] = {13, 19, 12, 3, 3, 12.207054953820636};
  int k;
  for (k = 0; k < 6; k++) {
    CLOSE(lak_vnorm(3, v, 3, p[k]), want[k], 1e-14);
    CLOSE(lak_svnorm(3, vf, 3, p[k]), want[k], 1e-14);
  }
  CLOSE(lak_vnorm(0, v, 1, HUGE_VAL), 0, 0);
  CLOSE(lak_svnorm(2, big, 1, 2), sqrt(2.0) * 3e38f, 1e-15 * 3e38 * 1.5);   /* no float overflow */
  CHECK(isnan(lak_svnorm(2, (float[]){NAN, 1}, 1, HUGE_VAL)), "inf-norm NaN");
  CLOSE(lak_dotd(3, v, 3, w, 1), 3 - 8 + 6, 0);
  CLOSE(lak_sdotd(3, vf, 3, wf, 1), 3 - 8 + 6, 0);
  CLOSE(lak_sdotd(2, big, 1, big, 1), 2.0 * (double)3e38f * (double)3e38f, 1e63);
}

/* lak_cosine: the same cosine at scale 1, 3e154 and 1e-200 (scaled past
** 2^+-400, where the dot product would overflow or underflow), strided y;
** zero and NaN reported */
static void cosines(void) {
  double x[3] = {1, 2, 3}, y[6] = {4, 99, -5, 99, 6, 99}, xs[3], ys[6], s[3] = {1, 3e154, 1e-200};
  float xf[3] = {1e20f, 2e20f, 3e20f}, yf[6] = {4e20f, 0, -5e20f, 0, 6e20f, 0};
  double want = 12 / sqrt(14.0 * 77.0), z[2] = {0, 0};
  int k, i, zero;
  for (k = 0; k < 3; k++) {
    for (i = 0; i < 3; i++) { xs[i] = x[i] * s[k]; ys[2 * i] = y[2 * i] * s[k]; }
    CLOSE(lak_cosine(3, xs, 1, ys, 2, &zero), want, 8e-16);
    CHECK(zero == 0, "cosine: nonzero vectors");
  }
  CLOSE(lak_scosine(3, xf, 1, yf, 2, &zero), want, 1e-7);
  CHECK(isnan(lak_cosine(2, z, 1, x, 1, &zero)) && zero == 1, "cosine: first zero");
  CHECK(isnan(lak_cosine(2, x, 1, z, 1, &zero)) && zero == 2, "cosine: second zero");
  CHECK(isnan(lak_cosine(2, (double[]){NAN, 1}, 1, x, 1, &zero)) && zero == 0, "cosine: NaN");
}

/* lak_cosine's one pass over contiguous vectors (and the passes it falls
** back to: entries beyond 2^+-400, a NaN or an Inf) at lengths across the
** vector steps (16) and blocks (128), against long double; the largest
** |x_i| (lak_vnorm's p = inf, NaN winning) on the same lines */
static void cosine_lengths(void) {
  static double x[10000], y[10000];
  static float xf[10000], yf[10000];
  static const size_t lens[] = {1, 2, 7, 15, 16, 17, 31, 127, 128, 129, 300, 10000};
  static const double scale[] = {1.0, 1e200, 1e-200, 0x1p-400};
  size_t t, i, k;
  int zero;
  for (t = 0; t < sizeof lens / sizeof lens[0]; t++)
    for (k = 0; k < 4; k++) {
      size_t n = lens[t];
      long double d = 0, nx = 0, ny = 0;
      double want, got, amax = 0;
      for (i = 0; i < n; i++) {
        x[i] = scale[k] * (((double)((i * 37 + 5) % 41) - 20.0) / 8.0);
        y[i] = ((double)((i * 11 + 3) % 29) - 13.5) / 4.0;
        xf[i] = (float)(((double)((i * 37 + 5) % 41) - 20.0) / 8.0);
        yf[i] = (float)y[i];
        d += (long double)x[i] * y[i]; nx += (long double)x[i] * x[i]; ny += (long double)y[i] * y[i];
        if (fabs(x[i]) > amax) amax = fabs(x[i]);
      }
      if (nx == 0) continue;
      want = (double)(d / (sqrtl(nx) * sqrtl(ny)));
      got = lak_cosine(n, x, 1, y, 1, &zero);
      CHECK(zero == 0 && fabs(got - want) <= 4e-16 * (1 + fabs(want)),
            "cosine n %zu scale %zu: %.17g vs %.17g", n, k, got, want);
      if (k == 0) {
        got = lak_scosine(n, xf, 1, yf, 1, &zero);
        CHECK(fabs(got - want) <= 1e-6, "scosine n %zu: %.9g vs %.9g", n, got, want);
      }
      CHECK(lak_vnorm(n, x, 1, INFINITY) == amax, "vnorm inf n %zu scale %zu", n, k);
      /* a NaN, then an Inf, at the last place: NaN for the cosine, the norm */
      x[n - 1] = NAN;
      CHECK(isnan(lak_cosine(n, x, 1, y, 1, &zero)) && zero == 0, "cosine NaN n %zu", n);
      CHECK(isnan(lak_vnorm(n, x, 1, INFINITY)), "vnorm inf NaN n %zu", n);
      x[n - 1] = INFINITY;
      CHECK(isnan(lak_cosine(n, x, 1, y, 1, &zero)), "cosine Inf n %zu", n);
      CHECK(lak_vnorm(n, x, 1, INFINITY) == INFINITY, "vnorm inf Inf n %zu", n);
      if (n > 1) {                         /* NaN first, Inf later: NaN wins */
        x[0] = NAN;
        CHECK(isnan(lak_vnorm(n, x, 1, INFINITY)), "vnorm inf NaN first n %zu", n);
      }
      for (i = 0; i < n; i++) y[i] = 0;
      x[0] = x[n - 1] = 1;
      CHECK(isnan(lak_cosine(n, x, 1, y, 1, &zero)) && zero == 2, "cosine zero y n %zu", n);
    }
  /* the largest |x_i| exactly, wherever it is */
  for (t = 0; t < sizeof lens / sizeof lens[0]; t++)
    for (k = 0; k < lens[t]; k += 1 + lens[t] / 37) {
      size_t n = lens[t];
      for (i = 0; i < n; i++) x[i] = (double)(i % 13) - 6.0;
      x[k] = -100.5;
      CHECK(lak_vnorm(n, x, 1, INFINITY) == 100.5, "vnorm inf n %zu at %zu", n, k);
    }
}

/* lak_vnorm's other orders on contiguous lines (blocks of |x_i|^p, the
** smallest |x_i| by vectors, the count of nonzeros) at lengths across the
** blocks, against long double and plain loops; NaN and Inf propagate */
static void pnorms(void) {
  static double x[3000];
  static float xf[3000];
  static const size_t lens[] = {1, 5, 31, 128, 129, 1000, 3000};
  static const double ps[] = {3, 4, 2.5, 0.5, -1.5};
  size_t t, i, k;
  for (t = 0; t < sizeof lens / sizeof lens[0]; t++) {
    size_t n = lens[t], nz = 0;
    double amin = HUGE_VAL;
    for (i = 0; i < n; i++) {
      x[i] = (i % 7 == 3) ? 0.0 : ((double)((i * 23 + 1) % 31) - 15.0) / 3.0;
      xf[i] = (float)x[i];
      nz += x[i] != 0;
      if (fabs(x[i]) < amin) amin = fabs(x[i]);
    }
    CHECK(lak_vnorm(n, x, 1, 0) == (double)nz && lak_svnorm(n, xf, 1, 0) == (double)nz,
          "vnorm 0 n %zu", n);
    CHECK(lak_vnorm(n, x, 1, -INFINITY) == amin, "vnorm -inf n %zu", n);
    for (k = 0; k < sizeof ps / sizeof ps[0]; k++) {
      long double a = 0, af = 0;
      double want, wantf, got;
      for (i = 0; i < n; i++) {
        a += powl(fabsl((long double)x[i]), ps[k]);
        af += powl(fabsl((long double)xf[i]), ps[k]);
      }
      want = (double)powl(a, 1.0L / ps[k]);
      wantf = (double)powl(af, 1.0L / ps[k]);
      got = lak_vnorm(n, x, 1, ps[k]);
      CHECK(got == want || fabs(got - want) <= 1e-14 * fabs(want), "vnorm p %g n %zu: %.17g vs %.17g",
            ps[k], n, got, want);
      got = lak_svnorm(n, xf, 1, ps[k]);
      CHECK(got == wantf || fabs(got - wantf) <= 1e-14 * fabs(wantf), "svnorm p %g n %zu", ps[k], n);
    }
    nz += x[n / 2] == 0;                   /* a NaN counts as nonzero */
    x[n / 2] = NAN;
    CHECK(isnan(lak_vnorm(n, x, 1, 3)) && isnan(lak_vnorm(n, x, 1, -INFINITY)) &&
          lak_vnorm(n, x, 1, 0) == (double)nz, "vnorm NaN n %zu", n);
    x[n / 2] = -INFINITY;
    CHECK(lak_vnorm(n, x, 1, 3) == INFINITY && lak_vnorm(n, x, 1, 2.5) == INFINITY,
          "vnorm Inf n %zu", n);
  }
}

/* lak_scan's running extremes (np.minimum.accumulate / np.maximum.accumulate
** of [3, 1, 2, nan, 0]: 3, 1, 1, nan, nan / 3, 3, 3, nan, nan) at a stride;
** lak_diff (np.diff([1, 4, 9, 16, 25], n) for n = 1, 2, 4) */
static void extremes_diff(void) {
  double x[10] = {3, 0, 1, 0, 2, 0, NAN, 0, 0, 0}, y[5], w[5];
  double d[5] = {1, 4, 9, 16, 25};
  float df[3] = {0.1f, 0.7f, 100000001.0f}, yf[2], wf[3];
  lak_scan(LAK_CUMMIN, 5, x, 2, y, 1);
  CLOSE(y[0], 3, 0); CLOSE(y[1], 1, 0); CLOSE(y[2], 1, 0);
  CHECK(y[3] != y[3] && y[4] != y[4], "cummin after NaN: %g %g", y[3], y[4]);
  lak_scan(LAK_CUMMAX, 5, x, 2, y, 1);
  CLOSE(y[0], 3, 0); CLOSE(y[1], 3, 0); CLOSE(y[2], 3, 0);
  CHECK(y[3] != y[3] && y[4] != y[4], "cummax after NaN: %g %g", y[3], y[4]);
  lak_diff(1, 5, d, 1, y, 1, w);
  CLOSE(y[0], 3, 0); CLOSE(y[3], 9, 0);
  lak_diff(2, 5, d, 1, y, 1, w);
  CLOSE(y[0], 2, 0); CLOSE(y[2], 2, 0);
  lak_diff(4, 5, d, 1, y, 1, w);
  CLOSE(y[0], 0, 0);
  lak_sdiff(1, 3, df, 1, yf, 1, wf);           /* float steps: 0.7f - 0.1f */
  CLOSE(yf[0], 0.7f - 0.1f, 0); CLOSE(yf[1], 100000001.0f - 0.7f, 0);
}

/* the first extreme (first NaN) by a plain loop */
static size_t refarg(int wantmax, size_t n, const double *x) {
  size_t i, at = 0;
  for (i = 0; i < n; i++) {
    if (x[i] != x[i]) return i;
    if (wantmax ? x[i] > x[at] : x[i] < x[at]) at = i;
  }
  return at;
}

/* lak_argext / lak_sargext of contiguous lines at every vector width the
** CPU has (lak_isa_cap): lengths 1..200 around every lane count, entries
** from a few values (ties), with a NaN, Inf, -Inf, -0 and +0 placed at
** each position in turn; the answer is the plain loop's */
static void argext_widths(void) {
  static const double vals[] = {1, -2, 3, 3, 0, -0.0, 2.5, -2};
  double x[200];
  float xf[200];
  size_t n, i, pos;
  int lev, wm, kind, top = lak_isa_cap(2);
  for (lev = 0; lev <= (top < 0 ? 0 : top); lev++) {
    lak_isa_cap(lev);
    for (n = 1; n <= 200; n += n < 70 ? 1 : 13)
      for (kind = 0; kind < 7; kind++)
        for (pos = 0; pos < n; pos += 1 + n / 9) {
          for (i = 0; i < n; i++) x[i] = vals[(i * 5 + n + (size_t)kind) % 8];
          if (kind == 1) x[pos] = NAN;
          if (kind == 2) { x[pos] = INFINITY; if (pos + 1 < n) x[n - 1] = NAN; }
          if (kind == 3) x[pos] = -INFINITY;
          if (kind == 4) { x[pos] = 3; if (pos + 3 < n) x[pos + 3] = NAN; x[n - 1] = NAN; }
          if (kind == 5) x[pos] = 7;
          if (kind == 6) for (i = 0; i < n; i++) x[i] *= i == pos ? 1e308 : 5e307;  /* sums overflow */
          for (i = 0; i < n; i++) xf[i] = kind == 6 ? (float)(x[i] * 1e-270) : (float)x[i];
          for (wm = 0; wm < 2; wm++) {
            size_t want = refarg(wm, n, x);
            if (kind == 6)
              for (i = 0; i < n; i++) CHECK(xf[i] == xf[i], "float overflowed");
            CHECK(lak_argext(wm, n, x, 1) == want, "argext(%d) n %zu kind %d pos %zu level %d",
                  wm, n, kind, pos, lev);
            CHECK(lak_sargext(wm, n, xf, 1) == want, "sargext(%d) n %zu kind %d pos %zu level %d",
                  wm, n, kind, pos, lev);
          }
        }
  }
  lak_isa_cap(2);
}

/* lak_rowext / lak_srowext (the rows' extremes, four columns a pass) at
** every vector width: the index and value of each row's first extreme
** (first NaN) as the plain loop finds them in the row */
static void rowext_widths(void) {
  static const double vals[] = {1, -2, 3, 3, 0, NAN, 2.5, -2, INFINITY, -1};
  double a[45 * 10], row[10], val[45], idx[45], val2[45];
  float af[45 * 10], valf[45], idxf[45], valf2[45];
  size_t m, n, i, j;
  int lev, wm, top = lak_isa_cap(2);
  for (lev = 0; lev <= (top < 0 ? 0 : top); lev++) {
    lak_isa_cap(lev);
    for (m = 1; m <= 45; m++)
      for (n = 1; n <= 10; n++) {           /* 4 columns a pass: two passes and a rest */
        for (i = 0; i < m * n; i++) a[i] = vals[(i * 7 + m + n) % (i % 5 ? 10 : 5)];
        for (i = 0; i < m * n; i++) af[i] = (float)a[i];
        for (wm = 0; wm < 2; wm++) {
          lak_rowext(wm, m, n, a, m, val, idx);
          lak_srowext(wm, m, n, af, m, valf, idxf);
          lak_rowext(wm, m, n, a, m, val2, NULL);    /* values alone: another loop */
          lak_srowext(wm, m, n, af, m, valf2, NULL);
          for (i = 0; i < m; i++) {
            size_t want;
            for (j = 0; j < n; j++) row[j] = a[i + j * m];
            want = refarg(wm, n, row);
            CHECK((val2[i] == row[want] || (val2[i] != val2[i] && row[want] != row[want])) &&
                  ((double)valf2[i] == row[want] || (valf2[i] != valf2[i] && row[want] != row[want])),
                  "rowext values alone(%d) m %zu n %zu row %zu level %d", wm, m, n, i, lev);
            CHECK(idx[i] == (double)want && idxf[i] == (float)want,
                  "rowext(%d) m %zu n %zu row %zu level %d", wm, m, n, i, lev);
            CHECK((val[i] == row[want] || (val[i] != val[i] && row[want] != row[want])) &&
                  ((double)valf[i] == row[want] || (valf[i] != valf[i] && row[want] != row[want])),
                  "rowext value(%d) m %zu n %zu row %zu level %d", wm, m, n, i, lev);
          }
        }
      }
  }
  lak_isa_cap(2);
}

/* lak_rowsum / lak_rowext over strips of 512 rows (doubles; 1024 for
** floats, LAK_RSTRIP): heights around one and two strips, widths on both
** sides of the register path (LAK_RNARROW), each row's result the same bits as that row alone
** (m = 1, its entries at stride lda) and the extreme where the plain loop
** finds it, with a NaN, an Inf and a tie in rows of the later strips */
static void row_strips(void) {
  static float fa[1103 * 17];
  static double a[1103 * 17], out[1100], one, c[1100], val[1100], idx[1100], t[LAK_RSTRIP];
  static const size_t ms[] = {511, 512, 513, 1023, 1024, 1025, 1100};
  static const size_t ns[] = {1, 2, 3, 4, 5, 6, 7, 9, 16, 17};   /* 16: the register path's widest */
  double row[17];
  size_t k, kn, n, i, j, lda;
  int op, wm;
  for (k = 0; k < sizeof ms / sizeof ms[0]; k++)
    for (kn = 0; kn < sizeof ns / sizeof ns[0]; kn++) {
      size_t m = ms[k];
      n = ns[kn];
      lda = m + 3;                          /* a view's leading dimension */
      for (j = 0; j < n; j++)
        for (i = 0; i < m; i++) a[i + j * lda] = (double)((i * 37 + j * 11) % 101) / 7.0 - 6.5;
      if (m > 600 && n > 1) {
        a[600 + lda] = NAN; a[700] = INFINITY; a[m - 1 + (n - 1) * lda] = -INFINITY;
        a[650] = a[650 + lda] = 9.0;        /* a tie: the first column wins */
      }
      for (i = 0; i < m; i++) c[i] = (double)(i % 5) - 2.0;
      for (op = LAK_RSUM; op <= LAK_RPROD; op++) {
        lak_rowsum((lak_Rows)op, m, n, a, lda, c, out, t);
        for (i = 0; i < m; i++) {
          lak_rowsum((lak_Rows)op, 1, n, a + i, lda, c + i, &one, t);
          CHECK(out[i] == one || (out[i] != out[i] && one != one),
                "rowsum op %d m %zu n %zu row %zu: %g vs %g alone", op, m, n, i, out[i], one);
        }
      }
      for (j = 0; j < n; j++)               /* floats, their sums in double */
        for (i = 0; i < m; i++) fa[i + j * lda] = (float)a[i + j * lda];
      for (op = LAK_RSUM; op <= LAK_RPROD; op++) {
        lak_srowsum((lak_Rows)op, m, n, fa, lda, c, out, t);
        for (i = 0; i < m; i++) {
          lak_srowsum((lak_Rows)op, 1, n, fa + i, lda, c + i, &one, t);
          CHECK(out[i] == one || (out[i] != out[i] && one != one),
                "srowsum op %d m %zu n %zu row %zu: %g vs %g alone", op, m, n, i, out[i], one);
        }
      }
      for (op = 0; op < 2; op++) {          /* rowvar: the two rowsum passes' bits */
        lak_rowsum(LAK_RSUM, m, n, a, lda, NULL, out, t);
        for (i = 0; i < m; i++) c[i] = out[i] / (double)n;
        lak_rowsum(LAK_RDEV, m, n, a, lda, c, out, t);
        lak_rowvar(m, n, a, lda, 1.0 - op, op, val, t);
        for (i = 0; i < m; i++) {
          double want = out[i] / ((double)n - (1.0 - op));
          want = op ? sqrt(want) : want;
          CHECK(val[i] == want || (val[i] != val[i] && want != want),
                "rowvar sd %d m %zu n %zu row %zu: %g vs %g", op, m, n, i, val[i], want);
        }
      }
      for (wm = 0; wm < 2; wm++) {
        lak_rowext(wm, m, n, a, lda, c, NULL);   /* values alone (c: free now) */
        lak_rowext(wm, m, n, a, lda, val, idx);
        for (i = 0; i < m; i++) {
          size_t want;
          for (j = 0; j < n; j++) row[j] = a[i + j * lda];
          want = refarg(wm, n, row);
          CHECK(c[i] == row[want] || (c[i] != c[i] && row[want] != row[want]),
                "rowext(%d) values alone, strips: m %zu n %zu row %zu", wm, m, n, i);
          CHECK(idx[i] == (double)want && (val[i] == row[want] || (val[i] != val[i] && row[want] != row[want])),
                "rowext(%d) strips: m %zu n %zu row %zu", wm, m, n, i);
        }
      }
    }
}

/* lak_rowext of packed matrices of 2 to 7 rows (read as one line of
** vectors, each lane following one row): widths across one and several
** periods of a vector's lanes, few distinct values (ties across lanes),
** NaN and Inf in some rows, each row's first extreme (first NaN) and its
** column as the plain loop finds them; both types */
static void row_lanes(void) {
  static double a[7 * 300], row[300], val[7], idx[7];
  static float af[7 * 300], valf[7], idxf[7];
  static const double vals[] = {1, -2, 3, 3, 0, 2.5, -2, 3, NAN, INFINITY, -INFINITY};
  size_t h, n, i, j, seed;
  int wm;
  for (h = 2; h <= 7; h++)
    for (n = 1; n <= 300; n += n < 70 ? 1 : 23)
      for (seed = 0; seed < 3; seed++) {
        for (i = 0; i < h * n; i++) {
          size_t r = (i * 2654435761u + seed * 97 + h) % 1000;
          a[i] = vals[r < 990 ? r % 8 : 8 + r % 3];    /* NaN / Inf about 1 in 100 */
          af[i] = (float)a[i];
        }
        for (wm = 0; wm < 2; wm++) {
          lak_rowext(wm, h, n, a, h, val, idx);
          lak_srowext(wm, h, n, af, h, valf, idxf);
          for (i = 0; i < h; i++) {
            size_t want;
            for (j = 0; j < n; j++) row[j] = a[i + j * h];
            want = refarg(wm, n, row);
            CHECK(idx[i] == (double)want && idxf[i] == (float)want &&
                  (val[i] == row[want] || (val[i] != val[i] && row[want] != row[want])) &&
                  ((double)valf[i] == row[want] || (valf[i] != valf[i] && row[want] != row[want])),
                  "rowext lanes(%d) h %zu n %zu seed %zu row %zu: idx %g/%g want %zu", wm, h, n,
                  seed, i, idx[i], (double)idxf[i], want);
          }
        }
      }
}

/* lak_colreduce / lak_colpnorms: each column's result the bits of the
** same column as a line (lak_reduce, lak_vnorm), heights 1..130 across
** the one-block loop's limit (128), entries of every scale (the 2-norm's
** rescaled pass at 1e300 and 1e-300), a NaN and an Inf, both types */
static void col_reductions(void) {
  static double a[130 * 7], out[7];
  static float af[130 * 7];
  static const double scale[] = {1.0, 1e300, 1e-300, 3.0};
  static const double ps[] = {1.0, 2.0, 3.0};
  size_t m, n = 7, i, j, k;
  int r;
  for (m = 1; m <= 130; m++)
    for (k = 0; k < 4; k++) {
      for (i = 0; i < m * n; i++) {
        a[i] = scale[k] * ((double)((i * 29 + m) % 17) - 7.5) / 3.0;
        af[i] = (float)((double)((i * 29 + m) % 17) - 7.5);
      }
      if (k == 3) { a[m / 2] = NAN; a[m + m / 3] = INFINITY; af[m / 2] = NAN; af[m + m / 3] = INFINITY; }
      for (r = LAK_SUM; r <= LAK_STD; r++) {
        double ddof = r == LAK_VAR || r == LAK_STD ? (m > 1 ? 1.0 : 0.0) : 0.0;
        if (r == LAK_MIN || r == LAK_MAX || r == LAK_PROD) continue;
        lak_colreduce((lak_Red)r, m, n, a, m, ddof, out);
        for (j = 0; j < n; j++) {
          double want = lak_reduce((lak_Red)r, m, a + j * m, 1, ddof);
          CHECK(out[j] == want || (out[j] != out[j] && want != want),
                "colreduce %d m %zu scale %zu column %zu: %g vs %g", r, m, k, j, out[j], want);
        }
        lak_scolreduce((lak_Red)r, m, n, af, m, ddof, out);
        for (j = 0; j < n; j++) {
          double want = lak_sreduce((lak_Red)r, m, af + j * m, 1, ddof);
          CHECK(out[j] == want || (out[j] != out[j] && want != want),
                "scolreduce %d m %zu column %zu", r, m, j);
        }
      }
      for (i = 0; i < 3; i++) {
        lak_colpnorms(ps[i], m, n, a, m, out);
        for (j = 0; j < n; j++) {
          double want = lak_vnorm(m, a + j * m, 1, ps[i]);
          CHECK(out[j] == want || (out[j] != out[j] && want != want),
                "colpnorms p %g m %zu scale %zu column %zu: %g vs %g", ps[i], m, k, j, out[j], want);
        }
        lak_scolpnorms(ps[i], m, n, af, m, out);
        for (j = 0; j < n; j++) {
          double want = lak_svnorm(m, af + j * m, 1, ps[i]);
          CHECK(out[j] == want || (out[j] != out[j] && want != want),
                "scolpnorms p %g m %zu column %zu", ps[i], m, j);
        }
      }
    }
}

/* long lines (blocks of values first, then the winning block): lengths
** around 2 and 3 blocks of 512 past the one-pass length (4096), and past
** LAK_LBIG (2^21) where blocks are 8192, a short last block, ties across
** blocks (-0.0 before +0.0 too), a NaN or an Inf in one block, the extreme
** in the tail; every width */
#define LONGMAX (((size_t)1 << 21) + 8192 * 2 + 77)
static double lx[LONGMAX];
static float lxf[LONGMAX];

static void argext_lens(const size_t *lens, size_t nlens, size_t step) {
  double *x = lx;
  float *xf = lxf;
  size_t t, i, pos, n;
  int lev, wm, kind, top = lak_isa_cap(2);
  for (lev = 0; lev <= (top < 0 ? 0 : top); lev++) {
    lak_isa_cap(lev);
    for (t = 0; t < nlens; t++)
      for (kind = 0; kind < 6; kind++)
        for (pos = 5; pos < lens[t]; pos += step) {
          n = lens[t];
          for (i = 0; i < n; i++) x[i] = (double)((i * 37) % 101) - 50;
          if (kind == 1) x[pos] = NAN;
          if (kind == 2) { x[pos] = -INFINITY; x[n - 1] = INFINITY; }
          if (kind == 3) x[n - 1 - pos % 7] = 60;                 /* in the tail */
          if (kind == 4) { for (i = 0; i < n; i++) x[i] = 0; x[pos] = -0.0; x[n - 2] = 1e-300; }
          if (kind == 5) { x[pos] = 99; x[n - 1 - pos % 3] = 99; x[pos / 2] = -99; x[n - 1] = -99; }
          for (i = 0; i < n; i++) xf[i] = (float)x[i];
          for (wm = 0; wm < 2; wm++) {
            size_t want = refarg(wm, n, x);
            CHECK(lak_argext(wm, n, x, 1) == want, "long argext(%d) n %zu kind %d pos %zu level %d",
                  wm, n, kind, pos, lev);
            if (kind != 4)                  /* 1e-300 is 0 as a float */
              CHECK(lak_sargext(wm, n, xf, 1) == want, "long sargext(%d) n %zu kind %d pos %zu level %d",
                    wm, n, kind, pos, lev);
          }
        }
  }
  lak_isa_cap(2);
}

static void argext_long(void) {
  static const size_t lens[] = {8192, 8193, 8199, 8207, 8224, 12288, 12290, 12345,
                                16384, 16385, 16401, 20493, 24577};   /* floats: blocks of 2048 */
  static const size_t big[] = {(size_t)1 << 21, ((size_t)1 << 21) + 8192 + 77, LONGMAX};
  argext_lens(lens, sizeof lens / sizeof lens[0], 1999);
  argext_lens(big, sizeof big / sizeof big[0], 700001);
}

/* lak_viewsum / lak_sviewsum of views (lda > m): the bits of lak_reduce's
** sum of the packed copy, for heights around the blocks of LAK_BLOCK (a
** block inside one column, or across two and more), at every width */
static void view_sums(void) {
  static const size_t ms[] = {1, 2, 3, 7, 8, 9, 31, 127, 128, 129, 255, 300};
  static double a[303 * 17], p[300 * 17];
  static float af[303 * 17], pf[300 * 17];
  size_t k, n, i, j;
  int lev, top = lak_isa_cap(2);
  for (lev = 0; lev <= (top < 0 ? 0 : top); lev++) {
    lak_isa_cap(lev);
    for (k = 0; k < sizeof ms / sizeof ms[0]; k++)
      for (n = 1; n <= 17; n += n < 5 ? 1 : 12) {
        size_t m = ms[k], lda = m + 3;
        for (j = 0; j < n; j++)
          for (i = 0; i < lda; i++) {
            a[i + j * lda] = i < m ? (double)((i * 37 + j * 11 + m) % 101) / 7.0 - 6.3 + 1e-9 * (double)i : 1e300;
            af[i + j * lda] = (float)a[i + j * lda];
            if (i < m) { p[i + j * m] = a[i + j * lda]; pf[i + j * m] = af[i + j * lda]; }
          }
        {
          double v = lak_viewsum(m, n, a, lda), w = lak_reduce(LAK_SUM, m * n, p, 1, 0.0);
          double vf = lak_sviewsum(m, n, af, lda), wf = lak_sreduce(LAK_SUM, m * n, pf, 1, 0.0);
          CHECK(memcmp(&v, &w, sizeof v) == 0 && memcmp(&vf, &wf, sizeof vf) == 0,
                "viewsum m %zu n %zu level %d: %.17g vs %.17g, float %.17g vs %.17g", m, n, lev,
                v, w, vf, wf);
        }
      }
  }
  lak_isa_cap(2);
}

int main(void) {
  view_sums();
  argext_widths();
  argext_long();
  rowext_widths();
  row_strips();
  row_lanes();
  col_reductions();
  extremes_diff();
  known();
  norms_dots();
  cosines();
  cosine_lengths();
  pnorms();
  nan_ties();
  double_accumulation();
  return ck_done("reduce");
}
