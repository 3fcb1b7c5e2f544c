/*
** kernels/sort.c: stable sorts of a line of doubles or floats (sort,
** argsort). Each entry becomes an unsigned integer key that orders as the
** values do (IEEE bits, the sign folded in; -0.0 keyed as 0.0, so the two
** are equal as NumPy compares them; every NaN the largest key, so NaN goes
** last; descending: the keys complemented, NaN first), carried with its
** position (a double's key and position side by side, a float's 32-bit key
** and position packed in one 64-bit word: key << 32 | position, which
** orders ties by position). Short lines are sorted by insertion and
** merging, long ones by an LSD radix sort, 8 bits of the key a pass, passes
** on which every key has the same digit skipped; both keep equal keys in
** input order, so the result is NumPy's kind="stable" (and Octave's sort).
** The values written back are the entries themselves (the sign of a zero
** and a NaN's payload kept).
*/
#include <string.h>

#include "kernels.h"

typedef lak_SortItem Item;

#define RUN 16          /* insertion-sorted runs of the merge sort */
#define RADIX_MIN 256   /* from this length on, the radix sort */

#define KEY_I(e) ((e).k)            /* a double's item: the key beside the position */
#define KEY_P(e) (e)                /* a float's word: key and position together */

/* The sorts of n elements E by KEY(E), the key's bytes lo..7 (its low
** bytes below lo are the position): each returns where the result is, a or
** the scratch b. */
#define SORTS(sfx, E, KEY, lo) \
  static void insertion_##sfx(E *a, size_t n) { \
    size_t i, j; \
    for (i = 1; i < n; i++) { \
      E t = a[i]; \
      for (j = i; j > 0 && KEY(a[j - 1]) > KEY(t); j--) a[j] = a[j - 1]; \
      a[j] = t; \
    } \
  } \
  static E *mergesort_##sfx(E *a, E *b, size_t n) { \
    size_t w, lo_; \
    for (lo_ = 0; lo_ < n; lo_ += RUN) insertion_##sfx(a + lo_, n - lo_ < RUN ? n - lo_ : RUN); \
    for (w = RUN; w < n; w *= 2) { \
      E *t; \
      for (lo_ = 0; lo_ < n; lo_ += 2 * w) { \
        size_t mid = lo_ + w < n ? lo_ + w : n, hi = lo_ + 2 * w < n ? lo_ + 2 * w : n; \
        size_t i = lo_, j = mid, k = lo_; \
        while (i < mid && j < hi) {           /* no branch on the data */ \
          int right = KEY(a[j]) < KEY(a[i]); \
          b[k++] = a[right ? j : i]; \
          j += right; i += !right; \
        } \
        while (i < mid) b[k++] = a[i++]; \
        while (j < hi) b[k++] = a[j++]; \
      } \
      t = a; a = b; b = t; \
    } \
    return a; \
  } \
  static E *radix_##sfx(E *a, E *b, size_t n) { \
    uint32_t cnt[8][256]; \
    size_t i; \
    int d; \
    memset(cnt, 0, sizeof cnt); \
    for (i = 0; i < n; i++) { \
      uint64_t k = KEY(a[i]); \
      for (d = lo; d < 8; d++) cnt[d][(k >> (8 * d)) & 255]++; \
    } \
    for (d = lo; d < 8; d++) { \
      uint32_t *c = cnt[d], sum = 0, t; \
      E *t2; \
      int v; \
      if (c[(KEY(a[0]) >> (8 * d)) & 255] == n) continue;   /* one digit: nothing moves */ \
      for (v = 0; v < 256; v++) { t = c[v]; c[v] = sum; sum += t; } \
      for (i = 0; i < n; i++) { \
        E e = a[i]; \
        b[c[(KEY(e) >> (8 * d)) & 255]++] = e; \
      } \
      t2 = a; a = b; b = t2; \
    } \
    return a; \
  } \
  static E *sort_##sfx(E *a, E *b, size_t n) { \
    if (n <= RUN) { insertion_##sfx(a, n); return a; } \
    if (n < RADIX_MIN) return mergesort_##sfx(a, b, n); \
    return radix_##sfx(a, b, n); \
  }

SORTS(i, Item, KEY_I, 0)
SORTS(p, uint64_t, KEY_P, 4)

#define MAKE_I(a, i, key) ((a)[i].k = (key), (a)[i].i = (uint32_t)(i))
#define POS_I(e) ((e).i)
#define MAKE_P(a, i, key) ((a)[i] = (uint64_t)(key) << 32 | (uint32_t)(i))
#define POS_P(e) ((uint32_t)(e))

/* The key of a value with bits u (sign bit s): the bits with the sign
** folded in, so keys order as values; NaN and desc are handled by the
** caller. Then the sort of one line for element type T (bits U) through
** elements E. */
#define ORDERKEY(u, s) ((u) & (s) ? ~(u) : (u) | (s))
#define SORTLINE(name, T, U, E, sfx, MAKE, POS) \
  void name(int n, const T *x, ptrdiff_t incx, int desc, T *s, ptrdiff_t incs, \
            double *ix, ptrdiff_t inci, lak_SortItem *work) { \
    const U S = (U)1 << (8 * sizeof(U) - 1), flip = desc ? (U)~(U)0 : 0; \
    E *a = (E *)(void *)work, *r; \
    int i; \
    if (n <= 0) return; \
    for (i = 0; i < n; i++) { \
      T v = x[(ptrdiff_t)i * incx] + (T)0;        /* -0.0 + 0.0 is 0.0 */ \
      U u; \
      memcpy(&u, &v, sizeof u); \
      MAKE(a, i, v != v ? (U)~flip : (U)(ORDERKEY(u, S) ^ flip)); \
    } \
    r = sort_##sfx(a, a + n, (size_t)n); \
    if (s) for (i = 0; i < n; i++) s[(ptrdiff_t)i * incs] = x[(ptrdiff_t)POS(r[i]) * incx]; \
    if (ix) for (i = 0; i < n; i++) ix[(ptrdiff_t)i * inci] = (double)POS(r[i]) + 1; \
  }

SORTLINE(lak_sort, double, uint64_t, Item, i, MAKE_I, POS_I)
SORTLINE(lak_ssort, float, uint32_t, uint64_t, p, MAKE_P, POS_P)
