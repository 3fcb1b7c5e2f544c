/*
** kernels/sort.c: stable sorts of a line of doubles or floats (sort,
** argsort). Each entry becomes an unsigned integer key that orders as the
** values do (IEEE bits, the sign folded in; -0.0 keyed as 0.0, so the two
** are equal as NumPy compares them; every NaN the largest key, so NaN goes
** last; descending: the keys complemented, NaN first), carried with its
** position (a double's key and position side by side, a float's 32-bit key
** and position packed in one 64-bit word: key << 32 | position, which
** orders ties by position). Short lines are sorted by insertion and
** merging (each merge from both ends at once, without a branch on the
** data: argsort of 100 x 100 along the columns, timed as the breadth bench
** does, went from 160 to 75 us, NumPy 1.24's stable 120), long ones
** by an LSD radix sort, 8 or 11 bits of the key a pass, passes
** on which every key has the same digit skipped; both keep equal keys in
** input order, so the result is NumPy's kind="stable" (and Octave's sort).
** The values written back are the entries themselves (the sign of a zero
** and a NaN's payload kept), or, in a line with no zero and no NaN, the
** values rebuilt from their keys: the same bits. With positions, lines of up to 1024 floats or
** 65536 doubles carry the position in the key's low bits instead (one
** word an entry; SORTPACKED below).
*/
#include <string.h>

#include "kernels.h"
#include "loops.h"

typedef lak_SortItem Item;

#define RUN 16          /* insertion-sorted runs of the merge sort */
#define RADIX_MIN 256   /* from this length on, the radix sort */
#define NET_MIN 8       /* above this length (to 128 or 256), a network if it runs */
#define NETM_MIN 129   /* from here to each type's NETM_MAX, blocks merged (if it runs) */

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define UNROLL8 _Pragma("GCC unroll 8")
#else
#define UNROLL8
#endif

/* p if c (0 or 1) else q, pointers to T, by arithmetic: GCC made the
** ternary a branch, which the data decide (argsort of 100 x 100 took
** 160 us, not 75, once the predictor had not seen the same data before) */
#define LAK_SEL(T, c, p, q) ((const T *)((uintptr_t)(q) ^ (((uintptr_t)(p) ^ (uintptr_t)(q)) & \
                                         ((uintptr_t)0 - (uintptr_t)(c)))))

#define KEY_I(e) ((e).k)            /* a double's item: the key beside the position */
#define KEY_P(e) (e)                /* a float's word: key and position together */

/* LSD radix sort of n elements E by KEY(E)'s ND digits of RB bits from
** bit OFF on, counts in cnt (ND rows) */
#define RADIX(sfx, E, KEY, OFF, RB, ND) \
  static E *radix_##sfx(E *a, E *b, size_t n, uint32_t (*cnt)[1u << RB]) { \
    size_t i; \
    int d; \
    memset(cnt, 0, sizeof *cnt * ND); \
    for (i = 0; i < n; i++) { \
      uint64_t k = KEY(a[i]); \
      UNROLL8 for (d = 0; d < ND; d++) cnt[d][(k >> (OFF + RB * d)) & ((1u << RB) - 1)]++; \
    } \
    for (d = 0; d < ND; d++) { \
      uint32_t *c = cnt[d], sum = 0, t; \
      const int sh = OFF + RB * d; \
      E *t2; \
      uint32_t v; \
      if (c[(KEY(a[0]) >> sh) & ((1u << RB) - 1)] == n) continue;   /* one digit: nothing moves */ \
      for (v = 0; v < (1u << RB); v++) { t = c[v]; c[v] = sum; sum += t; } \
      for (i = 0; i < n; i++) { \
        E e = a[i]; \
        b[c[(KEY(e) >> sh) & ((1u << RB) - 1)]++] = e; \
      } \
      t2 = a; a = b; b = t2; \
    } \
    return a; \
  }

/* The sorts of n elements E by KEY(E), the key's bits from OFF on (the
** bits below are the position), ND8 bytes of it: each returns where the
** result is, a or the scratch b (n elements, then the 11-bit radix sort
** R11's counts from n = R11_MIN to R11_MAX). */
#define SORTS(sfx, E, KEY, OFF, ND8, R11, R11_MIN, R11_MAX, NET, NETM, NETM_MAX) \
  static void insertion_##sfx(E *a, size_t n) { \
    size_t i, j; \
    for (i = 1; i < n; i++) { \
      E t = a[i]; \
      for (j = i; j > 0 && KEY(a[j - 1]) > KEY(t); j--) a[j] = a[j - 1]; \
      a[j] = t; \
    } \
  } \
  /* [l0, m) and [m, e) merged into c from both ends at once: the smallest \
  ** head to the front (ties: the left one), the largest tail to the back \
  ** (ties: the right one), two dependency chains in one loop, no branch on \
  ** the data. The left run is the longer, so neither end runs out of it \
  ** before its last step; either can run out of the right one, which the \
  ** masks cover (the front then reads *e, one past the run: the scratch \
  ** has room, LAK_SORT_WORK). */ \
  static void merge_##sfx(const E *l0, const E *m, const E *e, E *c) { \
    const E *l = l0, *le = m - 1, *r = m, *re = e - 1; \
    E *f = c, *g = c + (e - l0) - 1; \
    size_t h = (size_t)(e - l0) / 2, t; \
    for (t = 0; t < h; t++) { \
      size_t tr = (size_t)((r < e) & (KEY(*r) < KEY(*l))); \
      size_t tl = (size_t)((re < m) | (KEY(*le) > KEY(*re))); \
      *f++ = *LAK_SEL(E, tr, r, l); \
      r += tr; l += 1 - tr; \
      *g-- = *LAK_SEL(E, tl, le, re); \
      le -= tl; re -= 1 - tl; \
    } \
    if ((e - l0) & 1) *f = l <= le ? *l : *r; \
  } \
  static E *mergesort_##sfx(E *a, E *b, size_t n) { \
    size_t w, lo_; \
    for (lo_ = 0; lo_ < n; lo_ += RUN) insertion_##sfx(a + lo_, n - lo_ < RUN ? n - lo_ : RUN); \
    for (w = RUN; w < n; w *= 2) { \
      E *t; \
      for (lo_ = 0; lo_ < n; lo_ += 2 * w) { \
        size_t mid = lo_ + w < n ? lo_ + w : n, hi = lo_ + 2 * w < n ? lo_ + 2 * w : n; \
        if (mid >= hi) memcpy(b + lo_, a + lo_, (n - lo_) * sizeof *a); \
        else merge_##sfx(a + lo_, a + mid, a + hi, b + lo_); \
      } \
      t = a; a = b; b = t; \
    } \
    return a; \
  } \
  RADIX(sfx##8, E, KEY, OFF, 8, ND8) \
  static E *sort_##sfx(E *a, E *b, size_t n) { \
    if (n > NET_MIN && NET(a, n)) return a; \
    if (n >= NETM_MIN && n <= NETM_MAX) { \
      E *r_ = NETM(a, b + 16, n); \
      if (r_) return r_; \
    } \
    if (n <= RUN) { insertion_##sfx(a, n); return a; } \
    if (n < RADIX_MIN) return mergesort_##sfx(a, b, n); \
    if (n >= R11_MIN && n <= R11_MAX) return R11(a, b, n); \
    { \
      uint32_t cnt[ND8][256]; \
      return radix_##sfx##8(a, b, n, cnt); \
    } \
  }

/* 64-bit words: kernels/sortnet.c's network where it runs (else 0) */
#define NET64(a, n) lak_sortnet64((a), (n))
#define NET32(a, n) lak_sortnet32((a), (n))
#define NONET(a, n) ((void)(a), (void)(n), 0)
#define NET64M(a, b, n) lak_sortnet64m((a), (b), (n))
#define NET32M(a, b, n) lak_sortnet32m((a), (b), (n))
#define NONETM(a, b, n) ((void)(a), (void)(b), (void)(n), (Item *)NULL)
/* The longest lines whose network blocks are merged, past which the radix
** sort is faster (float32 values or float64 keys sorted along the columns
** of L x (1e6 / L) matrices, ms, radix -> merge: a float32 key and position,
** 4 radix passes: L = 200 13.7 -> 4.1 (the merge sort before), 500 5.5 ->
** 4.4, 1000 6.7 -> 6.9; a float32 key alone: 500 4.0 -> 1.6, 1000 3.5 ->
** 2.1, 2000 3.4 -> 2.7, 5000 3.2 -> 3.7; a float64 key, 8 passes: 1000 7.6
** -> 4.1, 5000 7.2 -> 6.5, 10000 7.0 -> 7.4). */
/* 11-bit digits (3 passes for a float's key, 6 for a double's, not 4 and
** 8) from LAK_SORT_R11 entries on, where LAK_SORT_WORK leaves room for
** their counts (2048 a digit) past the scratch, and where the counts stay
** in cache and the 2048 destinations do not outrun the TLB: x:sort() of
** float32, us, 8 -> 11 bits: 1e4 51 -> 42, 1e5 475 -> 388, values alone
** 31 -> 24, 309 -> 229, 1e6 3449 -> 2405; float64 1e4 106 -> 84, 1e5 1031
** -> 864, values 681 -> 616. Past 5e5 entries of 8 bytes or more, 8 bits
** (float64 values 1e6: 7362, 11 bits 8094). The crossovers above, from the
** networks' blocks to the radix sort, were measured against 8-bit digits. */
RADIX(i11, Item, KEY_I, 0, 11, 6)
RADIX(p11, uint64_t, KEY_P, 32, 11, 3)
RADIX(v11, uint64_t, KEY_P, 0, 11, 6)
RADIX(w11, uint32_t, KEY_P, 0, 11, 3)
#define CNT11(b, n) ((uint32_t (*)[2048])(void *)((b) + (n)))
#define R11I(a, b, n) radix_i11((a), (b), (n), CNT11(b, n))
#define R11P(a, b, n) radix_p11((a), (b), (n), CNT11(b, n))
#define R11V(a, b, n) radix_v11((a), (b), (n), CNT11(b, n))
#define R11W(a, b, n) radix_w11((a), (b), (n), CNT11(b, n))
SORTS(i, Item, KEY_I, 0, 8, R11I, LAK_SORT_R11, 500000, NONET, NONETM, 0)
SORTS(p, uint64_t, KEY_P, 32, 4, R11P, LAK_SORT_R11, 500000, NET64, NET64M, 800)
SORTS(v, uint64_t, KEY_P, 0, 8, R11V, LAK_SORT_R11, 500000, NET64, NET64M, 6000)   /* keys alone (values only) */
SORTS(w, uint32_t, KEY_P, 0, 4, R11W, LAK_SORT_R11, (size_t)-1, NET32, NET32M, 3000)

#define MAKE_I(a, i, key) ((a)[i].k = (key), (a)[i].i = (uint32_t)(i))
#define POS_I(e) ((e).i)
#define MAKE_P(a, i, key) ((a)[i] = (uint64_t)(key) << 32 | (uint32_t)(i))
#define POS_P(e) ((uint32_t)(e))

/* The key of a value with bits u (sign bit s): the bits with the sign
** folded in, so keys order as values; NaN and desc are handled by the
** caller. Then the sort of one line for element type T (bits U) through
** elements E. */
#define ORDERKEY(u, s) ((u) & (s) ? ~(u) : (u) | (s))
#define UNKEY(k, s) ((k) & (s) ? (k) & ~(s) : ~(k))

/* Values only (ix NULL): the keys alone sorted (as wide as T: half the
** traffic of key and position) and turned back into values; the entries
** with the keys of 0.0 and NaN, which stand for several bit patterns (-0.0
** and +0.0; NaN payloads), are then rewritten in their input order: the
** result is the stable sort's, bit for bit. */
#define SORTVALS(name, T, U, I, sfx) \
  static void name(int n, const T *x, ptrdiff_t incx, int desc, T *s, ptrdiff_t incs, \
                   U *a) { \
    const U S = (U)1 << (8 * sizeof(U) - 1), flip = desc ? (U)~(U)0 : 0; \
    const U knan = (U)~flip, kzero = (U)(S ^ flip); \
    U *r, odd; \
    int i; \
    odd = keys_##sfx(n, x, incx, flip, a); \
    r = sort_##sfx(a, a + n, (size_t)n); \
    unkeys_##sfx(n, r, flip, s, incs); \
    if (odd) {                       /* zeros, then NaNs, in input order */ \
      int j = 0, t; \
      for (t = 0; t < 2; t++) { \
        U want = t ? knan : kzero; \
        for (i = 0, j = 0; i < n; i++) { \
          T v = x[(ptrdiff_t)i * incx]; \
          if (t ? v != v : v == 0) { \
            while (r[j] != want) j++; \
            s[(ptrdiff_t)j++ * incs] = v; \
          } \
        } \
      } \
    } \
  }
/* a[i] = the key of the value with bits x[i * incx] (no branch: integer
** arithmetic, compiled for each vector width); returns nonzero if a zero
** or a NaN is among them. unkeys: the values' bits back from sorted keys. */
#define KEYS(sfx, U) \
  LAK_CLONES static U keys_##sfx(int n, const void *restrict x, ptrdiff_t incx, U flip, \
                                 U *restrict a) { \
    const U S = (U)1 << (8 * sizeof(U) - 1), knan = (U)~flip, kzero = (U)(S ^ flip); \
    const U am = (U)(S - 1); \
    U odd = 0; \
    int i; \
    for (i = 0; i < n; i++) { \
      U u, k; \
      memcpy(&u, (const char *)x + (ptrdiff_t)i * incx * (ptrdiff_t)sizeof u, sizeof u); \
      k = u ^ (((U)0 - (u >> (8 * sizeof(U) - 1))) | S); \
      k = (u & am) == 0 ? kzero : (u & am) > LAK_INFBITS(U) ? knan : k ^ flip; \
      odd |= (U)((u & am) == 0) | (U)((u & am) > LAK_INFBITS(U)); \
      a[i] = k; \
    } \
    return odd; \
  } \
  LAK_CLONES static void unkeys_##sfx(int n, const U *restrict r, U flip, void *restrict s, \
                                      ptrdiff_t incs) { \
    const U S = (U)1 << (8 * sizeof(U) - 1); \
    int i; \
    for (i = 0; i < n; i++) { \
      U k = r[i] ^ flip, u = k ^ ((U)~((U)0 - (k >> (8 * sizeof(U) - 1))) | S); \
      memcpy((char *)s + (ptrdiff_t)i * incs * (ptrdiff_t)sizeof u, &u, sizeof u); \
    } \
  }

/* the bits of +Inf */
#define LAK_INFBITS(U) (sizeof(U) == 8 ? (U)0x7ff0000000000000u : (U)0x7f800000u)
KEYS(v, uint64_t)
KEYS(w, uint32_t)
SORTVALS(sortvals, double, uint64_t, int64_t, v)
SORTVALS(ssortvals, float, uint32_t, int32_t, w)

/* With positions, lines of at most 2^PB entries (PB = 10 for floats, 16
** for doubles): the position goes into the key's low pb bits (pb: as many
** as the line needs, at least PB_MIN), so each entry is one word and the
** keys-alone sort (the network's 16 or 8 lanes) orders by the key's high
** bits, then by position. Runs that tie on the high bits are then put in
** the order of their whole keys, stably (their positions ascend): for
** doubles (36 bits of mantissa left) almost never, for 1000 floats (13
** bits left) about 21 neighbours a line if uniform on [0, 1), 6 if normal;
** past n moves in all (keys that differ only in the low bits, in falling
** order) the line goes to the key-and-position sort below, so no run costs
** its square. A float's key and position had been a 64-bit word: its sort
** along the columns of 100 x 100 took 38 us, the values alone 20; along
** those of 1000 x 1000 (pb 8 then, so 64-bit words and the radix sort)
** 7.4 ms, now 4.4 (NumPy's values alone 3.9). */
#define FULLKEY(T, U, v, S, flip, out) do { \
    T v_ = (v) + (T)0;                          /* -0.0 + 0.0 is 0.0 */ \
    U u_; \
    memcpy(&u_, &v_, sizeof u_); \
    (out) = v_ != v_ ? (U)~(flip) : (U)(ORDERKEY(u_, S) ^ (flip)); \
  } while (0)
/* whether any of the 64 bytes at p is nonzero: halves folded as vectors
** (GCC took the lanes out one by one) */
typedef uint64_t lak_v4u __attribute__((vector_size(32)));
typedef uint64_t lak_v2u __attribute__((vector_size(16)));
static inline __attribute__((always_inline)) int lak_any64(const void *p) {
  lak_v4u a, b;
  lak_v2u c, d;
  memcpy(&a, p, sizeof a);
  memcpy(&b, (const char *)p + 32, sizeof b);
  a |= b;
  memcpy(&c, &a, sizeof c);
  memcpy(&d, (const char *)&a + 16, sizeof d);
  c |= d;
  return (c[0] | c[1]) != 0;
}

/* The packed sort's three passes over a line, vectorized in their clones:
** the words (key's high bits, position), the first tie on the high bits
** hi from position i >= 1 on (n if none; 64 bytes of words compared at
** once), and the values and positions out (the columns of 1000 x 1000
** floats, the passes in plain loops: 5.3 ms, vectorized 4.4) */
#define PACKPASSES(sfx, T, U) \
  LAK_CLONES static void pkeys_##sfx(int n, const T *restrict x, ptrdiff_t incx, U flip, \
                                     U low, U *restrict a) { \
    const U S = (U)1 << (8 * sizeof(U) - 1); \
    U k; \
    int i; \
    for (i = 0; i < n; i++) { \
      FULLKEY(T, U, x[(ptrdiff_t)i * incx], S, flip, k); \
      a[i] = (k & (U)~low) | (U)i; \
    } \
  } \
  LAK_CLONES static int firsttie_##sfx(const U *restrict r, int i, int n, U hi) { \
    typedef U V_ __attribute__((vector_size(64))); \
    const int W_ = (int)(64 / sizeof(U)); \
    for (; n - i >= W_; i += W_) { \
      V_ a_, b_, m_; \
      memcpy(&a_, r + i, sizeof a_); \
      memcpy(&b_, r + i - 1, sizeof b_); \
      m_ = (V_)(((a_ ^ b_) & hi) == 0); \
      if (lak_any64(&m_)) break; \
    } \
    for (; i < n; i++) if (((r[i] ^ r[i - 1]) & hi) == 0) return i; \
    return n; \
  } \
  LAK_CLONES static void pout_##sfx(int n, const U *restrict r, U low, const T *restrict x, \
                                    ptrdiff_t incx, T *restrict s, ptrdiff_t incs, \
                                    double *restrict ix, ptrdiff_t inci) { \
    int i; \
    if (s) for (i = 0; i < n; i++) s[(ptrdiff_t)i * incs] = x[(ptrdiff_t)(r[i] & low) * incx]; \
    for (i = 0; i < n; i++) ix[(ptrdiff_t)i * inci] = (double)(r[i] & low) + 1; \
  }
#define SORTPACKED(name, T, U, sfx, PB) \
  static int name(int n, const T *x, ptrdiff_t incx, int desc, T *s, ptrdiff_t incs, \
                  double *ix, ptrdiff_t inci, U *a) { \
    const U flip = desc ? (U)~(U)0 : 0; \
    U *r, low; \
    long budget = n;                            /* moves before the caller's sort is cheaper */ \
    int i, j, pb = PB##_MIN; \
    while (pb < (PB) && ((U)1 << pb) < (U)n) pb++; \
    low = ((U)1 << pb) - 1; \
    pkeys_##sfx(n, x, incx, flip, low, a); \
    r = sort_##sfx(a, a + n, (size_t)n); \
    for (i = 1; (i = firsttie_##sfx(r, i, n, (U)~low)) < n; i = j + 1) { \
      for (j = i + 1; j < n && ((r[j] ^ r[j - 1]) & (U)~low) == 0; j++) {} \
      if (!tierun_##sfx(r + i - 1, j - i + 1, x, incx, flip, low, &budget)) return 0; \
    } \
    pout_##sfx(n, r, low, x, incx, s, incs, ix, inci); \
    return 1; \
  }
/* a run of m words whose keys' high bits tie, into their whole keys'
** order by insertion (stable: the positions ascend); each move spends one
** of *budget, and none left returns 0 (equal values move nothing) */
#define TIERUN(sfx, T, U) \
  static int tierun_##sfx(U *r, int m, const T *x, ptrdiff_t incx, U flip, U low, \
                          long *budget) { \
    const U S = (U)1 << (8 * sizeof(U) - 1); \
    U kt, kj, t; \
    int i, j; \
    for (i = 1; i < m; i++) { \
      t = r[i]; \
      FULLKEY(T, U, x[(ptrdiff_t)(t & low) * incx], S, flip, kt); \
      for (j = i; j > 0; j--) { \
        FULLKEY(T, U, x[(ptrdiff_t)(r[j - 1] & low) * incx], S, flip, kj); \
        if (!(kj > kt)) break; \
        if (--*budget < 0) return 0; \
        r[j] = r[j - 1]; \
      } \
      r[j] = t; \
    } \
    return 1; \
  }
TIERUN(v, double, uint64_t)
TIERUN(w, float, uint32_t)
PACKPASSES(v, double, uint64_t)
PACKPASSES(w, float, uint32_t)
#define PB_D 16
#define PB_D_MIN 16
#define PB_F 10
#define PB_F_MIN 8
SORTPACKED(sortpacked, double, uint64_t, v, PB_D)
SORTPACKED(ssortpacked, float, uint32_t, w, PB_F)

/* Floats with positions past the packed sort's lines: the words key << 32
** | position built without a branch (keys_w's arithmetic), and, when no
** zero or NaN is among the values (their keys stand for several bit
** patterns), the values written back from the sorted keys, not gathered
** from x (x:sort() of float32: 1e4 52-58 -> 38-47 us, 1e6 8.9-9.1 ->
** 6.3-7.3 ms; with a zero among them 9.1 -> 8.1-8.6 ms). Also the lines
** the packed sort gives back, and every line of the _keyed entry. */
LAK_CLONES static uint32_t swords(int n, const float *restrict x, ptrdiff_t incx, uint32_t flip,
                                  uint64_t *restrict a) {
  const uint32_t S = 0x80000000u, knan = ~flip, kzero = S ^ flip, am = S - 1;
  uint32_t odd = 0;
  int i;
  for (i = 0; i < n; i++) {
    uint32_t u, k, z, q;
    memcpy(&u, x + (ptrdiff_t)i * incx, sizeof u);
    k = (u ^ ((0u - (u >> 31)) | S)) ^ flip;
    z = (u & am) == 0;
    q = (u & am) > LAK_INFBITS(uint32_t);
    k = z ? kzero : q ? knan : k;
    odd |= z | q;
    a[i] = (uint64_t)k << 32 | (uint32_t)i;
  }
  return odd;
}
LAK_CLONES static void swordsout(int n, const uint64_t *restrict r, uint32_t flip, int unkey,
                                 const float *restrict x, ptrdiff_t incx, float *restrict s,
                                 ptrdiff_t incs, double *restrict ix, ptrdiff_t inci) {
  const uint32_t S = 0x80000000u;
  int i;
  if (s && unkey)
    for (i = 0; i < n; i++) {
      uint32_t k = (uint32_t)(r[i] >> 32) ^ flip, u = k ^ (~(0u - (k >> 31)) | S);
      memcpy(s + (ptrdiff_t)i * incs, &u, sizeof u);
    }
  else if (s)
    for (i = 0; i < n; i++) s[(ptrdiff_t)i * incs] = x[(ptrdiff_t)(uint32_t)r[i] * incx];
  for (i = 0; i < n; i++) ix[(ptrdiff_t)i * inci] = (double)(uint32_t)r[i] + 1;
}
static int swordsort(int n, const float *x, ptrdiff_t incx, int desc, float *s, ptrdiff_t incs,
                     double *ix, ptrdiff_t inci, uint64_t *a) {
  const uint32_t flip = desc ? ~0u : 0;
  uint32_t odd = swords(n, x, incx, flip, a);
  swordsout(n, sort_p(a, a + n, (size_t)n), flip, !odd, x, incx, s, incs, ix, inci);
  return 1;
}
#define NOWORDS(n, x, incx, desc, s, incs, ix, inci, a) 0

/* The key of a value with bits u (sign bit s): the bits with the sign
** folded in, so keys order as values; NaN and desc are handled by the
** caller. Then the sort of one line for element type T (bits U) through
** elements E. */
#define SORTLINE(name, T, U, E, sfx, MAKE, POS, VALS, PACKED, PB, WORDS) \
  static void name##_(int pack, int n, const T *x, ptrdiff_t incx, int desc, T *s, \
                      ptrdiff_t incs, double *ix, ptrdiff_t inci, lak_SortItem *work) { \
    const U S = (U)1 << (8 * sizeof(U) - 1), flip = desc ? (U)~(U)0 : 0; \
    E *a = (E *)(void *)work, *r; \
    int i; \
    if (n <= 0) return; \
    if (!ix) { if (s) VALS(n, x, incx, desc, s, incs, (U *)(void *)work); return; } \
    if (pack && n <= (1 << (PB)) && PACKED(n, x, incx, desc, s, incs, ix, inci, (U *)(void *)work)) \
      return; \
    if (WORDS(n, x, incx, desc, s, incs, ix, inci, a)) return; \
    for (i = 0; i < n; i++) { \
      T v = x[(ptrdiff_t)i * incx] + (T)0;        /* -0.0 + 0.0 is 0.0 */ \
      U u; \
      memcpy(&u, &v, sizeof u); \
      MAKE(a, i, v != v ? (U)~flip : (U)(ORDERKEY(u, S) ^ flip)); \
    } \
    r = sort_##sfx(a, a + n, (size_t)n); \
    if (s) for (i = 0; i < n; i++) s[(ptrdiff_t)i * incs] = x[(ptrdiff_t)POS(r[i]) * incx]; \
    if (ix) for (i = 0; i < n; i++) ix[(ptrdiff_t)i * inci] = (double)POS(r[i]) + 1; \
  } \
  void name(int n, const T *x, ptrdiff_t incx, int desc, T *s, ptrdiff_t incs, double *ix, \
            ptrdiff_t inci, lak_SortItem *work) { \
    name##_(1, n, x, incx, desc, s, incs, ix, inci, work); \
  } \
  void name##_keyed(int n, const T *x, ptrdiff_t incx, int desc, T *s, ptrdiff_t incs, \
                    double *ix, ptrdiff_t inci, lak_SortItem *work) { \
    name##_(0, n, x, incx, desc, s, incs, ix, inci, work); \
  }

SORTLINE(lak_sort, double, uint64_t, Item, i, MAKE_I, POS_I, sortvals, sortpacked, PB_D, NOWORDS)
SORTLINE(lak_ssort, float, uint32_t, uint64_t, p, MAKE_P, POS_P, ssortvals, ssortpacked, PB_F, swordsort)
