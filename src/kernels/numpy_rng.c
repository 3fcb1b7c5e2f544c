/*
** kernels/numpy_rng.c: NumPy's random streams, bit for bit.
** The legacy global stream (np.random.seed / rand / randn): MT19937 seeded
** as RandomState.seed seeds it, doubles from two 32-bit words, normals by
** the polar method keeping the second variate for the next call. The
** Generator stream (np.random.default_rng): SeedSequence's hash of the
** seed into a 128-bit PCG64 (XSL-RR output), doubles from the top 53 bits,
** normals by the 256-layer ziggurat (tables: ziggurat.h, written by
** tools/ziggurat.lua), integers by Lemire's bounded method. Written from
** the algorithms' descriptions (Matsumoto and Nishimura 1998; O'Neill
** 2014; Marsaglia and Tsang 2000; Lemire 2019) and NumPy's documented
** choices; the libm calls (log, log1p, exp, sqrt) are NumPy's.
*/
#include <math.h>

#include "kernels.h"
#define LAK_ZIG_DEFINE   /* the tables are defined here */
#include "ziggurat.h"

/* ------------------------------------------------------------ MT19937 */

#define MT_N 624
#define MT_M 397

/* Knuth's multiplicative seeding of the key (init_genrand) */
static void mt_init(lak_NpMT *s, uint32_t seed) {
  int i;
  s->key[0] = seed;
  for (i = 1; i < MT_N; i++) {
    uint32_t p = s->key[i - 1];
    s->key[i] = 1812433253u * (p ^ (p >> 30)) + (uint32_t)i;
  }
  s->pos = MT_N;
  s->has_gauss = 0;
  s->gauss = 0.0;
}

void lak_npmt_seed(lak_NpMT *s, uint32_t seed) { mt_init(s, seed); }

/* init_by_array: the key of 19650218 mixed with the n words of key */
void lak_npmt_seed_array(lak_NpMT *s, const uint32_t *key, size_t n) {
  uint32_t *mt = s->key;
  size_t i = 1, j = 0, k;
  mt_init(s, 19650218u);
  for (k = n > MT_N ? n : MT_N; k > 0; k--) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
    i++; j++;
    if (i >= MT_N) { mt[0] = mt[MT_N - 1]; i = 1; }
    if (j >= n) j = 0;
  }
  for (k = MT_N - 1; k > 0; k--) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
    i++;
    if (i >= MT_N) { mt[0] = mt[MT_N - 1]; i = 1; }
  }
  mt[0] = 0x80000000u;
}

/* word i of the next key from words i, i + 1 (next) and i + M (far) */
static uint32_t mt_word(uint32_t cur, uint32_t next, uint32_t far) {
  uint32_t y = (cur & 0x80000000u) | (next & 0x7fffffffu);
  return far ^ (y >> 1) ^ (0x9908b0dfu & (0u - (y & 1u)));
}

/* the twist: the next 624 words of the key (the indices wrap twice) */
static void mt_twist(lak_NpMT *s) {
  uint32_t *mt = s->key;
  int i;
  for (i = 0; i < MT_N - MT_M; i++) mt[i] = mt_word(mt[i], mt[i + 1], mt[i + MT_M]);
  for (; i < MT_N - 1; i++) mt[i] = mt_word(mt[i], mt[i + 1], mt[i + MT_M - MT_N]);
  mt[MT_N - 1] = mt_word(mt[MT_N - 1], mt[0], mt[MT_M - 1]);
  s->pos = 0;
}

static uint32_t mt_next(lak_NpMT *s) {
  uint32_t y;
  if (s->pos >= MT_N) mt_twist(s);
  y = s->key[s->pos++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  return y ^ (y >> 18);
}

/* 27 + 26 bits of two words: [0, 1) in steps of 2^-53 */
double lak_npmt_double(lak_NpMT *s) {
  uint32_t a = mt_next(s) >> 5, b = mt_next(s) >> 6;
  return ((double)a * 67108864.0 + (double)b) / 9007199254740992.0;
}

/* The polar method; a pair's first variate is kept for the next call. */
double lak_npmt_gauss(lak_NpMT *s) {
  double u, v, q, f;
  if (s->has_gauss) {
    s->has_gauss = 0;
    return s->gauss;
  }
  do {
    u = 2.0 * lak_npmt_double(s) - 1.0;
    v = 2.0 * lak_npmt_double(s) - 1.0;
    q = u * u + v * v;
  } while (q >= 1.0 || q == 0.0);
  f = sqrt(-2.0 * log(q) / q);
  s->gauss = f * u;
  s->has_gauss = 1;
  return f * v;
}

/* ------------------------------------------------------------ SeedSequence */

#define SS_INIT_A 0x43b0d7e5u
#define SS_MULT_A 0x931e8875u
#define SS_INIT_B 0x8b51f9ddu
#define SS_MULT_B 0x58f38dedu
#define SS_MIX_L 0xca01f9ddu
#define SS_MIX_R 0x4973f715u
#define SS_POOL 4

static uint32_t ss_hash(uint32_t v, uint32_t *h) {
  v ^= *h;
  *h *= SS_MULT_A;
  v *= *h;
  return v ^ (v >> 16);
}

static uint32_t ss_mix(uint32_t x, uint32_t y) {
  uint32_t r = SS_MIX_L * x - SS_MIX_R * y;
  return r ^ (r >> 16);
}

/* The pool of 4 words from n entropy words, then 8 output words. */
static void seedseq(const uint32_t *e, size_t n, uint32_t out[8]) {
  uint32_t pool[SS_POOL], h = SS_INIT_A;
  size_t i, d;
  for (i = 0; i < SS_POOL; i++) pool[i] = ss_hash(i < n ? e[i] : 0u, &h);
  for (i = 0; i < SS_POOL; i++)
    for (d = 0; d < SS_POOL; d++)
      if (i != d) pool[d] = ss_mix(pool[d], ss_hash(pool[i], &h));
  for (i = SS_POOL; i < n; i++)
    for (d = 0; d < SS_POOL; d++) pool[d] = ss_mix(pool[d], ss_hash(e[i], &h));
  h = SS_INIT_B;
  for (i = 0; i < 8; i++) {
    uint32_t v = pool[i % SS_POOL] ^ h;
    h *= SS_MULT_B;
    v *= h;
    out[i] = v ^ (v >> 16);
  }
}

/* ------------------------------------------------------------ PCG64 */

#define PCG_MUL_HI 2549297995355413924ULL
#define PCG_MUL_LO 4865540595714422341ULL

/* the high 64 bits of a * b */
static uint64_t mulhi(uint64_t a, uint64_t b) {
#ifdef __SIZEOF_INT128__
  __extension__ typedef unsigned __int128 u128;
  return (uint64_t)(((u128)a * b) >> 64);
#else
  uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  uint64_t t = a1 * b0 + ((a0 * b0) >> 32), w1 = (t & 0xffffffffu) + a0 * b1;
  return a1 * b1 + (t >> 32) + (w1 >> 32);
#endif
}

/* state = state * multiplier + inc (mod 2^128) */
static void pcg_step(lak_NpPCG *g) {
  uint64_t lo = g->lo * PCG_MUL_LO;
  uint64_t hi = mulhi(g->lo, PCG_MUL_LO) + g->hi * PCG_MUL_LO + g->lo * PCG_MUL_HI;
  g->lo = lo + g->inclo;
  g->hi = hi + g->inchi + (g->lo < lo);
}

/* SeedSequence(entropy).generate_state(4, uint64) as state and stream */
void lak_nppcg_seed(lak_NpPCG *g, const uint32_t *entropy, size_t n) {
  uint32_t w[8];
  uint64_t slo;
  seedseq(entropy, n, w);
  g->inchi = ((uint64_t)w[5] << 32 | w[4]) << 1 | (uint64_t)w[7] >> 31;
  g->inclo = ((uint64_t)w[7] << 32 | w[6]) << 1 | 1u;
  g->hi = g->lo = 0;
  pcg_step(g);
  slo = (uint64_t)w[3] << 32 | w[2];
  g->lo += slo;
  g->hi += ((uint64_t)w[1] << 32 | w[0]) + (g->lo < slo);
  pcg_step(g);
  g->has32 = 0;
  g->u32 = 0;
}

uint64_t lak_nppcg_next64(lak_NpPCG *g) {
  unsigned rot;
  uint64_t x;
  pcg_step(g);
  rot = (unsigned)(g->hi >> 58);
  x = g->hi ^ g->lo;
  return (x >> rot) | (x << ((64 - rot) & 63));
}

/* 32-bit draws halve a 64-bit one: low half now, high half next time */
uint32_t lak_nppcg_next32(lak_NpPCG *g) {
  uint64_t x;
  if (g->has32) {
    g->has32 = 0;
    return g->u32;
  }
  x = lak_nppcg_next64(g);
  g->has32 = 1;
  g->u32 = (uint32_t)(x >> 32);
  return (uint32_t)x;
}

double lak_nppcg_double(lak_NpPCG *g) {
  return (double)(lak_nppcg_next64(g) >> 11) * (1.0 / 9007199254740992.0);
}

/* the tail beyond r (Marsaglia's method), signed by bit 8 of u */
static double ziggurat_tail(lak_NpPCG *g, uint64_t u) {
  for (;;) {
    double t = -lak_zig_inv_r * log1p(-lak_nppcg_double(g));
    double y = -log1p(-lak_nppcg_double(g));
    if (y + y > t * t) return ((u >> 8) & 1) ? -(lak_zig_r + t) : lak_zig_r + t;
  }
}

/* The ziggurat: 8 bits pick a layer, 1 the sign, 52 the abscissa. */
double lak_nppcg_normal(lak_NpPCG *g) {
  for (;;) {
    uint64_t r = lak_nppcg_next64(g);
    int i = (int)(r & 0xff);
    uint64_t u = (r >> 9) & 0x000fffffffffffffULL;
    double x = (double)u * lak_zig_w[i];
    if ((r >> 8) & 1) x = -x;
    if (u < lak_zig_k[i]) return x;
    if (i == 0) return ziggurat_tail(g, u);
    if ((lak_zig_f[i - 1] - lak_zig_f[i]) * lak_nppcg_double(g) + lak_zig_f[i] <
        exp(-0.5 * x * x))
      return x;
  }
}

/* Lemire's method on 32-bit draws: a uniform integer in [0, rng] */
static uint32_t lemire32(lak_NpPCG *g, uint32_t rng) {
  uint32_t excl = rng + 1, low;
  uint64_t m = (uint64_t)lak_nppcg_next32(g) * excl;
  low = (uint32_t)m;
  if (low < excl) {
    uint32_t th = (0xffffffffu - rng) % excl;
    while (low < th) {
      m = (uint64_t)lak_nppcg_next32(g) * excl;
      low = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

static uint64_t lemire64(lak_NpPCG *g, uint64_t rng) {
  uint64_t excl = rng + 1, x = lak_nppcg_next64(g), low = x * excl;
  if (low < excl) {
    uint64_t th = (UINT64_MAX - rng) % excl;
    while (low < th) {
      x = lak_nppcg_next64(g);
      low = x * excl;
    }
  }
  return mulhi(x, excl);
}

/* a uniform integer in [0, rng], the way NumPy's int64 path draws it */
uint64_t lak_nppcg_bounded(lak_NpPCG *g, uint64_t rng) {
  if (rng == 0) return 0;
  if (rng == 0xffffffffu) return lak_nppcg_next32(g);
  if (rng < 0xffffffffu) return lemire32(g, (uint32_t)rng);
  if (rng == UINT64_MAX) return lak_nppcg_next64(g);
  return lemire64(g, rng);
}

/* ------------------------------------------------------------ fills */

#define CHUNK 256

/* cnt draws of kind into buf */
static void draw(void *src, lak_NpKind kind, double *buf, int cnt, int64_t lo, uint64_t rng) {
  int t;
  switch (kind) {
  case LAK_NP_MT_UNIFORM: for (t = 0; t < cnt; t++) buf[t] = lak_npmt_double(src); break;
  case LAK_NP_MT_GAUSS: for (t = 0; t < cnt; t++) buf[t] = lak_npmt_gauss(src); break;
  case LAK_NP_PCG_UNIFORM: for (t = 0; t < cnt; t++) buf[t] = lak_nppcg_double(src); break;
  case LAK_NP_PCG_NORMAL: for (t = 0; t < cnt; t++) buf[t] = lak_nppcg_normal(src); break;
  case LAK_NP_PCG_INTEGER:
    if (rng > 0 && rng < 0xffffffffu)       /* the common case, without dispatch */
      for (t = 0; t < cnt; t++) buf[t] = (double)(lo + (int64_t)lemire32(src, (uint32_t)rng));
    else
      for (t = 0; t < cnt; t++)
        buf[t] = (double)(int64_t)((uint64_t)lo + lak_nppcg_bounded(src, rng));
    break;
  }
}

void lak_np_fill(void *src, lak_NpKind kind, int m, int n, double *A, float *F, int ld,
                 int64_t lo, uint64_t rng) {
  double buf[CHUNK];
  int i, j0, t;
  for (i = 0; i < m; i++)
    for (j0 = 0; j0 < n; j0 += CHUNK) {
      int cnt = n - j0 < CHUNK ? n - j0 : CHUNK;
      ptrdiff_t o = i + (ptrdiff_t)j0 * ld;
      draw(src, kind, buf, cnt, lo, rng);
      if (F) for (t = 0; t < cnt; t++) F[o + (ptrdiff_t)t * ld] = (float)buf[t];
      else for (t = 0; t < cnt; t++) A[o + (ptrdiff_t)t * ld] = buf[t];
    }
}
