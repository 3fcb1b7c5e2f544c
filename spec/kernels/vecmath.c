/*
** spec/kernels/vecmath.c: kernels/vecmath.c's exp, log, log10, tanh and pow
** against long double references (expl, logl, log10l, tanhl, powl: 11 bits more
** than a double, so an error is measured to about 0.001 ulp): the largest
** error in ulp over millions of random arguments in each function's
** ranges, the special values (C99 Annex F), and the same bits for an
** element alone and inside a long vector. Prints the measured maxima.
** VECMATH_N=<count> sets the arguments per range (default 400000).
*/
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "vecmath.h"
/* vecmath.c's own functions too (its statics: the AVX-512 and the portable
** loops, one element's scalar code), its exported names renamed here */
void t_vexp(const double *x, double *y, size_t n);
void t_vlog(const double *x, double *y, size_t n);
void t_vlog10(const double *x, double *y, size_t n);
void t_vtanh(const double *x, double *y, size_t n);
void t_vpow(size_t m, const double *x, ptrdiff_t rx, const double *y, ptrdiff_t ry, double *z);
void t_vpowf(size_t m, const float *x, ptrdiff_t rx, const float *y, ptrdiff_t ry, float *z);
int t_native(void);
#define lak_vpowf t_vpowf
#define lak_vecmath_native t_native
#define lak_vexp t_vexp
#define lak_vlog t_vlog
#define lak_vlog10 t_vlog10
#define lak_vtanh t_vtanh
#define lak_vpow t_vpow
#include "../../src/kernels/vecmath.c"
#undef lak_vecmath_native
#undef lak_vexp
#undef lak_vlog
#undef lak_vlog10
#undef lak_vtanh
#undef lak_vpow
#undef lak_vpowf

static uint64_t rng_s = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd64(void) {          /* splitmix64 */
  uint64_t z = (rng_s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static double unif(double lo, double hi) {
  return lo + (hi - lo) * ((double)(rnd64() >> 11) * 0x1p-53);
}
static double frombits(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }
static uint64_t tobits(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }

/* |got - want| in ulp of the double nearest want (the ulp of a subnormal
** is 2^-1074; want beyond DBL_MAX: ulp of DBL_MAX) */
static double ulperr(double got, long double want) {
  double w = (double)want;
  int e;
  if (isnan(got) && isnan((double)want)) return 0;
  if ((long double)got == want) return 0;
  if (isinf(w) && isinf(got) && (w > 0) == (got > 0)) return 0;
  if (isnan(got) || isinf(got)) return INFINITY;
  if (isinf(w)) w = copysign(DBL_MAX, w);
  frexp(w, &e);
  if (e < -1021) e = -1021;
  return (double)(fabsl((long double)got - want) / ldexpl(1.0L, e - 53));
}

typedef void (*VFn)(const double *, double *, size_t);
typedef long double (*LFn)(long double);

static size_t N = 400000;

/* the largest error of f over arguments drawn by gen; checks it <= bound */
static double sweep(const char *name, VFn f, LFn ref, double (*gen)(void), double bound) {
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), worst = 0, at = 0;
  size_t i;
  for (i = 0; i < N; i++) x[i] = gen();
  f(x, y, N);
  for (i = 0; i < N; i++) {
    double e = ulperr(y[i], ref(x[i]));
    if (e > worst) { worst = e; at = x[i]; }
  }
  printf("  %-28s max %.3f ulp at %.17g\n", name, worst, at);
  CHECK(worst <= bound, "%s: %.3f ulp at %.17g (bound %.2f)", name, worst, at, bound);
  free(x); free(y);
  return worst;
}

static double g_exp_all(void) { return unif(-745.2, 709.8); }
static double g_exp_unit(void) { return unif(-1, 1); }
static double g_exp_sub(void) { return unif(-745.2, -708.4); }  /* subnormal results */
static double g_log_all(void) {   /* every positive double, exponents uniform */
  return frombits(rnd64() % 0x7ff0000000000000ULL);
}
static double g_log_one(void) { return unif(0.7, 1.45); }
static double g_log_near1(void) { return 1 + unif(-0x1p-20, 0x1p-20); }
static double g_log10_mid(void) { return pow(10, unif(0, 6)); }
static double g_tanh_unit(void) { return unif(-1, 1); }
static double g_tanh_wide(void) { return unif(-20, 20); }
static double g_tanh_mid(void) { return unif(0.5, 0.6) * (rnd64() & 1 ? 1 : -1); }
static double g_tanh_exps(void) {  /* |x| from 2^-60 to 2^5, exponents uniform */
  return ldexp(unif(1, 2), (int)(rnd64() % 66) - 60) * (rnd64() & 1 ? 1 : -1);
}


/* pow over pairs from gen: x, y; reference powl */
static double powsweep(const char *name, void (*gen)(double *, double *), double bound) {
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *z = malloc(N * sizeof *z);
  double worst = 0, ax = 0, ay = 0;
  size_t i;
  for (i = 0; i < N; i++) gen(x + i, y + i);
  lak_vpow(N, x, 1, y, 1, z);
  for (i = 0; i < N; i++) {
    double e = ulperr(z[i], powl(x[i], y[i]));
    if (e > worst) { worst = e; ax = x[i]; ay = y[i]; }
  }
  printf("  %-28s max %.3f ulp at pow(%.17g, %.17g)\n", name, worst, ax, ay);
  CHECK(worst <= bound, "%s: %.3f ulp at pow(%.17g, %.17g)", name, worst, ax, ay);
  free(x); free(y); free(z);
  return worst;
}
static void p_bench(double *x, double *y) { *x = unif(0.5, 1.5); *y = unif(-8, 8); }
static void p_wide(double *x, double *y) {   /* |y log x| up to 740 */
  *x = g_log_all();
  *y = unif(-740, 740) / fabs(log(*x) + 1e-300);
  if (rnd64() & 1) *y = unif(-4, 4);
}
static void p_near1(double *x, double *y) {  /* x near 1, y large: y log x to +-700 */
  *x = 1 + unif(-0x1p-8, 0x1p-8);
  *y = unif(-700, 700) / fabs(log(*x) + 1e-300);
}
static void p_neg(double *x, double *y) {    /* x < 0, integer y */
  *x = -unif(0.1, 10);
  *y = (double)((int)(rnd64() % 120) - 60);
}
static void p_sub(double *x, double *y) {    /* results and arguments near underflow */
  *x = unif(0.1, 0.9);
  *y = unif(-1074, -1000) / log2(*x);
  if (rnd64() & 1) { *x = frombits(rnd64() % 0x0010000000000000ULL); *y = unif(0.5, 1.01); }
}

static double v1(VFn f, double x) { double y; f(&x, &y, 1); return y; }
static double pw(double x, double y) { double z; lak_vpow(1, &x, 1, &y, 1, &z); return z; }
static int same(double a, double b) { return tobits(a) == tobits(b) || (isnan(a) && isnan(b)); }

/* C99 Annex F's special cases and exact values */
static void specials(void) {
  const double inf = INFINITY, nan_ = NAN, tiny = 0x1p-1074;
  CHECK(same(v1(lak_vexp, 0), 1) && same(v1(lak_vexp, -0.0), 1), "exp(+-0) = 1");
  CHECK(same(v1(lak_vexp, inf), inf) && same(v1(lak_vexp, -inf), 0), "exp(+-inf)");
  CHECK(isnan(v1(lak_vexp, nan_)), "exp(NaN) is NaN");
  CHECK(same(v1(lak_vexp, 710), inf) && same(v1(lak_vexp, 1e300), inf), "exp overflows to inf");
  CHECK(same(v1(lak_vexp, -746), 0) && same(v1(lak_vexp, -1e300), 0), "exp underflows to 0");
  CHECK(same(v1(lak_vexp, -745.1), tiny), "exp(-745.1) = 2^-1074");
  CHECK(same(v1(lak_vexp, 1), exp(1.0)), "exp(1) = e");
  CHECK(same(v1(lak_vlog, 1), 0), "log(1) = +0");
  CHECK(same(v1(lak_vlog, 0), -inf) && same(v1(lak_vlog, -0.0), -inf), "log(+-0) = -inf");
  CHECK(isnan(v1(lak_vlog, -1)) && isnan(v1(lak_vlog, -inf)) && isnan(v1(lak_vlog, -tiny)), "log(x < 0) is NaN");
  CHECK(same(v1(lak_vlog, inf), inf) && isnan(v1(lak_vlog, nan_)), "log(inf), log(NaN)");
  CHECK(same(v1(lak_vlog, tiny), -1074 * 0.69314718055994530942), "log(2^-1074)");
  CHECK(same(v1(lak_vlog, 2), 0x1.62e42fefa39efp-1) && same(v1(lak_vlog, DBL_MAX), log(DBL_MAX)), "log(2)");
  CHECK(same(v1(lak_vlog10, 1), 0) && same(v1(lak_vlog10, 0), -inf) &&
        same(v1(lak_vlog10, -0.0), -inf), "log10(1) = +0, log10(+-0) = -inf");
  CHECK(isnan(v1(lak_vlog10, -1)) && isnan(v1(lak_vlog10, -inf)) && isnan(v1(lak_vlog10, -tiny)) &&
        isnan(v1(lak_vlog10, nan_)) && same(v1(lak_vlog10, inf), inf), "log10's specials");
  {
    double p = 1;
    int k, bad = 0;
    for (k = 0; k <= 22; k++, p *= 10) bad += !same(v1(lak_vlog10, p), k);
    CHECK(bad == 0, "log10(10^k) = k exactly, k = 0 .. 22 (%d wrong)", bad);
  }
  CHECK(same(v1(lak_vlog10, 0x1p-1074), (double)log10l(0x1p-1074L)) &&
        same(v1(lak_vlog10, DBL_MAX), log10(DBL_MAX)), "log10 of 2^-1074 and DBL_MAX");
  CHECK(same(v1(lak_vtanh, 0), 0) && same(v1(lak_vtanh, -0.0), -0.0), "tanh(+-0) = +-0");
  CHECK(same(v1(lak_vtanh, inf), 1) && same(v1(lak_vtanh, -inf), -1), "tanh(+-inf) = +-1");
  CHECK(same(v1(lak_vtanh, 19.1), 1) && same(v1(lak_vtanh, -800), -1), "tanh(+-large) = +-1");
  CHECK(same(v1(lak_vtanh, 1e-10), 1e-10) && same(v1(lak_vtanh, -tiny), -tiny), "tanh(tiny) = tiny");
  CHECK(isnan(v1(lak_vtanh, nan_)), "tanh(NaN) is NaN");
  /* pow, F.9.4.4 */
  CHECK(same(pw(nan_, 0), 1) && same(pw(inf, -0.0), 1) && same(pw(-3, 0), 1), "pow(x, +-0) = 1");
  CHECK(same(pw(1, nan_), 1) && same(pw(1, inf), 1) && same(pw(1, -7.5), 1), "pow(1, y) = 1");
  CHECK(isnan(pw(nan_, 1)) && isnan(pw(2, nan_)) && isnan(pw(-1, nan_)), "NaN propagates");
  CHECK(isnan(pw(-2, 0.5)) && isnan(pw(-0.5, -1.5)) && isnan(pw(-tiny, 1e-300)), "pow(x < 0, non-integer) is NaN");
  CHECK(same(pw(-1, inf), 1) && same(pw(-1, -inf), 1), "pow(-1, +-inf) = 1");
  CHECK(same(pw(0, -1), inf) && same(pw(-0.0, -1), -inf) && same(pw(-0.0, -2), inf) &&
        same(pw(0, -0.5), inf) && same(pw(-0.0, -inf), inf), "pow(+-0, y < 0)");
  CHECK(same(pw(0, 3), 0) && same(pw(-0.0, 3), -0.0) && same(pw(-0.0, 2), 0) &&
        same(pw(-0.0, 0.5), 0) && same(pw(0, inf), 0), "pow(+-0, y > 0)");
  CHECK(same(pw(0.5, inf), 0) && same(pw(0.5, -inf), inf) && same(pw(2, inf), inf) &&
        same(pw(2, -inf), 0) && same(pw(-0.5, inf), 0) && same(pw(-2, inf), inf), "pow(x, +-inf)");
  CHECK(same(pw(-inf, 3), -inf) && same(pw(-inf, 2), inf) && same(pw(-inf, 0.5), inf) &&
        same(pw(-inf, -3), -0.0) && same(pw(-inf, -2), 0) && same(pw(-inf, -0.5), 0), "pow(-inf, y)");
  CHECK(same(pw(inf, 0.5), inf) && same(pw(inf, -0.5), 0), "pow(inf, y)");
  CHECK(same(pw(2, 1024), inf) && same(pw(-2, 1025), -inf) && same(pw(10, 400), inf), "pow overflows");
  CHECK(same(pw(2, -1075), 0) && same(pw(-2, -1077), -0.0) && same(pw(0.1, 400), 0), "pow underflows");
  CHECK(same(pw(2, -1074), tiny) && same(pw(2, 1023), 0x1p1023), "pow(2, n) exact");
  CHECK(same(pw(3, 4), 81) && same(pw(-3, 3), -27) && same(pw(2, -3), 0.125) &&
        same(pw(10, 15), 1e15) && same(pw(4, 0.5), 2) && same(pw(7, 1), 7), "exact powers");
  CHECK(same(pw(tiny, 0.5), 0x1p-537), "pow(subnormal, 0.5)");
}

/* an element alone and at every place of a long vector: the same bits */
static void positions(void) {
  enum { M = 1037 };
  double x[M], y[M], z[M], b = 2.5;
  int i, bad = 0;
  for (i = 0; i < M; i++) x[i] = unif(-30, 30);
  lak_vexp(x, y, M);
  for (i = 0; i < M; i++) bad += !same(y[i], v1(lak_vexp, x[i]));
  lak_vtanh(x, y, M);
  for (i = 0; i < M; i++) bad += !same(y[i], v1(lak_vtanh, x[i]));
  for (i = 0; i < M; i++) x[i] = fabs(x[i]);
  lak_vlog(x, y, M);
  for (i = 0; i < M; i++) bad += !same(y[i], v1(lak_vlog, x[i]));
  lak_vlog10(x, y, M);
  for (i = 0; i < M; i++) bad += !same(y[i], v1(lak_vlog10, x[i]));
  lak_vpow(M, x, 1, &b, 0, y);
  lak_vpow((M + 1) / 2, x, 2, &b, 0, z);   /* strided: the scalar loop */
  for (i = 0; i < M; i++) bad += !same(y[i], pw(x[i], b)) + (2 * i < M && !same(z[i], y[2 * i]));
  lak_vpow(M, &b, 0, x, 1, y);
  for (i = 0; i < M; i++) bad += !same(y[i], pw(b, x[i]));
  CHECK(bad == 0, "%d elements differ between a vector and alone", bad);
}

/* the AVX-512 loops, the portable loops (vectorized for this CPU) and one
** element's scalar code (this file's build, libm's fma): the same bits, for
** exp, tanh, log (some negative, zero, subnormal, inf) and pow (a mix of
** specials: negative x, integer y, overflow) */
static void paths(void) {
  enum { M = 100003 };
  double *x = malloc(M * sizeof *x), *a = malloc(M * sizeof *a), *b = malloc(M * sizeof *b);
  double *w = malloc(M * sizeof *w), *v = malloc(M * sizeof *v), *d = malloc(M * sizeof *d);
  double *e = malloc(M * sizeof *e);
  int i, bad = 0;
  for (i = 0; i < M; i++) x[i] = i % 7 == 0 ? unif(-750, 750) : unif(-25, 25);
  x[0] = NAN; x[1] = INFINITY; x[2] = -INFINITY; x[3] = -0.0; x[4] = 0x1p-1074;
  vexp_c(x, a, M);
  for (i = 0; i < M; i++) bad += !same(a[i], vm_exp1(x[i]));
  vtanh_c(x, b, M);
  for (i = 0; i < M; i++) bad += !same(b[i], vm_tanh1(x[i]));
  for (i = 0; i < M; i++) w[i] = i % 5 == 0 ? g_log_all() : i % 5 == 1 ? -x[i] : fabs(x[i]);
  vlog_c(w, d, M);
  for (i = 0; i < M; i++) bad += !same(d[i], vm_log1(w[i]));
  vlog10_c(w, e, M);
  for (i = 0; i < M; i++) bad += !same(e[i], vm_log10_1(w[i]));
  for (i = 0; i < M; i++) v[i] = i % 3 == 0 ? unif(-30, 30) : i % 3 == 1 ? (double)(i % 11) - 5 : 1 / x[i];
  vm_powvv(M, w, v, e);
  for (i = 0; i < M; i++) bad += !same(e[i], vm_pow1(w[i], v[i]));
#ifdef VM_X86
  if (vm_v4()) {
    double *c = malloc(M * sizeof *c), two = 2.5;
    vexp_v4(x, c, M);
    for (i = 0; i < M; i++) bad += !same(a[i], c[i]);
    vtanh_v4(x, c, M);
    for (i = 0; i < M; i++) bad += !same(b[i], c[i]);
    vlog_v4(w, c, M);
    for (i = 0; i < M; i++) bad += !same(d[i], c[i]);
    vlog10_v4(w, c, M);
    for (i = 0; i < M; i++) bad += !same(vm_log10_1(w[i]), c[i]);
    vpow_v4(M, w, 1, v, 1, c);
    for (i = 0; i < M; i++) bad += !same(e[i], c[i]);
    vpow_v4(M, w, 1, &two, 0, c);
    for (i = 0; i < M; i++) bad += !same(vm_pow1(w[i], two), c[i]);
    free(c);
    printf("  AVX-512, portable and scalar loops compared\n");
  }
#endif
  CHECK(bad == 0, "%d results differ between the loops", bad);
  free(x); free(a); free(b); free(w); free(v); free(d); free(e);
}

#include "vecmath32.h"

int main(void) {
  const char *env = getenv("VECMATH_N");
  if (env) N = (size_t)atol(env);
  printf("kernels/vecmath: max error against long double, %zu arguments a range\n", N);
  sweep("exp [-745, 710]", lak_vexp, expl, g_exp_all, 1.0);
  sweep("exp [-1, 1]", lak_vexp, expl, g_exp_unit, 1.0);
  sweep("exp subnormal results", lak_vexp, expl, g_exp_sub, 1.0);
  sweep("log every positive double", lak_vlog, logl, g_log_all, 1.0);
  sweep("log [0.7, 1.45]", lak_vlog, logl, g_log_one, 1.0);
  sweep("log 1 +- 2^-20", lak_vlog, logl, g_log_near1, 1.0);
  sweep("log10 every positive double", lak_vlog10, log10l, g_log_all, 1.0);
  sweep("log10 [0.7, 1.45]", lak_vlog10, log10l, g_log_one, 1.0);
  sweep("log10 1 +- 2^-20", lak_vlog10, log10l, g_log_near1, 1.0);
  sweep("log10 [1, 1e6]", lak_vlog10, log10l, g_log10_mid, 1.0);
  sweep("tanh [-1, 1]", lak_vtanh, tanhl, g_tanh_unit, 2.0);
  sweep("tanh [-20, 20]", lak_vtanh, tanhl, g_tanh_wide, 2.0);
  sweep("tanh +-[0.5, 0.6]", lak_vtanh, tanhl, g_tanh_mid, 2.0);
  sweep("tanh |x| 2^-60 .. 2^6", lak_vtanh, tanhl, g_tanh_exps, 2.0);
  powsweep("pow [0.5,1.5) ^ [-8, 8]", p_bench, 1.0);
  powsweep("pow wide", p_wide, 1.0);
  powsweep("pow x near 1, y large", p_near1, 1.0);
  powsweep("pow x < 0, integer y", p_neg, 1.0);
  powsweep("pow near underflow", p_sub, 1.0);
  specials();
  positions();
  powf_all();
  paths();
  return ck_done("vecmath");
}
