/*
** kernels/sortshort.c: many short lines (2 to LAK_SHORT entries) sorted at
** once, each with the positions its entries came from: the lines side by
** side in the lanes of AVX-512 vectors (8 lines of doubles a vector, 16 of
** floats), entry j of every line in vector j, and one sorting network
** (Batcher's odd-even merge, the comparators past the line's length left
** out) run on all lanes together. sort.c's per-line sorts pay a function
** call, a key pass and an insertion sort whose branches the data decide
** for each line: sort along the columns of 10 x 1000 with positions took
** 45 ns a line, 2.7 times NumPy 1.24's sort of the values alone.
**
** Keys are the values' bits with the sign folded in (signed compares),
** -0.0 keyed as 0.0, NaN the largest (descending: keys complemented, NaN
** first); each network is straight-line code (kernels/sortnets.h), so the
** keys and positions stay in registers. A comparator moves the positions
** with the keys (a compare, a min, a max, two blends) but does not look at
** them: where two keys in a line came out equal, or a value is -0.0 or
** NaN (whose bits the key does not keep), that group of lines is finished
** in scalar code: equal keys put back in input order and the values read
** from the positions, so the result is the stable sort's bit for bit, as
** sort.c's. Otherwise the values are the keys turned back. Lines whose
** entries are contiguous across the lanes (rows of a column-major matrix)
** are loaded and stored as vectors; others (columns) pass through a small
** transposed buffer. Lines longer than LAK_SHORT carry the positions in
** the keys' low bits instead (LONGSTRIPS below).
** Where AVX-512F is missing (or not x86-64 with GCC or clang), the
** functions decline (return 0) and sort.c sorts line by line.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"

#if LAK_X86
#include <immintrin.h>

#include "sortnets.h"

#define SS_FN __attribute__((target("avx512f")))
#define SS_INLINE SS_FN __attribute__((always_inline)) static inline
#if defined(__GNUC__) && !defined(__clang__)
#define UNROLL _Pragma("GCC unroll 16")
#else
#define UNROLL
#endif

/* The groups of lines whose keys tied or whose values the keys do not
** keep: lane l's n keys k[j][l] (sorted) and positions p[j][l]; equal keys
** put in position order, then the values read back from x. T the element
** type, I its key's. */
#define FIX(sfx, T, I, W) \
  static void fix_##sfx(int w, int n, I (*k)[W], I (*p)[W], const T *xp, lak_Lines x, \
                        T *sp, lak_Lines s, double *ip, lak_Lines ix) { \
    int l, i, j; \
    for (l = 0; l < w; l++) { \
      for (i = 1; i < n; i++) { \
        I kk = k[i][l], pp = p[i][l]; \
        for (j = i; j > 0 && k[j - 1][l] == kk && p[j - 1][l] > pp; j--) p[j][l] = p[j - 1][l]; \
        p[j][l] = pp; \
      } \
      for (j = 0; j < n; j++) { \
        if (sp) sp[l * s.l + j * s.j] = xp[l * x.l + (ptrdiff_t)p[j][l] * x.j]; \
        if (ip) ip[l * ix.l + j * ix.j] = (double)p[j][l] + 1; \
      } \
    } \
  }
FIX(d, double, int64_t, 8)
FIX(f, float, int32_t, 16)

/* ---- doubles: 8 lines a vector */

#define CXD(a, b) cx_d(&K[a], &K[b], &P[a], &P[b]);
SS_INLINE void cx_d(__m512i *ka, __m512i *kb, __m512i *pa, __m512i *pb) {
  __mmask8 m = _mm512_cmplt_epi64_mask(*kb, *ka);
  __m512i lo = _mm512_min_epi64(*ka, *kb), hi = _mm512_max_epi64(*ka, *kb);
  __m512i ql = _mm512_mask_mov_epi64(*pa, m, *pb), qh = _mm512_mask_mov_epi64(*pb, m, *pa);
  *ka = lo; *kb = hi; *pa = ql; *pb = qh;
}

/* 8 x 8 doubles transposed in registers: lane j of r[i] <-> lane i of r[j] */
SS_INLINE void tr_d(__m512d *r) {
  const __m512i lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
  const __m512i hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  __m512d t[8], u[8];
  int i;
  for (i = 0; i < 8; i += 2) {
    t[i] = _mm512_unpacklo_pd(r[i], r[i + 1]);       /* r_i[0] r_i+1[0] r_i[2] r_i+1[2] .. */
    t[i + 1] = _mm512_unpackhi_pd(r[i], r[i + 1]);
  }
  for (i = 0; i < 8; i += 4) {                        /* rows i..i+3 of columns 0 4; 2 6; 1 5; 3 7 */
    u[i] = _mm512_permutex2var_pd(t[i], lo, t[i + 2]);
    u[i + 1] = _mm512_permutex2var_pd(t[i], hi, t[i + 2]);
    u[i + 2] = _mm512_permutex2var_pd(t[i + 1], lo, t[i + 3]);
    u[i + 3] = _mm512_permutex2var_pd(t[i + 1], hi, t[i + 3]);
  }
  r[0] = _mm512_shuffle_f64x2(u[0], u[4], 0x44); r[4] = _mm512_shuffle_f64x2(u[0], u[4], 0xEE);
  r[2] = _mm512_shuffle_f64x2(u[1], u[5], 0x44); r[6] = _mm512_shuffle_f64x2(u[1], u[5], 0xEE);
  r[1] = _mm512_shuffle_f64x2(u[2], u[6], 0x44); r[5] = _mm512_shuffle_f64x2(u[2], u[6], 0xEE);
  r[3] = _mm512_shuffle_f64x2(u[3], u[7], 0x44); r[7] = _mm512_shuffle_f64x2(u[3], u[7], 0xEE);
}

/* the keys of the values v; *odd gets the lanes holding -0.0 or NaN */
SS_INLINE __m512i key_d(__m512d v, __m512i flip, __mmask8 *odd) {
  const __m512i mx = _mm512_set1_epi64(INT64_MAX), sg = _mm512_set1_epi64(INT64_MIN);
  __m512i b = _mm512_castpd_si512(v), k;
  __mmask8 nan = _mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q), nz = _mm512_cmpeq_epi64_mask(b, sg);
  *odd |= nan | nz;
  k = _mm512_xor_si512(b, _mm512_and_si512(_mm512_srai_epi64(b, 63), mx));
  k = _mm512_mask_mov_epi64(_mm512_mask_mov_epi64(k, nz, _mm512_setzero_si512()), nan, mx);
  return _mm512_xor_si512(k, flip);
}

/* what 0: the values of keys e; 1: the 1-based positions e + 1 */
SS_INLINE __m512d out_d(int what, __m512i e, __m512i flip) {
  if (what == 2) return _mm512_castsi512_pd(e);     /* 2: the values' own bits */
  if (what) {                            /* 2^52 + p as a double, less 2^52 - 1 */
    __m512d d = _mm512_castsi512_pd(_mm512_or_si512(e, _mm512_set1_epi64(0x4330000000000000)));
    return _mm512_sub_pd(d, _mm512_set1_pd(4503599627370496.0 - 1.0));
  }
  e = _mm512_xor_si512(e, flip);
  return _mm512_castsi512_pd(
      _mm512_xor_si512(e, _mm512_and_si512(_mm512_srai_epi64(e, 63), _mm512_set1_epi64(INT64_MAX))));
}

/* out_d(what) of E[0..n-1] into the w lines at dst, laid out as o (what 2:
** E holds the values' bits) */
SS_INLINE void put_d(int n, int w, int what, const __m512i *E, __m512i flip, double *dst,
                     lak_Lines o) {
  const __mmask8 mk = (__mmask8)((1u << w) - 1);
  int j, l;
  if (o.l != 1 && o.j == 1) {
    UNROLL for (j = 0; j < n; j += 8) {
      int cnt = n - j < 8 ? n - j : 8;
      __mmask8 rm = (__mmask8)((1u << cnt) - 1);
      __m512d r[8];
      UNROLL for (l = 0; l < 8; l++) r[l] = l < cnt ? out_d(what, E[j + l], flip) : _mm512_setzero_pd();
      tr_d(r);
      UNROLL for (l = 0; l < 8; l++)
        if (l < w) _mm512_mask_storeu_pd(dst + l * o.l + j, rm, r[l]);
    }
    return;
  }
  UNROLL for (j = 0; j < n; j++) {
    __m512d v = out_d(what, E[j], flip);
    if (o.l == 1) _mm512_mask_storeu_pd(dst + j * o.j, mk, v);
    else {
      double buf[8];
      _mm512_storeu_pd(buf, v);
      for (l = 0; l < w; l++) dst[l * o.l + j * o.j] = buf[l];
    }
  }
}

/* ---- floats: 16 lines a vector */

#define CXF(a, b) cx_f(&K[a], &K[b], &P[a], &P[b]);
SS_INLINE void cx_f(__m512i *ka, __m512i *kb, __m512i *pa, __m512i *pb) {
  __mmask16 m = _mm512_cmplt_epi32_mask(*kb, *ka);
  __m512i lo = _mm512_min_epi32(*ka, *kb), hi = _mm512_max_epi32(*ka, *kb);
  __m512i ql = _mm512_mask_mov_epi32(*pa, m, *pb), qh = _mm512_mask_mov_epi32(*pb, m, *pa);
  *ka = lo; *kb = hi; *pa = ql; *pb = qh;
}

/* 16 x 16 floats transposed in registers, as tr_d */
SS_INLINE void tr_f(__m512 *r) {
  __m512 t[16], u[16];
  int i;
  for (i = 0; i < 16; i += 2) {          /* r_i[0] r_i+1[0] r_i[1] r_i+1[1] | [4] .. | [8] .. | [12] .. */
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (i = 0; i < 16; i += 4) {          /* rows i..i+3 of columns (0 4 8 12), (1 ..), (2 ..), (3 ..) */
    u[i] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[i]), _mm512_castps_pd(t[i + 2])));
    u[i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[i]), _mm512_castps_pd(t[i + 2])));
    u[i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[i + 1]), _mm512_castps_pd(t[i + 3])));
    u[i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[i + 1]), _mm512_castps_pd(t[i + 3])));
  }
  for (i = 0; i < 4; i++) {              /* rows 0..7 (t), 8..15 (v) of columns c, c + 8 / c + 4, c + 12 */
    t[2 * i] = _mm512_shuffle_f32x4(u[i], u[i + 4], 0x88);
    t[2 * i + 1] = _mm512_shuffle_f32x4(u[i], u[i + 4], 0xDD);
    t[8 + 2 * i] = _mm512_shuffle_f32x4(u[i + 8], u[i + 12], 0x88);
    t[8 + 2 * i + 1] = _mm512_shuffle_f32x4(u[i + 8], u[i + 12], 0xDD);
  }
  for (i = 0; i < 4; i++) {              /* column i from t[2i] (i, i + 8), i + 4 from t[2i + 1] */
    r[i] = _mm512_shuffle_f32x4(t[2 * i], t[8 + 2 * i], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[2 * i], t[8 + 2 * i], 0xDD);
    r[i + 4] = _mm512_shuffle_f32x4(t[2 * i + 1], t[8 + 2 * i + 1], 0x88);
    r[i + 12] = _mm512_shuffle_f32x4(t[2 * i + 1], t[8 + 2 * i + 1], 0xDD);
  }
}

SS_INLINE __m512i key_f(__m512 v, __m512i flip, __mmask16 *odd) {
  const __m512i mx = _mm512_set1_epi32(INT32_MAX), sg = _mm512_set1_epi32(INT32_MIN);
  __m512i b = _mm512_castps_si512(v), k;
  __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q), nz = _mm512_cmpeq_epi32_mask(b, sg);
  *odd |= nan | nz;
  k = _mm512_xor_si512(b, _mm512_and_si512(_mm512_srai_epi32(b, 31), mx));
  k = _mm512_mask_mov_epi32(_mm512_mask_mov_epi32(k, nz, _mm512_setzero_si512()), nan, mx);
  return _mm512_xor_si512(k, flip);
}

SS_INLINE __m512 unkey_f(__m512i e, __m512i flip) {
  e = _mm512_xor_si512(e, flip);
  return _mm512_castsi512_ps(
      _mm512_xor_si512(e, _mm512_and_si512(_mm512_srai_epi32(e, 31), _mm512_set1_epi32(INT32_MAX))));
}

/* the positions p (16 int32 lanes) + 1 as doubles to dst (the lanes of m) */
SS_INLINE void putpos_f(double *dst, __mmask16 m, __m512i p) {
  const __m512d one = _mm512_set1_pd(1.0);
  _mm512_mask_storeu_pd(dst, (__mmask8)m, _mm512_add_pd(_mm512_cvtepi32_pd(_mm512_castsi512_si256(p)), one));
  _mm512_mask_storeu_pd(dst + 8, (__mmask8)(m >> 8),
                        _mm512_add_pd(_mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(p, 1)), one));
}

/* the values of keys K (what 0), the positions P (1) or the values' own
** bits (2) of the w lines to dst (floats or doubles), laid out as o */
SS_INLINE void put_f(int n, int w, int what, const __m512i *E, __m512i flip, void *dst,
                     lak_Lines o) {
  const __mmask16 mk = (__mmask16)((1u << w) - 1);
  float *fd = (float *)dst;
  double *dd = (double *)dst;
  int j, l;
  if (o.l != 1 && o.j == 1) {
    UNROLL for (j = 0; j < n; j += 16) {
      int cnt = n - j < 16 ? n - j : 16;
      __mmask16 rm = (__mmask16)((1u << cnt) - 1);
      __m512 r[16];
      UNROLL for (l = 0; l < 16; l++)
        r[l] = l >= cnt ? _mm512_setzero_ps() : what ? _mm512_castsi512_ps(E[j + l]) : unkey_f(E[j + l], flip);
      tr_f(r);
      UNROLL for (l = 0; l < 16; l++) {
        if (l >= w) continue;
        if (what == 1) putpos_f(dd + l * o.l + j, rm, _mm512_castps_si512(r[l]));
        else _mm512_mask_storeu_ps(fd + l * o.l + j, rm, r[l]);
      }
    }
    return;
  }
  UNROLL for (j = 0; j < n; j++) {
    if (o.l == 1) {
      if (what == 1) putpos_f(dd + j * o.j, mk, E[j]);
      else _mm512_mask_storeu_ps(fd + j * o.j, mk, what ? _mm512_castsi512_ps(E[j]) : unkey_f(E[j], flip));
    } else {
      union { float f[16]; int32_t i[16]; } buf;
      _mm512_storeu_si512(buf.i, what ? E[j] : _mm512_castps_si512(unkey_f(E[j], flip)));
      for (l = 0; l < w; l++) {
        if (what == 1) dd[l * o.l + j * o.j] = (double)buf.i[l] + 1;
        else fd[l * o.l + j * o.j] = buf.f[l];
      }
    }
  }
}

/* ---- the steps of both types, sfx d or f: T the element type, I the
** key's integer type, W lanes, M their mask type, V the vector type, with
** the type's intrinsics */

/* K, P of the w lines from xp (lanes past w zero): rows (lines across the
** lanes) as vectors, columns as W x W blocks transposed, other strides
** through a buffer; nonzero if a value among them is -0.0 or NaN */
#define LOAD(sfx, T, W, M, V, LOADZ, LOADU, ZERO, SET1) \
  SS_INLINE int load_##sfx(int n, int w, const T *xp, lak_Lines x, __m512i flip, __m512i *K, \
                           __m512i *P) { \
    const M mk = (M)((1u << w) - 1); \
    M odd = 0; \
    int j, l; \
    if (x.l != 1 && x.j == 1) { \
      UNROLL for (j = 0; j < n; j += W) { \
        int cnt = n - j < W ? n - j : W; \
        M rm = (M)((1u << cnt) - 1); \
        V r[W]; \
        UNROLL for (l = 0; l < W; l++) r[l] = l < w ? LOADZ(rm, xp + l * x.l + j) : ZERO(); \
        tr_##sfx(r); \
        UNROLL for (l = 0; l < cnt; l++) { \
          K[j + l] = key_##sfx(r[l], flip, &odd); \
          P[j + l] = SET1(j + l); \
        } \
      } \
      return odd != 0; \
    } \
    UNROLL for (j = 0; j < n; j++) { \
      V v; \
      if (x.l == 1) v = LOADZ(mk, xp + j * x.j); \
      else { \
        T buf[W] = {0}; \
        for (l = 0; l < w; l++) buf[l] = xp[l * x.l + j * x.j]; \
        v = LOADU(buf); \
      } \
      K[j] = key_##sfx(v, flip, &odd); \
      P[j] = SET1(j); \
    } \
    return odd != 0; \
  }
LOAD(d, double, 8, __mmask8, __m512d, _mm512_maskz_loadu_pd, _mm512_loadu_pd, _mm512_setzero_pd,
     _mm512_set1_epi64)
LOAD(f, float, 16, __mmask16, __m512, _mm512_maskz_loadu_ps, _mm512_loadu_ps, _mm512_setzero_ps,
     _mm512_set1_epi32)

/* the sorted values (the keys turned back) and positions of the w lines
** into sp and ip (either NULL: not wanted); where keys tied or odd (a -0.0
** or NaN among the values), the scalar finish (kb, pb: room for n x W) */
#define STORE(sfx, T, I, W, M, CMPEQ) \
  SS_INLINE void store_##sfx(int n, int w, int odd, const T *xp, lak_Lines x, __m512i flip, \
                             T *sp, lak_Lines s, double *ip, lak_Lines ix, __m512i *K, \
                             __m512i *P, I (*kb)[W], I (*pb)[W]) { \
    const M mk = (M)((1u << w) - 1); \
    M tie = 0; \
    int j; \
    UNROLL for (j = 0; j + 1 < n; j++) tie |= CMPEQ(K[j], K[j + 1]); \
    if (odd || (tie & mk)) { \
      UNROLL for (j = 0; j < n; j++) { \
        _mm512_storeu_si512(kb[j], K[j]); \
        _mm512_storeu_si512(pb[j], P[j]); \
      } \
      fix_##sfx(w, n, kb, pb, xp, x, sp, s, ip, ix); \
      return; \
    } \
    if (sp) put_##sfx(n, w, 0, K, flip, sp, s); \
    if (ip) put_##sfx(n, w, 1, P, flip, ip, ix); \
  }
STORE(d, double, int64_t, 8, __mmask8, _mm512_cmpeq_epi64_mask)
STORE(f, float, int32_t, 16, __mmask16, _mm512_cmpeq_epi32_mask)

/* lines of n <= LAK_SHORT, W at a time: the network in registers */
#define STRIPS(sfx, n, T, I, W, CX) \
  SS_FN static void strips_##sfx##n(int nl, int desc, lak_Lines x, lak_Lines s, lak_Lines ix) { \
    const __m512i flip = _mm512_set1_epi64(desc ? -1 : 0); \
    int l0; \
    for (l0 = 0; l0 < nl; l0 += W) { \
      int w = nl - l0 < W ? nl - l0 : W, odd; \
      const T *xp = (const T *)x.p + l0 * x.l; \
      __m512i K[n], P[n]; \
      I kb[n][W], pb[n][W]; \
      odd = load_##sfx(n, w, xp, x, flip, K, P); \
      LAK_NET##n(CX) \
      store_##sfx(n, w, odd, xp, x, flip, s.p ? (T *)s.p + l0 * s.l : NULL, s, \
                  ix.p ? (double *)ix.p + l0 * ix.l : NULL, ix, K, P, kb, pb); \
    } \
  }
#define STRIPS_D(n) STRIPS(d, n, double, int64_t, 8, CXD)
#define STRIPS_F(n) STRIPS(f, n, float, int32_t, 16, CXF)

#define ALLN(M) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) \
  M(15) M(16)
ALLN(STRIPS_D)
ALLN(STRIPS_F)

/* ---- longer lines (LAK_SHORT < n <= LAK_LONG): the vectors in work (too
** many for the registers), the network's comparators listed at run time,
** and the positions in the keys (below) */

/* the comparators of Batcher's network for n entries, pruned as
** tools/sortnets.lua prunes them: pairs (a, b), a < b, in order; returns
** how many (at most LAK_LONG_PAIRS) */
#define LAK_LONG_PAIRS 1471                  /* the whole network of 128 */
static int network(int n, unsigned char (*pr)[2]) {
  int N = 1, p, k, j, i, c = 0;
  while (N < n) N *= 2;
  for (p = 1; p < N; p *= 2)
    for (k = p; k >= 1; k /= 2)
      for (j = k % p; j + k < N; j += 2 * k)
        for (i = 0; i < k && i + j + k < N; i++)
          if ((((i + j) ^ (i + j + k)) < 2 * p) && i + j + k < n) {   /* one block of 2p */
            pr[c][0] = (unsigned char)(i + j);
            pr[c][1] = (unsigned char)(i + j + k);
            c++;
          }
  return c;
}

/* Longer lines carry each entry's position in its key's low LAK_PB bits
** (a key's low bits cleared: the order of the rest kept), so a comparator
** is a min and a max of the keys alone, not also two blends of the
** positions (sort with positions along the columns of 100 x 100 floats:
** 38 us, the values alone 20, NumPy's 20). The keys' high bits order the
** lines; where two tie in a line, that run is put in the order of its
** whole keys by insertion (stable: its positions ascend), and the values
** are gathered from x by position (their own bits: -0.0 and NaN too). */
#define LAK_PB 7
SS_INLINE void mm_d(__m512i *a, __m512i *b) {
  __m512i lo = _mm512_min_epi64(*a, *b), hi = _mm512_max_epi64(*a, *b);
  *a = lo; *b = hi;
}
SS_INLINE void mm_f(__m512i *a, __m512i *b) {
  __m512i lo = _mm512_min_epi32(*a, *b), hi = _mm512_max_epi32(*a, *b);
  *a = lo; *b = hi;
}
/* the whole key of one value, as key_d / key_f make it */
#define SKEY(sfx, T, I, U) \
  static inline I skey_##sfx(T v, I flip) { \
    U b; \
    I k; \
    v = v + (T)0;                                  /* -0.0 + 0.0 is 0.0 */ \
    memcpy(&b, &v, sizeof b); \
    k = (I)b; \
    k = v != v ? (I)((U)~(U)0 >> 1) : k < 0 ? (I)(b ^ ((U)~(U)0 >> 1)) : k; \
    return (I)(k ^ flip); \
  }
SKEY(d, double, int64_t, uint64_t)
SKEY(f, float, int32_t, uint32_t)
/* the runs of tied high bits in the lanes tie of K (n keys), ordered;
** 0 (K left as it was) when that would move more than n entries a lane
** (keys apart only in their low bits, falling: the square of n), for the
** caller to sort those lines one by one */
#define TIES(sfx, T, I, W) \
  SS_FN static int ties_##sfx(int n, int tie, const T *xp, lak_Lines x, I flip, __m512i *K, \
                              I (*kb)[W]) { \
    const I low = ((I)1 << LAK_PB) - 1; \
    long budget = (long)n * W; \
    int l, i, j, e; \
    for (j = 0; j < n; j++) _mm512_storeu_si512(kb[j], K[j]); \
    for (l = 0; l < W; l++) { \
      const T *xl = xp + l * x.l; \
      if (!(tie >> l & 1)) continue; \
      for (i = 0; i + 1 < n; i = e) { \
        for (e = i + 1; e < n && ((kb[e][l] ^ kb[i][l]) & ~low) == 0; e++) {} \
        for (j = i + 1; j < e; j++) {             /* insertion by whole keys */ \
          I t = kb[j][l], kt = skey_##sfx(xl[(t & low) * x.j], flip); \
          int q = j; \
          while (q > i && skey_##sfx(xl[(kb[q - 1][l] & low) * x.j], flip) > kt) { \
            if (--budget < 0) return 0; \
            kb[q][l] = kb[q - 1][l]; q--; \
          } \
          kb[q][l] = t; \
        } \
      } \
    } \
    for (j = 0; j < n; j++) K[j] = _mm512_loadu_si512(kb[j]); \
    return 1; \
  }
TIES(d, double, int64_t, 8)
TIES(f, float, int32_t, 16)

/* the values of line l's entries at positions pos (lanes past w: 0) */
SS_INLINE __m512i vals_d(__m512i pos, __mmask8 mk, __m512i lanes, __m512i xj, const double *xp) {
  __m512i idx = _mm512_add_epi64(lanes, _mm512_mul_epu32(pos, xj));
  return _mm512_castpd_si512(_mm512_mask_i64gather_pd(_mm512_setzero_pd(), mk, idx, xp, 8));
}
SS_INLINE __m512i vals_f(__m512i pos, __mmask16 mk, const __m512i *lanes, __m512i xj, const float *xp) {
  __m512i i0 = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(pos));
  __m512i i1 = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(pos, 1));
  __m256 v0 = _mm512_mask_i64gather_ps(_mm256_setzero_ps(), (__mmask8)mk,
                                       _mm512_add_epi64(lanes[0], _mm512_mul_epu32(i0, xj)), xp, 4);
  __m256 v1 = _mm512_mask_i64gather_ps(_mm256_setzero_ps(), (__mmask8)(mk >> 8),
                                       _mm512_add_epi64(lanes[1], _mm512_mul_epu32(i1, xj)), xp, 4);
  return _mm512_castpd_si512(_mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(v0)),
                                                _mm256_castps_pd(v1), 1));
}

#define LONGSTRIPS(sfx, T, I, W, M, MM, AND, OR, SET1, CMPEQ, ANDN) \
  SS_FN static void longstrips_##sfx(int nl, int n, int desc, lak_Lines x, lak_Lines s, \
                                     lak_Lines ix, void *work) { \
    const __m512i flip = _mm512_set1_epi64(desc ? -1 : 0), low = SET1((1 << LAK_PB) - 1); \
    const __m512i xj = _mm512_set1_epi64((long long)x.j); \
    __m512i *K = (__m512i *)(((uintptr_t)work + 63) & ~(uintptr_t)63), *P = K + n, lanes[2]; \
    I (*kb)[W] = (I (*)[W])(void *)(P + n); \
    unsigned char (*pr)[2] = (unsigned char (*)[2])(void *)(kb + n); \
    int np = network(n, pr), l0, c, j, q; \
    for (l0 = 0; l0 < nl; l0 += W) { \
      int w = nl - l0 < W ? nl - l0 : W; \
      const M mk = (M)((1u << w) - 1); \
      const T *xp = (const T *)x.p + l0 * x.l; \
      M tie = 0; \
      for (q = 0; q < 2; q++)                     /* line l's offset l * x.l, 8 a vector */ \
        lanes[q] = _mm512_set_epi64(7 * x.l, 6 * x.l, 5 * x.l, 4 * x.l, 3 * x.l, 2 * x.l, x.l, 0); \
      lanes[1] = _mm512_add_epi64(lanes[1], _mm512_set1_epi64(8 * (long long)x.l)); \
      (void)load_##sfx(n, w, xp, x, flip, K, P); \
      for (j = 0; j < n; j++) K[j] = OR(ANDN(low, K[j]), SET1(j)); \
      for (c = 0; c < np; c++) MM(&K[pr[c][0]], &K[pr[c][1]]); \
      for (j = 0; j + 1 < n; j++) tie |= CMPEQ(ANDN(low, K[j]), ANDN(low, K[j + 1])); \
      if ((tie & mk) && !ties_##sfx(n, tie & mk, xp, x, (I)(desc ? -1 : 0), K, kb)) { \
        for (q = 0; q < w; q++)                   /* K's room as sort.c's scratch */ \
          SORT1_##sfx(n, xp + q * x.l, x.j, desc, \
                      s.p ? (T *)s.p + (l0 + q) * s.l : NULL, s.j, \
                      ix.p ? (double *)ix.p + (l0 + q) * ix.l : NULL, ix.j, \
                      (lak_SortItem *)(void *)K); \
        continue; \
      } \
      for (j = 0; j < n; j++) P[j] = AND(K[j], low); \
      if (ix.p) put_##sfx(n, w, 1, P, flip, (double *)ix.p + l0 * ix.l, ix); \
      if (s.p) { \
        for (j = 0; j < n; j++) K[j] = VALS_##sfx(P[j], mk, lanes, xj, xp); \
        put_##sfx(n, w, 2, K, flip, (T *)s.p + l0 * s.l, s); \
      } \
    } \
  }
#define SORT1_d lak_sort_keyed
#define SORT1_f lak_ssort_keyed
#define VALS_d(p, mk, lanes, xj, xp) vals_d((p), (mk), (lanes)[0], (xj), (xp))
#define VALS_f(p, mk, lanes, xj, xp) vals_f((p), (mk), (lanes), (xj), (xp))
LONGSTRIPS(d, double, int64_t, 8, __mmask8, mm_d, _mm512_and_si512, _mm512_or_si512,
           _mm512_set1_epi64, _mm512_cmpeq_epi64_mask, _mm512_andnot_si512)
LONGSTRIPS(f, float, int32_t, 16, __mmask16, mm_f, _mm512_and_si512, _mm512_or_si512,
           _mm512_set1_epi32, _mm512_cmpeq_epi32_mask, _mm512_andnot_si512)

typedef void (*Strips)(int nl, int desc, lak_Lines x, lak_Lines s, lak_Lines ix);
#define NAME_D(n) strips_d##n,
#define NAME_F(n) strips_f##n,
static const Strips strips_d[LAK_SHORT - 1] = {ALLN(NAME_D)};
static const Strips strips_f[LAK_SHORT - 1] = {ALLN(NAME_F)};

/* the gathers of LONGSTRIPS take an entry's stride from its low 32 bits */
#define STRIDEOK(x) ((x).j > 0 && (x).j <= INT32_MAX)

int lak_sortshort(int nl, int n, int desc, lak_Lines x, lak_Lines s, lak_Lines ix, void *work) {
  if (!lak_cpu_has(LAK_CPU_AVX512F) || n < 2 || n > LAK_LONG || (n > LAK_SHORT && !STRIDEOK(x)))
    return 0;
  if (n <= LAK_SHORT) strips_d[n - 2](nl, desc, x, s, ix);
  else longstrips_d(nl, n, desc, x, s, ix, work);
  return 1;
}

int lak_ssortshort(int nl, int n, int desc, lak_Lines x, lak_Lines s, lak_Lines ix, void *work) {
  if (!lak_cpu_has(LAK_CPU_AVX512F) || n < 2 || n > LAK_LONG || (n > LAK_SHORT && !STRIDEOK(x)))
    return 0;
  if (n <= LAK_SHORT) strips_f[n - 2](nl, desc, x, s, ix);
  else longstrips_f(nl, n, desc, x, s, ix, work);
  return 1;
}

#else

int lak_sortshort(int nl, int n, int desc, lak_Lines x, lak_Lines s, lak_Lines ix, void *work) {
  (void)nl; (void)n; (void)desc; (void)x; (void)s; (void)ix; (void)work;
  return 0;
}
int lak_ssortshort(int nl, int n, int desc, lak_Lines x, lak_Lines s, lak_Lines ix, void *work) {
  return lak_sortshort(nl, n, desc, x, s, ix, work);
}

#endif
