/*
** kernels/rng.c: reproducible random numbers.
** xoshiro256** (Blackman and Vigna) seeded through splitmix64; normals by
** the 256-layer ziggurat (Marsaglia and Tsang 2000) on the tables of
** NumPy's Generator.standard_normal (ziggurat.h). The logarithm of its rare
** paths is computed here from IEEE basic operations only (built with
** -ffp-contract=off), so the same seed yields bit-identical numbers on every
** platform, whatever its libm, and a fill is one sequential stream (never
** split between threads): the same numbers at every thread count.
*/
#include <math.h>

#include "kernels.h"
#include "ziggurat.h"

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void lak_rng_seed(lak_Rng *r, uint64_t seed) {
  int i;
  for (i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static uint64_t next(lak_Rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
  s[2] ^= t; s[3] = rotl(s[3], 45);
  return result;
}

double lak_rng_uniform(lak_Rng *r) {
  return (double)(next(r) >> 11) * 0x1.0p-53;
}

/* log(x) = e*ln2 + 2 atanh(s), s = (m-1)/(m+1), m in [sqrt(1/2), sqrt(2)):
** |s| <= 0.1716, so 11 odd terms reach double precision. frexp/ldexp are
** exact, the rest is +, *, / only. */
double lak_log(double x) {
  static const double ln2_hi = 6.93147180369123816490e-01,
                      ln2_lo = 1.90821492927058770002e-10;
  int e, k;
  double m = frexp(x, &e), s, s2, term, sum;
  if (m < 0.70710678118654752440) { m *= 2.0; e--; }
  s = (m - 1.0) / (m + 1.0);
  s2 = s * s;
  term = s; sum = 0.0;
  for (k = 1; k <= 23; k += 2) { sum += term / k; term *= s2; }
  return e * ln2_hi + (e * ln2_lo + 2.0 * sum);
}

/* the tail beyond r (Marsaglia 1964), as NumPy draws it, signed by bit 8
** of b; 1 - u is exact for a 53-bit u in [0, 1) */
static double zig_tail(lak_Rng *r, uint64_t b) {
  for (;;) {
    double t = -lak_zig_inv_r * lak_log(1.0 - lak_rng_uniform(r));
    double y = -lak_log(1.0 - lak_rng_uniform(r));
    if (y + y > t * t) return ((b >> 8) & 1) ? -(lak_zig_r + t) : lak_zig_r + t;
  }
}

/* The ziggurat's layers (Marsaglia and Tsang 2000). Of a 64-bit draw b,
** bits 0-7 pick a layer i, bit 8 the sign, bits 9-60 a 52-bit abscissa u;
** the signed integer times the layer's width is x. The common path (98.5%
** of draws, zig_normal inline) is one table lookup, a multiplication and a
** comparison, u < k_i. Otherwise (zig_rest, out of the loop) layer 0 goes to
** the tail, and a wedge point (x, y) under layer i is kept when
** y < exp(-x^2/2), tested as log(y) < -x^2/2 with lak_log; a rejected
** point takes a fresh draw. */
#define ZIG_U(b) (((b) >> 9) & 0x000fffffffffffffULL)
#define ZIG_X(b) ((double)(((int64_t)ZIG_U(b) ^ -(int64_t)(((b) >> 8) & 1)) + \
                           (int64_t)(((b) >> 8) & 1)) * lak_zig_w[(b) & 0xff])

static double zig_rest(lak_Rng *r, uint64_t b) {
  for (;;) {
    int i = (int)(b & 0xff);
    double x = ZIG_X(b);
    if (ZIG_U(b) < lak_zig_k[i]) return x;
    if (i == 0) return zig_tail(r, b);
    if (lak_log((lak_zig_f[i - 1] - lak_zig_f[i]) * lak_rng_uniform(r) + lak_zig_f[i]) <
        -0.5 * x * x)
      return x;
    b = next(r);
  }
}

/* One standard normal; the slow path works on a copy of the state, so that
** a caller's local state (lak_rng_fill) can stay in registers. */
static inline double zig_normal(lak_Rng *r) {
  uint64_t b = next(r);
  lak_Rng t;
  double x;
  if (ZIG_U(b) < lak_zig_k[b & 0xff]) return ZIG_X(b);
  t = *r;
  x = zig_rest(&t, b);
  *r = t;
  return x;
}

double lak_rng_normal(lak_Rng *r) { return zig_normal(r); }

/* n draws, in order, into A (or rounded into F when A is NULL); the state
** is copied to a local so that it stays in registers */
void lak_rng_fill(lak_Rng *r, int normal, double *A, float *F, size_t n) {
  lak_Rng s = *r;
  size_t k;
  if (normal && A) for (k = 0; k < n; k++) A[k] = zig_normal(&s);
  else if (normal) for (k = 0; k < n; k++) F[k] = (float)zig_normal(&s);
  else if (A) for (k = 0; k < n; k++) A[k] = (double)(next(&s) >> 11) * 0x1.0p-53;
  else for (k = 0; k < n; k++) F[k] = (float)((double)(next(&s) >> 11) * 0x1.0p-53);
  *r = s;
}
