/*
** spec/kernels/sort.c: lak_sort / lak_ssort against a plain stable
** insertion sort with the same order (NaN last, first when descending;
** -0.0 equal to 0.0; ties in input order): lengths 0..600 (network, insertion, merge
** and radix paths) and 5000, strided input and outputs, either output
** alone, lines whose keys share all but their lowest bytes (the radix
** passes skipped), denormals and the largest doubles.
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

#define NMAX 6000
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
  free(work);
}

int main(void) {
  int n, kind, desc;
  for (n = 0; n <= 600; n += n < 270 ? 1 : 17)   /* every length of the networks */
    for (kind = 0; kind < 2; kind++)
      for (desc = 0; desc < 2; desc++) one(n, kind, desc);
  {                                   /* the merged networks' runs: whole, partial, odd */
    static const int more[] = {1000, 1024, 1025, 2047, 3000, 3001, 4096, 6000};
    for (n = 0; n < (int)(sizeof more / sizeof more[0]); n++)
      for (desc = 0; desc < 2; desc++) one(more[n], n & 1, desc);
  }
  one(NMAX, 0, 0);
  one(NMAX, 0, 1);
  one(NMAX, 1, 0);
  return ck_done("sort");
}
