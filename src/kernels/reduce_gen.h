/*
** kernels/reduce_gen.h: reduce.c's kernels over LAK_REAL (included twice,
** see generate.h). A line is n elements x[0], x[s], x[2s], ...
*/

/* entry i of the line x at stride s */
#define LX(i) ((double)x[(ptrdiff_t)(i) * s])

#ifndef LAK_SUM4
/* return the sum of term(i) for i < n in double, with four running sums (a
** chain of dependent adds is latency-bound; four keep the adder busy) */
#define LAK_SUM4(term) do { \
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0; \
    size_t i = 0; \
    for (; i + 4 <= n; i += 4) { \
      a0 += term(i); a1 += term(i + 1); a2 += term(i + 2); a3 += term(i + 3); \
    } \
    for (; i < n; i++) a0 += term(i); \
    return (a0 + a1) + (a2 + a3); \
  } while (0)
#define LAK_SQ(i) ((LX(i) * c) * (LX(i) * c))
#define LAK_ABS(i) fabs(LX(i))
#define LAK_DEV(i) ((LX(i) - c) * (LX(i) - c))
/* the rows of a strip: 4 KiB of each column (a float strip of 512 rows,
** 2 KiB a column, took 10% longer over the rows of 1000 x 1000; a double
** strip of 1024 rows made T:std(2) of 100000 x 10 7% slower) */
#define LAK_RROWS (LAK_RSTRIP * sizeof(float) / sizeof(LAK_REAL))
#endif

/* strided lines: four running sums of x, (x c)^2, |x|, (x - c)^2 */
static double LAK(ssum)(size_t n, const LAK_REAL *x, ptrdiff_t s) { LAK_SUM4(LX); }
static double LAK(ssumsq)(size_t n, const LAK_REAL *x, ptrdiff_t s, double c) { LAK_SUM4(LAK_SQ); }
static double LAK(ssumabs)(size_t n, const LAK_REAL *x, ptrdiff_t s) { LAK_SUM4(LAK_ABS); }
static double LAK(ssumdev)(size_t n, const LAK_REAL *x, ptrdiff_t s, double c) { LAK_SUM4(LAK_DEV); }

#if LAK_VEC
typedef LAK_REAL LAK(V) __attribute__((vector_size(64)));
typedef LAK_PICK(int64_t, int32_t) LAK(M) __attribute__((vector_size(64)));
#define VL (64 / sizeof(LAK_REAL))
/* lanes of a where the mask m is set, else of b */
#define VSEL(m, a, b) ((LAK(V))(((m) & (LAK(M))(a)) | (~(m) & (LAK(M))(b))))

static inline LAK(V) LAK(vload)(const LAK_REAL *p) { LAK(V) v; memcpy(&v, p, sizeof v); return v; }
static inline void LAK(vstore)(LAK_REAL *p, LAK(V) v) { memcpy(p, &v, sizeof v); }
static inline LAK(V) LAK(vset)(LAK_REAL x) {
  LAK(V) v = {0};
  size_t k;
  for (k = 0; k < VL; k++) v[k] = x;
  return v;
}
static inline int LAK(vany)(LAK(M) m) {
  LAK_PICK(int64_t, int32_t) r = 0;
  size_t k;
  for (k = 0; k < VL; k++) r |= m[k];
  return r != 0;
}
/* 8 entries as doubles */
static inline lak_vd LAK(ld8)(const LAK_REAL *p) {
#if LAK_DOUBLE
  lak_vd v;
  memcpy(&v, p, sizeof v);
  return v;
#else
  /* entry by entry: GCC makes this one vcvtps2pd zmm (AVX-512), where
  ** __builtin_convertvector of an 8-float vector became two conversions of
  ** 4 and their merge (a float32 sum of 1e6: 136 -> 93 us, NumPy's 169) */
  return (lak_vd){p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]};
#endif
}
#define LAK_HSUM8(a) ((((a)[0] + (a)[1]) + ((a)[2] + (a)[3])) + (((a)[4] + (a)[5]) + ((a)[6] + (a)[7])))
#define LAK_VABS(v) ((lak_vd)((lak_vl)(v) & INT64_MAX))
#define LAK_VABS4(v) ((lak_v4d)((lak_v4l)(v) & INT64_MAX))
/* 4 entries as doubles; LAK_JOIN4: the vectors lo and hi as one of 8 */
static inline __attribute__((always_inline)) lak_v4d LAK(ld4)(const LAK_REAL *p) {
  return (lak_v4d){p[0], p[1], p[2], p[3]};
}
#ifndef LAK_JOIN4
/* LAK_SHUF(a, b, i...): lanes of a (0-7) and b (8-15) of two 8-lane vectors
** (GCC 12 and clang have __builtin_shufflevector, GCC 9-11 __builtin_shuffle) */
#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define LAK_SHUFV 1
#endif
#endif
#ifdef LAK_SHUFV
#define LAK_SHUF(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#define LAK_JOIN4(lo, hi) __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7)
#else
#define LAK_SHUF(a, b, ...) __builtin_shuffle(a, b, (lak_vl){__VA_ARGS__})
static inline lak_vd lak_join4p(const lak_v4d *lo, const lak_v4d *hi) {
  lak_vd r;
  memcpy(&r, lo, sizeof *lo);
  memcpy((char *)&r + sizeof *lo, hi, sizeof *hi);
  return r;
}
#define LAK_JOIN4(lo, hi) lak_join4p(&(lo), &(hi))
#endif
#endif

/* The pairwise tree over the sums of 8 full blocks, from their 8-lane
** vectors v: w[k] = LAK_HSUM8(v[k]) + 0.0 (a block's sum), all 8 at once
** by a transposing network (LAK_HSUM8's additions, in its order: the
** same bits), then LAK_HSUM8(w), the tree's top */
static inline __attribute__((always_inline)) double LAK(hsum8x8)(const lak_vd *v) {
  const lak_vd zero = {0};
  lak_vd t[4], u[2], w;
  int k;
  for (k = 0; k < 4; k++)                  /* lanes (0+1), (2+3), ... of v[2k], v[2k + 1] */
    t[k] = LAK_SHUF(v[2 * k], v[2 * k + 1], 0, 8, 2, 10, 4, 12, 6, 14) +
           LAK_SHUF(v[2 * k], v[2 * k + 1], 1, 9, 3, 11, 5, 13, 7, 15);
  for (k = 0; k < 2; k++)                  /* ((0+1) + (2+3)), ((4+5) + (6+7)) */
    u[k] = LAK_SHUF(t[2 * k], t[2 * k + 1], 0, 1, 4, 5, 8, 9, 12, 13) +
           LAK_SHUF(t[2 * k], t[2 * k + 1], 2, 3, 6, 7, 10, 11, 14, 15);
  w = LAK_SHUF(u[0], u[1], 0, 1, 4, 5, 8, 9, 12, 13) +
      LAK_SHUF(u[0], u[1], 2, 3, 6, 7, 10, 11, 14, 15);
  w = w + zero;
  return LAK_HSUM8(w);
}

/* The sum of the terms TV(v) (8 at once) / TS(t) (one) of one block of
** len <= LAK_BLOCK contiguous entries (32 lanes added pairwise, then the
** tail), with c at hand: inlined into the pairwise sum and the column
** loops below, so a short column's sum has the bits of the same line's.
** name##v: a full block's 32 lanes added to 8, as the block sum adds them
** (its sum is LAK_HSUM8 of that + 0.0) */
#undef LAK_BLOCKSUM
#undef LAK_BLOCKACC
#if LAK_DOUBLE
#define LAK_BLOCKSUM(name, TV, TV4, TS, DECL) \
  static inline __attribute__((always_inline)) lak_vd LAK(name##v)(const LAK_REAL *p, double c) { \
    size_t i; \
    lak_vd a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, v; \
    (void)c; \
    for (i = 0; i < LAK_BLOCK; i += 32) { \
      v = LAK(ld8)(p + i); a0 += TV; \
      v = LAK(ld8)(p + i + 8); a1 += TV; \
      v = LAK(ld8)(p + i + 16); a2 += TV; \
      v = LAK(ld8)(p + i + 24); a3 += TV; \
    } \
    return (a0 + a1) + (a2 + a3); \
  } \
  static inline __attribute__((always_inline)) double LAK(name)(size_t len, const LAK_REAL *p, \
                                                              double c) { \
    size_t i = 0; \
    lak_vd a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, v; \
    double s = 0.0, t; \
    (void)c; \
    for (; i + 32 <= len; i += 32) { \
      v = LAK(ld8)(p + i); a0 += TV; \
      v = LAK(ld8)(p + i + 8); a1 += TV; \
      v = LAK(ld8)(p + i + 16); a2 += TV; \
      v = LAK(ld8)(p + i + 24); a3 += TV; \
    } \
    for (; i + 8 <= len; i += 8) { v = LAK(ld8)(p + i); a0 += TV; } \
    for (; i < len; i++) { t = (double)p[i]; s += TS; } \
    a0 = (a0 + a1) + (a2 + a3); \
    return LAK_HSUM8(a0) + s; \
  }
#else
/* Floats: the same 32 lanes as 8 vectors of 4 doubles, a0's lanes in b0
** (0-3) and b1 (4-7) and so on, so the same additions in every lane: on
** AMD's Zen 4, widening 4 floats at a time (vcvtps2pd ymm) goes twice as
** fast as 8 (zmm), the limit of these loops (the norm of 1e6 floats: 76
** -> 67 us). DECL: a declaration the terms TV4 need (TV and DECL serve
** the doubles' and the floats' version only). */
#define LAK_BLOCKACC(TV4) \
      v = LAK(ld4)(p + i); b0 += TV4; v = LAK(ld4)(p + i + 4); b1 += TV4; \
      v = LAK(ld4)(p + i + 8); b2 += TV4; v = LAK(ld4)(p + i + 12); b3 += TV4; \
      v = LAK(ld4)(p + i + 16); b4 += TV4; v = LAK(ld4)(p + i + 20); b5 += TV4; \
      v = LAK(ld4)(p + i + 24); b6 += TV4; v = LAK(ld4)(p + i + 28); b7 += TV4;
#define LAK_BLOCKSUM(name, TV, TV4, TS, DECL) \
  static inline __attribute__((always_inline)) lak_vd LAK(name##v)(const LAK_REAL *p, double c) { \
    size_t i; \
    lak_v4d b0 = {0}, b1 = {0}, b2 = {0}, b3 = {0}, b4 = {0}, b5 = {0}, b6 = {0}, b7 = {0}; \
    lak_v4d v, lo, hi; \
    DECL \
    (void)c; \
    for (i = 0; i < LAK_BLOCK; i += 32) { LAK_BLOCKACC(TV4) } \
    lo = (b0 + b2) + (b4 + b6); hi = (b1 + b3) + (b5 + b7); \
    return LAK_JOIN4(lo, hi); \
  } \
  static inline __attribute__((always_inline)) double LAK(name)(size_t len, const LAK_REAL *p, \
                                                              double c) { \
    size_t i = 0; \
    lak_v4d b0 = {0}, b1 = {0}, b2 = {0}, b3 = {0}, b4 = {0}, b5 = {0}, b6 = {0}, b7 = {0}; \
    lak_v4d v, lo, hi; \
    lak_vd a0; \
    double s = 0.0, t; \
    DECL \
    (void)c; \
    for (; i + 32 <= len; i += 32) { LAK_BLOCKACC(TV4) } \
    for (; i + 8 <= len; i += 8) { \
      v = LAK(ld4)(p + i); b0 += TV4; v = LAK(ld4)(p + i + 4); b1 += TV4; \
    } \
    for (; i < len; i++) { t = (double)p[i]; s += TS; } \
    lo = (b0 + b2) + (b4 + b6); hi = (b1 + b3) + (b5 + b7); \
    a0 = LAK_JOIN4(lo, hi); \
    return LAK_HSUM8(a0) + s; \
  }
#endif
LAK_BLOCKSUM(bsum, v, v, t, )
LAK_BLOCKSUM(bsumsq, (v * c) * (v * c), (v * c) * (v * c), (t * c) * (t * c), )
/* c = 1 (the first pass): the same bits, 2 products fewer */
LAK_BLOCKSUM(bsumsq1, v * v, v * v, t * t, )
LAK_BLOCKSUM(bsumabs, LAK_VABS(v), LAK_VABS4(v), fabs(t), )
LAK_BLOCKSUM(bsumdev, (v - c) * (v - c), (v - c) * (v - c), (t - c) * (t - c), )
#if !LAK_DOUBLE
/* bsum for the float sum's fused loop: each addition an fma by 1 (lak_one
** read from a volatile: GCC folds a product by a constant 1), the same
** bits, on the pipes the widening leaves free */
LAK_BLOCKSUM(bsumf, v, v * lak_one, t, const double lak_one = lak_one_v;)
#endif

/* The pairwise sum of n contiguous entries' terms (the block sums BLK
** combined as a pairwise tree: see the top of reduce.c). Eight full
** blocks at a time while the counter is a multiple of 8: their 8-lane
** vectors reduced together (LAK(hsum8x8)), their sums added as the tree
** would and put in at level 3; the same bits as one block at a time, with
** about a fifth of the horizontal additions (a float32 norm of 1e6: 85 ->
** 76 us). */
#define LAK_PAIRSUM(name, BLK) \
  LAK_CLONES static double LAK(name)(size_t n, const LAK_REAL *x, double c) { \
    double part[64], r = 0.0, s; \
    size_t cnt = 0, b = 0, cc; \
    int k; \
    if (n >= 8 * LAK_BLOCK) memset(part, 0, sizeof part);   /* for cppcheck: set before read */ \
    for (; n - b >= 8 * LAK_BLOCK; b += 8 * LAK_BLOCK) { \
      lak_vd v[8]; \
      for (k = 0; k < 8; k++) v[k] = LAK(BLK##v)(x + b + (size_t)k * LAK_BLOCK, c); \
      s = LAK(hsum8x8)(v); \
      for (cc = cnt >> 3, k = 3; cc & 1; cc >>= 1, k++) s = part[k] + s; \
      part[k] = s; \
      cnt += 8; \
    } \
    for (; b < n; b += LAK_BLOCK) { \
      s = LAK(BLK)(n - b < LAK_BLOCK ? n - b : LAK_BLOCK, x + b, c); \
      for (cc = cnt++, k = 0; cc & 1; cc >>= 1, k++) s = part[k] + s; \
      part[k] = s; \
    } \
    for (k = 0; cnt; cnt >>= 1, k++) if (cnt & 1) r = part[k] + r; \
    return r; \
  }
#if LAK_DOUBLE
LAK_PAIRSUM(psum, bsum)
#else
/* by bsumf's fmas (a float32 sum of 1e6: 87 -> 67 us on Zen 4) */
LAK_FUSED LAK_PAIRSUM(psum, bsumf)
#endif

/* The sum of the m x n view a (lda > m), column-major, with the bits of
** lak_psum of its packed copy: the same blocks of LAK_BLOCK entries in the
** same pairwise tree, a block inside one column summed where it lies, one
** across columns gathered into w first (the whole copy, 32 MB at 2000 x
** 2000, cost more than the sum: 1.7 ms, NumPy 1.5) */
#define LAK_VIEWSUM(name, BLK) \
LAK_CLONES static double LAK(name)(size_t m, size_t n, const LAK_REAL *a, size_t lda, double c) { \
  double part[64], r = 0.0, s; \
  LAK_REAL w[LAK_BLOCK]; \
  size_t cnt = 0, cc, total = m * n, b, i = 0, j = 0;   /* (i, j): the block's first entry */ \
  int k; \
  for (b = 0; b < total; b += LAK_BLOCK) { \
    size_t len = total - b < LAK_BLOCK ? total - b : LAK_BLOCK; \
    if (m - i >= len) { \
      s = LAK(BLK)(len, a + i + j * lda, c); \
      i += len; \
    } else { \
      size_t t = 0; \
      while (t < len) { \
        size_t e = m - i < len - t ? m - i : len - t, q; \
        const LAK_REAL *col = a + i + j * lda; \
        for (q = 0; q < e; q++) w[t + q] = col[q];      /* short pieces: no call each */ \
        t += e; i += e; \
        if (i == m) { i = 0; j++; } \
      } \
      s = LAK(BLK)(len, w, c); \
    } \
    if (i == m) { i = 0; j++; } \
    for (cc = cnt++, k = 0; cc & 1; cc >>= 1, k++) s = part[k] + s; \
    part[k] = s; \
  } \
  for (k = 0; cnt; cnt >>= 1, k++) if (cnt & 1) r = part[k] + r; \
  return r; \
}
LAK_VIEWSUM(viewsumv, bsum)
LAK_VIEWSUM(viewsumsq, bsumsq)
#if LAK_DOUBLE
LAK_VIEWSUM(viewsumsq1, bsumsq1)
#else
LAK_FUSED LAK_VIEWSUM(viewsumsq1, bsumsq1)
#endif
LAK_PAIRSUM(psumsq, bsumsq)
#if LAK_DOUBLE
LAK_PAIRSUM(psumsq1, bsumsq1)
#else
/* a float's square is exact in double: fused multiply-adds give the same
** bits, one operation fewer (the norm of 1e6 floats: 104 -> 85 us) */
LAK_FUSED LAK_PAIRSUM(psumsq1, bsumsq1)
#endif
LAK_PAIRSUM(psumabs, bsumabs)
LAK_PAIRSUM(psumdev, bsumdev)

/* the product of n contiguous entries in double: 32 running products (4
** vectors of 8 lanes; entry i goes to lane i mod 32), multiplied pairwise
** at the end, then the tail in order */
LAK_CLONES static double LAK(pprod)(size_t n, const LAK_REAL *x) {
  lak_vd a0 = {1, 1, 1, 1, 1, 1, 1, 1}, a1 = a0, a2 = a0, a3 = a0;
  double r;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    a0 *= LAK(ld8)(x + i); a1 *= LAK(ld8)(x + i + 8);
    a2 *= LAK(ld8)(x + i + 16); a3 *= LAK(ld8)(x + i + 24);
  }
  a0 = (a0 * a1) * (a2 * a3);
  r = (((a0[0] * a0[1]) * (a0[2] * a0[3])) * ((a0[4] * a0[5]) * (a0[6] * a0[7])));
  for (; i < n; i++) r *= (double)x[i];
  return r;
}

/* The 0-based index of the first NaN of n >= W / sizeof(LAK_REAL)
** contiguous entries, else of the first extreme (OP: > for the largest, <
** for the smallest), in one pass over vectors of W bytes (L lanes): four
** running extremes m0..m3 (of entries i + kL + lane) and the i of the
** step where each lane last won (j0..j3; a strict OP keeps a lane's first
** index of its extreme), the tail as one vector ending at n (entries seen
** twice keep their index), then lanes merged by (value, then smaller
** index). z0, the lanes' sums (4 vectors a step added first), turns NaN at a NaN (or Inf at an Inf or an
** overflow): the block is then scanned for its first NaN. Blocks of LAK_ABLOCK keep the indices in 32-bit lanes
** for floats; a later block wins only when strictly better. */
#define LAK_ABLOCK ((size_t)1 << 28)
/* lanes of a (vector type V, mask type M) where q is set, else of b */
#define LAK_VS(V, M, q, a, b) ((V)(((q) & (M)(a)) | (~(q) & (M)(b))))
/* d = the lanes of v in the order of the index vector ix */
#if defined(__GNUC__) && !defined(__clang__)
#define LAK_PERM(d, v, ix) ((d) = __builtin_shuffle(v, ix))
#else
#define LAK_PERM(d, v, ix) do { \
    size_t k_; \
    for (k_ = 0; k_ < sizeof(v) / sizeof((v)[0]); k_++) (d)[k_] = (v)[(ix)[k_]]; \
  } while (0)
#endif
#define LAK_ARGEXT(name, OP, ATTR, W) \
  ATTR static size_t LAK(name##1)(size_t n, const LAK_REAL *x) { \
    typedef LAK_REAL V __attribute__((vector_size(W))); \
    typedef LAK_PICK(int64_t, int32_t) M __attribute__((vector_size(W))); \
    enum { L = W / sizeof(LAK_REAL) }; \
    size_t b, at = 0, i, k, h; \
    LAK_REAL best = x[0]; \
    for (b = 0; b < n; b += LAK_ABLOCK) { \
      size_t len = n - b < LAK_ABLOCK ? n - b : LAK_ABLOCK, r; \
      const LAK_REAL *p = x + b; \
      V v, m0, m1, m2, m3, z0, z1, z2; \
      M c, j0 = {0}, j1 = {0}, j2 = {0}, j3 = {0}, io, q; \
      LAK_REAL e; \
      LAK_PICK(int64_t, int32_t) t, ja[L]; \
      if (len < L) {                 /* a last block shorter than a vector */ \
        for (i = 0; i < len; i++) { \
          if (p[i] != p[i]) return b + i; \
          if (p[i] OP best) { best = p[i]; at = b + i; } \
        } \
        break; \
      } \
      for (k = 0; k < L; k++) ja[k] = (LAK_PICK(int64_t, int32_t))k; \
      memcpy(&io, ja, sizeof io); \
      memcpy(&m0, p, sizeof v); z0 = m0; i = L; \
      if (len >= 4 * L) { \
        memcpy(&m1, p + L, sizeof v); memcpy(&m2, p + 2 * L, sizeof v); \
        memcpy(&m3, p + 3 * L, sizeof v); \
        z0 += (m1 + m2) + m3; \
        for (c = j0, i = 4 * L; i + 4 * L <= len; i += 4 * L) { \
          c += 4 * L; \
          memcpy(&v, p + i, sizeof v); q = v OP m0; m0 = LAK_VS(V, M, q, v, m0); j0 = (q & c) | (~q & j0); z1 = v; \
          memcpy(&v, p + i + L, sizeof v); q = v OP m1; m1 = LAK_VS(V, M, q, v, m1); j1 = (q & c) | (~q & j1); z1 += v; \
          memcpy(&v, p + i + 2 * L, sizeof v); q = v OP m2; m2 = LAK_VS(V, M, q, v, m2); j2 = (q & c) | (~q & j2); z2 = v; \
          memcpy(&v, p + i + 3 * L, sizeof v); q = v OP m3; m3 = LAK_VS(V, M, q, v, m3); j3 = (q & c) | (~q & j3); z2 += v; \
          z0 += z1 + z2; \
        } \
        j0 += io; j1 += io + L; j2 += io + 2 * L; j3 += io + 3 * L; \
        q = (m1 OP m0) | ((m1 == m0) & (j1 < j0)); m0 = LAK_VS(V, M, q, m1, m0); j0 = (q & j1) | (~q & j0); \
        q = (m3 OP m2) | ((m3 == m2) & (j3 < j2)); m2 = LAK_VS(V, M, q, m3, m2); j2 = (q & j3) | (~q & j2); \
        q = (m2 OP m0) | ((m2 == m0) & (j2 < j0)); m0 = LAK_VS(V, M, q, m2, m0); j0 = (q & j2) | (~q & j0); \
      } else \
        j0 = io; \
      for (r = len - L; ; i += L) {  /* r: the last vector's start */ \
        if (i > r) i = r; \
        c = io + (LAK_PICK(int64_t, int32_t))i; \
        memcpy(&v, p + i, sizeof v); q = v OP m0; m0 = LAK_VS(V, M, q, v, m0); j0 = (q & c) | (~q & j0); z0 += v; \
        if (i == r) break; \
      } \
      for (h = L / 2; h > 0; h /= 2) { /* lanes merged in registers, no branch */ \
        M sh = io ^ (LAK_PICK(int64_t, int32_t))h; \
        LAK_PERM(m1, m0, sh); LAK_PERM(j1, j0, sh); LAK_PERM(z1, z0, sh); \
        q = (m1 OP m0) | ((m1 == m0) & (j1 < j0)); m0 = LAK_VS(V, M, q, m1, m0); \
        j0 = (q & j1) | (~q & j0); z0 += z1; \
      } \
      if (!(z0[0] - z0[0] == 0)) \
        for (i = 0; i < len; i++) if (p[i] != p[i]) return b + i; \
      e = m0[0]; t = j0[0]; \
      if (b == 0 || e OP best) { best = e; at = b + (size_t)t; } \
    } \
    return at; \
  } \
  /* long lines: the extreme of each block (LAK_LBLOCK entries, or \
  ** LAK_LBLOCKBIG from LAK_LBIG on) by values alone (no index to carry), \
  ** a later block winning only when strictly better, then the one-pass \
  ** search above in the winning block (or in the first block that has a \
  ** NaN) */ \
  ATTR static size_t LAK(name)(size_t n, const LAK_REAL *x) { \
    typedef LAK_REAL V __attribute__((vector_size(W))); \
    typedef LAK_PICK(int64_t, int32_t) M __attribute__((vector_size(W))); \
    enum { L = W / sizeof(LAK_REAL) }; \
    size_t b, bb = 0, i, k, tail = n, blk = n < LAK_LBIG ? LAK_LBLOCK : LAK_LBLOCKBIG; \
    LAK_REAL best = x[0], e, ma[L]; \
    if (n <= 8 * LAK_LBLOCK) return LAK(name##1)(n, x); \
    for (b = 0; b < n; b += blk) { \
      size_t len = n - b < blk ? n - b : blk, r; \
      const LAK_REAL *p = x + b; \
      V v, m0, m1, m2, m3, z0, z1, z2, z3; \
      M q; \
      if (len < 4 * L) {               /* a short last block: the entries */ \
        for (i = 0; i < len; i++) { \
          if (p[i] != p[i]) return b + i; \
          if (p[i] OP best) { best = p[i]; tail = b + i; } \
        } \
        break; \
      } \
      memcpy(&m0, p, sizeof v); m1 = m0; m2 = m0; m3 = m0; z0 = m0 - m0; z1 = z0; z2 = z0; z3 = z0; \
      for (i = 0; i + 4 * L <= len; i += 4 * L) { \
        memcpy(&v, p + i, sizeof v); q = v OP m0; m0 = LAK_VS(V, M, q, v, m0); z0 += v - v; \
        memcpy(&v, p + i + L, sizeof v); q = v OP m1; m1 = LAK_VS(V, M, q, v, m1); z1 += v - v; \
        memcpy(&v, p + i + 2 * L, sizeof v); q = v OP m2; m2 = LAK_VS(V, M, q, v, m2); z2 += v - v; \
        memcpy(&v, p + i + 3 * L, sizeof v); q = v OP m3; m3 = LAK_VS(V, M, q, v, m3); z3 += v - v; \
      } \
      for (r = len - L; i < len; i += L) { \
        if (i > r) i = r; \
        memcpy(&v, p + i, sizeof v); q = v OP m0; m0 = LAK_VS(V, M, q, v, m0); z0 += v - v; \
      } \
      z0 = (z0 + z1) + (z2 + z3); \
      q = m1 OP m0; m0 = LAK_VS(V, M, q, m1, m0); q = m3 OP m2; m2 = LAK_VS(V, M, q, m3, m2); \
      q = m2 OP m0; m0 = LAK_VS(V, M, q, m2, m0); \
      memcpy(ma, &z0, sizeof ma); \
      for (k = 0; k < L; k++) if (!(ma[k] - ma[k] == 0)) break; \
      if (k < L) {                     /* a NaN or an Inf */ \
        i = LAK(name##1)(len, p); \
        if (p[i] != p[i]) return b + i; \
      } \
      memcpy(ma, &m0, sizeof ma); \
      for (e = ma[0], k = 1; k < L; k++) if (ma[k] OP e) e = ma[k]; \
      if (b == 0 || e OP best) { best = e; bb = b; } \
    } \
    if (tail < n && x[tail] == best) return tail; \
    return bb + LAK(name##1)(n - bb < blk ? n - bb : blk, x + bb); \
  }
/* Blocks of 512 keep the rescan of the winning block short; from 2^21
** entries (16 MiB of doubles: from memory, not a cache) the work between
** blocks held the stream back, and blocks of 8192 took the largest of 4e6
** from 1400 to 700 us (NumPy 1.24: 850), sh bench/run.sh breadth. Floats
** take blocks of 2048 (8 KiB; 512 spent a third of the time between
** blocks: the largest of 1e6 floats, 59 -> 40 us, NumPy 1.24 about 45). */
#define LAK_LBLOCK LAK_PICK(512, 2048)
#define LAK_LBLOCKBIG 8192
#define LAK_LBIG ((size_t)1 << 21)
#if LAK_MULTI
LAK_ARGEXT(argmaxv512, >, LAK_T512, 64)
LAK_ARGEXT(argminv512, <, LAK_T512, 64)
LAK_ARGEXT(argmaxv256, >, LAK_T256, 32)
LAK_ARGEXT(argminv256, <, LAK_T256, 32)
LAK_ARGEXT(argmaxv128, >, , 16)
LAK_ARGEXT(argminv128, <, , 16)
/* the search of contiguous lines at the widest vectors the CPU has */
static size_t (*LAK(argextfn)(int wantmax))(size_t, const LAK_REAL *) {
  switch (lak_isa()) {
    case 2: return wantmax ? LAK(argmaxv512) : LAK(argminv512);
    case 1: return wantmax ? LAK(argmaxv256) : LAK(argminv256);
  }
  return wantmax ? LAK(argmaxv128) : LAK(argminv128);
}
#else
LAK_ARGEXT(argmaxv, >, , 64)
LAK_ARGEXT(argminv, <, , 64)
static size_t (*LAK(argextfn)(int wantmax))(size_t, const LAK_REAL *) {
  return wantmax ? LAK(argmaxv) : LAK(argminv);
}
#endif
static size_t LAK(argextv)(int wantmax, size_t n, const LAK_REAL *x) {
  return LAK(argextfn)(wantmax)(n, x);
}
#endif

static double LAK(lsum)(size_t n, const LAK_REAL *x, ptrdiff_t s) {
#if LAK_VEC
  if (s == 1) return LAK(psum)(n, x, 0.0);
#endif
  return LAK(ssum)(n, x, s);
}

/* the sum of (x_i c)^2, |x_i| and (x_i - c)^2 of a line */
static double LAK(lsumsq)(size_t n, const LAK_REAL *x, ptrdiff_t s, double c) {
#if LAK_VEC
  if (s == 1) return c == 1.0 ? LAK(psumsq1)(n, x, c) : LAK(psumsq)(n, x, c);
#endif
  return LAK(ssumsq)(n, x, s, c);
}
static double LAK(lsumabs)(size_t n, const LAK_REAL *x, ptrdiff_t s) {
#if LAK_VEC
  if (s == 1) return LAK(psumabs)(n, x, 0.0);
#endif
  return LAK(ssumabs)(n, x, s);
}
static double LAK(lsumdev)(size_t n, const LAK_REAL *x, ptrdiff_t s, double c) {
#if LAK_VEC
  if (s == 1) return LAK(psumdev)(n, x, c);
#endif
  return LAK(ssumdev)(n, x, s, c);
}

size_t LAK(argext)(int wantmax, size_t n, const LAK_REAL *x, ptrdiff_t s) {
  size_t i, at = 0;
#if LAK_VEC
  if (s == 1 && n > 0) return LAK(argextv)(wantmax, n, x);
#endif
  for (i = 0; i < n; i++) {
    LAK_REAL v = x[(ptrdiff_t)i * s];
    if (isnan(v)) return i;
    if (wantmax ? v > x[(ptrdiff_t)at * s] : v < x[(ptrdiff_t)at * s]) at = i;
  }
  return at;
}

void LAK(colargext)(int wantmax, size_t m, size_t n, const LAK_REAL *a, size_t lda, double *out,
                    ptrdiff_t os) {
  size_t j;
#if LAK_VEC
  size_t (*f)(size_t, const LAK_REAL *) = LAK(argextfn)(wantmax);
#if LAK_MULTI
  if (lak_isa() == 2 && LAK(colargshort)(wantmax, m, n, a, lda, out, os)) return;
#endif
  if (m > 0) {
    for (j = 0; j < n; j++) out[(ptrdiff_t)j * os] = (double)f(m, a + j * lda) + 1;
    return;
  }
#endif
  for (j = 0; j < n; j++) out[(ptrdiff_t)j * os] = (double)LAK(argext)(wantmax, m, a + j * lda, 1) + 1;
}

/* Columns of at most LAK_BLOCK entries, one block each, in one loop (a
** call per column cost twice NumPy's time on 10 x 100000): the sums,
** means, variances (two passes) and the 1- and 2-norms, with the bits of
** the same column as a line (lak_reduce, lak_vnorm) */
#if LAK_VEC
LAK_CLONES static void LAK(colblk)(lak_Red r, size_t m, size_t n, const LAK_REAL *a, size_t lda,
                                   double ddof, double *out) {
  size_t j;
  for (j = 0; j < n; j++) {
    const LAK_REAL *p = a + j * lda;
    double sum = LAK(bsum)(m, p, 0.0) + 0.0, mean = sum / (double)m, v;
    if (r == LAK_SUM || r == LAK_MEAN) { out[j] = r == LAK_SUM ? sum : mean; continue; }
    v = (LAK(bsumdev)(m, p, mean) + 0.0) / ((double)m - ddof);
    out[j] = r == LAK_STD ? sqrt(v) : v;
  }
}

LAK_CLONES static void LAK(colblknorm)(int p1, size_t m, size_t n, const LAK_REAL *a, size_t lda,
                                       double *out) {
  size_t j;
  for (j = 0; j < n; j++) {
    const LAK_REAL *p = a + j * lda;
    double ss;
    if (p1) { out[j] = LAK(bsumabs)(m, p, 0.0) + 0.0; continue; }
    ss = 0.0 + (LAK(bsumsq1)(m, p, 1.0) + 0.0);
    out[j] = !LAK_DOUBLE || (ss >= 0x1p-968 && ss <= DBL_MAX) || isnan(ss) ? sqrt(ss)
             : LAK(fro)(m, 1, p, m, 1);
  }
}
#endif

void LAK(colreduce)(lak_Red r, size_t m, size_t n, const LAK_REAL *a, size_t lda, double ddof,
                    double *out) {
  size_t j;
#if LAK_VEC
  if (m <= LAK_BLOCK && m > 0 && (r == LAK_SUM || r == LAK_MEAN || r == LAK_VAR || r == LAK_STD)) {
    LAK(colblk)(r, m, n, a, lda, ddof, out);
    return;
  }
#endif
  for (j = 0; j < n; j++) out[j] = LAK(reduce)(r, m, a + j * lda, 1, ddof);
}

void LAK(colpnorms)(double p, size_t m, size_t n, const LAK_REAL *a, size_t lda, double *out) {
  size_t j;
#if LAK_VEC
  if (m <= LAK_BLOCK && m > 0 && (p == 1 || p == 2)) {
    LAK(colblknorm)(p == 1, m, n, a, lda, out);
    return;
  }
#endif
  for (j = 0; j < n; j++) out[j] = LAK(vnorm)(m, a + j * lda, 1, p);
}

/* the extreme e of a line: of a tie of -0 and +0, +0 is the largest and -0
** the smallest (IEEE 754-2019's maximum and minimum), whatever the order */
static double LAK(zfix)(int wantmax, double e, size_t n, const LAK_REAL *x, ptrdiff_t s) {
  size_t i;
  if (e != 0.0) return e;
  for (i = 0; i < n; i++)
    if (LX(i) == 0.0 && !signbit(LX(i)) == !!wantmax) return wantmax ? 0.0 : -0.0;
  return e;
}

/* two passes: the mean, then the squares of the deviations from it */
static double LAK(variance)(size_t n, const LAK_REAL *x, ptrdiff_t s, double ddof) {
  double mean = LAK(lsum)(n, x, s) / (double)n;
  return LAK(lsumdev)(n, x, s, mean) / ((double)n - ddof);
}

double LAK(viewsum)(size_t m, size_t n, const LAK_REAL *a, size_t lda) {
#if LAK_VEC
  return LAK(viewsumv)(m, n, a, lda, 0.0);
#else
  /* no vector blocks: lak_ssum's four running sums over the entries in order */
  double acc[4] = {0.0, 0.0, 0.0, 0.0};
  size_t i, j, k = 0, whole = m * n - (m * n) % 4;
  for (j = 0; j < n; j++)
    for (i = 0; i < m; i++, k++) acc[k < whole ? k % 4 : 0] += (double)a[i + j * lda];
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
#endif
}

double LAK(reduce)(lak_Red r, size_t n, const LAK_REAL *x, ptrdiff_t s, double ddof) {
  double p = 1.0;
  size_t i;
  switch (r) {
    case LAK_SUM: return LAK(lsum)(n, x, s);
    case LAK_MEAN: return LAK(lsum)(n, x, s) / (double)n;
    case LAK_PROD:
#if LAK_VEC
      if (s == 1) return LAK(pprod)(n, x);
#endif
      for (i = 0; i < n; i++) p *= LX(i);
      return p;
    case LAK_MIN: return LAK(zfix)(0, LX(LAK(argext)(0, n, x, s)), n, x, s);
    case LAK_MAX: return LAK(zfix)(1, LX(LAK(argext)(1, n, x, s)), n, x, s);
    case LAK_VAR: return LAK(variance)(n, x, s, ddof);
    case LAK_STD: return sqrt(LAK(variance)(n, x, s, ddof));
  }
  return 0.0;
}

void LAK(diff)(int order, size_t n, const LAK_REAL *x, ptrdiff_t s, LAK_REAL *y, ptrdiff_t ys,
               LAK_REAL *w) {
  size_t i, len;
  for (i = 0; i < n; i++) w[i] = x[(ptrdiff_t)i * s];
  for (len = n; order > 0; order--, len--)
    for (i = 0; i + 1 < len; i++) w[i] = w[i + 1] - w[i];
  for (i = 0; i < len; i++) y[(ptrdiff_t)i * ys] = w[i];
}

/* The running sum starts from -0.0, the identity that keeps a zero's sign
** (the first entry exactly, as NumPy's cumsum: [-0, -0] stays so). The
** running minimum is NumPy's np.minimum(e, x) at each step: e while e < x
** or e is NaN, else x (so of -0 and 0 the later one, NumPy's accumulate);
** a NaN x becomes e, and e stays NaN once it is. Likewise the maximum. */
void LAK(scan)(lak_Scan op, size_t n, const LAK_REAL *x, ptrdiff_t s, LAK_REAL *y, ptrdiff_t ys) {
  double acc = op == LAK_CUMPROD ? 1.0 : -0.0;
  LAK_REAL e = n > 0 ? *x : 0;
  size_t i;
  switch (op) {
    case LAK_CUMPROD: for (i = 0; i < n; i++, x += s, y += ys) *y = (LAK_REAL)(acc *= *x); break;
    case LAK_CUMSUM: for (i = 0; i < n; i++, x += s, y += ys) *y = (LAK_REAL)(acc += *x); break;
    case LAK_CUMMIN:
      for (i = 0; i < n; i++, x += s, y += ys) { if (e == e && !(e < *x)) e = *x; *y = e; }
      break;
    case LAK_CUMMAX:
      for (i = 0; i < n; i++, x += s, y += ys) { if (e == e && !(e > *x)) e = *x; *y = e; }
      break;
  }
}

/* the 1-norm and the dot product, accumulated in double */
static double LAK(asum)(size_t n, const LAK_REAL *x, ptrdiff_t s) { return LAK(lsumabs)(n, x, s); }
#if LAK_DOUBLE
double LAK(dotd)(size_t n, const double *x, ptrdiff_t s, const double *y, ptrdiff_t ys) {
  return cblas_ddot((int)n, x, (int)s, y, (int)ys);
}
#else
#if LAK_VEC
/* contiguous lines: four accumulators of 8 doubles (each product of two
** floats is exact in double). OpenBLAS's dsdot (Haswell kernel) took 129
** us on 1e6 entries, NumPy's float32 dot 97, and its sum was not exact in
** double: 32 entries, one of them 2^24, came out 4 off */
LAK_CLONES static double LAK(sdotc)(size_t n, const float *x, const float *y) {
  lak_vd a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
  double t = 0.0;
  size_t i;
  for (i = 0; n - i >= 32; i += 32) {
    a0 += LAK(ld8)(x + i) * LAK(ld8)(y + i);
    a1 += LAK(ld8)(x + i + 8) * LAK(ld8)(y + i + 8);
    a2 += LAK(ld8)(x + i + 16) * LAK(ld8)(y + i + 16);
    a3 += LAK(ld8)(x + i + 24) * LAK(ld8)(y + i + 24);
  }
  for (; n - i >= 8; i += 8) a0 += LAK(ld8)(x + i) * LAK(ld8)(y + i);
  for (; i < n; i++) t += (double)x[i] * (double)y[i];
  a0 += a1; a2 += a3; a0 += a2;
  return LAK_HSUM8(a0) + t;
}
#endif
double LAK(dotd)(size_t n, const float *x, ptrdiff_t s, const float *y, ptrdiff_t ys) {
  double t[4] = {0.0, 0.0, 0.0, 0.0};
  size_t i;
#if LAK_VEC
  if (s == 1 && ys == 1) return LAK(sdotc)(n, x, y);
#endif
  for (i = 0; i < n; i++) t[i & 3] += (double)x[(ptrdiff_t)i * s] * (double)y[(ptrdiff_t)i * ys];
  return (t[0] + t[1]) + (t[2] + t[3]);
}
#endif

static double LAK(absext)(size_t n, const LAK_REAL *x, ptrdiff_t s, int wantmax);

/* the sum of (c x)^2 over the entries x of the m x n a (s = 1) or of one
** line (n = 1, stride s); a matrix as one line of its m n entries (a
** view with its packed copy's bits, as lak_viewsum's): the eight-block
** pairwise sum over all of them, not a column at a time (1000 x 1000
** floats: 71 -> 67 us) */
static double LAK(sumsqs)(size_t m, size_t n, const LAK_REAL *a, size_t lda, ptrdiff_t s,
                          double c) {
  double ss = 0.0;
  size_t j;
#if LAK_VEC
  if (n > 1 && lda == m) return LAK(lsumsq)(m * n, a, 1, c);
  if (n > 1) return c == 1.0 ? LAK(viewsumsq1)(m, n, a, lda, c) : LAK(viewsumsq)(m, n, a, lda, c);
#endif
  for (j = 0; j < n; j++) ss += LAK(lsumsq)(m, a + j * lda, s, c);
  return ss;
}

/* the Frobenius norm of the m x n column-major a (s = 1; or one line of
** stride s, n = 1): the sum of squares, rescaled by the largest |entry|'s
** exponent when it left [2^-968, DBL_MAX] (see the top of reduce.c) */
double LAK(fro)(size_t m, size_t n, const LAK_REAL *a, size_t lda, ptrdiff_t s) {
  double ss = 0.0, big = 0.0, c;
  size_t j;
  int e;
  if (m == 0 || n == 0) return 0.0;
  ss = LAK(sumsqs)(m, n, a, lda, s, 1.0);
  if (!LAK_DOUBLE || (ss >= 0x1p-968 && ss <= DBL_MAX) || isnan(ss)) return sqrt(ss);
  for (j = 0; j < n; j++) {
    double b = LAK(absext)(m, a + j * lda, s, 1);
    if (!(b <= big)) big = b;
  }
  if (isinf(big) || isnan(big) || big == 0.0) return big;
  e = -ilogb(big);                     /* 2^e: 2^1023 at most (big subnormal) */
  if (e > 1023) e = 1023;
  c = ldexp(1.0, e);
  return ldexp(sqrt(LAK(sumsqs)(m, n, a, lda, s, c)), -e);
}

static double LAK(nrm2)(size_t n, const LAK_REAL *x, ptrdiff_t s) { return LAK(fro)(n, 1, x, n, s); }

#if LAK_VEC
/* the largest (OP >) or smallest (<) |x_i| of n contiguous entries, NaN
** or not: four vector extremes by compare and select, no branch (a NaN
** never wins a comparison, so the caller checks for one: *bad turns NaN at
** a NaN or an Inf); init: 0 or HUGE_VAL */
#define LAK_AEXTV(name, OP) \
  LAK_CLONES static double LAK(name)(size_t n, const LAK_REAL *x, double init, double *bad) { \
    lak_vd m0 = {0}, m1, m2, m3, z = {0}, v; \
    double e = init, t = 0.0; \
    size_t i = 0; \
    int k; \
    for (k = 0; k < 8; k++) m0[k] = init; \
    m1 = m2 = m3 = m0; \
    for (; i + 32 <= n; i += 32) { \
      v = LAK(ld8)(x + i); LAK_AEXT1(m0, OP); \
      v = LAK(ld8)(x + i + 8); LAK_AEXT1(m1, OP); \
      v = LAK(ld8)(x + i + 16); LAK_AEXT1(m2, OP); \
      v = LAK(ld8)(x + i + 24); LAK_AEXT1(m3, OP); \
    } \
    for (; i + 8 <= n; i += 8) { v = LAK(ld8)(x + i); LAK_AEXT1(m0, OP); } \
    for (; i < n; i++) { double a = fabs((double)x[i]); t += a - a; e = a OP e ? a : e; } \
    m0 = LAK_VS(lak_vd, lak_vl, (lak_vl)(m1 OP m0), m1, m0); \
    m2 = LAK_VS(lak_vd, lak_vl, (lak_vl)(m3 OP m2), m3, m2); \
    m0 = LAK_VS(lak_vd, lak_vl, (lak_vl)(m2 OP m0), m2, m0); \
    for (k = 0; k < 8; k++) { e = m0[k] OP e ? m0[k] : e; t += z[k]; } \
    *bad = t; \
    return e; \
  }
#define LAK_AEXT1(m, OP) v = LAK_VABS(v); z += v - v; m = LAK_VS(lak_vd, lak_vl, (lak_vl)(v OP m), v, m)
LAK_AEXTV(amaxv, >)
LAK_AEXTV(aminv, <)
#undef LAK_AEXT1
#undef LAK_AEXTV

/* (sum |x_i|^p)^(1/p) of n contiguous entries: |x_i|^p by lak_vpow (p = 3
** and 4 as products) a block of LAK_BLOCK at a time, the block sums
** combined pairwise (lak_reduce's tree) */
LAK_CLONES static double LAK(ppnorm)(size_t n, const LAK_REAL *x, double p) {
  double part[64], r = 0.0, s, ax[LAK_BLOCK], px[LAK_BLOCK];
  size_t cnt = 0, b, cc, i, len;
  int k;
  for (b = 0; b < n; b += LAK_BLOCK) {
    len = n - b < LAK_BLOCK ? n - b : LAK_BLOCK;
    for (i = 0; i < len; i++) ax[i] = fabs((double)x[b + i]);
    if (p == 3 || p == 4)                 /* products: within 2 ulps of pow, 4x as fast */
      for (i = 0; i < len; i++) px[i] = p == 3 ? (ax[i] * ax[i]) * ax[i] : (ax[i] * ax[i]) * (ax[i] * ax[i]);
    else lak_vpow(len, ax, 1, &p, 0, px);
    s = lak_bsum(len, px, 0.0);
    for (cc = cnt++, k = 0; cc & 1; cc >>= 1, k++) s = part[k] + s;
    part[k] = s;
  }
  for (k = 0; cnt; cnt >>= 1, k++) if (cnt & 1) r = part[k] + r;
  return pow(r, 1.0 / p);
}
#endif

/* the largest (p > 0) or smallest |x_i|; NaN wins; 0 for n = 0 */
static double LAK(absext)(size_t n, const LAK_REAL *x, ptrdiff_t s, int wantmax) {
  double e = wantmax ? 0.0 : HUGE_VAL;
  size_t i;
#if LAK_VEC
  if (s == 1 && n > 0) {                 /* the vector pass; a NaN or an Inf: the loop below */
    double bad;
    e = wantmax ? LAK(amaxv)(n, x, 0.0, &bad) : LAK(aminv)(n, x, HUGE_VAL, &bad);
    if (bad == 0.0) return e;
    e = wantmax ? 0.0 : HUGE_VAL;
  }
#endif
  for (i = 0; i < n; i++) {
    double a = fabs(LX(i));
    if (isnan(a)) return a;
    if (wantmax ? a > e : a < e) e = a;
  }
  return n ? e : 0.0;
}

double LAK(vnorm)(size_t n, const LAK_REAL *x, ptrdiff_t s, double p) {
  double a = 0.0;
  size_t i;
  if (p == 2) return LAK(nrm2)(n, x, s);
  if (isinf(p)) return LAK(absext)(n, x, s, p > 0);
  if (p == 1) return LAK(asum)(n, x, s);
  if (p == 0 && s == 1 && n > 0 && n <= INT_MAX) { LAK(nonzeros)(0, (int)n, 1, x, (int)n, &a); return a; }
  if (p == 0) { for (i = 0; i < n; i++) a += LX(i) != 0.0; return a; }
#if LAK_VEC
  if (s == 1) return LAK(ppnorm)(n, x, p);
#endif
  for (i = 0; i < n; i++) a += pow(fabs(LX(i)), p);
  return pow(a, 1.0 / p);
}

/* cos of the angle between lines x and y of n entries (ys: y's stride),
** in double; *zero: 1 when x is zero, 2 when y is (the result is then
** NaN), else 0. Vectors whose largest |entry| is within 2^+-400 take the
** BLAS norms and dot product; beyond, a square or the product of two norms
** would overflow or underflow (entries of 3e154 or 1e-200), so each vector
** is scaled by 2^-e, e the exponent of its largest |entry| (exact), and
** the sums run in double. Contiguous floats never need the scaling (their
** squares stay within double's range, below): one pass of three sums. */
#if LAK_VEC
/* the pairwise tree of the three block sums s3 (see the top of reduce.c):
** the block's number cnt, partial sums part */
static inline __attribute__((always_inline)) void LAK(cospair)(double part[3][64], size_t cnt,
                                                              double *s3) {
  int k, q;
  for (k = 0; cnt & 1; cnt >>= 1, k++)
    for (q = 0; q < 3; q++) s3[q] = part[q][k] + s3[q];
  for (q = 0; q < 3; q++) part[q][k] = s3[q];
}
static inline __attribute__((always_inline)) void LAK(cosdone)(double part[3][64], size_t cnt,
                                                              double *r) {
  int k, q;
  for (k = 0; cnt; cnt >>= 1, k++)
    if (cnt & 1) for (q = 0; q < 3; q++) r[q] = part[q][k] + r[q];
}
#if !LAK_DOUBLE
/* One pass over contiguous floats x and y: r = {x.y, x.x, y.y} (pairwise
** sums of blocks of LAK_BLOCK, as lak_reduce's). A product of two floats
** is exact in double and, unless 0, within [2^-298, 2^256], so these sums
** cannot overflow or lose digits to underflow, x.x is 0 only for a zero
** x, and a NaN or an Inf in x or y shows in x.x or y.y: the three sums
** alone (the same blocks, the same bits), without the extremes and the NaN
** sum of the double version (which took 60% of its time) */
/* entries i + 4k .. i + 4k + 3 of x and y into d[k], xs[k], ys[k] */
#define LAK_COS4(k) \
  u = LAK(ld4)(x + b + i + 4 * (k)); v = LAK(ld4)(y + b + i + 4 * (k)); \
  d[k] += u * v; xs[k] += u * u; ys[k] += v * v;
LAK_FUSED LAK_CLONES static void LAK(cosparts)(size_t n, const LAK_REAL *x, const LAK_REAL *y,
                                               double *r) {
  double part[3][64], s3[3];
  size_t cnt = 0, b, i;
  r[0] = r[1] = r[2] = 0.0;
  for (b = 0; b < n; b += LAK_BLOCK) {
    size_t len = n - b < LAK_BLOCK ? n - b : LAK_BLOCK;
    double sd = 0.0, sx = 0.0, sy = 0.0;
    /* 4 floats widened at a time (LAK_BLOCKSUM's floats say why): d[k],
    ** xs[k], ys[k] hold lanes 0-3 (k = 0, 2) and 4-7 (k = 1, 3) of the
    ** 8-lane sums of the two halves of 16 entries */
    lak_v4d d[4] = {{0}}, xs[4] = {{0}}, ys[4] = {{0}}, u, v, lo, hi;
    lak_vd d0, x0, y0;
    for (i = 0; i + 16 <= len; i += 16) { LAK_COS4(0) LAK_COS4(1) LAK_COS4(2) LAK_COS4(3) }
    lo = d[0] + d[2]; hi = d[1] + d[3]; d0 = LAK_JOIN4(lo, hi);
    lo = xs[0] + xs[2]; hi = xs[1] + xs[3]; x0 = LAK_JOIN4(lo, hi);
    lo = ys[0] + ys[2]; hi = ys[1] + ys[3]; y0 = LAK_JOIN4(lo, hi);
    for (; i < len; i++) {
      double a = (double)x[b + i], c = (double)y[b + i];
      sd += a * c; sx += a * a; sy += c * c;
    }
    s3[0] = LAK_HSUM8(d0) + sd; s3[1] = LAK_HSUM8(x0) + sx; s3[2] = LAK_HSUM8(y0) + sy;
    LAK(cospair)(part, cnt++, s3);
  }
  LAK(cosdone)(part, cnt, r);
}
#undef LAK_COS4
#else
/* One pass over contiguous x and y: r = {x.y, x.x, y.y} (pairwise sums of
** blocks of LAK_BLOCK, as lak_reduce's), {max |x_i|, max |y_i|} and a sum
** that turns NaN at a NaN or an Inf in either */
#define LAK_MAXV(m, a) (m) = LAK_VS(lak_vd, lak_vl, (lak_vl)((a) > (m)), (a), (m))
LAK_CLONES static void LAK(cosparts)(size_t n, const LAK_REAL *x, const LAK_REAL *y, double *r) {
  double part[3][64], s3[3];
  lak_vd mx = {0}, my = {0}, z = {0};
  size_t cnt = 0, b, i;
  int k;
  r[0] = r[1] = r[2] = r[3] = r[4] = r[5] = 0.0;
  for (b = 0; b < n; b += LAK_BLOCK) {
    size_t len = n - b < LAK_BLOCK ? n - b : LAK_BLOCK;
    lak_vd d0 = {0}, d1 = {0}, x0 = {0}, x1 = {0}, y0 = {0}, y1 = {0}, u, v, w;
    double sd = 0.0, sx = 0.0, sy = 0.0;
    for (i = 0; i + 16 <= len; i += 16) {
      u = LAK(ld8)(x + b + i); v = LAK(ld8)(y + b + i);
      d0 += u * v; x0 += u * u; y0 += v * v; z += (u - u) + (v - v);
      w = LAK_VABS(u); LAK_MAXV(mx, w); w = LAK_VABS(v); LAK_MAXV(my, w);
      u = LAK(ld8)(x + b + i + 8); v = LAK(ld8)(y + b + i + 8);
      d1 += u * v; x1 += u * u; y1 += v * v; z += (u - u) + (v - v);
      w = LAK_VABS(u); LAK_MAXV(mx, w); w = LAK_VABS(v); LAK_MAXV(my, w);
    }
    for (; i < len; i++) {
      double a = (double)x[b + i], c = (double)y[b + i];
      sd += a * c; sx += a * a; sy += c * c;
      r[5] += (a - a) + (c - c);
      r[3] = fabs(a) > r[3] ? fabs(a) : r[3];
      r[4] = fabs(c) > r[4] ? fabs(c) : r[4];
    }
    d0 += d1; x0 += x1; y0 += y1;
    s3[0] = LAK_HSUM8(d0) + sd; s3[1] = LAK_HSUM8(x0) + sx; s3[2] = LAK_HSUM8(y0) + sy;
    LAK(cospair)(part, cnt++, s3);
  }
  LAK(cosdone)(part, cnt, r);
  for (k = 0; k < 8; k++) {
    r[3] = mx[k] > r[3] ? mx[k] : r[3];
    r[4] = my[k] > r[4] ? my[k] : r[4];
    r[5] += z[k];
  }
}
#undef LAK_MAXV
#endif
#endif

double LAK(cosine)(size_t n, const LAK_REAL *x, ptrdiff_t s, const LAK_REAL *y, ptrdiff_t ys,
                   int *zero) {
  double bx, by, d = 0.0, nx = 0.0, ny = 0.0;
  int ex, ey;
  size_t i;
#if LAK_VEC
  if (s == 1 && ys == 1 && n > 0) {      /* finite entries within 2^+-400: one pass */
    double r[6];
    LAK(cosparts)(n, x, y, r);
#if !LAK_DOUBLE
    *zero = r[1] == 0.0 ? 1 : r[2] == 0.0 ? 2 : 0;
    if (*zero || !(isfinite(r[1]) && isfinite(r[2]))) return NAN;
    return r[0] / (sqrt(r[1]) * sqrt(r[2]));
#endif
    if (r[5] == 0.0 && r[3] > 0.0 && r[4] > 0.0 && ilogb(r[3]) >= -400 && ilogb(r[3]) <= 400 &&
        ilogb(r[4]) >= -400 && ilogb(r[4]) <= 400) {
      *zero = 0;
      return r[0] / (sqrt(r[1]) * sqrt(r[2]));
    }
  }
#endif
  bx = LAK(absext)(n, x, s, 1); by = LAK(absext)(n, y, ys, 1);
  *zero = bx == 0.0 ? 1 : by == 0.0 ? 2 : 0;
  if (*zero) return NAN;
  if (!(isfinite(bx) && isfinite(by))) return NAN;
  ex = ilogb(bx); ey = ilogb(by);
  if (ex >= -400 && ex <= 400 && ey >= -400 && ey <= 400)
    return LAK(dotd)(n, x, s, y, ys) / (LAK(nrm2)(n, x, s) * LAK(nrm2)(n, y, ys));
  for (i = 0; i < n; i++) {
    double u = ldexp(LX(i), -ex), v = ldexp((double)y[(ptrdiff_t)i * ys], -ey);
    d += u * v; nx += u * u; ny += v * v;
  }
  return d / (sqrt(nx) * sqrt(ny));
}

/* ---------------------------------------------------------------- rows */

/* one column p of m entries into the row accumulators t (see lak_rowsum) */
LAK_CLONES static void LAK(rowcol)(lak_Rows op, size_t m, const LAK_REAL *p, const double *c,
                                   double *t) {
  size_t i = 0;
#if LAK_VEC
  lak_vd v, a, cv;
  switch (op) {
#define LAK_ROWLOOP(expr) for (; i + 8 <= m; i += 8) { \
      v = LAK(ld8)(p + i); memcpy(&a, t + i, sizeof a); a = expr; memcpy(t + i, &a, sizeof a); } break
    case LAK_RSUM: LAK_ROWLOOP(a + v);
    case LAK_RABS: LAK_ROWLOOP(a + LAK_VABS(v));
    case LAK_RSQ: LAK_ROWLOOP(a + v * v);
    case LAK_RPROD: LAK_ROWLOOP(a * v);
    case LAK_RDEV:
      for (; i + 8 <= m; i += 8) {
        v = LAK(ld8)(p + i);
        memcpy(&a, t + i, sizeof a);
        memcpy(&cv, c + i, sizeof cv);
        a = a + (v - cv) * (v - cv);
        memcpy(t + i, &a, sizeof a);
      }
      break;
#undef LAK_ROWLOOP
  }
#endif
  for (; i < m; i++) {
    double x = p[i];
    switch (op) {
      case LAK_RSUM: t[i] += x; break;
      case LAK_RABS: t[i] += fabs(x); break;
      case LAK_RSQ: t[i] += x * x; break;
      case LAK_RPROD: t[i] *= x; break;
      case LAK_RDEV: t[i] += (x - c[i]) * (x - c[i]); break;
    }
  }
}

/* the terms of the row reductions other than the product, on 8 rows (cv:
** their centres), and the cases of a switch over them, for rowcol4 and
** rownarrow alike */
#define LAK_TSUM(v) (v)
#define LAK_TABS(v) LAK_VABS(v)
#define LAK_TSQ(v) ((v) * (v))
#define LAK_TDEV(v) (((v) - cv) * ((v) - cv))
#define LAK_RTERMS(LOOP) \
    case LAK_RSUM: LOOP(LAK_TSUM) break; \
    case LAK_RABS: LOOP(LAK_TABS) break; \
    case LAK_RSQ: LOOP(LAK_TSQ) break; \
    case LAK_RDEV: LOOP(LAK_TDEV) break;

/* four columns p, p + lda, p + 2 lda, p + 3 lda into the row sums t:
** t[i] += (term0 + term1) + (term2 + term3), one load and store of t for
** four columns; LAK_RPROD: t[i] times each in column order (the bits of a
** column at a time: the product of 2000 x 2000 along the rows took 1.7
** ms, NumPy 1.1) */
LAK_CLONES static void LAK(rowcol4)(lak_Rows op, size_t m, const LAK_REAL *p, size_t lda,
                                    const double *c, double *t) {
  const LAK_REAL *p1 = p + lda, *p2 = p1 + lda, *p3 = p2 + lda;
  size_t i = 0;
#if LAK_VEC
  lak_vd a, cv = {0};
#define LAK_ROW4(T) for (; i + 8 <= m; i += 8) { \
      lak_vd v0 = LAK(ld8)(p + i), v1 = LAK(ld8)(p1 + i), v2 = LAK(ld8)(p2 + i), v3 = LAK(ld8)(p3 + i); \
      if (op == LAK_RDEV) memcpy(&cv, c + i, sizeof cv); \
      memcpy(&a, t + i, sizeof a); \
      a += (T(v0) + T(v1)) + (T(v2) + T(v3)); \
      memcpy(t + i, &a, sizeof a); \
    }
  switch (op) {
    LAK_RTERMS(LAK_ROW4)
    case LAK_RPROD:
      for (; i + 8 <= m; i += 8) {
        lak_vd v0 = LAK(ld8)(p + i), v1 = LAK(ld8)(p1 + i), v2 = LAK(ld8)(p2 + i), v3 = LAK(ld8)(p3 + i);
        memcpy(&a, t + i, sizeof a);
        a = (((a * v0) * v1) * v2) * v3;
        memcpy(t + i, &a, sizeof a);
      }
      break;
  }
#undef LAK_ROW4
#endif
  for (; i < m; i++) {
    double x0 = p[i], x1 = p1[i], x2 = p2[i], x3 = p3[i], ci = c ? c[i] : 0.0;
    switch (op) {
      case LAK_RSUM:
        t[i] += (x0 + x1) + (x2 + x3);
        break;
      case LAK_RABS: t[i] += (fabs(x0) + fabs(x1)) + (fabs(x2) + fabs(x3)); break;
      case LAK_RSQ: t[i] += (x0 * x0 + x1 * x1) + (x2 * x2 + x3 * x3); break;
      case LAK_RDEV:
        t[i] += ((x0 - ci) * (x0 - ci) + (x1 - ci) * (x1 - ci)) +
                ((x2 - ci) * (x2 - ci) + (x3 - ci) * (x3 - ci));
        break;
      case LAK_RPROD: t[i] = (((t[i] * x0) * x1) * x2) * x3; break;
    }
  }
}

/* The rows of a strip through its w <= LAK_RNARROW columns, 8 rows
** at a time in a register (the terms and their order as rowcol4's and
** rowcol's into a zeroed t, and out = 0 + t: a sum started from +0 is never
** -0): t's zeroing and its load and store every four columns, and each
** leftover column's, took half the time of T:sum(2) of 100000 x 10 float32.
** Returns the rows done, a multiple of 8. */
#ifndef LAK_RNARROW
#define LAK_RNARROW 16
#if LAK_RNARROW > LAK_BLOCK
#error "the register path covers at most one block of columns"
#endif
#endif
LAK_CLONES static size_t LAK(rownarrow)(lak_Rows op, size_t m, size_t w, const LAK_REAL *p,
                                        size_t lda, const double *c, double *restrict out) {
  size_t i = 0;
#if LAK_VEC
#define LAK_RNLOOP(T) for (; i + 8 <= m; i += 8) { \
      lak_vd a = {0}, cv = {0}; \
      const LAK_REAL *q = p + i; \
      size_t j; \
      if (op == LAK_RDEV) memcpy(&cv, c + i, sizeof cv); \
      for (j = 0; j + 4 <= w; j += 4, q += 4 * lda) { \
        lak_vd v0 = LAK(ld8)(q), v1 = LAK(ld8)(q + lda), v2 = LAK(ld8)(q + 2 * lda), \
               v3 = LAK(ld8)(q + 3 * lda); \
        a += (T(v0) + T(v1)) + (T(v2) + T(v3)); \
      } \
      for (; j < w; j++, q += lda) { lak_vd v = LAK(ld8)(q); a += T(v); } \
      memcpy(out + i, &a, sizeof a); \
    }
  switch (op) {
    LAK_RTERMS(LAK_RNLOOP)
    case LAK_RPROD: break;
  }
#undef LAK_RNLOOP
#else
  (void)op; (void)w; (void)p; (void)lda; (void)c; (void)out;
#endif
  return i;
}

#undef LAK_TSUM
#undef LAK_TABS
#undef LAK_TSQ
#undef LAK_TDEV
#undef LAK_RTERMS

/* lak_rowsum of a strip of at most LAK_RROWS rows; out is first written
** with the first block's sums (0 + t: the bits of adding to a zeroed out),
** and a product starts from the first column (1 x = x) */
LAK_CLONES static void LAK(rowstrip)(lak_Rows op, size_t m, size_t n, const LAK_REAL *a,
                                     size_t lda, const double *c, double *restrict out,
                                     double *restrict t) {
  size_t i, j, b, e;
  if (op == LAK_RPROD || n == 0) {     /* in column order, four columns a pass */
    for (i = 0; i < m; i++) out[i] = n == 0 ? (op == LAK_RPROD ? 1.0 : 0.0) : (double)a[i];
    for (j = 1; j + 4 <= n; j += 4) LAK(rowcol4)(op, m, a + j * lda, lda, c, out);
    for (; j < n; j++) LAK(rowcol)(op, m, a + j * lda, c, out);
    return;
  }
  if (n <= LAK_RNARROW) {
    i = LAK(rownarrow)(op, m, n, a, lda, c, out);
    m -= i; a += i; out += i;
    if (c) c += i;
  }
  for (b = 0; b < n; b += LAK_BLOCK) {
    for (i = 0; i < m; i++) t[i] = 0.0;
    e = n - b < LAK_BLOCK ? n : b + LAK_BLOCK;
    for (j = b; j + 4 <= e; j += 4) LAK(rowcol4)(op, m, a + j * lda, lda, c, t);
    for (; j < e; j++) LAK(rowcol)(op, m, a + j * lda, c, t);
    if (b == 0) for (i = 0; i < m; i++) out[i] = 0.0 + t[i];
    else for (i = 0; i < m; i++) out[i] += t[i];
  }
}

/* Strips of LAK_RROWS rows, each through every column, keep the row sums
** in L1 for any number of columns (a 300000 x 3 matrix made 4 passes over
** its 2.4 MB of sums); each row's terms and their order are unchanged */
void LAK(rowsum)(lak_Rows op, size_t m, size_t n, const LAK_REAL *a, size_t lda, const double *c,
                 double *out, double *t) {
  size_t r, h;
  for (r = 0; r < m; r += LAK_RROWS) {
    h = m - r < LAK_RROWS ? m - r : LAK_RROWS;
    LAK(rowstrip)(op, h, n, a + r, lda, c ? c + r : NULL, out + r, t);
  }
}

/* x[i] = sqrt(x[i]), i < h: vector square roots (reduce.o's flags) */
#if LAK_DOUBLE
LAK_CLONES static void LAK(sqrts)(size_t h, double *x) {
  size_t i;
  for (i = 0; i < h; i++) x[i] = sqrt(x[i]);
}
#endif
#define lak_ssqrts lak_sqrts        /* the float pass: its sums are doubles too */

/* The variances (std: their square roots) of the rows, both passes over
** a strip while it is in cache: the row sums, the means, the squares of
** the deviations from them (lak_rowsum's LAK_RSUM and LAK_RDEV, the same
** bits), divided by n - ddof */
void LAK(rowvar)(size_t m, size_t n, const LAK_REAL *a, size_t lda, double ddof, int sd,
                 double *out, double *t) {
  double c[LAK_RSTRIP];
  size_t r, h;
  for (r = 0; r < m; r += LAK_RROWS) {
    h = m - r < LAK_RROWS ? m - r : LAK_RROWS;
    LAK(rowstrip)(LAK_RSUM, h, n, a + r, lda, NULL, out + r, t);
    /* the divisions by lak_divby's vectors: this file's loops outside
    ** LAK_CLONES are SSE2's, two lanes (a third of std along the rows of
    ** 100000 x 10) */
    memcpy(c, out + r, h * sizeof *c);
    lak_divby(c, h, (double)n);
    LAK(rowstrip)(LAK_RDEV, h, n, a + r, lda, c, out + r, t);
    lak_divby(out + r, h, (double)n - ddof);
    if (sd) LAK(sqrts)(h, out + r);
  }
}

/* rows' extremes: NC columns p, p + lda, ... (numbers j, j + 1, ...) into
** val and idx, one after the other (val and idx loaded and stored once for
** the NC). A lane takes the entry when it is more extreme, or a NaN where
** the lane holds none yet, so a row's first NaN wins and stays (no
** comparison beats it). GCC vectorizes the select; vectors of W bytes, the
** CPU's width (see the top of reduce.c). Four columns a pass, combined as
** a tree and then into the extremes (one step of the chain through them
** for four columns): a column a pass loaded and stored the extremes for
** every entry read (max along the rows of 2000 x 2000: 2.8 ms, NumPy
** 2.1), and the four one after the other were latency-bound in cache
** (1000 x 1000: 125 -> 155 us). */
#define LAK_ROWEXT(name, OP, ATTR, W, NC) \
  ATTR static void LAK(name)(size_t m, const LAK_REAL *p, size_t lda, size_t j, LAK_REAL *val, \
                             LAK_REAL *idx) { \
    size_t i = 0, c_; \
    LAK_ROWEXTV(OP, W, NC) \
    for (; i < m; i++) \
      for (c_ = 0; c_ < NC; c_++) { \
        LAK_REAL xi = p[i + c_ * lda]; \
        if ((xi OP val[i]) | ((xi != xi) & (val[i] == val[i]))) { \
          val[i] = xi; \
          if (idx) idx[i] = (LAK_REAL)(j + c_); \
        } \
      } \
  }
#if LAK_VEC
#define LAK_ROWEXTV(OP, W, NC) \
    typedef LAK_REAL V __attribute__((vector_size(W))); \
    typedef LAK_PICK(int64_t, int32_t) M __attribute__((vector_size(W))); \
    enum { L = W / sizeof(LAK_REAL) }; \
    V v, e, u = {0}, v1, v2, v3, m01, m23, i01, i23, jv = {0}; \
    M k; \
    for (i = 0; i < L; i++) jv[i] = (LAK_REAL)j; \
    for (i = 0; i + L <= m; i += L) { \
      memcpy(&e, val + i, sizeof v); \
      if (idx) memcpy(&u, idx + i, sizeof v); \
      memcpy(&v, p + i, sizeof v); \
      if (NC == 4) {                 /* a tree: (0 1) (2 3), then into e */ \
        memcpy(&v1, p + i + lda, sizeof v); \
        memcpy(&v2, p + i + 2 * lda, sizeof v); \
        memcpy(&v3, p + i + 3 * lda, sizeof v); \
        k = LAK_XK(OP, v, v1); m01 = LAK_VS(V, M, k, v1, v); i01 = LAK_VS(V, M, k, jv + 1, jv); \
        k = LAK_XK(OP, v2, v3); m23 = LAK_VS(V, M, k, v3, v2); \
        i23 = LAK_VS(V, M, k, jv + 3, jv + 2); \
        k = LAK_XK(OP, m01, m23); m01 = LAK_VS(V, M, k, m23, m01); i01 = LAK_VS(V, M, k, i23, i01); \
        k = LAK_XK(OP, e, m01); e = LAK_VS(V, M, k, m01, e); u = LAK_VS(V, M, k, i01, u); \
      } else { \
        k = LAK_XK(OP, e, v); e = LAK_VS(V, M, k, v, e); u = LAK_VS(V, M, k, jv, u); \
      } \
      memcpy(val + i, &e, sizeof v); \
      if (idx) memcpy(idx + i, &u, sizeof v); \
    }
/* whether b replaces a as the extreme (OP): more extreme, or a NaN where a
** is none; ties keep a. The first extreme (or NaN) of a sequence, so the
** columns may be combined as a tree */
#define LAK_XK(OP, a, b) (((b) OP (a)) | (((b) != (b)) & ((a) == (a))))
/* Rows' extremes alone (no positions), four columns p .. p + 3 lda into
** val: a strict compare and a select each (LAK_XK's NaN terms were 3 of
** the 5 operations of a step, and GCC kept the unused positions' selects:
** max along the rows of 1000 x 1000 took 125 us, the sum 78). The same
** tree, so where no entry is NaN the bits are LAK_ROWEXTV's; a NaN or an
** Inf makes a lane of z NaN (x - x of the columns' sum), and the result
** is then nonzero: the caller takes the strip again by LAK_ROWEXTV. */
#define LAK_ROWEXTF(name, OP, ATTR, W) \
  ATTR static int LAK(name)(size_t m, const LAK_REAL *p, size_t lda, LAK_REAL *val) { \
    typedef LAK_REAL V __attribute__((vector_size(W))); \
    typedef LAK_PICK(int64_t, int32_t) M __attribute__((vector_size(W))); \
    enum { L = W / sizeof(LAK_REAL) }; \
    V v0, v1, v2, v3, m01, m23, e, t, z = {0}; \
    size_t i = 0, c_; \
    int l, bad = 0; \
    for (; i + L <= m; i += L) { \
      memcpy(&e, val + i, sizeof e); \
      memcpy(&v0, p + i, sizeof e); \
      memcpy(&v1, p + i + lda, sizeof e); \
      memcpy(&v2, p + i + 2 * lda, sizeof e); \
      memcpy(&v3, p + i + 3 * lda, sizeof e); \
      t = (v0 + v1) + (v2 + v3); \
      z += t - t; \
      m01 = LAK_VS(V, M, (M)(v1 OP v0), v1, v0); \
      m23 = LAK_VS(V, M, (M)(v3 OP v2), v3, v2); \
      m01 = LAK_VS(V, M, (M)(m23 OP m01), m23, m01); \
      e = LAK_VS(V, M, (M)(m01 OP e), m01, e); \
      memcpy(val + i, &e, sizeof e); \
    } \
    for (l = 0; l < L; l++) bad |= z[l] != z[l]; \
    for (; i < m; i++) \
      for (c_ = 0; c_ < 4; c_++) { \
        LAK_REAL xi = p[i + c_ * lda]; \
        bad |= xi != xi; \
        if (xi OP val[i]) val[i] = xi; \
      } \
    return bad; \
  }
#else
#define LAK_ROWEXTV(OP, W, NC)
#endif
#if LAK_MULTI
LAK_ROWEXT(rowmaxc512, >, LAK_T512, 64, 1)
LAK_ROWEXT(rowminc512, <, LAK_T512, 64, 1)
LAK_ROWEXT(rowmaxc256, >, LAK_T256, 32, 1)
LAK_ROWEXT(rowminc256, <, LAK_T256, 32, 1)
LAK_ROWEXT(rowmaxc128, >, , 16, 1)
LAK_ROWEXT(rowminc128, <, , 16, 1)
LAK_ROWEXT(rowmax4c512, >, LAK_T512, 64, 4)
LAK_ROWEXT(rowmin4c512, <, LAK_T512, 64, 4)
LAK_ROWEXT(rowmax4c256, >, LAK_T256, 32, 4)
LAK_ROWEXT(rowmin4c256, <, LAK_T256, 32, 4)
LAK_ROWEXT(rowmax4c128, >, , 16, 4)
LAK_ROWEXT(rowmin4c128, <, , 16, 4)
LAK_ROWEXTF(rowmaxf512, >, LAK_T512, 64)
LAK_ROWEXTF(rowminf512, <, LAK_T512, 64)
LAK_ROWEXTF(rowmaxf256, >, LAK_T256, 32)
LAK_ROWEXTF(rowminf256, <, LAK_T256, 32)
LAK_ROWEXTF(rowmaxf128, >, , 16)
LAK_ROWEXTF(rowminf128, <, , 16)
/* LAK_ROWEXTF at the widest vectors the CPU has (nonzero: a NaN or Inf) */
static int LAK(rowextf)(int wantmax, size_t m, const LAK_REAL *p, size_t lda, LAK_REAL *val) {
  switch (lak_isa()) {
    case 2: return wantmax ? LAK(rowmaxf512)(m, p, lda, val) : LAK(rowminf512)(m, p, lda, val);
    case 1: return wantmax ? LAK(rowmaxf256)(m, p, lda, val) : LAK(rowminf256)(m, p, lda, val);
    default: return wantmax ? LAK(rowmaxf128)(m, p, lda, val) : LAK(rowminf128)(m, p, lda, val);
  }
}
/* nc (1 or 4) columns into the rows' extremes, at the widest vectors the
** CPU has */
static void LAK(rowextc)(int wantmax, int nc, size_t m, const LAK_REAL *p, size_t lda, size_t j,
                         LAK_REAL *val, LAK_REAL *idx) {
  void (*f)(size_t, const LAK_REAL *, size_t, size_t, LAK_REAL *, LAK_REAL *);
  switch (lak_isa()) {
    case 2:
      f = nc == 4 ? (wantmax ? LAK(rowmax4c512) : LAK(rowmin4c512))
                  : (wantmax ? LAK(rowmaxc512) : LAK(rowminc512));
      break;
    case 1:
      f = nc == 4 ? (wantmax ? LAK(rowmax4c256) : LAK(rowmin4c256))
                  : (wantmax ? LAK(rowmaxc256) : LAK(rowminc256));
      break;
    default:
      f = nc == 4 ? (wantmax ? LAK(rowmax4c128) : LAK(rowmin4c128))
                  : (wantmax ? LAK(rowmaxc128) : LAK(rowminc128));
  }
  f(m, p, lda, j, val, idx);
}
#else
LAK_ROWEXT(rowmaxc, >, , 64, 1)
LAK_ROWEXT(rowminc, <, , 64, 1)
LAK_ROWEXT(rowmax4c, >, , 64, 4)
LAK_ROWEXT(rowmin4c, <, , 64, 4)
#if LAK_VEC
LAK_ROWEXTF(rowmaxf, >, , 64)
LAK_ROWEXTF(rowminf, <, , 64)
static int LAK(rowextf)(int wantmax, size_t m, const LAK_REAL *p, size_t lda, LAK_REAL *val) {
  return wantmax ? LAK(rowmaxf)(m, p, lda, val) : LAK(rowminf)(m, p, lda, val);
}
#endif
static void LAK(rowextc)(int wantmax, int nc, size_t m, const LAK_REAL *p, size_t lda, size_t j,
                         LAK_REAL *val, LAK_REAL *idx) {
  if (nc == 4) {
    if (wantmax) LAK(rowmax4c)(m, p, lda, j, val, idx); else LAK(rowmin4c)(m, p, lda, j, val, idx);
  } else if (wantmax) LAK(rowmaxc)(m, p, lda, j, val, idx);
  else LAK(rowminc)(m, p, lda, j, val, idx);
}
#endif
#undef LAK_ROWEXTV

/* whether a strip's extremes hold a zero, whose sign a -0 / +0 tie sets
** (lak_rowext then looks at those rows again); one branch-free pass */
LAK_CLONES static int LAK(stripzero)(size_t h, const LAK_REAL *val) {
  size_t i;
  int any = 0;
  for (i = 0; i < h; i++) any |= val[i] == 0;
  return any;
}

#if LAK_VEC
/* A packed matrix of h < 8 rows (lda = h) read as one line of vectors: lane
** l of vector k in each period of h vectors always holds row (k VL + l) mod
** h, so phase k (one pass over every h-th vector) keeps a vector pair
** (extreme, column) by strict comparison, one mask (GCC leaves a
** combination of masks scalar in these clones). The lanes of a row are then
** merged (the extreme, the first of ties). Returns the columns done (whole
** periods of VL columns): val and idx of those; 0, val untouched, when
** there are fewer than two periods or a NaN or an Inf (z turns NaN) sends
** the matrix to the caller's loop. */
#define LAK_PHASE(OP) \
  for (p = 1; p < np; p++) { \
    LAK(V) v = LAK(vload)(a + (p * h + k) * VL); \
    LAK(M) t = v OP e; \
    col += step; \
    z += v - v; \
    e = VSEL(t, v, e); c = VSEL(t, col, c); \
  }
LAK_CLONES static size_t LAK(rowextlanes)(int wantmax, size_t h, size_t n, const LAK_REAL *a,
                                          LAK_REAL *val, LAK_REAL *idx) {
  LAK_REAL ve[7 * VL], vi[7 * VL];
  size_t np = n / VL, p, k, l, i;
  if (np < 2 || h < 2 || h > 7) return 0;
  for (k = 0; k < h; k++) {               /* phase k: a pass over every h-th vector */
    LAK(V) e = LAK(vload)(a + k * VL), step = LAK(vset)((LAK_REAL)VL), col = {0}, c, z = e - e;
    for (l = 0; l < VL; l++) col[l] = (LAK_REAL)((k * VL + l) / h);
    c = col;
    if (wantmax) { LAK_PHASE(>) } else { LAK_PHASE(<) }
    for (l = 0; l < VL; l++)
      if (z[l] != z[l]) return 0;         /* a NaN or an Inf: the caller's loop */
    memcpy(ve + k * VL, &e, sizeof e);
    memcpy(vi + k * VL, &c, sizeof c);
  }
  for (i = 0; i < h; i++) {
    LAK_REAL bv = 0, bj = 0;
    int have = 0;
    for (l = i; l < h * VL; l += h) {     /* the lanes of row i */
      LAK_REAL x = ve[l], j = vi[l];
      if (!have || (wantmax ? x > bv : x < bv) || (x == bv && j < bj)) {
        bv = x; bj = j; have = 1;
      }
    }
    val[i] = bv;
    if (idx) idx[i] = bj;
  }
  return np * VL;
}
#undef LAK_PHASE
#endif

/* columns 1.. of fewer than 8 rows (too few for a vector) in one loop:
** a call per column cost 3x NumPy's time on 3 x 300000 */
LAK_CLONES static void LAK(rowextfew)(int wantmax, size_t h, size_t n, const LAK_REAL *a,
                                      size_t lda, LAK_REAL *val, LAK_REAL *idx) {
  size_t i, j = 1;
#if LAK_VEC
  if (lda == h) {                         /* whole periods by vectors, then the rest */
    size_t done = LAK(rowextlanes)(wantmax, h, n, a, val, idx);
    if (done) j = done;
  }
#endif
  for (; j < n; j++)
    for (i = 0; i < h; i++) {
      LAK_REAL xi = a[i + j * lda];
      if ((wantmax ? xi > val[i] : xi < val[i]) | ((xi != xi) & (val[i] == val[i]))) {
        val[i] = xi;
        if (idx) idx[i] = (LAK_REAL)j;
      }
    }
}

void LAK(rowext)(int wantmax, size_t m, size_t n, const LAK_REAL *a, size_t lda, LAK_REAL *val,
                 LAK_REAL *idx) {
  size_t i, j, r, h;
  for (r = 0; r < m; r += LAK_RROWS) {     /* strips in L1, as lak_rowsum's */
    h = m - r < LAK_RROWS ? m - r : LAK_RROWS;
    /* column 0 by memcpy: the scalar loop GCC made of this kept few of its
    ** cache misses in flight, 60% of the time of max along the rows of
    ** 100000 x 10 float32 */
    memcpy(val + r, a + r, h * sizeof *val);
    if (idx) memset(idx + r, 0, h * sizeof *idx);      /* 0.0: all bits zero */
    if (h < 8) LAK(rowextfew)(wantmax, h, n, a + r, lda, val + r, idx ? idx + r : NULL);
    else {
      j = 1;
#if LAK_VEC
      if (!idx) {                          /* values alone: LAK_ROWEXTF, unless a NaN or Inf */
        for (; j + 4 <= n; j += 4)
          if (LAK(rowextf)(wantmax, h, a + r + j * lda, lda, val + r)) break;
        if (j + 4 <= n) {                  /* the strip again, by the NaN-aware steps */
          for (i = r; i < r + h; i++) val[i] = a[i];
          j = 1;
        }
      }
#endif
      for (; j + 4 <= n; j += 4)
        LAK(rowextc)(wantmax, 4, h, a + r + j * lda, lda, j, val + r, idx ? idx + r : NULL);
      for (; j < n; j++)
        LAK(rowextc)(wantmax, 1, h, a + r + j * lda, lda, j, val + r, idx ? idx + r : NULL);
    }
    if (!idx && LAK(stripzero)(h, val + r))
      for (i = r; i < r + h; i++)
        val[i] = (LAK_REAL)LAK(zfix)(wantmax, val[i], n, a + i, (ptrdiff_t)lda);
  }
}

#undef LX
