/*
** spec/kernels/elementwise.c: lak_unary against libm (its SIMD loops may
** call libmvec, documented within 4 ulp), the special values, rounding
** half to even; lak_binary (NaN-propagating maximum / minimum, comparisons,
** broadcasting); lak_where and lak_clip (NumPy's rules); lak_allclose, lak_isclose.
*/
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "kernels.h"

typedef double (*Fn)(double);

static double sgn(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x == x ? 0.0 : x; }
static double isnan_(double x) { return isnan(x) ? 1.0 : 0.0; }
static double isinf_(double x) { return isinf(x) ? 1.0 : 0.0; }
static double isfinite_(double x) { return isfinite(x) ? 1.0 : 0.0; }

/* lak_Fn's order: the libm function and the domain to sample */
static const struct { const char *name; Fn f; double lo, hi; } FN[LAK_NFN] = {
  {"exp", exp, -700, 700}, {"log", log, 1e-300, 1e300}, {"log1p", log1p, -0.999, 1e10},
  {"expm1", expm1, -40, 700}, {"sqrt", sqrt, 0, 1e300}, {"abs", fabs, -1e5, 1e5},
  {"sign", sgn, -3, 3}, {"floor", floor, -1e3, 1e3}, {"ceil", ceil, -1e3, 1e3},
  {"round", rint, -1e3, 1e3}, {"sin", sin, -1e4, 1e4}, {"cos", cos, -1e4, 1e4},
  {"tan", tan, -1.5, 1.5}, {"tanh", tanh, -20, 20}, {"sinh", sinh, -700, 700},
  {"cosh", cosh, -700, 700}, {"asin", asin, -1, 1}, {"acos", acos, -1, 1},
  {"atan", atan, -1e6, 1e6}, {"log2", log2, 1e-300, 1e300}, {"log10", log10, 1e-300, 1e300},
  {"trunc", trunc, -1e3, 1e3}, {"isnan", isnan_, -1, 1}, {"isinf", isinf_, -1, 1}, {"isfinite", isfinite_, -1, 1}};

/* |got - want| in units of want's last place (0 when equal, NaN too) */
static double ulps(double got, double want) {
  double u;
  if (got == want || (got != got && want != want)) return 0.0;
  u = nextafter(fabs(want), HUGE_VAL) - fabs(want);
  return fabs(got - want) / u;
}

/* each function over 1000 points of its domain (log-spaced for the wide
** ones), as a contiguous block, a strided view, in place and one by one:
** within 4 ulp of libm (sqrt, abs, sign, floor, ceil, round: exact) */
static void unary(void) {
  enum { M = 40, NC = 25, LD = 43 };
  double *A = ck_alloc((size_t)LD * NC, sizeof(double)), *B = ck_alloc((size_t)LD * NC, sizeof(double));
  double *C = ck_alloc((size_t)M * NC, sizeof(double));
  int f, i, j;
  for (f = 0; f < LAK_NFN; f++) {
    double worst = 0.0, lo = FN[f].lo, hi = FN[f].hi;
    int logspaced = lo > 0 && hi / lo > 1e6, n1 = 0;
    for (j = 0; j < NC; j++)
      for (i = 0; i < M; i++) {
        double t = (i + (double)j * M) / (M * NC - 1);
        A[i + (size_t)j * LD] = logspaced ? lo * pow(hi / lo, t) : lo + (hi - lo) * t;
      }
    lak_unary((lak_Fn)f, M, NC, A, LD, B, LD);
    for (j = 0; j < NC; j++) memcpy(C + (size_t)j * M, A + (size_t)j * LD, M * sizeof(double));
    lak_unary((lak_Fn)f, M, NC, C, M, C, M);                       /* contiguous, in place */
    for (j = 0; j < NC; j++)
      for (i = 0; i < M; i++) {
        double x = A[i + (size_t)j * LD], want = FN[f].f(x), e;
        e = fmax(ulps(B[i + (size_t)j * LD], want), ulps(C[i + (size_t)j * M], want));
        e = fmax(e, ulps(lak_unary1((lak_Fn)f, x), want));
        if (e > worst || e != e) worst = e;
        n1 += want == 1.0;
      }
    /* IEEE requires sqrt and the roundings exact; libmvec: 4 ulp */
    CHECK(worst <= ((f >= LAK_SQRT && f <= LAK_ROUND) || f >= LAK_TRUNC ? 0.0 : 4.0),
          "%s: %g ulp from libm", FN[f].name, worst);
    if (f == LAK_ISFINITE) CHECK(n1 == M * NC, "isfinite: %d of %d finite", n1, M * NC);
  }
  free(A); free(B); free(C);
}

/* special values and the conventions the header states */
static void unary_special(void) {
  const double inf = HUGE_VAL;
  struct { lak_Fn f; double x, want; } t[] = {
    {LAK_EXP, -inf, 0.0}, {LAK_EXP, inf, inf}, {LAK_EXP, 0.0, 1.0}, {LAK_EXP, 1.0, 2.718281828459045},
    {LAK_LOG, 0.0, -inf}, {LAK_LOG, 1.0, 0.0}, {LAK_LOG, inf, inf}, {LAK_LOG, -1.0, NAN},
    {LAK_SQRT, 4.0, 2.0}, {LAK_SQRT, 2.0, 1.4142135623730951}, {LAK_SQRT, -1.0, NAN},
    {LAK_SQRT, inf, inf}, {LAK_LOG1P, -1.0, -inf}, {LAK_EXPM1, -inf, -1.0},
    {LAK_SIGN, NAN, NAN}, {LAK_SIGN, -2.5, -1.0}, {LAK_SIGN, 0.0, 0.0},
    {LAK_ROUND, 0.5, 0.0}, {LAK_ROUND, 1.5, 2.0}, {LAK_ROUND, 2.5, 2.0}, {LAK_ROUND, -2.5, -2.0},
    {LAK_FLOOR, -0.5, -1.0}, {LAK_CEIL, -0.5, -0.0}, {LAK_ABS, -inf, inf},
    {LAK_ISNAN, NAN, 1.0}, {LAK_ISNAN, inf, 0.0}, {LAK_ISINF, -inf, 1.0}, {LAK_ISINF, NAN, 0.0},
    {LAK_ISFINITE, NAN, 0.0}, {LAK_ISFINITE, -inf, 0.0}, {LAK_ISFINITE, 1e308, 1.0},
    {LAK_LOG2, 8.0, 3.0}, {LAK_LOG10, 1000.0, 3.0}, {LAK_ASIN, 2.0, NAN}};
  int i, bad = 0;
  for (i = 0; i < (int)(sizeof t / sizeof t[0]); i++) {
    double got = lak_unary1(t[i].f, t[i].x), blk[3] = {t[i].x, t[i].x, t[i].x}, out[3];
    int ok = got == t[i].want || (got != got && t[i].want != t[i].want);
    lak_unary(t[i].f, 3, 1, blk, 3, out, 3);
    ok = ok && (out[1] == got || (out[1] != out[1] && got != got));
    if (!ok) fprintf(stderr, "  %s(%g) = %.17g, want %.17g\n", FN[t[i].f].name, t[i].x, got, t[i].want);
    bad += !ok;
  }
  CHECK(bad == 0, "%d special values wrong", bad);
  CHECK(!signbit(lak_unary1(LAK_SIGN, -0.0)) && signbit(lak_unary1(LAK_ROUND, -0.4)),
        "sign(-0) is +0 (NumPy's), round(-0.4) keeps the sign of zero");
}

/* c = op(a, b) for the scalars, through a 1 x 1 call */
static double bin1(lak_Bin op, double x, double y) {
  double c;
  lak_Arg a = {&x, 0, 0}, b = {&y, 0, 0};
  lak_binary(op, 1, 1, a, b, &c, 1);
  return c;
}

static void binary(void) {
  const double nan = NAN, inf = HUGE_VAL;
  int op, bad = 0;
  CHECK(isnan(bin1(LAK_MAXIMUM, nan, 1.0)) && isnan(bin1(LAK_MAXIMUM, 1.0, nan)) &&
        isnan(bin1(LAK_MINIMUM, nan, -inf)) && isnan(bin1(LAK_MINIMUM, -inf, nan)),
        "maximum / minimum must propagate NaN from either side");
  CHECK(bin1(LAK_MAXIMUM, -1.0, 2.0) == 2.0 && bin1(LAK_MINIMUM, -1.0, 2.0) == -1.0 &&
        bin1(LAK_MAXIMUM, -inf, -1e308) == -1e308, "maximum / minimum of numbers");
  for (op = LAK_LT; op <= LAK_NE; op++) {      /* NaN compares false, except ne */
    double want = op == LAK_NE ? 1.0 : 0.0;
    bad += bin1((lak_Bin)op, nan, 1.0) != want || bin1((lak_Bin)op, 1.0, nan) != want;
  }
  CHECK(bad == 0, "%d comparisons with NaN wrong", bad);
  CHECK(bin1(LAK_LT, 1, 2) == 1 && bin1(LAK_LE, 2, 2) == 1 && bin1(LAK_GT, 1, 2) == 0 &&
        bin1(LAK_GE, 2, 2) == 1 && bin1(LAK_EQ, 0.0, -0.0) == 1 && bin1(LAK_NE, 1, 1) == 0,
        "comparisons of numbers");
  CLOSE(bin1(LAK_ATAN2, 1.0, -1.0), 2.356194490192345, 4.5e-16);     /* 3 pi / 4 */
  CHECK(bin1(LAK_HYPOT, 3.0, 4.0) == 5.0 && bin1(LAK_HYPOT, 1e300, 1e300) == hypot(1e300, 1e300) &&
        bin1(LAK_HYPOT, nan, inf) == inf, "hypot: 5, no overflow, inf beats NaN");
  { /* broadcasting: the 3 x 2 matrix against a row, a column and a scalar */
    double X[6] = {1, 5, -2, 4, nan, 0}, row[2] = {3, 1}, col[3] = {0, 6, -1}, s = 2, c[6];
    const double want_row[6] = {3, 5, 3, 4, nan, 1}, want_col[6] = {1, 6, -1, 4, nan, 0};
    const double want_s[6] = {1, 0, 1, 0, 0, 1};               /* X <= 2 */
    lak_Arg x = {X, 1, 3}, r = {row, 0, 1}, cl = {col, 1, 0}, sc = {&s, 0, 0};
    int i, badr = 0, badc = 0, bads = 0;
    lak_binary(LAK_MAXIMUM, 3, 2, x, r, c, 3);
    for (i = 0; i < 6; i++) badr += !(c[i] == want_row[i] || (isnan(c[i]) && isnan(want_row[i])));
    lak_binary(LAK_MAXIMUM, 3, 2, cl, x, c, 3);
    for (i = 0; i < 6; i++) badc += !(c[i] == want_col[i] || (isnan(c[i]) && isnan(want_col[i])));
    lak_binary(LAK_LE, 3, 2, x, sc, c, 3);
    for (i = 0; i < 6; i++) bads += c[i] != want_s[i];
    CHECK(badr == 0 && badc == 0 && bads == 0,
          "broadcast: %d wrong with a row, %d with a column, %d with a scalar", badr, badc, bads);
  }
}

/* where: a != 0 picks b (NaN counts as true); clip = min(max(a, lo), hi) */
static void where_clip(void) {
  const double nan = NAN;
  double A[6] = {0, 1, nan, -0.0, -3, 2}, B[6] = {10, 11, 12, 13, 14, 15}, k = -1, c[6];
  double lo[2] = {-1, 5}, hi = 3, lo_s = 0;
  const double want_w[6] = {-1, 11, 12, -1, 14, 15};
  const double want_c[6] = {0, 1, nan, 3, 3, 3};               /* lo row {-1, 5}, hi 3 */
  lak_Arg a = {A, 1, 3}, b = {B, 1, 3}, ks = {&k, 0, 0}, l = {lo, 0, 1}, h = {&hi, 0, 0};
  lak_Arg ls = {&lo_s, 0, 0};
  int i, bw = 0, bc = 0;
  lak_where(3, 2, a, b, ks, c, 3);
  for (i = 0; i < 6; i++) bw += c[i] != want_w[i];
  CHECK(bw == 0, "where: %d wrong (c = %g %g %g %g %g %g)", bw, c[0], c[1], c[2], c[3], c[4], c[5]);
  lak_clip(3, 2, a, l, h, c, 3);
  for (i = 0; i < 6; i++) bc += !(c[i] == want_c[i] || (isnan(c[i]) && isnan(want_c[i])));
  CHECK(bc == 0, "clip: %d wrong (c = %g %g %g %g %g %g)", bc, c[0], c[1], c[2], c[3], c[4], c[5]);
  lak_clip(3, 2, a, ls, h, c, 3);
  CHECK(c[0] == 0 && c[1] == 1 && isnan(c[2]) && c[3] == 0 && c[4] == 0 && c[5] == 2,
        "clip to [0, 3]: %g %g %g %g %g %g", c[0], c[1], c[2], c[3], c[4], c[5]);
}

/* lak_allclose / lak_sallclose: NumPy's rule |a - b| <= atol + rtol |b|,
** broadcasting a scalar, NaN never close, equal infinities close */
static void allclose(void) {
  double a[4] = {1, 2, HUGE_VAL, 1e-9}, b[4] = {1 + 1e-9, 2.00001, HUGE_VAL, 0};
  float af[4] = {1, 2, INFINITY, 1e-9f}, bf[4] = {1, 2.00001f, INFINITY, 0};
  lak_Arg A = {a, 1, 2}, B = {b, 1, 2};
  lak_sArg Af = {af, 1, 2}, Bf = {bf, 1, 2};
  double one = 1.0, nan = NAN;
  lak_Arg S = {&one, 0, 0}, N = {&nan, 0, 0};
  CHECK(lak_allclose(2, 2, A, B, 1e-5, 1e-8) == 1, "close");
  CHECK(lak_allclose(2, 2, A, B, 1e-7, 1e-8) == 0, "2 vs 2.00001 at rtol 1e-7");
  CHECK(lak_sallclose(2, 2, Af, Bf, 1e-5, 1e-8) == 1, "float close");
  CHECK(lak_sallclose(2, 2, Af, Bf, 1e-7, 1e-8) == 0, "float 2 vs 2.00001 at rtol 1e-7");
  CHECK(lak_allclose(1, 1, A, S, 0, 0) == 1, "a scalar broadcast");
  CHECK(lak_allclose(2, 1, A, S, 0, 0) == 0, "2 is not 1");
  CHECK(lak_allclose(1, 1, N, N, 1, 1) == 0, "NaN");
  CHECK(lak_allclose(0, 5, A, B, 0, 0) == 1, "empty");
  {                                     /* rtol * |inf| admitted 1 vs inf */
    double inf = HUGE_VAL;
    lak_Arg I = {&inf, 0, 0};
    CHECK(lak_allclose(1, 1, S, I, 1e-5, 1e-8) == 0, "1 is not close to inf");
  }
}

/* lak_isclose / lak_sisclose: allclose's test entry by entry into a 1/0
** byte matrix (ldc respected), NaN close to NaN with equal_nan only */
static void isclose(void) {
  double a[4] = {1, HUGE_VAL, NAN, 1}, b[4] = {1 + 1e-6, HUGE_VAL, NAN, HUGE_VAL};
  float af[2] = {1, 2}, bf = 1;
  unsigned char c[6], cf[2];
  lak_Arg A = {a, 1, 2}, B = {b, 1, 2};
  lak_sArg Af = {af, 1, 0}, Bf = {&bf, 0, 0};
  c[2] = c[5] = 77;
  lak_isclose(2, 2, A, B, 1e-5, 1e-8, 0, c, 3);
  CHECK(c[0] == 1 && c[1] == 1 && c[3] == 0 && c[4] == 0 && c[2] == 77 && c[5] == 77, "isclose, ldc 3");
  lak_isclose(2, 2, A, B, 1e-5, 1e-8, 1, c, 3);
  CHECK(c[3] == 1 && c[4] == 0, "equal_nan");
  lak_sisclose(2, 1, Af, Bf, 0, 0, 0, cf, 2);
  CHECK(cf[0] == 1 && cf[1] == 0, "float, a broadcast scalar");
}

/* lak_round to d decimals, NumPy's steps (np.round(x, d) from NumPy 1.24.2):
** 0.125 -> 0.12 and 0.135 -> 0.14 at 2, 1250 -> 1200 at -2, float steps
** in float (np.round(np.float32(0.125), 2) == np.float32(0.12)), 10^400
** inf: NaN; lak_pow10 past 1e22 multiplied as NumPy's power_of_ten */
static void round_decimals(void) {
  double x[4] = {0.125, 0.135, 1250, -2.675}, y[4];
  float xf[2] = {0.125f, 2.675f}, yf[2];
  lak_round(2, 4, 1, x, 4, y, 4);
  CLOSE(y[0], 0.12, 0); CLOSE(y[1], 0.14, 0); CLOSE(y[3], -2.68, 0);
  lak_round(-2, 1, 1, x + 2, 1, y, 1);
  CLOSE(y[0], 1200, 0);
  lak_sround(2, 2, 1, xf, 2, yf, 2);
  CLOSE(yf[0], 0.12f, 0); CLOSE(yf[1], 2.68f, 0);
  lak_round(400, 1, 1, x, 1, y, 1);
  CHECK(y[0] != y[0], "10^400 is inf: NaN, got %g", y[0]);
  CLOSE(lak_pow10(8), 1e8, 0);
  CLOSE(lak_pow10(22), 1e22, 0);
  CLOSE(lak_pow10(308), 1e308, 1e293);
  CHECK(isinf(lak_pow10(309)) && isinf(lak_pow10(1 << 30)), "10^309 is inf");
}

/* fmod and mod (NumPy's remainder) against libm's fmod, bit for bit, on
** pairs that reach every branch of the fast path: random bit patterns
** (every exponent, NaN, infinities, subnormals), quotients on and beside
** whole numbers (x = k y and its neighbours), quotients about the fast
** path's limit, and y = 0, +-inf; for double and float, contiguous and
** with y a scalar, x a scalar, and strided. */
static uint64_t fm_state = 0x9e3779b97f4a7c15u;
static uint64_t fm_next(void) {
  fm_state ^= fm_state << 13; fm_state ^= fm_state >> 7; fm_state ^= fm_state << 17;
  return fm_state;
}
static double fm_bits(void) { double d; uint64_t u = fm_next(); memcpy(&d, &u, 8); return d; }
static double fm_unit(void) { return (double)(fm_next() >> 11) * 0x1p-53; }
/* a pair of kind k */
static void fm_pair(int k, double *x, double *y) {
  static const double special[] = {0.0, -0.0, HUGE_VAL, -HUGE_VAL, NAN, 1.0, -1.0, 0x1p-1074,
                                    DBL_MAX, DBL_MIN, 3.0, 0.1};
  double q;
  *y = ldexp(fm_unit() + 0.5, (int)(fm_next() % 200) - 100) * (fm_next() & 1 ? -1 : 1);
  switch (k) {
  case 0: *x = fm_bits(); *y = fm_bits(); break;
  case 1: q = (double)(fm_next() % ((uint64_t)1 << (fm_next() % 53))); *x = q * *y; break;
  case 2: q = (double)(fm_next() % ((uint64_t)1 << (fm_next() % 53))); *x = q * *y;
          *x = nextafter(*x, fm_next() & 1 ? HUGE_VAL : -HUGE_VAL); break;
  case 3: q = ldexp(1.0, 48 + (int)(fm_next() % 6)) * (1 + fm_unit()); *x = q * *y; break;
  case 4: *x = special[fm_next() % 12]; *y = special[fm_next() % 12]; break;
  default: *x = ldexp(fm_unit(), (int)(fm_next() % 2100) - 1075) * (fm_next() & 1 ? -1 : 1);
           if (fm_next() & 1) *y = special[fm_next() % 12];
  }
  if (fm_next() % 4 == 0) *x = -*x;
}
static double fm_rem(double x, double y) {         /* npy_divmod's modulus */
  double r = fmod(x, y);
  if (y == 0) return r;
  if (r != 0) return (y < 0) != (r < 0) ? r + y : r;
  return copysign(0.0, y);
}
static float fm_remf(float x, float y) {
  float r = fmodf(x, y);
  if (y == 0) return r;
  if (r != 0) return (y < 0) != (r < 0) ? r + y : r;
  return copysignf(0.0f, y);
}
static int same(double a, double b) { return memcmp(&a, &b, 8) == 0 || (isnan(a) && isnan(b)); }
static int samef(float a, float b) { return memcmp(&a, &b, 4) == 0 || (isnan(a) && isnan(b)); }

static void fmod_exact(void) {
  enum { N = 60000 };
  static double X[N], Y[N], C[N];
  static float XF[N], YF[N], CF[N];
  int i, k, op, bad = 0, badf = 0, shape;
  for (i = 0; i < N; i++) {
    fm_pair(i % 6, &X[i], &Y[i]);
    if (i % 6 == 3) XF[i] = (float)ldexp(1.0, 19 + (int)(fm_next() % 6)) * (float)(1 + fm_unit()) * (YF[i] = (float)Y[i]);
    else { XF[i] = (float)X[i]; YF[i] = (float)Y[i]; }
    if (i % 6 == 2) XF[i] = nextafterf(XF[i], fm_next() & 1 ? HUGE_VALF : -HUGE_VALF);
  }
  for (op = LAK_FMOD; op <= LAK_MOD; op++)
    for (shape = 0; shape < 4; shape++) {   /* contiguous, y fixed, x fixed, strided */
      int m = shape == 3 ? N / 2 : N;
      ptrdiff_t rx = shape == 2 ? 0 : shape == 3 ? 2 : 1, ry = shape == 1 ? 0 : shape == 3 ? 2 : 1;
      lak_Arg a = {X, rx, 0}, b = {Y, ry, 0};
      lak_sArg af = {XF, rx, 0}, bf = {YF, ry, 0};
      lak_binary((lak_Bin)op, m, 1, a, b, C, m);
      lak_sbinary((lak_Bin)op, m, 1, af, bf, CF, m);
      for (i = 0; i < m; i++) {
        double x = X[i * rx], y = Y[i * ry];
        float xf = XF[i * rx], yf = YF[i * ry];
        k = !same(C[i], op == LAK_FMOD ? fmod(x, y) : fm_rem(x, y));
        if (k && bad++ < 5)
          fprintf(stderr, "op %d shape %d: (%a, %a) gave %a\n", op, shape, x, y, C[i]);
        k = !samef(CF[i], op == LAK_FMOD ? fmodf(xf, yf) : fm_remf(xf, yf));
        if (k && badf++ < 5)
          fprintf(stderr, "op %d shape %d float: (%a, %a) gave %a\n", op, shape, xf, yf, CF[i]);
      }
    }
  CHECK(bad == 0 && badf == 0, "fmod / mod: %d double and %d float results differ from libm's", bad, badf);
  CHECK(same(bin1(LAK_FMOD, -6.0, 3.0), -0.0) && same(bin1(LAK_MOD, -6.0, 3.0), 0.0) &&
        same(bin1(LAK_MOD, 6.0, -3.0), -0.0) && bin1(LAK_MOD, -1.0, 3.0) == 2.0 &&
        bin1(LAK_FMOD, 5.5, HUGE_VAL) == 5.5 && isnan(bin1(LAK_FMOD, HUGE_VAL, 2.0)),
        "fmod / mod: the signs of zero, x %% inf, inf %% y");
}

/* hypot against libm: doubles bit for bit but for about 0.3 % of these
** pairs, each within 1 ulp of libm's and within half an ulp of the true
** value (a long double reference: there libm's is the one off by more
** than half an ulp); floats are glibc's hypotf exactly */
static void hypot_fast(void) {
  enum { N = 200000 };
  static double X[N], Y[N], C[N];
  static float XF[N], YF[N], CF[N];
  int i, diff = 0, far = 0, badf = 0, shape;
  double worst = 0;
  for (i = 0; i < N; i++) {
    switch (i % 4) {
    case 0: X[i] = fm_unit() * 4 - 2; Y[i] = fm_unit() * 4 - 2; break;
    case 1: X[i] = ldexp(fm_unit(), (int)(fm_next() % 1100) - 550);
            Y[i] = ldexp(fm_unit(), (int)(fm_next() % 1100) - 550); break;
    case 2: X[i] = fm_bits(); Y[i] = fm_bits(); break;
    default: X[i] = (double)(fm_next() % 100000); Y[i] = (double)(fm_next() % 100000); break;
    }
    XF[i] = (float)X[i]; YF[i] = (float)Y[i];
  }
  /* (Y[0] is the fixed y of the second shape: an ordinary number) */
  X[8] = INFINITY; Y[8] = NAN; X[9] = NAN; Y[9] = 1; X[10] = 0; Y[10] = -0.0; X[11] = 3; Y[11] = 4;
  X[12] = 0x1p-1074; Y[12] = 0x1p-1073; X[13] = DBL_MAX; Y[13] = DBL_MAX; X[14] = 1; Y[14] = 1;
  X[15] = 0x1p-490; Y[15] = 0x1p-491; X[16] = NAN; Y[16] = INFINITY;
  XF[8] = -INFINITY; YF[8] = NAN; XF[9] = NAN; YF[9] = 2; XF[11] = FLT_MAX; YF[11] = FLT_MAX;
  for (shape = 0; shape < 3; shape++) {   /* contiguous, y fixed, strided */
    int m = shape == 2 ? N / 2 : N;
    ptrdiff_t rx = shape == 2 ? 2 : 1, ry = shape == 1 ? 0 : shape == 2 ? 2 : 1;
    lak_Arg a = {X, rx, 0}, b = {Y, ry, 0};
    lak_sArg af = {XF, rx, 0}, bf = {YF, ry, 0};
    lak_binary(LAK_HYPOT, m, 1, a, b, C, m);
    lak_sbinary(LAK_HYPOT, m, 1, af, bf, CF, m);
    for (i = 0; i < m; i++) {
      double x = X[i * rx], y = Y[i * ry], want = hypot(x, y);
      float xf = XF[i * rx], yf = YF[i * ry];
      if (!same(C[i], want)) {
        long double t = sqrtl((long double)x * x + (long double)y * y);
        double e = (double)(fabsl((long double)C[i] - t) / ((long double)nextafter(want, INFINITY) - want));
        diff++;
        if (e > worst) worst = e;
        if (!(fabs(C[i] - want) <= nextafter(want, INFINITY) - want) && far++ < 5)
          fprintf(stderr, "hypot(%a, %a) = %a, libm %a\n", x, y, C[i], want);
      }
      if (!samef(CF[i], hypotf(xf, yf)) && badf++ < 5)
        fprintf(stderr, "hypotf(%a, %a) = %a, libm %a\n", xf, yf, CF[i], hypotf(xf, yf));
    }
  }
  printf("  hypot: %d of %d doubles differ from libm's (within 1 ulp), %.3f ulp from the true value at most there\n",
         diff, N * 3 - N / 2, worst);
  CHECK(far == 0 && badf == 0 && diff < N / 100 && worst < 0.5001,
        "hypot: %d doubles more than 1 ulp from libm's, %d of %d differ, %.3f ulp; %d floats differ",
        far, diff, N * 3 - N / 2, worst, badf);
}

int main(void) {
  round_decimals();
  allclose();
  isclose();
  unary();
  unary_special();
  binary();
  where_clip();
  fmod_exact();
  hypot_fast();
  return ck_done("elementwise");
}
