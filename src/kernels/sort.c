/*
** kernels/sort.c: stable sorts of a line of doubles or floats (sort,
** argsort). Each entry becomes an unsigned integer key that orders as the
** values do (IEEE bits, the sign folded in; -0.0 keyed as 0.0, so the two
** are equal as NumPy compares them; every NaN the largest key, so NaN goes
** last; descending: the keys complemented, NaN first), carried with its
** position. Short lines are sorted by insertion and merging, long ones by an
** LSD radix sort, 8 bits a pass, passes on which every key has the same
** digit skipped; both keep equal keys in input order, so the result is
** NumPy's kind="stable" (and Octave's sort). The values written back are
** the entries themselves (the sign of a zero and a NaN's payload kept).
*/
#include <string.h>

#include "kernels.h"

typedef lak_SortItem Item;

#define RUN 16          /* insertion-sorted runs of the merge sort */
#define RADIX_MIN 256   /* from this length on, the radix sort */

static void insertion(Item *a, size_t n) {
  size_t i, j;
  for (i = 1; i < n; i++) {
    Item t = a[i];
    for (j = i; j > 0 && a[j - 1].k > t.k; j--) a[j] = a[j - 1];
    a[j] = t;
  }
}

/* a[0..n) sorted, in a or in b (the result's address is returned) */
static Item *mergesort(Item *a, Item *b, size_t n) {
  size_t w, lo;
  for (lo = 0; lo < n; lo += RUN) insertion(a + lo, n - lo < RUN ? n - lo : RUN);
  for (w = RUN; w < n; w *= 2) {
    for (lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {           /* no branch on the data */
        int right = a[j].k < a[i].k;
        b[k++] = a[right ? j : i];
        j += right; i += !right;
      }
      while (i < mid) b[k++] = a[i++];
      while (j < hi) b[k++] = a[j++];
    }
    { Item *t = a; a = b; b = t; }
  }
  return a;
}

/* LSD radix sort of a[0..n) by the low `bytes` bytes of the keys */
static Item *radix(Item *a, Item *b, size_t n, int bytes) {
  static const int B = 256;
  uint32_t cnt[8][256];
  size_t i;
  int d;
  memset(cnt, 0, sizeof cnt);
  for (i = 0; i < n; i++) {
    uint64_t k = a[i].k;
    for (d = 0; d < bytes; d++) cnt[d][(k >> (8 * d)) & 255]++;
  }
  for (d = 0; d < bytes; d++) {
    uint32_t *c = cnt[d], sum = 0, t;
    int v;
    if (c[(a[0].k >> (8 * d)) & 255] == n) continue;      /* one digit: nothing moves */
    for (v = 0; v < B; v++) { t = c[v]; c[v] = sum; sum += t; }
    for (i = 0; i < n; i++) {
      Item it = a[i];
      b[c[(it.k >> (8 * d)) & 255]++] = it;
    }
    { Item *t2 = a; a = b; b = t2; }
  }
  return a;
}

static Item *sortitems(Item *a, Item *b, size_t n, int bytes) {
  if (n <= RUN) { insertion(a, n); return a; }
  if (n < RADIX_MIN) return mergesort(a, b, n);
  return radix(a, b, n, bytes);
}

/* The key of a value with bits u (sign bit s): the bits with the sign
** folded in, so keys order as values; NaN and desc are handled by the
** caller. Then the sort of one line for element type T (bits U). */
#define ORDERKEY(u, s) ((u) & (s) ? ~(u) : (u) | (s))
#define SORTLINE(name, T, U) \
  void name(int n, const T *x, ptrdiff_t incx, int desc, T *s, ptrdiff_t incs, \
            double *ix, ptrdiff_t inci, lak_SortItem *work) { \
    const U S = (U)1 << (8 * sizeof(U) - 1), flip = desc ? (U)~(U)0 : 0; \
    Item *a = work, *r; \
    int i; \
    if (n <= 0) return; \
    for (i = 0; i < n; i++) { \
      T v = x[(ptrdiff_t)i * incx] + (T)0;        /* -0.0 + 0.0 is 0.0 */ \
      U u; \
      memcpy(&u, &v, sizeof u); \
      a[i].k = v != v ? (U)~flip : (U)(ORDERKEY(u, S) ^ flip); \
      a[i].i = (uint32_t)i; \
    } \
    r = sortitems(a, work + n, (size_t)n, (int)sizeof(U)); \
    if (s) for (i = 0; i < n; i++) s[(ptrdiff_t)i * incs] = x[(ptrdiff_t)r[i].i * incx]; \
    if (ix) for (i = 0; i < n; i++) ix[(ptrdiff_t)i * inci] = (double)r[i].i + 1; \
  }

SORTLINE(lak_sort, double, uint64_t)
SORTLINE(lak_ssort, float, uint32_t)
