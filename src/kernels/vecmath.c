/*
** kernels/vecmath.c: exp, log, log10, tanh and pow of doubles for SIMD loops (no
** Lua here). Each is written twice, operation for operation: a branch-free
** function of one element made of IEEE operations only (+ - * /, fma,
** integer work on the bits, loads from tables of 16), whose loops GCC
** vectorizes for AVX2 (x86-64-v3) and the baseline (libm's fma, correctly
** rounded), and AVX-512 intrinsics with the tables in registers
** (vpermt2pd), chosen at run time. Every path gives the same bits, at any
** place of a vector and for any split of the work (spec/kernels/vecmath.c
** compares them). AVX-512 pow and log take a shorter path for a vector
** whose lanes are all ordinary (the selects of the special cases and the
** subnormal scaling change nothing there). The portable loops, with their
** gathers emulated, are slower than libmvec's on AVX2 (exp 1.8x, log 5x,
** pow 3.6x here, built for x86-64-v3): the bindings use these kernels only
** where lak_vecmath_native() says the AVX-512 loops run.
**
** Method (tables from tools/vecmath_tab.py):
** - exp: x = (16 k + j) ln2/16 + r, |r| <= ln2/32; exp(x) = 2^k 2^(j/16)
**   (1 + p(r)), 2^(j/16) a double-double, p Taylor's of degree 7; 2^k in
**   two steps, so overflow, underflow and subnormal results need no branch.
** - log: x = 2^k z, z in [0.707, 1.414) cut in 16; z invc = 1 + rh + pl
**   exactly; log(x) = k ln2 - log(invc) + log1p(rh + pl) (vm_logred, then
**   log1p(r) = r + r^2 q(r), q the minimax polynomial of degree 8).
** - log10: log's sum before its last addition times 1/ln10 as a
**   double-double (libmvec's log10 took twice NumPy's time).
** - pow: exp(y log|x|) with log as a double-double (vm_logdd: -rh^2/2
**   exact, degree 14) carried through y log|x| by an fma, then C99's
**   special cases (F.9.4.4) as selects.
** - tanh: |x| < 9/16: x + x u P(u), u = x^2 (P a Chebyshev fit of degree
**   11); else 1 - 2/(exp(2|x|) + 1); the sign put back (odd exactly).
** Largest errors measured against long double over 2e6 random arguments
** a range (make ktest): exp 0.75 ulp (subnormal results; 0.55 on [-1, 1]),
** log 0.54, log10 0.54, pow 0.76 (0.56 for ordinary results), tanh 1.47.
** pow of floats (lak_vpowf, at the end) is computed in double and rounded
** once: correctly rounded but for a few in 10^6 (x near 1 and y large; ties
** of exact integer powers), those within 0.5001 ulp.
*/
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"
#include "vecmath.h"
#include "vecmath_tab.h"

/* LAK_VECMATH_PORTABLE: the portable loops alone, compiled for the target
** only (a check that another instruction set gives the same bits) */
#if LAK_GNU_X86 && !defined(LAK_VECMATH_PORTABLE)
#include <immintrin.h>
#define VM_X86 1
#define VM_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define VM_CLONES
#endif

#define VM_INLINE static inline __attribute__((always_inline))

VM_INLINE uint64_t asu(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
VM_INLINE double asd(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }

#define VM_SHIFT 0x1.8p52                     /* rounds to an integer in the bits */
#define VM_SHIFTBITS 0x4338000000000000ULL

/* exp(x + xl), xl a small correction (|xl| << ulp(x) in use), except
** NaN (callers put NaN back): x = (16 k + j) ln2/16 + r, |r| <= ln2/32,
** exp(x) = 2^k 2^(j/16) (1 + p(r)), p Taylor's degree 7 (remainder below
** 2^-59 relative). The clamps are min/max in x86's order (NaN gives the
** bound) so that they are one instruction each. vm_exp_v4 below is this,
** operation for operation, on 8 lanes. */
VM_INLINE double vm_exp2d(double x, double xl) {
  double kd, r, r2, p, u, s1, s2;
  uint64_t n, j, kb, k1b;
  x = x < 710.0 ? x : 710.0;
  x = x > -746.0 ? x : -746.0;
  kd = fma(x, VM_INVLN2N, VM_SHIFT);
  n = asu(kd) - VM_SHIFTBITS + (1ULL << 20);  /* 16 k + j + 2^20 */
  kd -= VM_SHIFT;
  r = fma(-kd, VM_LN2HIN, x);                 /* exact */
  r = fma(-kd, VM_LN2LON, r) + xl;
  j = n & (VM_EXP_N - 1);
  kb = n >> 4;                                /* k + 2^16 */
  r2 = r * r;
  p = fma(r, 1.0 / 5040, 1.0 / 720);
  p = fma(r, p, 1.0 / 120);
  p = fma(r, p, 1.0 / 24);
  p = fma(r, p, 1.0 / 6);
  p = fma(r, p, 0.5);
  p = fma(r2, p, r);                          /* expm1(r) */
  u = fma(vm_exp_hi[j], p, vm_exp_lo[j]) + vm_exp_hi[j];
  k1b = kb >> 1;                              /* floor(k / 2) + 2^15 */
  s1 = asd((k1b - (1ULL << 15) + 1023) << 52);
  s2 = asd((kb - k1b - (1ULL << 15) + 1023) << 52);   /* 2^(k - k1) */
  return u * s1 * s2;
}

/* log(x) = *hi + *lo for x > 0 finite (normal or subnormal), |lo| about
** ulp(hi) or less: x = 2^k z, z in [0.707, 1.414) cut in 16 intervals;
** z invc = 1 + rh + pl exactly (an fma gives pl; rh by Sterbenz), so
** log(x) = k ln2 - log(invc) + log1p(rh + pl), summed as a double-double
** with -rh^2/2 exact (k ln2hi - log(invc)'s hi is exact: multiples of 2^-42); log1p's tail Taylor's to degree 14 (|rh| < 2^-5).
** vm_logdd_v4 below is this operation for operation. */
/* log1p's Taylor coefficients, (-1)^(n+1)/n at n */
static const double vm_log1p_c[15] = {
  0.0, 1.0, -1.0 / 2, 1.0 / 3, -1.0 / 4, 1.0 / 5, -1.0 / 6, 1.0 / 7, -1.0 / 8, 1.0 / 9,
  -1.0 / 10, 1.0 / 11, -1.0 / 12, 1.0 / 13, -1.0 / 14};

/* sum of c_n r^(n - bottom), n = bottom .. top, by Horner's rule (fma) */
VM_INLINE double vm_horner(double r, int top, int bottom) {
  double q = vm_log1p_c[top];
  int n;
  for (n = top - 1; n >= bottom; n--) q = fma(r, q, vm_log1p_c[n]);
  return q;
}

/* log's reduction: x = 2^k z (x > 0, subnormals scaled first), z in
** interval i, z invc = 1 + rh + pl exactly (an fma gives pl; rh by
** Sterbenz); *kd = k; *h + *e2 = k ln2hi + log(c)'s hi + rh exactly (the
** first sum exact: multiples of 2^-42; the second a fast two-sum: that
** sum is 0 or of exponent >= rh's, tools/vecmath_tab.py checks). Shared by
** vm_logdd and vm_log1. */
VM_INLINE void vm_logred(double x, double *kd, double *rh, double *pl, uint64_t *i, double *h,
                         double *e2) {
  double s;
  int sub = x < 0x1p-1022;
  double xs = sub ? x * 0x1p52 : x, z, p;
  uint64_t ix = asu(xs), tmp = ix - VM_LOG_OFF, kb;
  *i = (tmp >> 48) & 15;
  kb = (tmp ^ (1ULL << 63)) >> 52;            /* k + 2048 */
  *kd = asd(VM_SHIFTBITS + kb) - (VM_SHIFT + 2048);
  *kd = *kd - (sub ? 52.0 : 0.0);
  z = asd(ix - (tmp & (0xfffULL << 52)));
  p = z * vm_log_invc[*i];
  *pl = fma(z, vm_log_invc[*i], -p);
  *rh = p - 1.0;
  s = fma(*kd, VM_LN2HI, vm_log_hi[*i]);
  *h = s + *rh;
  *e2 = (s - *h) + *rh;
}

VM_INLINE void vm_logdd(double x, double *hi, double *lo) {
  double kd, pl, rh, h, e2, h2, rr, rrl, t, e3, q, pc;
  uint64_t i;
  vm_logred(x, &kd, &rh, &pl, &i, &h, &e2);
  rr = rh * rh;
  rrl = fma(rh, rh, -rr);
  h2 = -0.5 * rr;                             /* exact */
  t = h + h2;                                 /* |h| > |h2|: fast two-sum */
  e3 = (h - t) + h2;
  q = vm_horner(rh, 14, 3);                   /* log1p(r) - r + r^2/2 = r^3 q */
  pc = fma(pl, rr - rh, pl);                  /* pl / (1 + rh) */
  q = fma(rr * rh, q, ((e2 + e3) + fma(kd, VM_LN2LO, vm_log_lo[i])) + fma(-0.5, rrl, pc));
  *hi = t + q;                                /* renormalized: |lo| <= ulp(hi) / 2 */
  *lo = (t - *hi) + q;
}

/* log's q(r) = (log1p(r) - r) / r^2 on the reduced range (vm_logq,
** tools/vecmath_tab.py): the minimax polynomial of degree 8 (Remez, on
** 1.001 times the range; 1.6e-17 from q, 2.8e-17 with its coefficients
** rounded to double), so r + r^2 q is within 2^-59.8 of log1p(r),
** relative (Taylor's polynomial would need degree 10 for that: two fmas
** more); here by Estrin's scheme (r2 = r^2 rounded): a chain of 4
** operations, not Horner's 8; vm_logq_v4 below is this operation for
** operation */
VM_INLINE double vm_logq_at(double r, double r2) {
  double a0 = fma(r, vm_logq[1], vm_logq[0]), a1 = fma(r, vm_logq[3], vm_logq[2]);
  double a2 = fma(r, vm_logq[5], vm_logq[4]), a3 = fma(r, vm_logq[7], vm_logq[6]);
  double r4 = r2 * r2;
  double b0 = fma(r2, a1, a0), b1 = fma(r2, a3, a2);
  return fma(r4, fma(r4, vm_logq[8], b1), b0);
}

/* log(x) = h + lo for x > 0 finite, normal or subnormal (vm_log1 adds
** them; |lo| < |h| / 32) */
VM_INLINE void vm_logsum(double x, double *h, double *lo) {
  double kd, pl, rh, e2, rr, q;
  uint64_t i;
  vm_logred(x, &kd, &rh, &pl, &i, h, &e2);
  rr = rh * rh;
  q = vm_logq_at(rh, rr);                     /* log1p(r) = r + r^2 q */
  *lo = fma(rr, q, (e2 + fma(kd, VM_LN2LO, vm_log_lo[i])) + fma(-pl, rh, pl));
}

/* C99's specials of log and log10 over y, their value for x > 0 finite:
** f(+-0) = -inf, f(x < 0) = NaN, f(inf) = inf, f(NaN) = NaN */
VM_INLINE double vm_logspecial(double x, double y) {
  y = x == 0 ? -HUGE_VAL : y;
  y = x < 0 ? NAN : y;
  y = x == HUGE_VAL ? x : y;
  return x != x ? x : y;
}

/* log(x), C99's specials: log(+-0) = -inf, log(x < 0) = NaN, log(inf) = inf */
VM_INLINE double vm_log1(double x) {
  double h, lo;
  vm_logsum(x, &h, &lo);
  return vm_logspecial(x, h + lo);
}

/* log10(x) = (h + lo)(1/ln10 as VM_IL10H + VM_IL10L), the rounding error
** of h VM_IL10H kept by an fma: the sum before the last rounding is
** within about 2^-57 of log10(x), relative, so log10(10^k) = k exactly
** (k = 0 .. 22); C99's specials as log's */
#define VM_IL10H 0x1.bcb7b1526e50ep-2
#define VM_IL10L 0x1.95355baaafad3p-57
VM_INLINE double vm_log10_1(double x) {
  double h, lo, p, c;
  vm_logsum(x, &h, &lo);
  p = h * VM_IL10H;
  c = fma(h, VM_IL10H, -p);
  c = fma(h, VM_IL10L, c);
  c = fma(lo, VM_IL10H, c);
  return vm_logspecial(x, p + c);
}

VM_INLINE double vm_exp1(double x) { double y = vm_exp2d(x, -0.0); return x != x ? x : y; }

/* tanh(x): odd exactly; |x| <= 2^-27 or so gives x, |x| >= 19.1 gives +-1 */
VM_INLINE double vm_tanh1(double x) {
  double a = fabs(x), u = a * a, p = vm_tanh_p[0], e, big, y;
#define VM_H(k) p = fma(p, u, vm_tanh_p[k]);
  VM_H(1) VM_H(2) VM_H(3) VM_H(4) VM_H(5) VM_H(6) VM_H(7) VM_H(8) VM_H(9) VM_H(10) VM_H(11)
#undef VM_H
  e = vm_exp2d(2.0 * a, -0.0);
  big = 1.0 - 2.0 / (e + 1.0);                /* exp overflows to inf: 1 */
  y = a < VM_TANH_SMALL ? fma(a * u, p, a) : big;
  y = a != a ? a : y;
  return copysign(y, x);
}

/* pow(x, y) with C99's special cases (F.9.4.4) */
VM_INLINE double vm_pow1(double x, double y) {
  double ax = fabs(x), hi, lo, eh, el, z, yh = 0.5 * y;
  double yt = trunc(y), odd = yt == y && yh != trunc(yh) ? -1.0 : 1.0;   /* y odd: -1 */
  vm_logdd(ax, &hi, &lo);
  hi = ax == 0 ? -HUGE_VAL : hi;              /* log 0 = -inf, log inf = inf */
  hi = ax == HUGE_VAL ? HUGE_VAL : hi;
  eh = y * hi;
  el = fma(y, hi, -eh) + y * lo;
  el = fabs(eh) <= 1000.0 ? el : 0.0;         /* inf - inf and NaN out of the correction */
  z = vm_exp2d(eh, el);
  z = x < 0 || (x == 0 && 1 / x < 0) ? z * odd : z;   /* (-x)^odd = -(x^odd), -0 too */
  z = x < 0 && yt != y && ax != HUGE_VAL ? NAN : z;   /* x < 0, y not an integer */
  z = x != x || y != y ? x + y : z;
  z = ax == 1 && fabs(y) == HUGE_VAL ? 1.0 : z;   /* (-1)^+-inf = 1 */
  return x == 1 || y == 0 ? 1.0 : z;          /* even for NaN */
}

VM_CLONES static void vexp_c(const double *x, double *y, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) y[i] = vm_exp1(x[i]);
}

VM_CLONES static void vlog_c(const double *x, double *y, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) y[i] = vm_log1(x[i]);
}

VM_CLONES static void vlog10_c(const double *x, double *y, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) y[i] = vm_log10_1(x[i]);
}

VM_CLONES static void vtanh_c(const double *x, double *y, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) y[i] = vm_tanh1(x[i]);
}

#ifdef VM_X86
/* AVX-512: exp and tanh with exp's table in two registers each
** (vpermt2pd), the scalar functions above operation for operation (fnmadd
** is fma with the product negated, exactly), so the bits are the same. */
#define VM_V4 __attribute__((target("arch=x86-64-v4")))
#define V8(c) _mm512_set1_pd(c)
#define I8(c) _mm512_set1_epi64((long long)(c))

/* fast: the caller knows |x| < 708 (no clamp is needed, and 2^k is normal:
** one scaling gives the two steps' bits) */
VM_V4 static inline __m512d vm_exp_v4(__m512d x, __m512d xl, int addxl, int fast,
                                      const __m512d *t) {
  __m512d kd, r, r2, p, u, s1, s2, th, tl;
  __m512i n, kb, k1b;
  if (!fast) {
    x = _mm512_min_pd(x, V8(710.0));
    x = _mm512_max_pd(x, V8(-746.0));
  }
  kd = _mm512_fmadd_pd(x, V8(VM_INVLN2N), V8(VM_SHIFT));
  n = _mm512_add_epi64(_mm512_sub_epi64(_mm512_castpd_si512(kd), I8(VM_SHIFTBITS)), I8(1 << 20));
  kd = _mm512_sub_pd(kd, V8(VM_SHIFT));
  r = _mm512_fnmadd_pd(kd, V8(VM_LN2HIN), x);
  r = _mm512_fnmadd_pd(kd, V8(VM_LN2LON), r);
  if (addxl) r = _mm512_add_pd(r, xl);       /* r + -0 is r: the scalar code's exp(x, -0) */
  th = _mm512_permutex2var_pd(t[0], n, t[1]);
  tl = _mm512_permutex2var_pd(t[2], n, t[3]);
  kb = _mm512_srli_epi64(n, 4);
  r2 = _mm512_mul_pd(r, r);
  p = _mm512_fmadd_pd(r, V8(1.0 / 5040), V8(1.0 / 720));
  p = _mm512_fmadd_pd(r, p, V8(1.0 / 120));
  p = _mm512_fmadd_pd(r, p, V8(1.0 / 24));
  p = _mm512_fmadd_pd(r, p, V8(1.0 / 6));
  p = _mm512_fmadd_pd(r, p, V8(0.5));
  p = _mm512_fmadd_pd(r2, p, r);
  u = _mm512_add_pd(_mm512_fmadd_pd(th, p, tl), th);
  if (fast)
    return _mm512_mul_pd(u, _mm512_castsi512_pd(_mm512_slli_epi64(
             _mm512_add_epi64(kb, I8(1023 - (1 << 16))), 52)));
  k1b = _mm512_srli_epi64(kb, 1);
  s1 = _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_add_epi64(k1b, I8(1023 - (1 << 15))), 52));
  s2 = _mm512_castsi512_pd(_mm512_slli_epi64(
         _mm512_add_epi64(_mm512_sub_epi64(kb, k1b), I8(1023 - (1 << 15))), 52));
  return _mm512_mul_pd(_mm512_mul_pd(u, s1), s2);
}

/* the tables in registers: exp's hi, lo, then log's invc, hi, lo */
VM_V4 static void vm_exptab_v4(__m512d *t) {
  const double *tab[5] = {vm_exp_hi, vm_exp_lo, vm_log_invc, vm_log_hi, vm_log_lo};
  int k;
  for (k = 0; k < 5; k++) { t[2 * k] = _mm512_loadu_pd(tab[k]); t[2 * k + 1] = _mm512_loadu_pd(tab[k] + 8); }
}

#define VM_TAB(t, k, i) _mm512_permutex2var_pd((t)[2 * (k)], (i), (t)[2 * (k) + 1])

/* vm_horner on 8 lanes */
VM_V4 static inline __m512d vm_horner_v4(__m512d r, int top, int bottom) {
  __m512d q = V8(vm_log1p_c[top]);
  int n;
  for (n = top - 1; n >= bottom; n--) q = _mm512_fmadd_pd(r, q, V8(vm_log1p_c[n]));
  return q;
}

/* vm_logq_at on 8 lanes */
VM_V4 static inline __m512d vm_logq_v4(__m512d r, __m512d r2) {
  __m512d a0 = _mm512_fmadd_pd(r, V8(vm_logq[1]), V8(vm_logq[0]));
  __m512d a1 = _mm512_fmadd_pd(r, V8(vm_logq[3]), V8(vm_logq[2]));
  __m512d a2 = _mm512_fmadd_pd(r, V8(vm_logq[5]), V8(vm_logq[4]));
  __m512d a3 = _mm512_fmadd_pd(r, V8(vm_logq[7]), V8(vm_logq[6]));
  __m512d r4 = _mm512_mul_pd(r2, r2);
  __m512d b0 = _mm512_fmadd_pd(r2, a1, a0), b1 = _mm512_fmadd_pd(r2, a3, a2);
  return _mm512_fmadd_pd(r4, _mm512_fmadd_pd(r4, V8(vm_logq[8]), b1), b0);
}

/* vm_logred on 8 lanes; normal: no lane is subnormal */
VM_V4 static inline void vm_logred_v4(__m512d x, const __m512d *t, int normal, __m512d *kd,
                                      __m512d *rh, __m512d *pl, __m512i *i, __m512d *h,
                                      __m512d *e2) {
  __mmask8 sub = normal ? 0 : _mm512_cmp_pd_mask(x, V8(0x1p-1022), _CMP_LT_OQ);
  __m512d xs = normal ? x : _mm512_mask_mul_pd(x, sub, x, V8(0x1p52)), z, p, invc;
  __m512i ix = _mm512_castpd_si512(xs), tmp = _mm512_sub_epi64(ix, I8(VM_LOG_OFF));
  *i = _mm512_srli_epi64(tmp, 48);
  /* k, as vm_logred's: AVX-512's arithmetic shift and conversion (exact) */
  *kd = _mm512_cvtepi64_pd(_mm512_srai_epi64(tmp, 52));
  if (!normal) *kd = _mm512_sub_pd(*kd, _mm512_maskz_mov_pd(sub, V8(52.0)));
  z = _mm512_castsi512_pd(_mm512_sub_epi64(ix, _mm512_and_si512(tmp, I8(0xfffULL << 52))));
  invc = VM_TAB(t, 2, *i);
  p = _mm512_mul_pd(z, invc);
  *pl = _mm512_fmsub_pd(z, invc, p);
  *rh = _mm512_sub_pd(p, V8(1.0));
  p = _mm512_fmadd_pd(*kd, V8(VM_LN2HI), VM_TAB(t, 3, *i));   /* s */
  *h = _mm512_add_pd(p, *rh);
  *e2 = _mm512_add_pd(_mm512_sub_pd(p, *h), *rh);
}

/* vm_logdd on 8 lanes */
VM_V4 static inline void vm_logdd_v4(__m512d x, const __m512d *t, __m512d *hi, __m512d *lo,
                                     int normal) {
  __m512d kd, pl, rh, h, e2, h2, rr, rrl, tt, e3, q, pc;
  __m512i i;
  vm_logred_v4(x, t, normal, &kd, &rh, &pl, &i, &h, &e2);
  rr = _mm512_mul_pd(rh, rh);
  rrl = _mm512_fmsub_pd(rh, rh, rr);
  h2 = _mm512_mul_pd(V8(-0.5), rr);
  tt = _mm512_add_pd(h, h2);
  e3 = _mm512_add_pd(_mm512_sub_pd(h, tt), h2);
  q = vm_horner_v4(rh, 14, 3);
  pc = _mm512_fmadd_pd(pl, _mm512_sub_pd(rr, rh), pl);
  q = _mm512_fmadd_pd(_mm512_mul_pd(rr, rh), q,
        _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(e2, e3),
                                    _mm512_fmadd_pd(kd, V8(VM_LN2LO), VM_TAB(t, 4, i))),
                      _mm512_fmadd_pd(V8(-0.5), rrl, pc)));
  *hi = _mm512_add_pd(tt, q);
  *lo = _mm512_add_pd(_mm512_sub_pd(tt, *hi), q);
}

#define VM_CMP(a, b, op) _mm512_cmp_pd_mask((a), (b), (op))
#define VM_SEL(m, a, y) _mm512_mask_blend_pd((m), (y), (a))   /* m ? a : y */

/* vm_logsum on 8 lanes */
VM_V4 static inline void vm_logsum_v4(__m512d x, const __m512d *t, int normal, __m512d *h,
                                      __m512d *lo) {
  __m512d kd, pl, rh, e2, rr, q;
  __m512i i;
  vm_logred_v4(x, t, normal, &kd, &rh, &pl, &i, h, &e2);
  rr = _mm512_mul_pd(rh, rh);
  q = vm_logq_v4(rh, rr);
  *lo = _mm512_fmadd_pd(rr, q, _mm512_add_pd(_mm512_add_pd(e2, _mm512_fmadd_pd(kd, V8(VM_LN2LO),
                                                                               VM_TAB(t, 4, i))),
                                             _mm512_fnmadd_pd(pl, rh, pl)));
}

/* vm_logspecial on 8 lanes */
VM_V4 static inline __m512d vm_logspecial_v4(__m512d x, __m512d y) {
  y = VM_SEL(VM_CMP(x, V8(0.0), _CMP_EQ_OQ), V8(-HUGE_VAL), y);
  y = VM_SEL(VM_CMP(x, V8(0.0), _CMP_LT_OQ), V8(NAN), y);
  y = VM_SEL(VM_CMP(x, V8(HUGE_VAL), _CMP_EQ_OQ), x, y);
  return VM_SEL(VM_CMP(x, x, _CMP_UNORD_Q), x, y);
}

/* vm_log1 and vm_log10_1 on 8 lanes; normal: every lane is normal or more
** and finite (then the subnormal scaling and the selects change nothing) */
VM_V4 static inline __m512d vm_log1_v4(__m512d x, const __m512d *t, int normal) {
  __m512d h, lo, y;
  vm_logsum_v4(x, t, normal, &h, &lo);
  y = _mm512_add_pd(h, lo);
  return normal ? y : vm_logspecial_v4(x, y);
}

VM_V4 static inline __m512d vm_log10_v4(__m512d x, const __m512d *t, int normal) {
  __m512d h, lo, p, c, y;
  vm_logsum_v4(x, t, normal, &h, &lo);
  p = _mm512_mul_pd(h, V8(VM_IL10H));
  c = _mm512_fmsub_pd(h, V8(VM_IL10H), p);
  c = _mm512_fmadd_pd(h, V8(VM_IL10L), c);
  c = _mm512_fmadd_pd(lo, V8(VM_IL10H), c);
  y = _mm512_add_pd(p, c);
  return normal ? y : vm_logspecial_v4(x, y);
}

/* log and log10: a vector with a lane below DBL_MIN, infinite or NaN (one
** classification: NaN, zero, infinite, subnormal or negative) takes the
** full path */
VM_V4 static __m512d vm_logv_v4(__m512d x, const __m512d *t) {
  return _mm512_fpclass_pd_mask(x, 0xff) == 0 ? vm_log1_v4(x, t, 1) : vm_log1_v4(x, t, 0);
}

VM_V4 static __m512d vm_log10v_v4(__m512d x, const __m512d *t) {
  return _mm512_fpclass_pd_mask(x, 0xff) == 0 ? vm_log10_v4(x, t, 1) : vm_log10_v4(x, t, 0);
}

/* the last of pow's special cases (C99 F.9.4.4) on 8 lanes, as vm_pow1's:
** x < 0 and y not an integer: NaN; NaN; (-1)^+-inf = 1; 1^y = x^+-0 = 1 */
VM_V4 static inline __m512d vm_powtail_v4(__m512d x, __m512d y, __m512d ax, __m512d yt, __m512d z) {
  __m512d sign = V8(-0.0);
  z = VM_SEL(VM_CMP(x, V8(0.0), _CMP_LT_OQ) & VM_CMP(yt, y, _CMP_NEQ_UQ) &
             VM_CMP(ax, V8(HUGE_VAL), _CMP_NEQ_UQ), V8(NAN), z);
  z = VM_SEL(VM_CMP(x, x, _CMP_UNORD_Q) | VM_CMP(y, y, _CMP_UNORD_Q), _mm512_add_pd(x, y), z);
  z = VM_SEL(VM_CMP(ax, V8(1.0), _CMP_EQ_OQ) &
             VM_CMP(_mm512_andnot_pd(sign, y), V8(HUGE_VAL), _CMP_EQ_OQ), V8(1.0), z);
  return VM_SEL(VM_CMP(x, V8(1.0), _CMP_EQ_OQ) | VM_CMP(y, V8(0.0), _CMP_EQ_OQ), V8(1.0), z);
}

/* vm_pow1 on 8 lanes */
VM_V4 static __m512d vm_pow_v4(__m512d x, __m512d y, const __m512d *t) {
  __m512d sign = V8(-0.0), ax = _mm512_andnot_pd(sign, x), hi, lo, eh, el, z;
  __m512d yh = _mm512_mul_pd(V8(0.5), y), yt = _mm512_roundscale_pd(y, _MM_FROUND_TO_ZERO);
  __mmask8 odd = VM_CMP(yt, y, _CMP_EQ_OQ) &
                 VM_CMP(yh, _mm512_roundscale_pd(yh, _MM_FROUND_TO_ZERO), _CMP_NEQ_UQ);
  __mmask8 neg = VM_CMP(x, V8(0.0), _CMP_LT_OQ) |
                 (VM_CMP(x, V8(0.0), _CMP_EQ_OQ) & _mm512_test_epi64_mask(_mm512_castpd_si512(x),
                                                                          _mm512_castpd_si512(sign)));
  vm_logdd_v4(ax, t, &hi, &lo, 0);
  hi = VM_SEL(VM_CMP(ax, V8(0.0), _CMP_EQ_OQ), V8(-HUGE_VAL), hi);
  hi = VM_SEL(VM_CMP(ax, V8(HUGE_VAL), _CMP_EQ_OQ), V8(HUGE_VAL), hi);
  eh = _mm512_mul_pd(y, hi);
  el = _mm512_add_pd(_mm512_fmsub_pd(y, hi, eh), _mm512_mul_pd(y, lo));
  el = _mm512_maskz_mov_pd(VM_CMP(_mm512_andnot_pd(sign, eh), V8(1000.0), _CMP_LE_OQ), el);
  z = vm_exp_v4(eh, el, 1, 0, t);
  z = VM_SEL(neg, _mm512_mul_pd(z, VM_SEL(odd, V8(-1.0), V8(1.0))), z);
  return vm_powtail_v4(x, y, ax, yt, z);
}

VM_V4 static __m512d vm_nanback_v4(__m512d x, __m512d y) {
  return _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q), y, x);
}

VM_V4 static __m512d vm_tanh_v4(__m512d x, const __m512d *t) {
  __m512d sign = V8(-0.0), a = _mm512_andnot_pd(sign, x), u = _mm512_mul_pd(a, a), e, big, y;
  __m512d p = V8(vm_tanh_p[0]);
  int k;
  for (k = 1; k < 12; k++) p = _mm512_fmadd_pd(p, u, V8(vm_tanh_p[k]));
  e = vm_exp_v4(_mm512_add_pd(a, a), a, 0, 0, t);
  big = _mm512_sub_pd(V8(1.0), _mm512_div_pd(V8(2.0), _mm512_add_pd(e, V8(1.0))));
  y = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(a, V8(VM_TANH_SMALL), _CMP_LT_OQ), big,
                           _mm512_fmadd_pd(_mm512_mul_pd(a, u), p, a));
  y = vm_nanback_v4(a, y);
  return _mm512_or_pd(y, _mm512_and_pd(x, sign));
}

/* y[i] = f(x[i]) for the 8-lane f, the tail under a mask */
#define VM_LOOP_V4(f) do { \
    __m512d t[10]; size_t i; \
    vm_exptab_v4(t); \
    for (i = 0; i + 8 <= n; i += 8) _mm512_storeu_pd(y + i, f(_mm512_loadu_pd(x + i), t)); \
    if (i < n) { \
      __mmask8 m = (__mmask8)((1u << (n - i)) - 1); \
      _mm512_mask_storeu_pd(y + i, m, f(_mm512_maskz_loadu_pd(m, x + i), t)); } \
  } while (0)

VM_V4 static __m512d vm_exp1_v4(__m512d x, const __m512d *t) {
  return vm_nanback_v4(x, vm_exp_v4(x, x, 0, 0, t));
}
VM_V4 static void vexp_v4(const double *x, double *y, size_t n) { VM_LOOP_V4(vm_exp1_v4); }
VM_V4 static void vtanh_v4(const double *x, double *y, size_t n) { VM_LOOP_V4(vm_tanh_v4); }
VM_V4 static void vlog_v4(const double *x, double *y, size_t n) { VM_LOOP_V4(vm_logv_v4); }
VM_V4 static void vlog10_v4(const double *x, double *y, size_t n) { VM_LOOP_V4(vm_log10v_v4); }

/* vm_pow_v4 where x is normal or more (not inf), y finite and |y log x| <
** 708 (*ok: the lanes where this holds): there every select of vm_pow_v4
** keeps the generic value and exp needs no clamp, so the bits are its */
VM_V4 static inline __m512d vm_powfast_v4(__m512d x, __m512d y, const __m512d *t, __mmask8 *ok) {
  __m512d sign = V8(-0.0), hi, lo, eh, el;
  vm_logdd_v4(x, t, &hi, &lo, 1);
  eh = _mm512_mul_pd(y, hi);
  el = _mm512_add_pd(_mm512_fmsub_pd(y, hi, eh), _mm512_mul_pd(y, lo));
  *ok = VM_CMP(x, V8(0x1p-1022), _CMP_GE_OQ) & VM_CMP(x, V8(HUGE_VAL), _CMP_LT_OQ) &
        VM_CMP(_mm512_andnot_pd(sign, y), V8(HUGE_VAL), _CMP_LT_OQ) &
        VM_CMP(_mm512_andnot_pd(sign, eh), V8(708.0), _CMP_LT_OQ);
  return vm_exp_v4(eh, el, 1, 1, t);
}

/* z[i] = pow(x[i rx], y[i ry]), rx and ry 0 or 1; a vector with a lane
** off the fast path (vm_powfast_v4) is done again in full */
VM_V4 static void vpow_v4(size_t n, const double *x, ptrdiff_t rx, const double *y,
                          ptrdiff_t ry, double *z) {
  __m512d t[10];
  size_t i;
  vm_exptab_v4(t);
  for (i = 0; i + 16 <= n; i += 16) {     /* two vectors a step, one branch */
    __mmask8 ok0, ok1;
    __m512d a0 = rx ? _mm512_loadu_pd(x + i) : _mm512_set1_pd(*x);
    __m512d b0 = ry ? _mm512_loadu_pd(y + i) : _mm512_set1_pd(*y);
    __m512d a1 = rx ? _mm512_loadu_pd(x + i + 8) : a0;
    __m512d b1 = ry ? _mm512_loadu_pd(y + i + 8) : b0;
    __m512d r0 = vm_powfast_v4(a0, b0, t, &ok0), r1 = vm_powfast_v4(a1, b1, t, &ok1);
    if ((ok0 & ok1) != 0xff) {
      if (ok0 != 0xff) r0 = vm_pow_v4(a0, b0, t);
      if (ok1 != 0xff) r1 = vm_pow_v4(a1, b1, t);
    }
    _mm512_storeu_pd(z + i, r0);
    _mm512_storeu_pd(z + i + 8, r1);
  }
  for (; i < n; i += 8) {                 /* the rest: one vector, the last under a mask */
    int full = n - i >= 8;
    __mmask8 m = (__mmask8)(full ? 0xff : (1u << (n - i)) - 1), ok;
    __m512d a = !rx ? _mm512_set1_pd(*x) : _mm512_maskz_loadu_pd(m, x + i);
    __m512d b = !ry ? _mm512_set1_pd(*y) : _mm512_maskz_loadu_pd(m, y + i);
    __m512d r = vm_powfast_v4(a, b, t, &ok);
    if ((ok & m) != m) r = vm_pow_v4(a, b, t);
    _mm512_mask_storeu_pd(z + i, m, r);
  }
}

static int vm_v4(void) { return lak_cpu_has(LAK_CPU_V4); }   /* VM_V4's target */
#define VM_PICK(v4, c, args) do { if (vm_v4()) v4 args; else c args; } while (0)
#else
#define VM_PICK(v4, c, args) c args
#endif

int lak_vecmath_native(void) {
#ifdef VM_X86
  return vm_v4();
#else
  return 0;
#endif
}

void lak_vexp(const double *x, double *y, size_t n) { VM_PICK(vexp_v4, vexp_c, (x, y, n)); }
void lak_vtanh(const double *x, double *y, size_t n) { VM_PICK(vtanh_v4, vtanh_c, (x, y, n)); }
void lak_vlog(const double *x, double *y, size_t n) { VM_PICK(vlog_v4, vlog_c, (x, y, n)); }
void lak_vlog10(const double *x, double *y, size_t n) { VM_PICK(vlog10_v4, vlog10_c, (x, y, n)); }

VM_CLONES static void vm_powvv(size_t m, const double *x, const double *y, double *z) {
  size_t i;
  for (i = 0; i < m; i++) z[i] = vm_pow1(x[i], y[i]);
}

/* the column loop of pow in loops.h's shape: z[i] = pow(x[i rx], y[i ry])
** for T double or float (pow1 one element, v4 the AVX-512 loop, vv the
** portable loop of two moving operands). A fixed operand (stride 0) is
** spread over a block first: GCC vectorizes the loop of two moving
** operands, not the one with an invariant. */
#ifdef VM_X86
#define VM_TRYV4(v4) if (vm_v4()) { v4(m, x, rx, y, ry, z); return; }
#else
#define VM_TRYV4(v4)
#endif
#define VM_POWCOL(T, pow1, v4, vv) \
  T xb[256], yb[256]; \
  size_t i, k, b; \
  if ((rx != 0 && rx != 1) || (ry != 0 && ry != 1)) { \
    for (i = 0; i < m; i++) z[i] = pow1(x[(ptrdiff_t)i * rx], y[(ptrdiff_t)i * ry]); \
    return; \
  } \
  VM_TRYV4(v4) \
  if (rx == 1 && ry == 1) { vv(m, x, y, z); return; } \
  for (k = 0; k < 256; k++) { xb[k] = *x; yb[k] = *y; } \
  for (i = 0; i < m; i += b) { \
    b = m - i < 256 ? m - i : 256; \
    vv(b, rx ? x + i : xb, ry ? y + i : yb, z + i); \
  }

void lak_vpow(size_t m, const double *x, ptrdiff_t rx, const double *y, ptrdiff_t ry,
              double *z) {
  VM_POWCOL(double, vm_pow1, vpow_v4, vm_powvv)
}

/* ---- pow of floats, in double precision (tables from tools/vecmath32_tab.py) ----
** x and y widened to double; log2(x) = k + log2(c) + log2(1 + r) with x =
** 2^k z, z in [0.707, 1.414) cut in 16 (c = 1 for the interval holding 1,
** so log2 stays accurate relative to itself near 1), 1/c to 29 bits so
** that r = z/c - 1 is exact (z has 24), log2(1 + r) = r q(r), q of degree
** 7 by Estrin's scheme; e = y log2(x), clamped to +-200; 2^e = 2^k'
** 2^(j/16) (1 + f p(f)), |f| <= 1/32, p of degree 4; rounded once to
** float. The double is within about 2^-44 of pow(x, y) (relative; the
** rounding of e is the limit), so the float is correctly rounded but for
** a few in 10^6 (measured over 12e6 pairs: 2 with x near 1 and y huge, 1
** exact tie x^2), those within 0.5000004 ulp. The loops are bound by
** latency more than by operations: Estrin's degree 7 is faster than
** Horner's degree 6. Floats' subnormals are normal doubles: neither they
** nor overflow and underflow of the result (a double far inside its range,
** rounded once to float) need a branch. AVX-512 only: arith_gen.h keeps
** libmvec's powf (other bits) where lak_vecmath_native() is 0. */
#include "vecmath32_tab.h"

#define VM32_SHIFT 0x1.8p48                   /* e + it: e rounded to a sixteenth */
#define VM32_BIG 200.0                        /* |e| clamped: 2^+-200 are doubles */

/* c[0] + c[1] r + ... + c[7] r^7 by Estrin's scheme (a shorter chain of
** dependent operations than Horner's rule: the loops are bound by latency) */
VM_INLINE double vm32_estrin7(double r, const double *c) {
  double r2 = r * r, a = fma(c[1], r, c[0]), b = fma(c[3], r, c[2]);
  double d = fma(c[5], r, c[4]), e = fma(c[7], r, c[6]);
  return fma(fma(e, r2, d), r2 * r2, fma(b, r2, a));
}

/* log2(x), x > 0 finite and a float widened (else garbage, selected away) */
VM_INLINE double vm32_log2(double x) {
  uint64_t ix = asu(x), tmp = ix - VM32_LOG_OFF, i = (tmp >> 48) & 15;
  double kd = (double)((int64_t)tmp >> 52), z, r, q;
  z = asd(ix - (tmp & (0xfffULL << 52)));
  r = fma(z, vm32_log_invc[i], -1.0);         /* exact */
  q = vm32_estrin7(r, vm32_log_q);
  return fma(r, q, kd + vm32_log_c[i]);
}

/* 2^e, e clamped to +-VM32_BIG (NaN gives the bound, as x86's min/max) */
VM_INLINE double vm32_exp2(double e) {
  double kd, f, s, p;
  uint64_t m;
  e = fabs(e) < VM32_BIG ? e : copysign(VM32_BIG, e);   /* x86's vrangepd (NaN aside) */
  kd = e + VM32_SHIFT;
  m = asu(kd);                                /* low bits: 16 k + j */
  f = e - (kd - VM32_SHIFT);                  /* exact, |f| <= 1/32 */
  s = asd(asu(vm32_exp_t[m & 15]) + ((m >> 4) << 52));  /* 2^k 2^(j/16) */
  p = fma(vm32_exp_e[4], f, vm32_exp_e[3]);
  p = fma(p, f, vm32_exp_e[2]);
  p = fma(p, f, vm32_exp_e[1]);
  p = fma(p, f, vm32_exp_e[0]);
  return fma(s, f * p, s);
}

/* powf(x, y) with C99's special cases (F.9.4.4), as vm_pow1 */
VM_INLINE float vm32_pow1(float xf, float yf) {
  double x = xf, y = yf, ax = fabs(x), yt = trunc(y), yh = 0.5 * y, t, z;
  int odd = yt == y && trunc(yh) != yh;
  t = vm32_log2(ax);
  t = ax == 0 ? -HUGE_VAL : t;
  t = ax == HUGE_VAL ? HUGE_VAL : t;
  z = vm32_exp2(y * t);
  z = (x < 0 || (x == 0 && 1 / x < 0)) && odd ? -z : z;   /* (-x)^odd, -0 too */
  z = x < 0 && yt != y && ax != HUGE_VAL ? NAN : z;
  z = x != x || y != y ? x + y : z;
  z = ax == 1 && fabs(y) == HUGE_VAL ? 1.0 : z;
  return (float)(x == 1 || y == 0 ? 1.0 : z);
}

VM_CLONES static void vm32_powvv(size_t m, const float *x, const float *y, float *z) {
  size_t i;
  for (i = 0; i < m; i++) z[i] = vm32_pow1(x[i], y[i]);
}

#ifdef VM_X86
/* the tables in registers: invc, log2(c), 2^(j/16) */
VM_V4 static void vm32_tab_v4(__m512d *t) {
  t[0] = _mm512_loadu_pd(vm32_log_invc); t[1] = _mm512_loadu_pd(vm32_log_invc + 8);
  t[2] = _mm512_loadu_pd(vm32_log_c); t[3] = _mm512_loadu_pd(vm32_log_c + 8);
  t[4] = _mm512_loadu_pd(vm32_exp_t); t[5] = _mm512_loadu_pd(vm32_exp_t + 8);
}

/* vm32_estrin7, vm32_log2, vm32_exp2 on 8 lanes, operation for operation */
VM_V4 static inline __m512d vm32_estrin7_v4(__m512d r, const double *c) {
  __m512d r2 = _mm512_mul_pd(r, r), a = _mm512_fmadd_pd(V8(c[1]), r, V8(c[0]));
  __m512d b = _mm512_fmadd_pd(V8(c[3]), r, V8(c[2])), d = _mm512_fmadd_pd(V8(c[5]), r, V8(c[4]));
  __m512d e = _mm512_fmadd_pd(V8(c[7]), r, V8(c[6]));
  return _mm512_fmadd_pd(_mm512_fmadd_pd(e, r2, d), _mm512_mul_pd(r2, r2), _mm512_fmadd_pd(b, r2, a));
}

VM_V4 static inline __m512d vm32_log2_v4(__m512d x, const __m512d *t) {
  __m512i ix = _mm512_castpd_si512(x), tmp = _mm512_sub_epi64(ix, I8(VM32_LOG_OFF));
  __m512i i = _mm512_srli_epi64(tmp, 48);
  __m512d kd = _mm512_cvtepi64_pd(_mm512_srai_epi64(tmp, 52)), z, r, q;
  z = _mm512_castsi512_pd(_mm512_sub_epi64(ix, _mm512_and_si512(tmp, I8(0xfffULL << 52))));
  r = _mm512_fmadd_pd(z, VM_TAB(t, 0, i), V8(-1.0));
  q = vm32_estrin7_v4(r, vm32_log_q);
  return _mm512_fmadd_pd(r, q, _mm512_add_pd(kd, VM_TAB(t, 1, i)));
}

/* clamp 0: the caller knows |e| < 2^40 (then the clamp changes no float:
** beyond +-BIG, vscalefpd gives inf or 0 as the clamp's 2^+-BIG does) */
VM_V4 static inline __m512d vm32_exp2_v4(__m512d e, const __m512d *t, int clamp) {
  __m512d kd, md, f, u, p;
  if (clamp) e = _mm512_range_pd(e, V8(VM32_BIG), 2);   /* min(|e|, BIG), the sign of e */
  kd = _mm512_add_pd(e, V8(VM32_SHIFT));
  md = _mm512_sub_pd(kd, V8(VM32_SHIFT));     /* k + j/16 */
  f = _mm512_sub_pd(e, md);
  p = _mm512_fmadd_pd(V8(vm32_exp_e[4]), f, V8(vm32_exp_e[3]));
  p = _mm512_fmadd_pd(p, f, V8(vm32_exp_e[2]));
  p = _mm512_fmadd_pd(p, f, V8(vm32_exp_e[1]));
  p = _mm512_fmadd_pd(p, f, V8(vm32_exp_e[0]));
  /* 2^(j/16) (1 + f p) 2^k: vm32_exp2's s (1 + f p), as no double is subnormal */
  u = VM_TAB(t, 2, _mm512_castpd_si512(kd));
  return _mm512_scalef_pd(_mm512_fmadd_pd(u, _mm512_mul_pd(f, p), u), md);
}

/* vm32_pow1 on 8 lanes (x, y floats widened), before the rounding to float */
VM_V4 static __m512d vm32_pow_v4(__m512d x, __m512d y, const __m512d *t) {
  __m512d sign = V8(-0.0), ax = _mm512_andnot_pd(sign, x), tl, z;
  __m512d yh = _mm512_mul_pd(V8(0.5), y), yt = _mm512_roundscale_pd(y, _MM_FROUND_TO_ZERO);
  __mmask8 odd = VM_CMP(yt, y, _CMP_EQ_OQ) &
                 VM_CMP(_mm512_roundscale_pd(yh, _MM_FROUND_TO_ZERO), yh, _CMP_NEQ_UQ);
  __mmask8 neg = VM_CMP(x, V8(0.0), _CMP_LT_OQ) |
                 (VM_CMP(x, V8(0.0), _CMP_EQ_OQ) & _mm512_test_epi64_mask(_mm512_castpd_si512(x),
                                                                          _mm512_castpd_si512(sign)));
  tl = vm32_log2_v4(ax, t);
  tl = VM_SEL(VM_CMP(ax, V8(0.0), _CMP_EQ_OQ), V8(-HUGE_VAL), tl);
  tl = VM_SEL(VM_CMP(ax, V8(HUGE_VAL), _CMP_EQ_OQ), V8(HUGE_VAL), tl);
  z = vm32_exp2_v4(_mm512_mul_pd(y, tl), t, 1);
  z = _mm512_mask_sub_pd(z, neg & odd, V8(-0.0), z);     /* -z: the sign flipped */
  return vm_powtail_v4(x, y, ax, yt, z);
}

/* 16 floats at x[i rx], y[i ry] (rx, ry constants 0 or 1: each loop its
** own copy), m of them (16 in the loop, fewer at the end, under a mask).
** The fast path: every lane has x > 0 finite and |y| < 2^20, so |e| <
** 2^28 and vm32_pow_v4's selects keep the generic value; else the full. */
#define VM32_LD(p, r, h, mk) \
  ((r) ? _mm512_cvtps_pd(_mm256_maskz_loadu_ps((__mmask8)((mk) >> (8 * (h))), (p) + 8 * (h) * (r))) \
       : _mm512_set1_pd((double)*(p)))
VM_V4 static inline void vm32_pow16_v4(const float *x, ptrdiff_t rx, const float *y, ptrdiff_t ry,
                                       float *z, __mmask16 mk, const __m512d *t) {
  __m512i ua = _mm512_castps_si512(rx ? _mm512_maskz_loadu_ps(mk, x) : _mm512_set1_ps(*x));
  __m512i ub = _mm512_castps_si512(ry ? _mm512_maskz_loadu_ps(mk, y) : _mm512_set1_ps(*y));
  __mmask16 ok = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(ua, _mm512_set1_epi32(1)),
                                         _mm512_set1_epi32(0x7f7fffff)) &
                 _mm512_cmplt_epu32_mask(_mm512_and_si512(ub, _mm512_set1_epi32(0x7fffffff)),
                                         _mm512_set1_epi32(0x49800000));   /* 2^20 */
  __m512d x0 = VM32_LD(x, rx, 0, mk), x1 = VM32_LD(x, rx, 1, mk), r0, r1;
  __m512d y0 = VM32_LD(y, ry, 0, mk), y1 = VM32_LD(y, ry, 1, mk);
  if ((ok | (__mmask16)~mk) == 0xffff) {
    r0 = vm32_exp2_v4(_mm512_mul_pd(y0, vm32_log2_v4(x0, t)), t, 0);
    r1 = vm32_exp2_v4(_mm512_mul_pd(y1, vm32_log2_v4(x1, t)), t, 0);
  } else {
    r0 = vm32_pow_v4(x0, y0, t);
    r1 = vm32_pow_v4(x1, y1, t);
  }
  _mm256_mask_storeu_ps(z, (__mmask8)mk, _mm512_cvtpd_ps(r0));
  _mm256_mask_storeu_ps(z + 8, (__mmask8)(mk >> 8), _mm512_cvtpd_ps(r1));
}

VM_V4 static inline __attribute__((always_inline)) void
vm32_powloop_v4(size_t n, const float *x, ptrdiff_t rx, const float *y, ptrdiff_t ry, float *z) {
  __m512d t[6];
  size_t i;
  vm32_tab_v4(t);
  for (i = 0; i + 16 <= n; i += 16) vm32_pow16_v4(x + i * rx, rx, y + i * ry, ry, z + i, 0xffff, t);
  if (i < n) vm32_pow16_v4(x + i * rx, rx, y + i * ry, ry, z + i, (__mmask16)((1u << (n - i)) - 1), t);
}

/* z[i] = powf(x[i rx], y[i ry]), rx and ry 0 or 1 */
VM_V4 static void vpowf_v4(size_t n, const float *x, ptrdiff_t rx, const float *y, ptrdiff_t ry,
                           float *z) {
  if (rx && !ry) vm32_powloop_v4(n, x, 1, y, 0, z);
  else if (rx) vm32_powloop_v4(n, x, 1, y, 1, z);
  else vm32_powloop_v4(n, x, 0, y, ry, z);
}
#endif

/* lak_vpow for floats: z[i] = powf(x[i rx], y[i ry]) */
void lak_vpowf(size_t m, const float *x, ptrdiff_t rx, const float *y, ptrdiff_t ry, float *z) {
  VM_POWCOL(float, vm32_pow1, vpowf_v4, vm32_powvv)
}
