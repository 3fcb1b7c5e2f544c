/*
** kernels/rng.c: reproducible random numbers.
** xoshiro256** (Blackman and Vigna) seeded through splitmix64; normals by
** Marsaglia's polar method. The logarithm is computed here from IEEE basic
** operations only (built with -ffp-contract=off), so the same seed yields
** bit-identical numbers on every platform, whatever its libm.
*/
#include <math.h>

#include "kernels.h"

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

double lak_rng_normal(lak_Rng *r) {
  double u, v, q;
  do {
    u = 2.0 * lak_rng_uniform(r) - 1.0;
    v = 2.0 * lak_rng_uniform(r) - 1.0;
    q = u * u + v * v;
  } while (q >= 1.0 || q == 0.0);
  /* The second variate (v * factor) is dropped: one draw, one state step
  ** sequence, so a matrix filled in any order is reproducible. */
  return u * sqrt(-2.0 * lak_log(q) / q);
}
