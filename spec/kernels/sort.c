/*
** spec/kernels/sort.c: lak_sort / lak_ssort against a plain stable
** insertion sort with the same order (NaN last, first when descending;
** -0.0 equal to 0.0; ties in input order): lengths 0..600 (network, insertion, merge
** and radix paths), to 9000 (11-bit digits) and 600000 (8-bit again, but
** for float keys alone; its order checked directly), at the CPU's level and
** capped below AVX-512 (no networks), strided input and outputs, either output
** alone, lines whose keys share all but their lowest bytes (the radix
** passes skipped; with positions, the keys' high bits tie, which the
** packed sort orders again or hands back), denormals and the largest doubles.
*/
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernels.h"

static unsigned long long st = 88172645463325252ULL;
static unsigned rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return (unsigned)(st >> 11); }

static const double POOL[] = {-2, -1, -0.0, 0.0, 0.5, 1, 3, HUGE_VAL, -HUGE_VAL,
                              4.9406564584124654e-324, -4.9406564584124654e-324,
                              1.7976931348623157e308, -1.7976931348623157e308};

static double value(int kind) {
  unsigned r = rnd() % 1000;
  if (kind == 1) return 1.0 + (double)(rnd() % 64) * 2.220446049250313e-16;  /* low bytes only */
  if (kind == 2) return 1.0 + (double)(rnd() % 64) * 1.1920928955078125e-7;  /* a float's */
  if (r < 30) return NAN;
  if (r < 400) return POOL[r % (sizeof POOL / sizeof POOL[0])];
  return ((double)r - 700) / 8;
}

/* a before b in the order (strictly) */
static int before(double a, double b, int desc) {
  int na = a != a, nb = b != b;
  if (na != nb) return desc ? na : nb;
  if (na) return 0;
  return desc ? a > b : a < b;
}

static int same(double a, double b) {
  if (a != a || b != b) return a != a && b != b;
  return a == b && signbit(a) == signbit(b);
}

static void reference(int n, const double *x, int desc, int *p) {
  int i, j;
  for (i = 0; i < n; i++) {
    int t = i;
    for (j = i; j > 0 && before(x[t], x[p[j - 1]], desc); j--) p[j] = p[j - 1];
    p[j] = t;
  }
}

#define NMAX 9000
static double x[3 * NMAX], s[2 * NMAX], ix[3 * NMAX];
static float xf[3 * NMAX], sf[2 * NMAX];
static int p[NMAX];

static void one(int n, int kind, int desc) {
  int i, bad = 0, badf = 0;
  /* the scratch exactly as large as asked: valgrind and ASan see a read past it */
  lak_SortItem *work = malloc(LAK_SORT_WORK(n) * sizeof *work);
  for (i = 0; i < 3 * n; i++) x[i] = i % 3 ? 99 : value(kind);
  for (i = 0; i < n; i++) xf[2 * i] = (float)x[3 * i];
  /* double: input at stride 3, values at stride 2, positions at stride 3 */
  for (i = 0; i < n; i++) x[i] = x[3 * i];      /* packed copy for the reference */
  reference(n, x, desc, p);
  for (i = n - 1; i >= 0; i--) x[3 * i] = x[i];
  lak_sort(n, x, 3, desc, s, 2, ix, 3, work);
  for (i = 0; i < n; i++)
    if (!same(s[2 * i], x[3 * p[i]]) || ix[3 * i] != p[i] + 1) bad++;
  CHECK(bad == 0, "double n=%d kind=%d desc=%d: %d wrong", n, kind, desc, bad);
  memset(ix, 0, sizeof ix);
  lak_sort(n, x, 3, desc, NULL, 0, ix, 1, work);            /* positions alone */
  for (i = 0, bad = 0; i < n; i++) bad += ix[i] != p[i] + 1;
  CHECK(bad == 0, "argsort n=%d: %d wrong", n, bad);
  lak_sort(n, x, 3, desc, s, 1, NULL, 0, work);             /* values alone */
  for (i = 0, bad = 0; i < n; i++) bad += !same(s[i], x[3 * p[i]]);
  CHECK(bad == 0, "sort n=%d: %d wrong", n, bad);
  /* float: the float values (a different order where doubles round alike) */
  for (i = 0; i < n; i++) x[i] = xf[2 * i];
  reference(n, x, desc, p);
  lak_ssort(n, xf, 2, desc, sf, 1, ix, 1, work);
  for (i = 0; i < n; i++)
    if (!same(sf[i], xf[2 * p[i]]) || ix[i] != p[i] + 1) badf++;
  CHECK(badf == 0, "float n=%d kind=%d desc=%d: %d wrong", n, kind, desc, badf);
  lak_ssort(n, xf, 2, desc, sf, 1, NULL, 0, work);           /* float values alone */
  for (i = 0, badf = 0; i < n; i++) badf += !same(sf[i], xf[2 * p[i]]);
  CHECK(badf == 0, "float values n=%d kind=%d desc=%d: %d wrong", n, kind, desc, badf);
  free(work);
}

/* Past the 11-bit radix sort's lengths (500000, then 8-bit digits): too
** long for the reference, so the order is checked directly: each entry
** not before the one ahead of it, ties in increasing position, the
** positions a permutation, each value the input's at its position. */
#define NBIG 600000
static int bigok(int n, const double *xv, const double *sv, const double *iv, int desc) {
  static char seen[NBIG];
  int i, bad = 0;
  memset(seen, 0, (size_t)n);
  for (i = 0; i < n; i++) {
    int q = (int)iv[i] - 1;
    if (q < 0 || q >= n || seen[q]) return 0;
    seen[q] = 1;
    bad += !same(sv[i], xv[q]);
    if (i > 0) {
      int q0 = (int)iv[i - 1] - 1;
      bad += before(sv[i], sv[i - 1], desc) || (!before(sv[i - 1], sv[i], desc) && q0 > q);
    }
  }
  return bad == 0;
}

static void big(int desc) {
  const int n = NBIG;
  double *xv = malloc(n * sizeof *xv), *sv = malloc(n * sizeof *sv), *iv = malloc(n * sizeof *iv);
  double *vv = malloc(n * sizeof *vv);
  float *xg = malloc(n * sizeof *xg), *sg = malloc(n * sizeof *sg), *vg = malloc(n * sizeof *vg);
  lak_SortItem *work = malloc(LAK_SORT_WORK(n) * sizeof *work);
  int i, bad = 0;
  for (i = 0; i < n; i++) { xv[i] = value(0) + (double)(rnd() % 1000) / 1024; xg[i] = (float)xv[i]; }
  lak_sort(n, xv, 1, desc, sv, 1, iv, 1, work);
  CHECK(bigok(n, xv, sv, iv, desc), "double n=%d desc=%d: not the stable order", n, desc);
  lak_sort(n, xv, 1, desc, vv, 1, NULL, 0, work);
  for (i = 0; i < n; i++) bad += !same(vv[i], sv[i]);
  CHECK(bad == 0, "double values n=%d desc=%d: %d differ from the sort with positions", n, desc, bad);
  lak_ssort(n, xg, 1, desc, sg, 1, iv, 1, work);
  for (i = 0; i < n; i++) { xv[i] = xg[i]; sv[i] = sg[i]; }
  CHECK(bigok(n, xv, sv, iv, desc), "float n=%d desc=%d: not the stable order", n, desc);
  lak_ssort(n, xg, 1, desc, vg, 1, NULL, 0, work);
  for (i = 0, bad = 0; i < n; i++) bad += !same(vg[i], sg[i]);
  CHECK(bad == 0, "float values n=%d desc=%d: %d differ from the sort with positions", n, desc, bad);
  free(xv); free(sv); free(iv); free(vv); free(xg); free(sg); free(vg); free(work);
}

int main(void) {
  static const int caps[] = {2, 0};
  int n, kind, desc, c, top = lak_isa_cap(2);
  /* at the CPU's level, then (on AVX-512) capped below it, where sortnet.c's
  ** networks decline and the radix sorts run from 256 entries, in their
  ** tightest work layouts */
  for (c = 0; c < (top == 2 ? 2 : 1); c++) {
    if (top == 2) lak_isa_cap(caps[c]);
    for (n = 0; n <= 600; n += n < 270 ? 1 : 17)   /* every length of the networks */
      for (kind = 0; kind < 3; kind++)
        for (desc = 0; desc < 2; desc++) one(n, kind, desc);
    {                                   /* the merged networks' runs: whole, partial, odd */
      static const int more[] = {511, 512, 513, 1000, 1023, 1024, 1025, 1999, 2000, 2047, 3000,
                                3001, 4095, 4096, 6000, 6001, 9000};
      /* to 1025 (a float's packed words: 9 and 10 position bits, and the
      ** first length past them) every kind; then one kind a length */
      for (n = 0; n < (int)(sizeof more / sizeof more[0]); n++)
        for (desc = 0; desc < 2; desc++)
          for (kind = 0; kind < 3; kind++)
            if (more[n] <= 1025 || kind == (n + desc) % 3) one(more[n], kind, desc);
    }
    one(NMAX, 0, 0);
    one(NMAX, 0, 1);
    one(NMAX, 1, 0);
    big(0);
    big(1);
  }
  lak_isa_cap(2);
  return ck_done("sort");
}
