/*
** kernels/select.c: order statistics of a line of doubles without
** sorting it (median, quantile): introselect. Quickselect with a pivot
** that is the median of three, and a partition without branches (a
** sorting partition mispredicts every other entry of random data: 1e6
** entries took about 3 times as long); past 2 log2(n) rounds, which only
** adversarial orders reach, heapsort finishes the range, so the worst case
** stays n log n. Entries equal to a pivot that left little below it are
** gathered next to it, so runs of equal entries cost no round each.
*/
#include "kernels.h"

static void swap(double *a, double *b) { double t = *a; *a = *b; *b = t; }

/* the heap of x[0..n) (max at 0): entry i sinks */
static void sift(double *x, size_t n, size_t i) {
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) return;
    if (c + 1 < n && x[c + 1] > x[c]) c++;
    if (!(x[c] > x[i])) return;
    swap(x + i, x + c);
    i = c;
  }
}

static void heapsort(double *x, size_t n) {
  size_t i;
  for (i = n / 2; i-- > 0;) sift(x, n, i);
  for (i = n; i-- > 1;) {
    swap(x, x + i);
    sift(x, i, 0);
  }
}

/* x[0..n) (n >= 3) parted around the median of x[0], x[n/2], x[n-1]:
** returns p with x[i] < x[p] for i < p and x[i] >= x[p] for i > p. The
** pivot is kept at x[n-1] while the entries below it are moved to the
** front one by one, each store unconditional. */
static size_t part(double *x, size_t n) {
  size_t i, j = 0, mid = n / 2;
  double v;
  if (x[mid] < x[0]) swap(x + mid, x);
  if (x[n - 1] < x[0]) swap(x + n - 1, x);
  if (x[mid] < x[n - 1]) swap(x + mid, x + n - 1);   /* x[n - 1]: the median of the three */
  v = x[n - 1];
  for (i = 0; i < n - 1; i++) {
    double t = x[i];
    int lt = t < v;
    x[i] = x[j];
    x[j] = t;
    j += (size_t)lt;
  }
  swap(x + j, x + n - 1);
  return j;
}

/* x[0..n) parted by value: the entries below v (le: not above v) first;
** returns their count */
static size_t partv(double *x, size_t n, double v, int le) {
  size_t i, j = 0;
  for (i = 0; i < n; i++) {
    double t = x[i];
    int in = le ? t <= v : t < v;
    x[i] = x[j];
    x[j] = t;
    j += (size_t)in;
  }
  return j;
}

/* Long ranges: a sample of SAMPLE entries (evenly spaced) gives a value
** just below the k-th (SPREAD sample ranks, about 2.5 standard deviations
** of the sample's rank) and, in what is left, one just above: two passes
** leave about a twelfth of the range around k, where a median of 3 took
** about 2.75 passes with a large spread (1e4 entries: 24 to 62 us by the
** data, 1e6: 2.5 to 5.1 ms) */
#define SAMPLE 256
#define SPREAD 20
#define SAMPLED 4096

/* the sample's entry of rank (k / n) SAMPLE + off (clamped) */
static double near(const double *x, size_t n, size_t k, int off) {
  double s[SAMPLE];
  size_t i, step = n / SAMPLE;
  long r = (long)((double)k / (double)n * SAMPLE) + off;
  for (i = 0; i < SAMPLE; i++) s[i] = x[i * step + step / 2];
  r = r < 0 ? 0 : r > SAMPLE - 1 ? SAMPLE - 1 : r;
  lak_select(s, SAMPLE, (size_t)r);
  return s[r];
}

/* One round on [*lo, *hi) (holding k): below a sampled value just under
** the k-th, then above one just over it in what is left; returns 1 when
** the range left is all one value (so x[k] is it) */
static int bracket(double *x, size_t *lo, size_t *hi, size_t k) {
  size_t n = *hi - *lo, j;
  double v1 = near(x + *lo, n, k - *lo, -SPREAD), v2;
  j = *lo + partv(x + *lo, n, v1, 0);
  if (k < j) { *hi = j; return 0; }          /* the sample misled: below it */
  *lo = j;
  if (*hi - *lo < SAMPLED) return 0;
  v2 = near(x + *lo, *hi - *lo, k - *lo, SPREAD);
  j = *lo + partv(x + *lo, *hi - *lo, v2, 1);
  if (k >= j) { *lo = j; return 0; }         /* above it */
  *hi = j;
  return v1 == v2;                           /* [lo, hi): all equal to v1 */
}

void lak_select(double *x, size_t n, size_t k) {
  size_t lo = 0, hi = n, depth = 0, m;
  for (m = n; m > 1; m >>= 1) depth += 2;
  while (hi - lo >= SAMPLED && depth > 0) {  /* bracket k by two sampled values */
    size_t size = hi - lo;
    if (bracket(x, &lo, &hi, k)) return;
    depth--;
    /* a round that leaves most of the range (few distinct values: 0/1
    ** data parted by 0 and 1 moves nothing) hands over to quickselect,
    ** whose runs of equal entries take one round */
    if (hi - lo > size - size / 8) break;
  }
  while (hi - lo > 16) {                    /* quickselect, a median of 3 */
    size_t p;
    if (depth-- == 0) { heapsort(x + lo, hi - lo); return; }
    p = lo + part(x + lo, hi - lo);
    if (k < p) { hi = p; continue; }
    if (4 * (p - lo) < hi - lo) {
      /* little below the pivot: likely many equal to it (a column of
      ** zeros and a few others), which would leave a round for each. They
      ** come next, as one block, which is done with when it holds k. */
      size_t i, q = p + 1;
      double v = x[p];
      for (i = p + 1; i < hi; i++) {
        double t = x[i];
        int eq = !(v < t);
        x[i] = x[q];
        x[q] = t;
        q += (size_t)eq;
      }
      p = q - 1;
    }
    if (k <= p) return;
    lo = p + 1;
  }
  for (m = lo + 1; m < hi; m++) {                      /* a few left: insertion */
    double t = x[m];
    size_t i = m;
    for (; i > lo && x[i - 1] > t; i--) x[i] = x[i - 1];
    x[i] = t;
  }
}

double lak_minof(const double *x, size_t n) {
  double m = x[0];
  size_t i;
  for (i = 1; i < n; i++) m = x[i] < m ? x[i] : m;
  return m;
}
